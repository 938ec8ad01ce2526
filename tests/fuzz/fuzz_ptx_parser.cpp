// libFuzzer target for the PTX front end. Any input must either parse or throw teg::Error (never
// crash, hang or trip a sanitizer); what parses must survive the analyses and round-trip:
// parse(print(m)) == m structurally (abort otherwise, so the fuzzer reports it).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "teg/ptx/compare.hpp"
#include "teg/ptx/def_use.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/ptx/printer.hpp"
#include "teg/ptx/stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  teg::ptx::Module module;
  try {
    module = teg::ptx::parseModule(text, "fuzz.ptx");
  } catch (const teg::Error&) {
    return 0;  // rejected with a located message: fine
  }
  for (const auto& f : module.functions) {
    if (!f.hasBody) continue;
    const teg::ptx::DefUseChains chains(f);
    (void)chains.possiblyUndefinedRegisters();
    (void)teg::ptx::computeStats(module, f);
  }
  const std::string printed = teg::ptx::printModule(module);
  try {
    const teg::ptx::Module again = teg::ptx::parseModule(printed, "printed.ptx");
    if (auto diff = teg::ptx::firstDifference(module, again)) {
      std::fprintf(stderr, "round trip changed the IR: %s\n--- printed ---\n%s\n", diff->c_str(), printed.c_str());
      std::abort();
    }
  } catch (const teg::Error& e) {
    std::fprintf(stderr, "printed module does not parse: %s\n--- printed ---\n%s\n", e.what(), printed.c_str());
    std::abort();
  }
  return 0;
}
