// libFuzzer target for the SASS front end (nvdisasm text). Any input must either parse or throw
// teg::Error (never crash, hang or trip a sanitizer); what parses must survive the CFG and the
// statistics and the trace description (describeKernel: register sets, the cp.async group and
// mbarrier waits it derives from LDGSTS/LDGDEPBAR/DEPBAR/ARRIVES/SYNCS/UBLKCP) and round-trip:
// parse(print(m)) == m structurally (abort otherwise, so the fuzzer reports it). Seeds:
// tests/fuzz/corpus/sass/ (async_forms.sm_80/90.sass: nvdisasm 13 -hex -gi -c of a kernel with
// cp.async groups and wait_group 1, mbarrier arrive/test_wait and, on sm_90, cp.async.bulk) and
// the committed nvdisasm outputs in tests/unit/sass/inputs/.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "teg/sass/cfg.hpp"
#include "teg/sass/describe.hpp"
#include "teg/sass/parser.hpp"
#include "teg/sass/printer.hpp"
#include "teg/sass/stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  teg::sass::Module module;
  try {
    module = teg::sass::parseDisassembly(text, "fuzz.sass");
  } catch (const teg::Error&) {
    return 0;  // rejected with a located message: fine
  }
  for (const auto& f : module.functions) {
    const teg::sass::ControlFlowGraph cfg = teg::sass::buildCfg(f);
    if (cfg.blockOf.size() != f.instructions.size()) std::abort();
    (void)teg::sass::computeStats(module, f);
    try {
      const teg::trace::KernelInfo info = teg::sass::describeKernel(module, f);
      for (const auto& s : info.instructions) {
        // Scoreboard barriers are 0..5 (Jia 2018); the derived cp.async waits must stay so.
        if (s.control.writeBarrier > 5 || s.control.readBarrier > 5 || s.control.waitMask > 0x3f ||
            s.control.groupWaitBarrier > 5 || (s.control.groupWaitBarrier >= 0 && s.control.groupWaitKeep == 0))
          std::abort();
      }
    } catch (const teg::Error&) {
    }
  }
  const std::string printed = teg::sass::printModule(module);
  try {
    const teg::sass::Module again = teg::sass::parseDisassembly(printed, "printed.sass");
    if (auto diff = teg::sass::firstDifference(module, again)) {
      std::fprintf(stderr, "round trip changed the IR: %s\n--- printed ---\n%s\n", diff->c_str(), printed.c_str());
      std::abort();
    }
  } catch (const teg::Error& e) {
    std::fprintf(stderr, "printed module does not parse: %s\n--- printed ---\n%s\n", e.what(), printed.c_str());
    std::abort();
  }
  return 0;
}
