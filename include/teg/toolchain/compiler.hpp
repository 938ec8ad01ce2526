// The CUDA compiler driver: runs nvcc on a .cu file to get its PTX and, through `-Xptxas -v`,
// each kernel's real resources (what TEG took from the assembler, Lai §3.3). teg never
// re-implements the compiler; it finds nvcc (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin) and reads
// what it prints.
#pragma once

#include <chrono>
#include <optional>
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
  int constantBytes = 0;       // user constant bank (cmem[3] and the like), not parameters; the
                               // module's __constant__ data ("N bytes cmem[3]" on the gmem line)
                               // counts for every function of the module
  int globalBytes = 0;         // the module's __device__ variables ("N bytes gmem"), likewise
  int parameterBytes = 0;      // cmem[0] as ptxas reports it
  int localBytes = 0;          // lmem
  int stackFrameBytes = 0;
  int cumulativeStackBytes = 0;  // with its callees' frames ("N bytes cumulative stack size",
                                 // printed by CUDA 13 when there is a frame)
  int spillStoreBytes = 0;
  int spillLoadBytes = 0;
  int barriers = 0;            // named barriers used (0 when ptxas does not say)
  bool hasUsageLine = false;   // ptxas printed a "Used N registers" line for it (device functions
                               // compiled with the kernel that calls them get none)
};

// How long an nvcc run may take before teg kills it, when neither CompileOptions::timeout nor
// $TEG_NVCC_TIMEOUT says otherwise. Template-heavy translation units (CUTLASS, Thrust) take
// minutes; only a hung compiler should reach ten.
inline constexpr std::chrono::seconds kDefaultNvccTimeout{600};

struct CompileOptions {
  std::string arch = "sm_80";             // virtual arch compute_XY is derived from it
  std::vector<std::string> includeDirs;   // -I DIR, in order (made absolute before nvcc sees them)
  std::vector<std::string> defines;       // -D NAME or -D NAME=VALUE
  std::vector<std::string> extraArgs;     // passed to nvcc verbatim (after `--`)
  // nullopt: $TEG_NVCC_TIMEOUT (seconds, 0 = none) or kDefaultNvccTimeout; zero: no limit.
  std::optional<std::chrono::milliseconds> timeout;
  bool useCache = true;                   // the compile cache (compileCacheDirectory); also off
                                          // with $TEG_NO_CACHE=1
};

struct CompileResult {
  std::string ptx;                        // the module's PTX text
  std::string cubin;                      // the module ptxas assembled (ELF bytes): what the GPU
                                          // runs, for nvdisasm (disassembler.hpp)
  std::vector<KernelResources> kernels;   // one per function ptxas reported
  std::string log;                        // nvcc's stderr (warnings), verbatim
  std::vector<std::string> command;       // the nvcc command line that was run
  bool fromCache = false;                 // taken from the compile cache; nvcc did not run
  std::vector<std::string> notes;         // what teg did beyond the plain compile, for the user
                                          // (e.g. declared API that CUDA 13 removed from host code)
};

// The timeout `options` asks for, resolved as described there; throws teg::Error for a
// malformed $TEG_NVCC_TIMEOUT.
std::chrono::milliseconds nvccTimeout(const CompileOptions& options);

// Where findNvcc looks, in order: each directory of `path` (a $PATH-style list), then
// `cudaHome`/bin, then each of `fallbackDirs`.
struct NvccSearch {
  std::string path;                       // usually $PATH
  std::string cudaHome;                   // usually $CUDA_HOME ("" when unset)
  std::vector<std::string> fallbackDirs = {"/usr/local/cuda/bin"};
};

// The search teg uses by default, from the environment.
NvccSearch nvccSearchFromEnvironment();

// Path of nvcc, or throws teg::Error saying where teg looked and how to install the toolkit.
std::string findNvcc(const NvccSearch& search);
std::string findNvcc();  // findNvcc(nvccSearchFromEnvironment())

// Compiles `cuPath` with one nvcc run (`-cubin -lineinfo -arch=<arch> -Xptxas -v --keep`): the
// PTX is the exact module ptxas assembled, the cubin what it assembled it into, the resources
// are what it reported. On a compiler
// error throws teg::Error whose message carries nvcc's own diagnostics verbatim; an nvcc that
// runs past the timeout is killed with everything it started, and the error names the limit.
// A repeated compile of unchanged files with the same flags and toolkit comes from the compile
// cache without running nvcc (only `nvcc --version`, to know the toolkit).
// sm_70 and sm_72, which nvcc 13 no longer targets, are compiled to compute_75 PTX and assembled
// by CUDA 11.8's ptxas (assembleForVolta; a note says so).
CompileResult compileCuda(const std::string& cuPath, const CompileOptions& options);

// Volta's cubin from nvcc 13's PTX (compiled for compute_75, the oldest it targets): CUDA 11.8's
// ptxas (findVoltaTool) assembles `ptx` for `arch` (sm_70 or sm_72) with -lineinfo -v, after
// ptxForVolta rewrote its header. The result's ptx is `ptx` unchanged, its kernels ptxas's
// resources for `arch`. Throws teg::Error when the tool is missing or refuses the PTX (a feature
// sm_70 lacks, or newer than PTX ISA 7.8), with ptxas's message.
CompileResult assembleForVolta(const std::string& ptx, const std::string& arch,
                               std::chrono::milliseconds timeout = kDefaultNvccTimeout);

// `ptx` with its `.version` lowered to 7.8 when newer (CUDA 11.8's ptxas reads no newer ISA) and
// its `.target` set to `arch`. Exposed for tests.
std::string ptxForVolta(const std::string& ptx, const std::string& arch);

// Parses the `ptxas info` lines of `nvcc -Xptxas -v` output (exposed for tests).
// Functions appear in the order ptxas first names them; a log that holds several architectures
// (several -gencode) gives one entry per function and architecture.
std::vector<KernelResources> parsePtxasVerbose(const std::string& log);

// "vecAdd(float const*, float*, int)" for "_Z6vecAddPKfPfi"; names that are not mangled C++
// (extern "C" kernels) come back unchanged; a ptxas clone suffix ("$3") is kept after the name.
std::string demangle(const std::string& mangled);

}  // namespace teg::toolchain
