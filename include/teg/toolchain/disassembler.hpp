// The CUDA binary utilities: nvdisasm (SASS with encodings and source lines) and cuobjdump. The
// CUDA 13 toolkit of a machine may lack them (a minimal install); PyPI carries them as
// nvidia-cuda-nvdisasm and nvidia-cuda-cuobjdump, which scripts/install-deps.sh installs into
// the project's own tools directory (build/tools/cuda, see TEG_TOOLS_DIR in CMakeLists.txt).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace teg::toolchain {

// Where findCudaTool looks, in order: `overridePath` (an explicit executable, e.g. from
// $TEG_NVDISASM), each directory of `path` ($PATH), `cudaHome`/bin, each of `fallbackDirs`
// (/usr/local/cuda/bin, then the project's tools directory and $TEG_TOOLS_DIR's).
struct CudaToolSearch {
  std::string overridePath;
  std::string path;
  std::string cudaHome;
  std::vector<std::string> fallbackDirs;
};

// The search for `tool` ("nvdisasm", "cuobjdump") from the environment: $TEG_NVDISASM or
// $TEG_CUOBJDUMP (the tool's name upper-cased) as the override, $PATH, $CUDA_HOME, then
// /usr/local/cuda/bin, $TEG_TOOLS_DIR/cuda/nvidia/cu13/bin and the build's own tools directory.
CudaToolSearch cudaToolSearchFromEnvironment(const std::string& tool);

// The tool's path, or nullopt. An override that is not an executable file is an error (the user
// asked for that file), not a fall-back.
std::optional<std::string> findCudaTool(const std::string& tool, const CudaToolSearch& search);

// nvdisasm's path, or throws teg::Error saying where teg looked and how to install it.
std::string findNvdisasm();

// Whether nvdisasm can be found (for "SASS not available, using the PTX" notes and tests).
bool haveNvdisasm();

// `nvdisasm -hex -gi -c` on a cubin held in memory: the text teg::sass::parseDisassembly reads.
// Throws teg::Error with nvdisasm's own message when it fails (an architecture newer than the
// disassembler, a file that is not a cubin).
std::string disassembleCubin(const std::string& cubin,
                             std::chrono::milliseconds timeout = std::chrono::milliseconds(120000));

// Volta (sm_70, sm_72), which CUDA 13 no longer compiles or disassembles: CUDA 11.8's tools in
// $TEG_CUDA11_BIN, $TEG_TOOLS_DIR/cuda11/usr/bin or the build's tools directory (where
// scripts/install-deps.sh unpacks them from Debian's nvidia-cuda-toolkit 11.8).
std::optional<std::string> findVoltaTool(const std::string& tool);  // "ptxas", "nvdisasm"
bool haveVoltaToolchain();  // both found

// The SM a cubin was assembled for (its ELF e_flags: 70, 75, 90, ...), or 0 for bytes that are
// not a cubin. disassembleCubin gives cubins older than sm_75 to CUDA 11.8's nvdisasm.
int cubinSmVersion(std::string_view cubin);

}  // namespace teg::toolchain
