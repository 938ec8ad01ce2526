#define TILE 16
__global__ void matmul(const float* A, const float* B, float* C, int N) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE+1];
  int r = blockIdx.y*TILE+threadIdx.y, c = blockIdx.x*TILE+threadIdx.x; float acc=0;
  for (int t=0;t<N/TILE;++t){ As[threadIdx.y][threadIdx.x]=A[r*N+t*TILE+threadIdx.x]; Bs[threadIdx.y][threadIdx.x]=B[(t*TILE+threadIdx.y)*N+c]; __syncthreads();
  #pragma unroll
  for(int k=0;k<TILE;++k) acc+=As[threadIdx.y][k]*Bs[k][threadIdx.x]; __syncthreads(); }
  C[r*N+c]=acc;
}
extern __shared__ float dyn[];
__global__ void scan(float* d, int n) {
  dyn[threadIdx.x] = d[threadIdx.x];
  for (int o=1;o<blockDim.x;o<<=1){ __syncthreads(); float t = threadIdx.x>=o? dyn[threadIdx.x-o]:0; __syncthreads(); dyn[threadIdx.x]+=t; }
  d[threadIdx.x]=dyn[threadIdx.x];
}
__global__ void bigunroll(const float* __restrict__ a, float* b) {
  float x = a[threadIdx.x], y = a[threadIdx.x+1];
  #pragma unroll
  for (int i = 0; i < 2000; ++i) { x = fmaf(x, y, 1.0f + i) ; y = y * x - 0.5f * i; if (i % 97 == 0) b[i] = x; }
  b[threadIdx.x] = x + y;
}
