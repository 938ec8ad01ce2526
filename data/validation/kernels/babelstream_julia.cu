// BabelStream 5.0's Julia CUDA.jl kernels (UoB-HPC/BabelStream@5f776507b3a6aa2c4b86380f7216e54ea855d6ab,
// src/julia/JuliaStream.jl/src/CUDAStream.jl, the commit on main when issue #194's run was posted,
// 2024-04-28; the file is unchanged to the newest commit), written in CUDA C for teg: the program's
// kernels are Julia functions that CUDA.jl compiles to PTX through LLVM, which teg cannot run, so the
// bodies below are the same statements with Julia's 1-based index made 0-based. As in the Julia
// source, the scalar is a kernel argument (DefaultScalar 0.4, Stream.jl), every access is
// @inbounds (no bounds check), and the index is (blockIdx().x - 1) * blockDim().x + threadIdx().x
// in CUDA.jl's 32-bit intrinsics. The program launches each with arraysize / TBSize blocks of
// TBSize = 1024 threads, then CUDA.synchronize(), and times each call with @elapsed (Stream.jl
// run_all!), 100 times in the order copy, mul, add, triad, dot; it reports bytes / the fastest call
// (copy, mul 2 x 8 x arraysize; add, triad 3 x 8 x arraysize). Suite: babelstream-julia-gh200.
__global__ void jl_copy_kernel(const double* a, double* c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i];
}

__global__ void jl_mul_kernel(double* b, const double* c, double scalar) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = scalar * c[i];
}

__global__ void jl_add_kernel(const double* a, const double* b, double* c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

__global__ void jl_triad_kernel(double* a, const double* b, const double* c, double scalar) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = b[i] + (scalar * c[i]);
}
