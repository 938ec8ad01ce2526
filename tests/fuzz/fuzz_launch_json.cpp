// libFuzzer target for launch descriptions (emu::parseLaunch): any input must either parse or
// throw teg::Error naming the file and the field (never crash, hang or trip a sanitizer).
#include <cstdint>
#include <string>
#include <vector>

#include "teg/emu/launch.hpp"
#include "teg/support/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto launch = teg::emu::parseLaunch(text, "/fuzz/launch.json");
    // Scalars must turn into parameter bytes without trouble; buffers are not materialised (a
    // count may be huge) but their sizes must be computable.
    // Struct fields (nested up to the parser's depth limit) likewise.
    auto visit = [](const auto& self, const std::vector<teg::emu::LaunchArg>& args) -> void {
      for (const auto& arg : args) {
        if (const auto* scalar = std::get_if<teg::emu::ScalarArg>(&arg.value)) (void)teg::emu::scalarBytes(*scalar);
        if (const auto* s = std::get_if<teg::emu::StructArg>(&arg.value)) self(self, s->fields);
      }
    };
    visit(visit, launch.args);
    (void)teg::emu::launchBuffers(launch);
  } catch (const teg::Error&) {
    return 0;  // rejected with a message: fine
  }
  return 0;
}
