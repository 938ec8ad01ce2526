// libFuzzer target for validation suite files (analysis::loadValidationSuite): any input must
// either load or throw teg::Error naming the file and the field or JSON position. The suite is
// written into a scratch copy of data/validation's layout (suites/ beside the kernels and CSVs it
// refers to), so that launch files and rows_from_csv resolve as they do for real suites.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "teg/analysis/validation.hpp"
#include "teg/support/error.hpp"

namespace fs = std::filesystem;

namespace {

std::string prepareScratch() {
  const fs::path source = fs::path(TEG_SOURCE_DIR) / "data" / "validation";
  const fs::path scratch = fs::temp_directory_path() / ("teg-fuzz-suite-" + std::to_string(getpid()));
  fs::create_directories(scratch / "suites");
  std::error_code ignored;
  fs::create_directory_symlink(source / "kernels", scratch / "kernels", ignored);
  for (const auto& entry : fs::directory_iterator(source))
    if (entry.path().extension() == ".csv") fs::create_symlink(entry.path(), scratch / entry.path().filename(), ignored);
  return (scratch / "suites" / "input.json").string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = prepareScratch();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const auto suite = teg::analysis::loadValidationSuite(path);
    (void)suite;
  } catch (const teg::Error&) {
    return 0;  // rejected with a message: fine
  }
  return 0;
}
