// libFuzzer target for the software-sequence table (analysis::loadSequenceTable,
// data/ptx/sequences.json's format): any input must either load, with every step's dependences on
// earlier steps and the result step in range, or throw teg::Error naming the file and the field
// or JSON position.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "teg/analysis/software_sequences.hpp"
#include "teg/support/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("teg-fuzz-sequences-" + std::to_string(getpid()) + ".json")).string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const auto table = teg::analysis::loadSequenceTable(path);
    // What the engine relies on: each step reads only earlier steps, the result is one of them.
    for (const auto& [sm, shapes] : table.byArchitecture)
      for (const auto& [name, sequence] : shapes) {
        const int steps = static_cast<int>(sequence.steps.size());
        if (steps < 1 || sequence.result < 0 || sequence.result >= steps) std::abort();
        for (int k = 0; k < steps; ++k)
          for (const int earlier : sequence.steps[static_cast<std::size_t>(k)].after)
            if (earlier < 0 || earlier >= k) std::abort();
      }
  } catch (const teg::Error&) {
    return 0;  // rejected with a message: fine
  }
  return 0;
}
