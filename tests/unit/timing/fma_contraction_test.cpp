// FMA contraction in the replay (TimingConfig::fuseMultiplyAdds): a multiply marked fusedInto an
// add issues as part of it, and the fused instruction waits for the multiply's sources.
#include <gtest/gtest.h>

#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

namespace {

// acc = acc + a*b, ten times: mul r2 = r1*r1 (fused into the add at pc 1), add r3 = r3 + r2.
// One warp, latency 4, unit interval 1: fused, the ten fmas form one dependent chain through r3
// (40 cycles); unfused, every add also waits for the multiply issued just before it.
TimingResult accumulate(bool fuse) {
  auto config = simpleConfig(4, 1, 1);
  config.fuseMultiplyAdds = fuse;
  auto mul = alu({2}, {1});
  mul.fusedInto = 1;
  auto kernel = kernelOf({mul, alu({3}, {3, 2})}, 1, 32);
  std::vector<std::uint32_t> pcs;
  for (int i = 0; i < 10; ++i) pcs.insert(pcs.end(), {0, 1});
  return runSynthetic(config, {}, kernel, [&](auto, auto) { return pcs; });
}

TEST(FmaContractionReplay, AFusedPairIssuesOnceAndChainsThroughTheAccumulator) {
  // Fused: add k issues at 4k (waits for add k-1's accumulator); the last completes at 9 × 4 + 4.
  const auto fused = accumulate(true);
  EXPECT_EQ(fused.warpInstructions, 10u);
  EXPECT_DOUBLE_EQ(fused.cycles, 9 * 4 + 4);
  const auto plain = accumulate(false);
  EXPECT_EQ(plain.warpInstructions, 20u);
  // Unfused: mul k at 5k, its add at 5k + 4 (waits for the product), the next mul a cycle later;
  // the last add issues at 9 × 5 + 4 and completes 4 cycles after.
  EXPECT_DOUBLE_EQ(plain.cycles, 9 * 5 + 4 + 4);
}

TEST(FmaContractionReplay, TheFusedInstructionWaitsForTheMultiplySources) {
  // ld.global r1 (400-cycle DRAM), mul r2 = r1 * r1 fused into add r3 = r4 + r2: the add must
  // not issue before the load's data is back although it no longer reads r2.
  auto config = simpleConfig(4, 1, 1);
  config.fuseMultiplyAdds = true;
  config.dramBytesPerCycle = 1e9;
  auto mul = alu({2}, {1});
  mul.fusedInto = 2;
  const auto kernel =
      kernelOf({memory(InstrKind::Load, MemorySpace::Global, {1}, {5}), mul, alu({3}, {4, 2})}, 1, 32);
  const auto r = runSynthetic(
      config, {}, kernel, [](auto, auto) { return std::vector<std::uint32_t>{0, 1, 2}; },
      [](auto, auto, std::size_t, int lane) { return 4096ull + 4ull * static_cast<std::uint64_t>(lane); });
  EXPECT_EQ(r.warpInstructions, 2u);
  EXPECT_GE(r.cycles, 400 + 4);
}

}  // namespace
