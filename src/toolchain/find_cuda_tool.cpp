// Finding nvdisasm and cuobjdump the way find_nvcc.cpp finds nvcc, plus the places a CUDA 13
// toolkit without them gets them from: PyPI's nvidia-cuda-nvdisasm / nvidia-cuda-cuobjdump
// wheels, whose executables live in nvidia/cu13/bin under the directory pip installed into.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "teg/support/error.hpp"
#include "teg/toolchain/disassembler.hpp"

#ifndef TEG_TOOLS_DIR
#define TEG_TOOLS_DIR ""
#endif

namespace teg::toolchain {

namespace fs = std::filesystem;

namespace {

bool isExecutableFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

std::string envOrEmpty(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  return v ? v : "";
}

// Where `pip install --target DIR nvidia-cuda-nvdisasm` puts the executable.
std::string wheelBin(const std::string& dir) { return (fs::path(dir) / "cuda" / "nvidia" / "cu13" / "bin").string(); }

}  // namespace

CudaToolSearch cudaToolSearchFromEnvironment(const std::string& tool) {
  std::string upper = tool;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  CudaToolSearch s;
  s.overridePath = envOrEmpty("TEG_" + upper);
  s.path = envOrEmpty("PATH");
  s.cudaHome = envOrEmpty("CUDA_HOME");
  s.fallbackDirs.push_back("/usr/local/cuda/bin");
  if (const std::string dir = envOrEmpty("TEG_TOOLS_DIR"); !dir.empty()) s.fallbackDirs.push_back(wheelBin(dir));
  if (const std::string built = TEG_TOOLS_DIR; !built.empty()) s.fallbackDirs.push_back(wheelBin(built));
  return s;
}

std::optional<std::string> findCudaTool(const std::string& tool, const CudaToolSearch& search) {
  if (!search.overridePath.empty()) {
    if (!isExecutableFile(search.overridePath))
      throw Error(SourceLocation{search.overridePath},
                  "not an executable file (named as " + tool + " by $TEG_NVDISASM / $TEG_CUOBJDUMP)");
    return search.overridePath;
  }
  std::vector<std::string> dirs;
  std::istringstream path(search.path);
  for (std::string dir; std::getline(path, dir, ':');)
    if (!dir.empty()) dirs.push_back(dir);  // an empty entry would mean "."
  if (!search.cudaHome.empty()) dirs.push_back((fs::path(search.cudaHome) / "bin").string());
  dirs.insert(dirs.end(), search.fallbackDirs.begin(), search.fallbackDirs.end());
  for (const auto& dir : dirs)
    if (const auto candidate = fs::path(dir) / tool; isExecutableFile(candidate)) return candidate.string();
  return std::nullopt;
}

std::string findNvdisasm() {
  const CudaToolSearch search = cudaToolSearchFromEnvironment("nvdisasm");
  if (auto found = findCudaTool("nvdisasm", search)) return *found;
  std::string looked = "$PATH";
  if (!search.cudaHome.empty()) looked += ", $CUDA_HOME/bin";
  for (const auto& d : search.fallbackDirs) looked += ", " + d;
  throw Error("nvdisasm not found (looked in " + looked +
              "); `bash scripts/install-deps.sh` installs it from PyPI (nvidia-cuda-nvdisasm 13.x) into "
              "build/tools/cuda, or set TEG_NVDISASM to its path");
}

bool haveNvdisasm() {
  try {
    findNvdisasm();
    return true;
  } catch (const Error&) {
    return false;
  }
}

// Volta's tools: where scripts/install-deps.sh unpacks Debian's CUDA 11.8 (volta_sass.cpp).
std::optional<std::string> findVoltaTool(const std::string& tool) {
  std::vector<fs::path> dirs;
  if (const std::string d = envOrEmpty("TEG_CUDA11_BIN"); !d.empty()) dirs.emplace_back(d);
  if (const std::string d = envOrEmpty("TEG_TOOLS_DIR"); !d.empty()) dirs.push_back(fs::path(d) / "cuda11/usr/bin");
  if (const std::string built = TEG_TOOLS_DIR; !built.empty()) dirs.push_back(fs::path(built) / "cuda11/usr/bin");
  for (const auto& dir : dirs)
    if (isExecutableFile(dir / tool)) return (dir / tool).string();
  return std::nullopt;
}

bool haveVoltaToolchain() { return findVoltaTool("ptxas") && findVoltaTool("nvdisasm"); }

}  // namespace teg::toolchain
