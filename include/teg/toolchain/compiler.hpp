// The CUDA compiler driver: runs nvcc on a .cu file to get its PTX and, through `-Xptxas -v`,
// each kernel's real resources (what TEG took from the assembler, Lai §3.3). teg never
// re-implements the compiler; it finds nvcc (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin) and reads
// what it prints.
#pragma once

#include <string>
#include <vector>

namespace teg::toolchain {

// What ptxas reports for one kernel (or device function) on one architecture.
struct KernelResources {
  std::string name;            // demangled when possible, e.g. "vecAdd(float const*, ...)"
  std::string mangledName;     // as in the PTX, e.g. "_Z6vecAddPKfS0_Pfi"
  std::string arch;            // "sm_80"
  bool isEntry = true;         // a __global__ kernel (false: a non-inlined device function)
  int registers = 0;
  int staticSharedBytes = 0;
  int constantBytes = 0;       // user constant bank (cmem[3] and the like), not parameters
  int parameterBytes = 0;      // cmem[0] as ptxas reports it
  int localBytes = 0;          // lmem
  int stackFrameBytes = 0;
  int spillStoreBytes = 0;
  int spillLoadBytes = 0;
  int barriers = 0;            // named barriers used (0 when ptxas does not say)
};

struct CompileOptions {
  std::string arch = "sm_80";             // virtual arch compute_XY is derived from it
  std::vector<std::string> extraArgs;     // passed to nvcc verbatim (after `--`)
};

struct CompileResult {
  std::string ptx;                        // the module's PTX text
  std::vector<KernelResources> kernels;   // one per function ptxas reported
  std::string log;                        // nvcc's stderr (warnings), verbatim
};

// Path of nvcc, or throws teg::Error saying where teg looked and how to install the toolkit.
std::string findNvcc();

// Compiles `cuPath`; on a compiler error throws teg::Error whose message carries nvcc's own
// diagnostics verbatim.
CompileResult compileCuda(const std::string& cuPath, const CompileOptions& options);

// Parses the `ptxas info` lines of `nvcc -Xptxas -v` output (exposed for tests).
std::vector<KernelResources> parsePtxasVerbose(const std::string& log);

}  // namespace teg::toolchain
