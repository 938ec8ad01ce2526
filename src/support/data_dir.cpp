#include "teg/support/data_dir.hpp"

#include <cstdlib>

namespace teg {

std::string dataDirectory() {
  if (const char* env = std::getenv("TEG_DATA_DIR"); env != nullptr && *env != '\0') return env;
  return TEG_DEFAULT_DATA_DIR;
}

}  // namespace teg
