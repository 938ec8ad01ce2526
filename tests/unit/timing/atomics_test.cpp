// Same-address atomics (docs/timing.md, "Same-address atomics are serialised"): hand-worked
// schedules of one warp on a synthetic SM whose L2 always hits, so every cycle is on paper.
#include <gtest/gtest.h>

#include "atomic_contention.hpp"
#include "memory_system.hpp"
#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
namespace trace = teg::trace;

namespace {

// Every L2 access hits (200 cycles), no L2 bandwidth limit, one operation per cycle per address.
TimingConfig atomicConfig(double l2AtomicCycles) {
  TimingConfig c = simpleConfig(4, 1, 1);
  c.forcedL2HitRate = 1;
  c.l2AtomicCycles = l2AtomicCycles;
  c.sharedAtomicCycles = c.sharedWavefrontCycles;
  return c;
}

// pc 0: r10 = atom.global [r2]; pc 1: r11 = r10 + r3 (waits for the atomic's result).
trace::KernelInfo atomicThenUse(trace::MemorySpace space, std::uint32_t warps = 1) {
  return kernelOf({memory(trace::InstrKind::Atomic, space, {10}, {2}), alu({11}, {10, 3})}, 1, 32 * warps);
}

double cyclesOf(const TimingConfig& c, const trace::KernelInfo& k,
                const std::function<std::uint64_t(std::uint32_t, std::uint32_t, std::size_t, int)>& address) {
  return runSynthetic(c, {}, k, [](auto, auto) { return everyPc(2); }, address).cycles;
}

double cyclesOf5(const TimingConfig& c, const trace::KernelInfo& k,
                 const std::function<std::uint64_t(std::uint32_t, std::uint32_t, std::size_t, int)>& address) {
  return runSynthetic(c, {}, k, [](auto, auto) { return everyPc(5); }, address).cycles;
}

// 32 lanes on one word: the L2 unit performs 32 operations one after another, 1 cycle each, so
// the result comes back 31 cycles later than when the lanes hit 32 different words (1 operation
// each on 32 units' worth of words, the busiest word taking 1).
TEST(Atomics, GlobalLanesOnOneWordSerialiseAtTheL2Unit) {
  const auto k = atomicThenUse(trace::MemorySpace::Global);
  const double same = cyclesOf(atomicConfig(1), k, [](auto, auto, auto, int) { return std::uint64_t{4096}; });
  const double distinct = cyclesOf(atomicConfig(1), k, [](auto, auto, auto, int lane) { return 4096u + 4u * lane; });
  EXPECT_DOUBLE_EQ(same - distinct, 31.0);
  // 2 cycles per operation: 62 more.
  const double same2 = cyclesOf(atomicConfig(2), k, [](auto, auto, auto, int) { return std::uint64_t{4096}; });
  const double distinct2 = cyclesOf(atomicConfig(2), k, [](auto, auto, auto, int lane) { return 4096u + 4u * lane; });
  EXPECT_DOUBLE_EQ(same2 - distinct2, 62.0);
}

// Without the figure nothing is serialised (the mechanism is the figure's, not a constant's).
TEST(Atomics, WithoutTheFigureGlobalAtomicsAreNotSerialised) {
  const auto k = atomicThenUse(trace::MemorySpace::Global);
  const double same = cyclesOf(atomicConfig(0), k, [](auto, auto, auto, int) { return std::uint64_t{4096}; });
  const double distinct = cyclesOf(atomicConfig(0), k, [](auto, auto, auto, int lane) { return 4096u + 4u * lane; });
  EXPECT_DOUBLE_EQ(same, distinct);
}

// Two warps on one word queue at one unit: the second warp's 32 operations start when the first
// warp's end (cycle 32), so its result is 31 cycles later than if it had a sector of its own.
TEST(Atomics, WarpsOnTheSameWordQueueBehindEachOther) {
  const auto k = atomicThenUse(trace::MemorySpace::Global, 2);
  const double shared = cyclesOf(atomicConfig(1), k, [](auto, auto, auto, int) { return std::uint64_t{4096}; });
  const double apart = cyclesOf(atomicConfig(1), k, [](auto, std::uint32_t warp, auto, int) {
    return std::uint64_t{4096} + 1024u * warp;
  });
  EXPECT_DOUBLE_EQ(shared - apart, 31.0);
}

// A reduction no instruction waits for (SASS `RED`, which writes no register; an atom whose
// result is never read) still has to be performed before its block, and so the kernel, is done.
// Four REDs of 32 lanes on one word, issued at 0, 1, 2, 3, then an FADD at 4 (done at 8): the
// L2 unit performs the first RED's 32 operations in [0, 32), the next ones in [32, 64), [64, 96),
// [96, 128); the last RED's completion is its L2 hit (3 + 200) plus the unit's wait for it
// (128 - 3): 328, so the kernel takes 328 cycles, not the 8 of its last instruction. On SASS and on
// PTX alike (the rule is the memory system's, not the instruction stream's).
TEST(Atomics, AReductionNobodyWaitsForStillEndsTheKernel) {
  const auto red = memory(trace::InstrKind::Atomic, trace::MemorySpace::Global, {}, {2, 3});
  auto k = kernelOf({red, red, red, red, alu({11}, {4, 5})}, 1, 32);
  const auto oneWord = [](auto, auto, auto, int) { return std::uint64_t{4096}; };
  EXPECT_DOUBLE_EQ(cyclesOf5(atomicConfig(1), k, oneWord), 328.0);
  k.isa = trace::Isa::Sass;
  for (auto& s : k.instructions) s.control.stall = 1;
  EXPECT_DOUBLE_EQ(cyclesOf5(atomicConfig(1), k, oneWord), 328.0);
  // Without the serialising figure the last RED is done at its L2 hit: 3 + 200.
  EXPECT_DOUBLE_EQ(cyclesOf5(atomicConfig(0), k, oneWord), 203.0);
}

// The bound the run is explained by: four warps of 32 lanes on one word keep the word's L2 unit
// busy 4 x 32 x 2 = 256 cycles (at 2 cycles per operation), the whole run being the last result's
// L2 hit after that queue: 3 + 200 + 256 - 3 = 456 cycles, so the unit alone needs 256 / 456 = 56 %
// of them. With 16 warps it needs 1024 of 1224 (84 %) and names the bottleneck. On 32 distinct
// words (4 sectors of 8) each request costs a sector's unit its busiest word's one operation:
// 16 requests x 1 x 2 = 32 cycles.
TEST(Atomics, TheBusiestAtomicUnitBoundsTheRunAndNamesIt) {
  const auto red = memory(trace::InstrKind::Atomic, trace::MemorySpace::Global, {}, {2, 3});
  const auto oneWord = [](auto, auto, auto, int) { return std::uint64_t{4096}; };
  const auto k4 = kernelOf({red}, 1, 32 * 4);
  const TimingResult four = runSynthetic(atomicConfig(2), {}, k4, [](auto, auto) { return everyPc(1); }, oneWord);
  EXPECT_DOUBLE_EQ(four.memory.atomicUnitBusyCycles, 4 * 32 * 2.0);
  EXPECT_DOUBLE_EQ(four.cycles, 3 + 200 + 256 - 3.0);
  EXPECT_EQ(four.bound, "latency");
  const auto k16 = kernelOf({red}, 1, 32 * 16);
  const TimingResult sixteen = runSynthetic(atomicConfig(2), {}, k16, [](auto, auto) { return everyPc(1); }, oneWord);
  EXPECT_DOUBLE_EQ(sixteen.memory.atomicUnitBusyCycles, 16 * 32 * 2.0);
  EXPECT_EQ(sixteen.bound, "same-address atomics");
  const TimingResult spread = runSynthetic(atomicConfig(2), {}, k16, [](auto, auto) { return everyPc(1); },
                                           [](auto, auto, auto, int lane) { return 4096u + 4u * lane; });
  EXPECT_DOUBLE_EQ(spread.memory.atomicUnitBusyCycles, 16 * 1 * 2.0);
  EXPECT_NE(spread.bound, "same-address atomics");
  // Without the figure there is no unit to bound the run.
  const TimingResult unmodelled = runSynthetic(atomicConfig(0), {}, k16, [](auto, auto) { return everyPc(1); }, oneWord);
  EXPECT_DOUBLE_EQ(unmodelled.memory.atomicUnitBusyCycles, 0.0);
  EXPECT_NE(unmodelled.bound, "same-address atomics");
}

// Shared memory: an atomic's 32 lanes on one word take 32 passes (a load's would be one
// broadcast), each a replay of shared_replay_latency (here the wavefront's 2 cycles): 62 more.
TEST(Atomics, SharedLanesOnOneWordTakeAPassEach) {
  const auto k = atomicThenUse(trace::MemorySpace::Shared);
  const TimingConfig c = atomicConfig(1);
  const double same = cyclesOf(c, k, [](auto, auto, auto, int) { return std::uint64_t{64}; });
  const double distinct = cyclesOf(c, k, [](auto, auto, auto, int lane) { return 4u * lane; });
  EXPECT_DOUBLE_EQ(same - distinct, 31 * 2.0);
  // A load of one word by all lanes is a broadcast: as fast as 32 different banks.
  const auto load = kernelOf({memory(trace::InstrKind::Load, trace::MemorySpace::Shared, {10}, {2}), alu({11}, {10, 3})}, 1, 32);
  EXPECT_DOUBLE_EQ(cyclesOf(c, load, [](auto, auto, auto, int) { return std::uint64_t{64}; }),
                   cyclesOf(c, load, [](auto, auto, auto, int lane) { return 4u * lane; }));
}

// The GPU's operations on a sector per operation of this SM multiply the unit's time: 32
// operations x 1 cycle x 4.
TEST(Atomics, OtherSmsOnTheSectorInterleaveTheirOperations) {
  const TimingConfig c = atomicConfig(1);
  detail::MemorySystem memory(c, detail::WriteBack::WhenEvicted);
  const detail::AtomicContention contention{{7, 4.0}};
  memory.setAtomicContention(&contention);
  MemoryCounters counters;
  const std::uint64_t sector = 7, other = 8;
  EXPECT_DOUBLE_EQ(memory.atomic(0, &sector, 1, 32, counters), 200 + 32 * 4.0);
  // A sector no other SM updates: this SM's operations alone.
  EXPECT_DOUBLE_EQ(memory.atomic(0, &other, 1, 32, counters), 200 + 32.0);
}

// estimateAtomicContention by hand: sector 5 is touched by 3 of 4 peers, so by 3/4 of the 40
// blocks the other SMs run; against this SM's 2 blocks the GPU does 1 + 30 / 2 = 16 operations
// on it per operation of this SM. Sector 9 is touched by one peer only: noise, unless every block
// was traced (then 1/4 of 4 blocks against 1 own block: 2).
TEST(Atomics, ContentionFromThePeersByHand) {
  const std::vector<detail::TracedPeer> peers{{{5}, 0}, {{5, 9}, 0}, {{5}, 0}, {{}, 0}};
  const auto sampled = detail::estimateAtomicContention({5, 9}, peers, 40, 2);
  ASSERT_EQ(sampled.count(5), 1u);
  EXPECT_DOUBLE_EQ(sampled.at(5), 16.0);
  EXPECT_EQ(sampled.count(9), 0u);
  const auto all = detail::estimateAtomicContention({5, 9}, peers, 4, 1);
  EXPECT_DOUBLE_EQ(all.at(5), 1.0 + 3.0);
  EXPECT_DOUBLE_EQ(all.at(9), 2.0);
}

}  // namespace
