// A private scratch directory for one nvcc run, removed with everything in it when it goes out of
// scope (nvcc's --keep files, the cubin, the captured output).
#pragma once

#include <filesystem>

namespace teg::toolchain {

class TempDir {
 public:
  TempDir();  // throws teg::Error when the directory cannot be created
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace teg::toolchain
