// spmvCsr: y = A·x for a sparse rows x cols matrix in CSR form, the scalar kernel (one thread per
// row, Bell & Garland 2008): row r's nonzeros are values[rowPtr[r] .. rowPtr[r+1]) in columns
// colIdx[...]. y[r] = sum over those j of values[j] * x[colIdx[j]] (j ascending).
//
// Usual launch: 8000 x 8000 with 16 nonzeros per row (rowPtr[r] = 16 r, read from
// spmv_csr.row_ptr.bin: 8001 little-endian int32; random columns, possibly repeated), block 256,
// grid 32 (bounds check for the last block).
// Sidecar: spmv_csr.launch.json.
__global__ void spmvCsr(int rows, const int* rowPtr, const int* colIdx, const float* values,
                        const float* x, float* y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float sum = 0.0f;
  for (int j = rowPtr[r]; j < rowPtr[r + 1]; ++j) sum += values[j] * x[colIdx[j]];
  y[r] = sum;
}
