// Dependent chains of one PTX instruction that ptxas expands into a software sequence, the method
// of the NMSU dependent_latency rows of data/validation/instruction_latency.csv (Arafa et al.
// 2019): one thread applies the instruction 256 times, each to the previous result, between two
// clock reads; cycles / 256 is its dependent latency. The instruction is written as inline PTX so
// that the chain holds exactly that instruction (ptxas then expands each one).
#define CHAIN 256

#define UNARY_CHAIN(NAME, T, C, PTX)                                                   \
  __global__ void NAME(T* out, long long* cycles, T b) {                              \
    T a = b + static_cast<T>(threadIdx.x);                                            \
    const long long start = clock64();                                                \
    _Pragma("unroll") for (int i = 0; i < CHAIN; ++i) asm volatile(PTX " %0, %0;" : "+" C(a)); \
    const long long end = clock64();                                                  \
    out[threadIdx.x] = a;                                                             \
    cycles[threadIdx.x] = end - start;                                                \
  }

#define BINARY_CHAIN(NAME, T, C, PTX)                                                  \
  __global__ void NAME(T* out, long long* cycles, T b) {                              \
    T a = b + static_cast<T>(threadIdx.x + 1000);                                     \
    const long long start = clock64();                                                \
    _Pragma("unroll") for (int i = 0; i < CHAIN; ++i) asm volatile(PTX " %0, %0, %1;" : "+" C(a) : C(b)); \
    const long long end = clock64();                                                  \
    out[threadIdx.x] = a;                                                             \
    cycles[threadIdx.x] = end - start;                                                \
  }

BINARY_CHAIN(divRnF32, float, "f", "div.rn.f32")
BINARY_CHAIN(divRnF64, double, "d", "div.rn.f64")
BINARY_CHAIN(divS32, int, "r", "div.s32")
BINARY_CHAIN(divU32, unsigned, "r", "div.u32")
BINARY_CHAIN(remS32, int, "r", "rem.s32")
BINARY_CHAIN(remU32, unsigned, "r", "rem.u32")
UNARY_CHAIN(ex2ApproxF32, float, "f", "ex2.approx.f32")
UNARY_CHAIN(rcpApproxF32, float, "f", "rcp.approx.f32")
UNARY_CHAIN(rcpRnF32, float, "f", "rcp.rn.f32")
UNARY_CHAIN(rcpRnF64, double, "d", "rcp.rn.f64")
UNARY_CHAIN(rsqrtApproxF32, float, "f", "rsqrt.approx.f32")
UNARY_CHAIN(sinApproxF32, float, "f", "sin.approx.f32")
UNARY_CHAIN(sqrtApproxF32, float, "f", "sqrt.approx.f32")
UNARY_CHAIN(sqrtRnF32, float, "f", "sqrt.rn.f32")
UNARY_CHAIN(sqrtRnF64, double, "d", "sqrt.rn.f64")
