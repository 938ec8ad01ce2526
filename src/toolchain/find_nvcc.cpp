// Finding nvcc: $PATH first (what the user's shell would run), then $CUDA_HOME/bin, then the
// toolkit's default install prefix.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::toolchain {

namespace {

bool isExecutableFile(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

std::string envOrEmpty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

NvccSearch nvccSearchFromEnvironment() {
  NvccSearch s;
  s.path = envOrEmpty("PATH");
  s.cudaHome = envOrEmpty("CUDA_HOME");
  return s;
}

std::string findNvcc(const NvccSearch& search) {
  std::vector<std::string> dirs;
  std::istringstream path(search.path);
  for (std::string dir; std::getline(path, dir, ':');)
    if (!dir.empty()) dirs.push_back(dir);  // an empty entry would mean ".", which we do not trust
  if (!search.cudaHome.empty()) dirs.push_back((std::filesystem::path(search.cudaHome) / "bin").string());
  dirs.insert(dirs.end(), search.fallbackDirs.begin(), search.fallbackDirs.end());

  for (const auto& dir : dirs) {
    const auto candidate = std::filesystem::path(dir) / "nvcc";
    if (isExecutableFile(candidate)) return candidate.string();
  }
  std::string looked;
  for (const auto& dir : dirs) looked += (looked.empty() ? "" : ", ") + dir;
  throw Error("nvcc not found (looked in $PATH, $CUDA_HOME/bin and the default prefix: " +
              (looked.empty() ? std::string("nowhere") : looked) +
              "); install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads, or your "
              "distribution's nvidia-cuda-toolkit package) and put its bin/ on PATH or set "
              "CUDA_HOME");
}

std::string findNvcc() { return findNvcc(nvccSearchFromEnvironment()); }

}  // namespace teg::toolchain
