// libFuzzer target for the emulator's sandbox (issue 24): the input drives a generator of small
// PTX kernels that compute addresses from hostile values (0, -1, -4, 2^31, 2^62, 2^63, random
// 64-bit) and load, store and update memory through every state space, 32- and 64-bit address
// registers, symbols, generic pointers, vectors, atomics, asynchronous copies and mbarriers,
// with shuffles, votes, barriers and branches in between. Every kernel must either run or stop with teg::Error (an out-of-bounds
// access, a deadlock, a budget); any other exception aborts, and AddressSanitizer reports any
// touch of host memory outside the emulator's own allocations.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "teg/emu/emulator.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/support/error.hpp"

namespace {

constexpr int kRegs = 8;  // of each register kind the generator uses

std::int64_t hostileValue(FuzzedDataProvider& in) {
  static constexpr std::int64_t kValues[] = {0,  1,  -1, -4, 4, 8, 60, 64, 68, 124, 128, 4096, -64, 0x7fffffff,
                                             std::int64_t{1} << 31, std::int64_t{1} << 32,
                                             (std::int64_t{1} << 62) - 1, std::int64_t{1} << 62,
                                             std::int64_t(~(~std::uint64_t{0} >> 1)), 0x7eff'ffff'fff0,
                                             0x7e00'0000'0000, 0x7f00'0000'0000};
  if (in.ConsumeBool()) return kValues[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kValues) - 1)];
  return in.ConsumeIntegral<std::int64_t>();
}

std::string r32(FuzzedDataProvider& in) { return fmt::format("%r{}", in.ConsumeIntegralInRange(0, kRegs - 1)); }
std::string r64(FuzzedDataProvider& in) { return fmt::format("%rd{}", in.ConsumeIntegralInRange(0, kRegs - 1)); }

std::string space(FuzzedDataProvider& in) {
  static constexpr const char* kSpaces[] = {"", ".global", ".shared", ".local", ".const", ".param"};
  return kSpaces[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kSpaces) - 1)];
}

std::string address(FuzzedDataProvider& in) {
  const std::int64_t offset = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(-256, 256)
                                               : static_cast<std::int32_t>(hostileValue(in));
  const std::string off = offset == 0 ? "" : fmt::format("+{}", offset);
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: return fmt::format("[{}{}]", r32(in), off);
    case 1: {
      static constexpr const char* kSymbols[] = {"s", "dyn", "c", "l", "out"};
      const char* sym = kSymbols[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kSymbols) - 1)];
      return fmt::format("[{}+{}]", sym, in.ConsumeIntegralInRange(0, 300));
    }
    default: return fmt::format("[{}{}]", r64(in), off);
  }
}

// One statement; labels L0..L3 are placed by the caller.
std::string statement(FuzzedDataProvider& in) {
  static constexpr const char* kTypes[] = {".u8", ".u16", ".u32", ".u64", ".f32", ".v2.u32", ".v4.u32", ".s8"};
  switch (in.ConsumeIntegralInRange(0, 20)) {
    case 0: return fmt::format("mov.u64 {}, {};", r64(in), hostileValue(in));
    case 1: return fmt::format("mov.u32 {}, {};", r32(in), static_cast<std::uint32_t>(hostileValue(in)));
    case 2: return fmt::format("add.s64 {}, {}, {};", r64(in), r64(in), r64(in));
    case 3: return fmt::format("mul.wide.s32 {}, {}, {};", r64(in), r32(in), in.ConsumeIntegralInRange(-8, 8));
    case 4: return fmt::format("shl.b64 {}, {}, {};", r64(in), r64(in), in.ConsumeIntegralInRange(0, 63));
    case 5: {
      static constexpr const char* kSyms[] = {"s", "dyn", "l", "c", "out"};
      return fmt::format("mov.u64 {}, {};", r64(in), kSyms[in.ConsumeIntegralInRange<std::size_t>(0, 4)]);
    }
    case 6: {
      static constexpr const char* kCvta[] = {"cvta.shared.u64", "cvta.local.u64", "cvta.const.u64",
                                              "cvta.to.shared.u64", "cvta.to.global.u64", "cvta.to.local.u64"};
      return fmt::format("{} {}, {};", kCvta[in.ConsumeIntegralInRange<std::size_t>(0, 5)], r64(in), r64(in));
    }
    case 7: return fmt::format("cvt.u32.u64 {}, {};", r32(in), r64(in));
    case 8:
    case 9: {
      const std::string t = kTypes[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kTypes) - 1)];
      const std::string sp = space(in);
      const std::string a = address(in);
      const bool wide = t == ".u64";
      if (t == ".v2.u32") return fmt::format("ld{}{} {{%r1, %r2}}, {};", sp, t, a);
      if (t == ".v4.u32") return fmt::format("ld{}{} {{%r1, %r2, %r3, %r4}}, {};", sp, t, a);
      if (t == ".f32") return fmt::format("ld{}{} %f1, {};", sp, t, a);
      return fmt::format("ld{}{} {}, {};", sp, t, wide ? r64(in) : r32(in), a);
    }
    case 10:
    case 11: {
      const std::string t = kTypes[in.ConsumeIntegralInRange<std::size_t>(0, std::size(kTypes) - 1)];
      std::string sp = space(in);
      if (sp == ".const" || sp == ".param") sp = ".global";  // stores there do not assemble
      const std::string a = address(in);
      if (t == ".v2.u32") return fmt::format("st{}{} {}, {{%r1, %r2}};", sp, t, a);
      if (t == ".v4.u32") return fmt::format("st{}{} {}, {{%r1, %r2, %r3, %r4}};", sp, t, a);
      if (t == ".f32") return fmt::format("st{}{} {}, %f1;", sp, t, a);
      return fmt::format("st{}{} {}, {};", sp, t, a, t == ".u64" ? r64(in) : r32(in));
    }
    case 12: {
      static constexpr const char* kAtoms[] = {"add.u32", "exch.b32", "max.s32", "inc.u32", "and.b32"};
      static constexpr const char* kSpaces[] = {"", ".global", ".shared"};
      return fmt::format("atom{}.{} {}, {}, {};", kSpaces[in.ConsumeIntegralInRange<std::size_t>(0, 2)],
                         kAtoms[in.ConsumeIntegralInRange<std::size_t>(0, 4)], r32(in), address(in), r32(in));
    }
    case 13:
      return fmt::format("atom{}.cas.b64 {}, {}, {}, {};", in.ConsumeBool() ? ".shared" : ".global", r64(in),
                         address(in), r64(in), r64(in));
    case 14:
      return fmt::format("shfl.sync.idx.b32 {}, {}, {}, 31, -1;", r32(in), r32(in), r32(in));
    case 15: return fmt::format("vote.sync.ballot.b32 {}, %p1, -1;", r32(in));
    case 16:
      return fmt::format("setp.lt.u32 %p1, {}, {}; @%p1 bra L{};", r32(in), in.ConsumeIntegralInRange(0, 64),
                         in.ConsumeIntegralInRange(0, 3));
    case 17: {  // asynchronous copies into shared memory from hostile addresses and sizes
      static constexpr const char* kSizes[] = {"4", "8", "16", "%r2", "%r3"};
      const bool cg = in.ConsumeBool();
      std::string s = fmt::format("cp.async.{}.shared.global {}, {}, {}", cg ? "cg" : "ca", address(in), address(in),
                                  cg ? "16" : kSizes[in.ConsumeIntegralInRange<std::size_t>(0, 2)]);
      if (in.ConsumeBool()) s += fmt::format(", {}", in.ConsumeBool() ? r32(in) : "%p1");
      return s + "; cp.async.commit_group; cp.async.wait_group 0;";
    }
    case 18: {  // mbarrier operations on hostile addresses with hostile counts
      const char* sp = in.ConsumeBool() ? ".shared" : "";
      switch (in.ConsumeIntegralInRange(0, 5)) {
        case 0: return fmt::format("mbarrier.init{}.b64 {}, {};", sp, address(in), r32(in));
        case 1: return fmt::format("mbarrier.arrive{}.b64 {}, {};", sp, r64(in), address(in));
        case 2: return fmt::format("mbarrier.arrive_drop{}.b64 {}, {}, {};", sp, r64(in), address(in), r32(in));
        case 3: return fmt::format("mbarrier.arrive.expect_tx{}.b64 {}, {}, {};", sp, r64(in), address(in), r32(in));
        case 4: return fmt::format("mbarrier.complete_tx{}.b64 {}, {};", sp, address(in), r32(in));
        default: return fmt::format("mbarrier.test_wait{}.b64 %p2, {}, {};", sp, address(in), r64(in));
      }
    }
    case 19:  // a bulk copy of a hostile size completing on a hostile mbarrier
      return fmt::format("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes {}, {}, {}, {};",
                         address(in), address(in), r32(in), address(in));
    default: return in.ConsumeBool() ? "bar.sync 0;" : fmt::format("add.u32 {}, {}, 1;", r32(in), r32(in));
  }
}

std::string kernelText(FuzzedDataProvider& in) {
  std::string body;
  const int statements = in.ConsumeIntegralInRange(1, 40);
  int nextLabel = 0;
  for (int i = 0; i < statements && in.remaining_bytes() > 0; ++i) {
    if (nextLabel < 4 && in.ConsumeIntegralInRange(0, 7) == 0) body += fmt::format("L{}:\n", nextLabel++);
    body += "  " + statement(in) + "\n";
  }
  while (nextLabel < 4) body += fmt::format("L{}:\n", nextLabel++);
  return fmt::format(R"(.version 8.0
.target sm_80
.address_size 64
.shared .align 16 .b8 s[{}];
.extern .shared .align 16 .b8 dyn[];
.const .align 16 .b8 c[64];
.visible .entry k(.param .u64 out, .param .u64 in, .param .u32 n)
{{
  .local .align 16 .b8 l[{}];
  .reg .pred %p<4>;
  .reg .b32 %r<{}>;
  .reg .b64 %rd<{}>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd0, [out];
  ld.param.u64 %rd1, [in];
  ld.param.u32 %r0, [n];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
{}  ret;
}}
)",
                     in.ConsumeIntegralInRange(1, 512), in.ConsumeIntegralInRange(1, 128), kRegs, kRegs, body);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const teg::emu::Dim3 grid{in.ConsumeIntegralInRange<std::uint32_t>(1, 3), 1, 1};
  const teg::emu::Dim3 block{in.ConsumeIntegralInRange<std::uint32_t>(1, 96), 1, 1};
  const std::uint32_t dynamicSmem = in.ConsumeIntegralInRange<std::uint32_t>(0, 256);
  const std::uint32_t outBytes = in.ConsumeIntegralInRange<std::uint32_t>(0, 512);
  // Blocks in parallel now and then (a TBB arena per run is costly; the path needs no more).
  const unsigned threads = in.ConsumeIntegralInRange(0, 15) == 0 ? 2u : 1u;
  const std::string text = kernelText(in);
  teg::ptx::Module module;
  try {
    module = teg::ptx::parseModule(text, "fuzz.ptx");
  } catch (const teg::Error&) {
    return 0;  // a combination the parser refuses (with a located message): fine
  }
  try {
    teg::emu::Emulator emulator(module, "k", grid, block, dynamicSmem);
    emulator.addZeroedBuffer("out", outBytes);
    emulator.addZeroedBuffer("in", 16);
    const std::uint32_t n = 16;
    emulator.addScalar("n", std::as_bytes(std::span(&n, 1)));
    teg::emu::RunOptions options;
    options.maxBlockInstructions = 2000;  // endless loops end quickly: 40 statements need few laps
    options.threads = threads;
    (void)emulator.run(options);
  } catch (const teg::Error&) {
    return 0;  // refused or stopped with a message: the sandbox held
  } catch (const std::exception& e) {
    std::fprintf(stderr, "not a teg::Error: %s\n--- kernel ---\n%s\n", e.what(), text.c_str());
    std::abort();
  }
  return 0;
}
