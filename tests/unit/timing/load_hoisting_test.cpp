// ptxas-like load hoisting (src/timing/load_hoisting.hpp) against hand-worked schedules: one warp,
// one scheduler, ALU latency 4 with a 1-cycle issue, a 400-cycle DRAM latency.
#include <gtest/gtest.h>

#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

namespace {

// One warp runs `code` once, in program order, with or without hoisting; its global loads read
// one coalesced line.
TimingResult straightLine(const std::vector<teg::trace::StaticInstruction>& code, bool hoist, bool hoistShared = false) {
  auto config = simpleConfig(4, 1, 1);
  config.hoistLoads = hoist;
  config.hoistSharedLoads = hoistShared;
  config.l2BytesShare = 0;
  std::vector<std::uint32_t> pcs(code.size());
  for (std::uint32_t pc = 0; pc < pcs.size(); ++pc) pcs[pc] = pc;
  return runSynthetic(
      config, {}, kernelOf(code, 1, 32), [&](auto, auto) { return pcs; },
      [](auto, auto, std::size_t, int lane) { return 0x10000000ull + 4ull * static_cast<std::uint64_t>(lane); });
}

// Runs `code` in order and hoisted: hoisting must save `gain` cycles and issue `firstPcs` first.
void expectHoistingGain(const std::vector<teg::trace::StaticInstruction>& code, double gain,
                        const std::vector<std::uint32_t>& firstPcs, bool hoistShared = false) {
  const auto inOrder = straightLine(code, false);
  const auto hoisted = straightLine(code, true, hoistShared);
  EXPECT_DOUBLE_EQ(inOrder.cycles - hoisted.cycles, gain);
  ASSERT_GE(hoisted.timeline.size(), firstPcs.size());
  for (std::size_t i = 0; i < firstPcs.size(); ++i) EXPECT_EQ(hoisted.timeline[i].pc, firstPcs[i]) << "issue " << i;
}

TEST(LoadHoisting, AGlobalLoadMovesAboveIndependentArithmetic) {
  // pc 0-1: two dependent FMAs on r5 (independent of the load); pc 2: a global load r2 <- [r1];
  // pc 3: r3 = r2 + r5. In PTX order: FMA 0 issues at 0, FMA 1 waits for its result until 4, and
  // the load (which needs neither) issues in order right after, at 5; the add waits for the load.
  // Hoisted: the load issues at 0 and the FMAs run under its latency, so the kernel ends 5 cycles
  // earlier.
  expectHoistingGain({alu({5}, {5}), alu({5}, {5}), memory(InstrKind::Load, MemorySpace::Global, {2}, {1}), alu({3}, {2, 5})},
                     5, {2});
}

TEST(LoadHoisting, ALoadStaysBelowTheArithmeticThatMakesItsAddress) {
  // pc 0 computes the address r1; the load must wait for it: hoisting changes nothing.
  auto config = simpleConfig(4, 1, 1);
  config.hoistLoads = true;
  const auto kernel = kernelOf({alu({1}, {1}), memory(InstrKind::Load, MemorySpace::Global, {2}, {1}), alu({3}, {2})}, 1, 32);
  const auto pcs = [](auto, auto) { return std::vector<std::uint32_t>{0, 1, 2}; };
  const auto addr = [](auto, auto, std::size_t, int lane) { return 0x10000000ull + 4ull * static_cast<std::uint64_t>(lane); };
  const auto hoisted = runSynthetic(config, {}, kernel, pcs, addr);
  config.hoistLoads = false;
  const auto inOrder = runSynthetic(config, {}, kernel, pcs, addr);
  EXPECT_DOUBLE_EQ(hoisted.cycles, inOrder.cycles);
  EXPECT_EQ(hoisted.timeline.front().pc, 0u);
}

TEST(LoadHoisting, AGlobalLoadMovesUpWithTheArithmeticThatMakesItsAddress) {
  // pc 0-1: two dependent FMAs on r5; pc 2: the address r1 = f(r9); pc 3: a global load r2 <- [r1];
  // pc 4: r3 = r2 + r5. In PTX order: FMAs at 0 and 4, the address at 5, the load at 9 (4 cycles
  // after its address). Hoisted as ptxas would: the address at 0, the load at 4, the FMAs under its
  // latency; the add waits for the load, which now issues 5 cycles earlier.
  expectHoistingGain({alu({5}, {5}), alu({5}, {5}), alu({1}, {9}), memory(InstrKind::Load, MemorySpace::Global, {2}, {1}),
                      alu({3}, {2, 5})},
                     5, {2, 3});
}

TEST(LoadHoisting, TheAddressArithmeticDoesNotPassAnInstructionThatReadsWhatItOverwrites) {
  // pc 0 reads the old r1, pc 1 overwrites r1 with the load's address: the address computation
  // cannot move above pc 0 (it would change what pc 0 reads), so the load and its address stay.
  const auto r = straightLine({alu({6}, {1}), alu({1}, {9}), memory(InstrKind::Load, MemorySpace::Global, {2}, {1})}, true);
  ASSERT_GE(r.timeline.size(), 3u);
  EXPECT_EQ(r.timeline[0].pc, 0u);
  EXPECT_EQ(r.timeline[1].pc, 1u);
  EXPECT_EQ(r.timeline[2].pc, 2u);
}

TEST(LoadHoisting, AGlobalLoadPassesSharedStoresButNotGlobalOnes) {
  // ld.global r2 <- [r1]; st.shared [r3] <- r2; ld.global r4 <- [r5]; st.shared [r6] <- r4: the
  // SDK matmul's tile load. Shared memory cannot alias global memory, so the second load goes up
  // to just below the first and the two DRAM latencies overlap.
  auto config = simpleConfig(4, 1, 1);
  config.l2BytesShare = 0;
  const auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {2}, {1}),
                                memory(InstrKind::Store, MemorySpace::Shared, {}, {3, 2}),
                                memory(InstrKind::Load, MemorySpace::Global, {4}, {5}),
                                memory(InstrKind::Store, MemorySpace::Shared, {}, {6, 4})},
                               1, 32);
  const auto pcs = [](auto, auto) { return std::vector<std::uint32_t>{0, 1, 2, 3}; };
  const auto addr = [](auto, auto, std::size_t i, int lane) {
    return 0x10000000ull + i * 4096 + 4ull * static_cast<std::uint64_t>(lane);
  };
  config.hoistLoads = true;
  const auto hoisted = runSynthetic(config, {}, kernel, pcs, addr);
  ASSERT_GE(hoisted.timeline.size(), 2u);
  EXPECT_EQ(hoisted.timeline[1].pc, 2u);  // the second global load issued second
  config.hoistLoads = false;
  const auto inOrder = runSynthetic(config, {}, kernel, pcs, addr);
  // In order the second load waits for the first store, i.e. for the first load's 400+ cycles.
  EXPECT_GT(inOrder.cycles - hoisted.cycles, 390);

  // A global store in between stops the hoist (the two accesses may alias).
  const auto withGlobalStore = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {2}, {1}),
                                         memory(InstrKind::Store, MemorySpace::Global, {}, {3, 2}),
                                         memory(InstrKind::Load, MemorySpace::Global, {4}, {5})},
                                        1, 32);
  config.hoistLoads = true;
  const auto kept = runSynthetic(
      config, {}, withGlobalStore, [](auto, auto) { return std::vector<std::uint32_t>{0, 1, 2}; }, addr);
  ASSERT_GE(kept.timeline.size(), 3u);
  EXPECT_EQ(kept.timeline[1].pc, 1u);
}

// The issue order of `code` run hoisted (with shared loads too).
std::vector<std::uint32_t> hoistedOrder(const std::vector<teg::trace::StaticInstruction>& code) {
  const auto r = straightLine(code, true, true);
  std::vector<std::uint32_t> order;
  for (const auto& entry : r.timeline) order.push_back(entry.pc);
  return order;
}

teg::trace::StaticInstruction sharedLoad(std::uint32_t def, std::uint32_t address) {
  return memory(InstrKind::Load, MemorySpace::Shared, {def}, {address});
}

TEST(LoadHoisting, ASharedLoadMovesAboveIndependentArithmetic) {
  // The PTX of an unrolled shared-memory dot product: ld.shared r2; fma r10 += r2; ld.shared r3;
  // fma r10 += r3 (shared latency 20, a conflict-free request occupies the pipe 2 cycles). In
  // order: load 0 at 0, its FMA at 20, the second load at 21 (same-warp interval), its FMA when
  // it returns at 41, done at 45. Hoisted (ptxas issues the LDS ahead of the FFMAs): the second
  // load at 2 (the pipe is free again), done at 22; FMA 1 at 20, FMA 3 at 24 (after FMA 1), done
  // at 28: 17 cycles earlier.
  expectHoistingGain({sharedLoad(2, 1), alu({10}, {2, 10}), sharedLoad(3, 4), alu({10}, {3, 10})}, 17, {0, 2, 1, 3},
                     true);
}

TEST(LoadHoisting, ASharedLoadStaysWhereSharedOperandsAreFused) {
  // hoistSharedLoads off (cc 1.x, where the load is fused into its consumer): the order stays.
  const auto r = straightLine({sharedLoad(2, 1), alu({10}, {2, 10}), sharedLoad(3, 4), alu({10}, {3, 10})}, true, false);
  ASSERT_GE(r.timeline.size(), 4u);
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(r.timeline[i].pc, i);
}

TEST(LoadHoisting, ASharedLoadPassesNoMemoryAccess) {
  // An FMA, then a memory access, then a shared load and its use: the load passes nothing but
  // arithmetic, so it stops below the access whatever it is — a shared store (which may write
  // the word it reads), a global store or a global load (whose order teg keeps; the global load
  // itself moves above the FMA).
  const std::vector<teg::trace::StaticInstruction> accesses = {
      memory(InstrKind::Store, MemorySpace::Shared, {}, {6, 7}), memory(InstrKind::Store, MemorySpace::Global, {}, {6, 7}),
      memory(InstrKind::Load, MemorySpace::Global, {8}, {6})};
  for (const auto& access : accesses) {
    const auto order = hoistedOrder({alu({5}, {5}), access, sharedLoad(2, 1), alu({3}, {2})});
    const bool globalLoad = access.kind == InstrKind::Load;
    EXPECT_EQ(order, (globalLoad ? std::vector<std::uint32_t>{1, 0, 2, 3} : std::vector<std::uint32_t>{0, 1, 2, 3}))
        << "access space " << static_cast<int>(access.space);
  }
  // Without the access it moves to the top of the run.
  EXPECT_EQ(hoistedOrder({alu({5}, {5}), alu({9}, {5}), sharedLoad(2, 1), alu({3}, {2})}),
            (std::vector<std::uint32_t>{2, 0, 1, 3}));
}

TEST(LoadHoisting, AGlobalLoadStillPassesTheSharedLoadsBeforeIt) {
  // ld.shared r2; an FMA; ld.global r3; its use. Global loads move first, as without shared
  // hoisting: the global load passes the FMA and the shared load (no aliasing across state
  // spaces); the shared load, moved in a second pass, then stops below it.
  EXPECT_EQ(hoistedOrder({sharedLoad(2, 1), alu({5}, {5}), memory(InstrKind::Load, MemorySpace::Global, {3}, {4}),
                          alu({6}, {3, 2})}),
            (std::vector<std::uint32_t>{2, 0, 1, 3}));
}

TEST(LoadHoisting, ASharedLoadStopsAtABarrier) {
  // The loads after __syncthreads() read what other warps stored before it.
  EXPECT_EQ(hoistedOrder({alu({5}, {5}), barrier(), alu({9}, {5}), sharedLoad(2, 1), alu({3}, {2})}),
            (std::vector<std::uint32_t>{0, 1, 3, 2, 4}));
}

}  // namespace
