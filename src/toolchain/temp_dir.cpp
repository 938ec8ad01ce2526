#include "temp_dir.hpp"

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

#include <stdlib.h>  // mkdtemp (POSIX)

#include "teg/support/error.hpp"

namespace teg::toolchain {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "teg-nvcc-XXXXXX").string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr)
    throw Error("cannot create a temporary directory from " + pattern + ": " +
                std::strerror(errno));
  path_ = buffer.data();
}

TempDir::~TempDir() {
  std::error_code ignored;  // a destructor must not throw; a leftover temp dir is harmless
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace teg::toolchain
