// siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 kernels 1-12 (kernels/, MIT licence in
// LICENSE), instantiated with the template arguments src/runner.cu launches them with on an RTX
// A6000 (its "Settings for A6000" blocks). The only change to the kernel files: their
// `#include <cublas_v2.h>` lines are removed (no kernel uses cuBLAS; a minimal CUDA toolkit has no
// cuBLAS headers).
#include "kernels/1_naive.cuh"
#include "kernels/2_kernel_global_mem_coalesce.cuh"
#include "kernels/3_kernel_shared_mem_blocking.cuh"
#include "kernels/4_kernel_1D_blocktiling.cuh"
#include "kernels/5_kernel_2D_blocktiling.cuh"
#include "kernels/6_kernel_vectorize.cuh"
#include "kernels/7_kernel_resolve_bank_conflicts.cuh"
#include "kernels/8_kernel_bank_extra_col.cuh"
#include "kernels/9_kernel_autotuned.cuh"
#include "kernels/10_kernel_warptiling.cuh"
#include "kernels/11_kernel_double_buffering.cuh"
#include "kernels/12_kernel_double_buffering.cuh"

template __global__ void sgemm_global_mem_coalesce<32>(int, int, int, float, const float*, const float*, float, float*);
template __global__ void sgemm_shared_mem_block<32>(int, int, int, float, const float*, const float*, float, float*);
template __global__ void sgemm1DBlocktiling<64, 64, 8, 8>(int, int, int, float, const float*, const float*, float, float*);
template __global__ void sgemm2DBlocktiling<128, 128, 8, 8, 8>(int, int, int, float, const float*, const float*, float, float*);
template __global__ void sgemmVectorize<128, 128, 8, 8, 8>(int, int, int, float, float*, float*, float, float*);
template __global__ void sgemmResolveBankConflicts<128, 128, 8, 8, 8>(int, int, int, float, float*, float*, float, float*);
template __global__ void sgemmResolveBankExtraCol<128, 128, 8, 8, 8>(int, int, int, float, float*, float*, float, float*);
template __global__ void sgemmAutotuned<128, 128, 16, 8, 8>(int, int, int, float, float*, float*, float, float*);
template __global__ void sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>(int, int, int, float, float*, float*, float, float*);
template __global__ void sgemmDoubleBuffering<128, 256, 16, 128, 32, 1, 8, 8, 256>(int, int, int, float, float*, float*, float, float*);
template __global__ void runSgemmDoubleBuffering2<128, 128, 16, 64, 64, 4, 8, 4, 128>(int, int, int, float, float*, float*, float, float*);
