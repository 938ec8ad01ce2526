// Test input for the ptxas log parser: a __noinline__ device function with a local array (a stack
// frame) and an external device function, compiled separately (-rdc=true) so that ptxas reports
// device functions on their own.
extern __device__ float ext(float);
__device__ __noinline__ float helper(float x, const float* p) { float loc[32]; for (int i=0;i<32;++i) loc[i]=x*i+p[i]; float s=0; for(int i=0;i<32;++i) s+=loc[(int(x)+i*7)&31]*loc[i]; return s; }
__global__ void k2(const float* a, float* b, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) b[i] = helper(a[i], a) + ext(a[i]); }
