// Random small CUDA kernels for the differential test of the two emulators (issue 26 point 4):
// each kernel is a seeded random program over unsigned, float, double and half2 variables with
// integer and float arithmetic (every rounding intrinsic, conversions with saturation), branches,
// loops, switches, local arrays, a non-inlined helper, shared memory with barriers, shuffles and
// votes. The same seed always gives the same text and the same inputs (splitmix64, no
// implementation-defined std distributions).
//
// Every kernel is well defined for every input, so any two correct emulators agree on it:
// integer arithmetic is unsigned (no signed overflow), divisors are forced odd or positive,
// shift counts masked, float->int conversions use the saturating intrinsics, barriers and
// full-mask shuffles only occur where the whole block (warp) is converged, shared atomics only
// add/or/xor (their order does not change the result) and never read the old value.
//
// The kernels have one signature (extern "C", so the PTX and SASS names are the kernel's name):
//   k_<seed>(const unsigned* ui, const float* fi, const double* di,   // kInputsPerThread each
//            unsigned* uo, float* fo, double* dd,                      // kOutputsPerThread each
//            float* ai, float* ao)                                     // kApproxPerThread each
// `ao` holds the results of the approximate instructions (sin.approx, ex2.approx, __expf ...),
// written straight from one instruction and never read again: those are compared within the
// bound the PTX ISA / CUDA math documentation give (approxBound); `ai` holds their arguments (the
// divisor for div.approx) and, like every other buffer, is compared bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace teg::differential {

inline constexpr int kInputsPerThread = 4;
inline constexpr int kOutputsPerThread = 4;
inline constexpr int kDoublesPerThread = 2;
inline constexpr int kApproxPerThread = 4;

// The approximate functions a kernel may write to `ao`, with their documented accuracy.
enum class Approx { None, Sin, Cos, Exp2, Log2, Exp, Rsqrt, Rcp, Divide, Tanh };

struct GeneratorOptions {
  // Top-level statements per kernel (each may nest blocks). nvcc's cost grows with the kernel
  // (~0.02 s of cicc + ptxas per statement on one core), so kernels are kept small and many.
  int minStatements = 3;
  int maxStatements = 14;
  bool integerOps = true;   // integer arithmetic in expressions (off: only conversions and leaves)
  bool control = true;      // if/for/while/switch, local arrays, helper calls
  bool blockOps = true;     // shared memory, barriers, atomics, shuffles, votes
  bool doubles = true;
  bool halves = true;
  bool approx = true;
};

struct GeneratedKernel {
  std::uint64_t seed = 0;
  std::string name;                 // "k_<seed>"
  std::string source;               // helper function (if any) and the __global__ function
  std::uint32_t gridX = 1;
  std::uint32_t blockX = 32;
  std::vector<Approx> approxSlots;  // per `ao` slot what wrote it (None: left zero)
};

GeneratedKernel generateKernel(std::uint64_t seed, const GeneratorOptions& options = {});

// One .cu file holding `kernels` (the headers they need first).
std::string translationUnit(const std::vector<GeneratedKernel>& kernels);

// The input buffers of one kernel (seeded by its seed): a mix of ordinary values, edge cases
// (0, -0, +-inf, NaN with payloads, subnormals, FLT_MAX, INT_MIN ...) and random bit patterns.
struct KernelInputs {
  std::vector<std::uint32_t> ui;
  std::vector<float> fi;
  std::vector<double> di;
};
KernelInputs generateInputs(const GeneratedKernel& kernel);

// Threads of the launch (grid x block).
inline std::size_t threadCount(const GeneratedKernel& k) { return std::size_t{k.gridX} * k.blockX; }

// The documented maximum error of `kind` in ulps of the float result (CUDA C++ Programming
// Guide, "Intrinsic Functions" table, and the PTX ISA's .approx instructions), and a name.
struct ApproxBound {
  const char* name;
  double ulps;          // bound in units of the result's ulp
  double absolute;      // or an absolute bound (sin/cos over [-pi, pi]), whichever is larger
};
// `argument` is what ai holds for the slot (the bound of __expf and of sin/cos outside [-pi, pi]
// grows with it; div.approx has none for a divisor outside [2^-126, 2^126]: nullopt).
std::optional<ApproxBound> approxBound(Approx kind, float argument);

}  // namespace teg::differential
