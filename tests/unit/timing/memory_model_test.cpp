// The memory pipeline against hand counts: bank-conflict replays (Lai §3.2.3.3), DRAM bandwidth
// share, caches, what-if switches (Lai §3.4).
#include <gtest/gtest.h>

#include "synthetic.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

namespace {

// ld.shared r1, [addr]; then r2 = r1 + 1 (consumes the load). 8 warps, one block.
TimingResult sharedColumnRead(std::uint64_t strideBytes, bool noBankConflicts) {
  auto config = simpleConfig(4, 1, 1);
  config.noBankConflicts = noBankConflicts;
  const auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Shared, {1}, {3}), alu({2}, {1})}, 1, 256);
  return runSynthetic(
      config, {}, kernel, [](auto, auto) { return std::vector<std::uint32_t>{0, 1}; },
      [&](auto, auto, std::size_t, int lane) { return static_cast<std::uint64_t>(lane) * strideBytes; });
}

TEST(MemoryModel, BankConflictsSerialiseTheSharedPipeline) {
  // 8 warps × 32 wavefronts × 2 cycles per wavefront = 512 cycles of MIO time; the last warp's
  // load issues at 7·64 = 448, returns after 20 + 31·2 = 82 cycles, its add takes 4: 534.
  const auto conflicted = sharedColumnRead(128, false);
  EXPECT_EQ(conflicted.memory.sharedWavefronts, 8u * 32u);
  EXPECT_DOUBLE_EQ(conflicted.cycles, 448 + 82 + 4);
  EXPECT_EQ(conflicted.bound, "shared memory");
  // Padded (stride 132): one wavefront each; loads issue every 2 cycles: last at 14, +20 +4.
  const auto padded = sharedColumnRead(132, false);
  EXPECT_EQ(padded.memory.sharedWavefronts, 8u);
  EXPECT_DOUBLE_EQ(padded.cycles, 14 + 20 + 4);
  // The what-if removes the conflicts of the conflicted trace: same time as the padded one.
  const auto whatIf = sharedColumnRead(128, true);
  EXPECT_DOUBLE_EQ(whatIf.cycles, padded.cycles);
}

// 8 warps each read one 16-byte shared vector, every lane the same address (an LDS.128
// broadcast, as the worklog SGEMMs read their A tile): 4 quarter-warp phases, or 2 where paired
// lanes share their return data (cc >= 7.0, trace::pairUniformAddresses).
TEST(MemoryModel, ABroadcastVectorLoadTakesHalfTheWavefrontsWherePairedLanesShareTheirData) {
  const auto run = [](bool paired) {
    auto config = simpleConfig(4, 1, 1);
    config.sharedPairedLoads = paired;
    const auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Shared, {1}, {3}, 16), alu({2}, {1})}, 1, 256);
    return runSynthetic(
        config, {}, kernel, [](auto, auto) { return std::vector<std::uint32_t>{0, 1}; },
        [](auto, auto, std::size_t, int) { return std::uint64_t{256}; });
  };
  const auto quarter = run(false);
  const auto paired = run(true);
  EXPECT_EQ(quarter.memory.sharedWavefronts, 8u * 4u);
  EXPECT_EQ(paired.memory.sharedWavefronts, 8u * 2u);
  // The pipe is busy 2 cycles a wavefront: the last warp's load issues at 7 x 8 = 56 (unpaired)
  // or 7 x 4 = 28 (paired); its data return 20 + (waves - 1) x 2 later; the add takes 4.
  EXPECT_DOUBLE_EQ(quarter.cycles, 56 + 20 + 3 * 2 + 4);
  EXPECT_DOUBLE_EQ(paired.cycles, 28 + 20 + 1 * 2 + 4);
}

// 16 warps each load 64 distinct consecutive 128-byte lines (coalesced f32) through a 16 B/cycle
// DRAM share with no L2, at most `concurrency` sectors in flight (0: no limit).
TimingResult streamingLoads(int concurrency) {
  auto config = simpleConfig(4, 1, 1);
  config.dramBytesPerCycle = 16;
  config.l2BytesShare = 0;  // no L2 either: every sector goes to DRAM
  config.maxOutstandingSectors = concurrency;
  const auto kernel = kernelOf(independentGlobalLoads(64), 1, 512);
  const auto all = everyPc(64);
  return runSynthetic(
      config, {}, kernel, [&](auto, auto) { return all; },
      [](auto, std::uint32_t warp, std::size_t i, int lane) {
        return 0x10000000ull + (static_cast<std::uint64_t>(warp) * 64 + i) * 128 + 4ull * static_cast<std::uint64_t>(lane);
      });
}

TEST(MemoryModel, StreamingLoadsAreBoundByTheDramShare) {
  // 16 warps each load 64 distinct consecutive 128-byte lines (coalesced f32): 16·64·128 B =
  // 128 KiB through a 16 B/cycle DRAM share = 8192 cycles, plus one latency at the end.
  const auto r = streamingLoads(0);
  EXPECT_EQ(r.memory.dramSectors, 16u * 64u * 4u);
  EXPECT_NEAR(r.cycles, 8192 + 400, 8);
  EXPECT_EQ(r.bound, "DRAM bandwidth");
}

TEST(MemoryModel, TheConcurrencyLimitOfLaiEq32StillDeliversTheDramShare) {
  // The streaming loads above with C_mem from Lai eq. 3.2: 16 B/cycle × 400 cycles / 32 B = 200
  // sectors. A sector holds its slot for its own transfer (2 cycles) plus the latency, 402
  // cycles, and a 4-sector request is admitted when half of it fits, so the slots carry between
  // 200 and 202 sectors per 402 cycles: from the share × 400/402 to the whole share. Had a sector
  // held its slot while it queued for the DRAM pipe too, the limit would cut the rate further.
  const auto r = streamingLoads(200);
  EXPECT_EQ(r.memory.dramSectors, 16u * 64u * 4u);
  EXPECT_GE(r.cycles, 8192.0 + 400 - 1e-9);
  EXPECT_LE(r.cycles, 8192.0 * 402 / 400 + 400 + 16);
}

// One warp: `aluFirst` dependent 4-cycle ALU instructions, then one load of 32 sectors (a 128-byte
// stride: one sector per lane) through a 16 B/cycle DRAM share (2 cycles per sector), latency 400.
TimingResult burstAfter(std::size_t aluFirst) {
  auto config = simpleConfig(4, 1, 1);
  config.dramBytesPerCycle = 16;
  config.l2BytesShare = 0;
  const auto kernel = kernelOf({alu({1}, {1}), memory(InstrKind::Load, MemorySpace::Global, {10}, {2})}, 1, 32);
  return runSynthetic(
      config, {}, kernel,
      [&](auto, auto) {
        auto pcs = repeat(0, aluFirst);
        pcs.push_back(1);
        return pcs;
      },
      [](auto, auto, std::size_t, int lane) { return 0x10000000ull + 128ull * static_cast<std::uint64_t>(lane); });
}

TEST(MemoryModel, TheDramShareBoundsTheSustainedRateNotABurstAfterIdleTime) {
  // Lai eq. 3.1: C_mem = share × latency / sector transactions in flight complete in one latency.
  // At the kernel's start every SM asks at once: the load issues at 0 and its 32 sectors go
  // through the share one after the other; the last starts at 62, moves for 2, returns 400 later.
  EXPECT_DOUBLE_EQ(burstAfter(0).cycles, 62 + 2 + 400);
  // The load does not wait for the ALU chain: after 20 ALU instructions it issues at 19·4 + 1 =
  // 77. By then the SM has left 77 cycles of its share unused, more than the burst's 64, so every
  // sector leaves at 77: 77 + 2 + 400. (Paced from 77 on, the old rule, it would be 77 + 62 + 402.)
  EXPECT_DOUBLE_EQ(burstAfter(20).cycles, 77 + 2 + 400);
  // The credit is at most one DRAM latency: after 50 ALU instructions (issue at 197) it is the same.
  EXPECT_DOUBLE_EQ(burstAfter(50).cycles, 197 + 2 + 400);
}

// 16 warps each load the same 128-byte line 64 times (into 64 registers, so no load waits for
// another): after the first access every sector hits the L2, whose pipe moves 32 B (one sector)
// per cycle when `l2BytesPerCycle` is given. C_mem is 8 sectors; an L2 hit takes 200 cycles.
TimingResult l2HitLoads(double l2BytesPerCycle) {
  auto config = simpleConfig(4, 1, 1);
  config.dramBytesPerCycle = 16;
  config.l2BytesShare = 65536;
  config.l2BytesPerCycle = l2BytesPerCycle;
  config.maxOutstandingSectors = 8;
  const auto all = everyPc(64);
  return runSynthetic(
      config, {}, kernelOf(independentGlobalLoads(64), 1, 512), [&](auto, auto) { return all; },
      [](auto, auto, std::size_t, int lane) { return 0x10000000ull + 4ull * static_cast<std::uint64_t>(lane); });
}

TEST(MemoryModel, L2HitsDoNotTakeTheDramConcurrencySlotsWhenTheL2BandwidthIsKnown) {
  // 16 x 64 requests of 4 sectors = 4096 sectors, all but the first 4 L2 hits. C_mem (Lai eq. 3.2)
  // is the DRAM pipeline's: with the L2's bandwidth given, hits are paced by the L2 pipe alone,
  // one sector per cycle: the last starts at 4095 and returns 200 cycles later.
  const auto paced = l2HitLoads(32);
  EXPECT_EQ(paced.memory.l2Hits, 4096u - 4u);
  EXPECT_GE(paced.cycles, 4095.0 + 200);
  EXPECT_LE(paced.cycles, 4095.0 + 200 + 8);
  EXPECT_EQ(paced.bound, "L2 bandwidth");
  // Without an L2 bandwidth figure the hits still hold C_mem slots for their 200 cycles: two
  // 4-sector requests fit under 8 slots (a request is admitted when half of it fits), so 8
  // sectors per 200 cycles: 4096 / 8 x 200 = 102,400 cycles.
  const auto slotted = l2HitLoads(0);
  EXPECT_NEAR(slotted.cycles, 102400, 1024);
  // That queue is the bottleneck the report names: 4092 hits x 200 slot-cycles / 8 slots = 102,300
  // cycles of the 102,400, not "latency" (no unit or bandwidth comes near).
  EXPECT_EQ(slotted.bound, "memory concurrency (C_mem)");
}

// 16 warps each load 64 distinct 128-byte lines into 64 registers, then store each register back
// to the line it came from (y = f(y), as saxpy updates y): 16 x 64 x 4 = 4096 sectors each way,
// 128 KiB per block. The L2 share (256 KiB) holds one block's data; its pipe moves 4 sectors per
// cycle (never the bottleneck), DRAM 16 B/cycle, C_mem 200 (Lai eq. 3.2: 16 x 400 / 32). Block 0 is simulated, of a
// grid of `gridBlocks` (the others touch lines of their own). `storeTwice`: every line is stored
// a second time.
TimingResult readModifyWrite(std::uint32_t gridBlocks, bool storeTwice = false) {
  auto config = simpleConfig(4, 1, 1);
  config.dramBytesPerCycle = 16;
  config.l2BytesShare = 256 * 1024;
  config.l2BytesPerCycle = 128;
  config.maxOutstandingSectors = 200;
  EngineOptions options;
  options.maxSampledBlocks = 1;
  std::vector<teg::trace::StaticInstruction> code;
  for (std::uint32_t i = 0; i < 64; ++i) code.push_back(memory(InstrKind::Load, MemorySpace::Global, {10 + i}, {2}));
  for (std::uint32_t i = 0; i < 64; ++i) code.push_back(memory(InstrKind::Store, MemorySpace::Global, {}, {2, 10 + i}));
  std::vector<std::uint32_t> pcs(128);
  for (std::uint32_t i = 0; i < 128; ++i) pcs[i] = i;
  if (storeTwice)
    for (std::uint32_t i = 64; i < 128; ++i) pcs.push_back(i);
  return runSynthetic(
      config, options, kernelOf(code, gridBlocks, 512), [&](auto, auto) { return pcs; },
      [](std::uint32_t block, std::uint32_t warp, std::size_t i, int lane) {
        const std::uint64_t line = (block * 16ull + warp) * 64 + i % 64;
        return 0x10000000ull + line * 128 + 4ull * static_cast<std::uint64_t>(lane);
      });
}

TEST(MemoryModel, StoresDirtyingLinesOfALaunchLargerThanTheL2CostDramWriteBacks) {
  // Four blocks of 128 KiB outgrow the 256 KiB L2 share, so every sector a store dirties is
  // written back while the kernel runs. The stores hit the L2 (their loads brought the lines in)
  // and each dirties a clean sector: 4096 reads + 4096 writes, 8192 x 32 B = 256 KiB through the
  // 16 B/cycle share = 16,384 cycles. Through C_mem a sector holds its slot for 402 cycles and
  // 200-202 slots turn over per 402 cycles, so the last request is admitted between
  // (8192 - 202) / 202 x 402 = 15,901 and 16,384 x 402/400 cycles (plus a latency for a load);
  // the block ends with its last store (its drain is not waited for).
  const auto r = readModifyWrite(4);
  EXPECT_EQ(r.memory.l2Hits, 4096u);
  EXPECT_EQ(r.memory.dramWriteSectors, 4096u);
  EXPECT_EQ(r.memory.dramSectors, 8192u);
  EXPECT_GE(r.simulatedCycles, 15901.0);
  EXPECT_LE(r.simulatedCycles, 16384.0 * 402 / 400 + 400 + 16);
  EXPECT_EQ(r.bound, "DRAM bandwidth");
  // Storing every line twice: the second stores find their sectors dirty and add no DRAM traffic.
  const auto twice = readModifyWrite(4, true);
  EXPECT_EQ(twice.memory.l2Hits, 2u * 4096u);
  EXPECT_EQ(twice.memory.dramWriteSectors, 4096u);
  EXPECT_EQ(twice.memory.dramSectors, 8192u);
}

TEST(MemoryModel, DirtySectorsOfALaunchThatFitsInTheL2StayThere) {
  // One block of 128 KiB fits in the 256 KiB L2 share: nothing is evicted, so the stores cost no
  // DRAM time and the reads alone set the pace: 4096 sectors x 2 cycles = 8192 (to 402/400 of it
  // through C_mem). A warp's stores come after its 64 loads, and round-robin admits every warp's
  // last load near the end, so the 1024 stores follow then, one per cycle on the one scheduler, the
  // last after its data's latency. With the write-backs it would take twice as long (above).
  const auto r = readModifyWrite(1);
  EXPECT_EQ(r.memory.l2Hits, 4096u);
  EXPECT_EQ(r.memory.dramWriteSectors, 0u);
  EXPECT_EQ(r.memory.dramSectors, 4096u);
  EXPECT_GE(r.simulatedCycles, 8192.0 * 200 / 202 + 400);
  EXPECT_LE(r.simulatedCycles, 8192.0 * 402 / 400 + 400 + 1024);
}

TEST(MemoryModel, ADirtyLineIsWrittenBackWhenItIsEvicted) {
  // Dirty sectors stay in the L2 until their line is evicted, then they are written back. A
  // 256-byte share of 2 ways is one set; five coalesced stores to five lines: the third evicts
  // the first, the fourth the second, the fifth the third, each with its 4 dirty sectors: 12
  // write-backs.
  auto config = simpleConfig(4, 1, 1);
  config.l2BytesShare = 256;
  config.l2Ways = 2;
  const auto kernel = kernelOf({memory(InstrKind::Store, MemorySpace::Global, {}, {2, 3})}, 1, 32);
  const auto r = runSynthetic(
      config, {}, kernel, [](auto, auto) { return repeat(0, 5); },
      [](auto, auto, std::size_t i, int lane) { return 0x10000000ull + i * 16 * 128 + 4ull * static_cast<std::uint64_t>(lane); });
  EXPECT_EQ(r.memory.l2Hits, 0u);
  EXPECT_EQ(r.memory.dramWriteSectors, 12u);
  EXPECT_EQ(r.memory.dramSectors, 12u);
}

TEST(MemoryModel, AStoreMissWritesWithoutReadingTheSector) {
  // Ten coalesced stores per block to lines never loaded (1280 B per block), a 1 KiB L2 share
  // (8 lines). The L2 allocates the sectors dirty without a fill (it keeps byte masks), so no
  // sector is read from DRAM.
  auto config = simpleConfig(4, 1, 1);
  config.l2BytesShare = 1024;
  const auto kernel = [](std::uint32_t blocks) {
    return kernelOf({memory(InstrKind::Store, MemorySpace::Global, {}, {2, 3})}, blocks, 32);
  };
  auto run = [&](std::uint32_t blocks, std::uint64_t sampled) {
    EngineOptions options;
    options.maxSampledBlocks = sampled;
    return runSynthetic(config, options, kernel(blocks), [](auto, auto) { return repeat(0, 10); },
                        [](std::uint32_t block, auto, std::size_t i, int lane) {
                          return 0x10000000ull + (block * 10ull + i) * 128 + 4ull * static_cast<std::uint64_t>(lane);
                        });
  };
  // Block 0 of two simulated: the launch outgrows the L2 share, so each dirtied sector is charged
  // its write-back at once: 40.
  const auto sampled = run(2, 1);
  EXPECT_EQ(sampled.memory.l2Hits, 0u);
  EXPECT_EQ(sampled.memory.dramSectors, 40u);
  EXPECT_EQ(sampled.memory.dramWriteSectors, 40u);
  // The one block simulated whole: the writes reach DRAM when evicted, inside the simulated time.
  // The first 8 lines fit; the 9th and 10th evict the 1st and 2nd: 8 write-backs.
  const auto whole = run(1, 0);
  EXPECT_EQ(whole.memory.dramSectors, 8u);
  EXPECT_EQ(whole.memory.dramWriteSectors, 8u);
  // The report says which rule applied.
  auto writeBackOrigin = [](const TimingResult& r) {
    for (const auto& a : r.assumptions)
      if (a.parameter == "L2 write-back") return a.origin;
    return std::string("(none)");
  };
  EXPECT_NE(writeBackOrigin(sampled).find("outgrow"), std::string::npos) << writeBackOrigin(sampled);
  EXPECT_NE(writeBackOrigin(whole).find("every block simulated"), std::string::npos) << writeBackOrigin(whole);
}

TEST(MemoryModel, CacheOperatorsDecideWhetherTheL1ServesALoad) {
  // The repeated line of the test below, on a device whose plain loads skip the L1 (cc 3.x-6.x):
  // a .ca/.nc load still hits it; on a device that caches plain loads, a .cg load does not.
  auto load = memory(InstrKind::Load, MemorySpace::Global, {1}, {2});
  auto run = [&](teg::trace::CachePolicy policy, bool cachesPlainLoads) {
    auto config = simpleConfig(4, 1, 1);
    config.l1CachesGlobalLoads = cachesPlainLoads;
    config.l1Bytes = 16384;
    load.cache = policy;
    return runSynthetic(
        config, {}, kernelOf({load}, 1, 32), [](auto, auto) { return repeat(0, 100); },
        [](auto, auto, std::size_t, int lane) { return 4096ull + 4ull * static_cast<std::uint64_t>(lane); });
  };
  using teg::trace::CachePolicy;
  EXPECT_EQ(run(CachePolicy::Default, false).memory.l1Hits, 0u);
  EXPECT_EQ(run(CachePolicy::CacheL1, false).memory.l1Hits, 99u * 4u);
  EXPECT_EQ(run(CachePolicy::Default, true).memory.l1Hits, 99u * 4u);
  const auto bypass = run(CachePolicy::BypassL1, true);
  EXPECT_EQ(bypass.memory.l1Hits, 0u);
  EXPECT_EQ(bypass.memory.dramSectors, 400u);  // no L2 share in simpleConfig: every sector to DRAM
}

TEST(MemoryModel, RepeatedLinesHitTheCache) {
  // One warp loads the same line 100 times through an L1: 1 miss (4 sectors), then hits.
  auto config = simpleConfig(4, 1, 1);
  config.l1CachesGlobalLoads = true;
  config.l1Bytes = 16384;
  const auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {1}, {2})}, 1, 32);
  const auto r = runSynthetic(
      config, {}, kernel, [](auto, auto) { return repeat(0, 100); },
      [](auto, auto, std::size_t, int lane) { return 4096ull + 4ull * static_cast<std::uint64_t>(lane); });
  EXPECT_EQ(r.memory.l1Hits, 99u * 4u);
  EXPECT_EQ(r.memory.dramSectors, 4u);
}

TEST(MemoryModel, PerfectCoalescingWhatIfCountsOnlyTheBytesUsed) {
  // Stride-32 floats: every lane its own sector (32 sectors); perfectly coalesced: 4.
  auto config = simpleConfig(4, 1, 1);
  const auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {1}, {2})}, 1, 32);
  auto address = [](auto, auto, std::size_t i, int lane) {
    return (i * 32 + static_cast<std::uint64_t>(lane)) * 128;
  };
  const auto scattered = runSynthetic(config, {}, kernel, [](auto, auto) { return repeat(0, 10); }, address);
  config.perfectCoalescing = true;
  const auto coalesced = runSynthetic(config, {}, kernel, [](auto, auto) { return repeat(0, 10); }, address);
  EXPECT_EQ(scattered.memory.sectorsRequested, 320u);
  EXPECT_EQ(coalesced.memory.sectorsRequested, 40u);
}

// Compute capability 1.x moves whole transactions (Lai §3.2.3.4): one warp reading floats from
// byte 4 touches 5 sectors, but on cc 1.2/1.3 its half-warps issue 128 + 64 + 32 bytes (7 sectors)
// and on cc 1.0/1.1, out of alignment, 32 transactions of 32 bytes.
TEST(MemoryModel, ComputeCapability1xMovesWholeTransactions) {
  auto config = simpleConfig(4, 1, 1);
  const auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {1}, {2})}, 1, 32);
  auto misaligned = [](auto, auto, std::size_t i, int lane) {
    return i * 4096 + 4 + 4ull * static_cast<std::uint64_t>(lane);
  };
  auto run = [&](Coalescing coalescing) {
    config.coalescing = coalescing;
    return runSynthetic(config, {}, kernel, [](auto, auto) { return repeat(0, 10); }, misaligned);
  };
  EXPECT_EQ(run(Coalescing::Sectors).memory.dramSectors, 10u * 5u);
  EXPECT_EQ(run(Coalescing::Cc13Segments).memory.dramSectors, 10u * 7u);
  EXPECT_EQ(run(Coalescing::Cc10Segments).memory.dramSectors, 10u * 32u);
  // The what-if still counts only the bytes used: 128 bytes, 4 sectors.
  config.perfectCoalescing = true;
  EXPECT_EQ(run(Coalescing::Cc10Segments).memory.dramSectors, 10u * 4u);
}

TEST(MemoryModel, ForcedL2HitRateIsExact) {
  auto config = simpleConfig(4, 1, 1);
  config.forcedL2HitRate = 0.25;
  const auto kernel = kernelOf({memory(InstrKind::Load, MemorySpace::Global, {1}, {2})}, 1, 32);
  const auto r = runSynthetic(
      config, {}, kernel, [](auto, auto) { return repeat(0, 100); },
      [](auto, auto, std::size_t i, int lane) { return (i * 32 + 0ull) * 128 + 4ull * static_cast<std::uint64_t>(lane); });
  EXPECT_EQ(r.memory.l2Hits, 100u);       // 400 sectors, a quarter hit
  EXPECT_EQ(r.memory.dramSectors, 300u);
}

}  // namespace

namespace {

TEST(WhatIfModel, NoDivergencePacksHalfMaskedInstructionsIntoHalfAsMany) {
  // One warp: 40 independent FMAs by lanes 0-15 then 40 by lanes 16-31 (an if/else). Packed,
  // they are 40 full-warp instructions: issue every 2 cycles (unit interval) -> half the time.
  auto config = simpleConfig(4, 2, 1);
  const auto kernel = kernelOf({alu({1}, {2}), alu({3}, {2})}, 1, 32);
  auto run = [&](bool packed) {
    config.noDivergence = packed;
    TimingEngine engine(config, {});
    engine.beginKernel(kernel);
    engine.beginBlock(0);
    teg::trace::WarpInstruction r;
    r.pc = 1;
    r.activeMask = 0xFFFFFFFFu;
    engine.instruction(r);  // establishes the warp's full mask
    for (int half = 0; half < 2; ++half)
      for (int i = 0; i < 40; ++i) {
        r.pc = 0;
        r.activeMask = half == 0 ? 0x0000FFFFu : 0xFFFF0000u;
        engine.instruction(r);
      }
    engine.endBlock(0);
    return engine.finish();
  };
  const auto diverged = run(false);
  const auto packed = run(true);
  EXPECT_EQ(diverged.warpInstructions, 81u);
  EXPECT_EQ(packed.warpInstructions, 41u);
  EXPECT_DOUBLE_EQ(diverged.cycles, 80 * 2.0 + 4);
  EXPECT_DOUBLE_EQ(packed.cycles, 40 * 2.0 + 4);
}

}  // namespace

TEST(MemoryModel, TextureFetchesAreLoadsThroughTheL1) {
  // A texture fetch as the emulator traces it (a Load in the Texture space, cache operator L1,
  // one 4-byte texel per lane): on a device whose plain global loads skip the L1, 100 fetches of
  // one line still miss once (4 sectors) and hit 99 times; the result is a long-latency load.
  auto fetch = memory(InstrKind::Load, MemorySpace::Texture, {1}, {2});
  fetch.cache = teg::trace::CachePolicy::CacheL1;
  auto config = simpleConfig(4, 1, 1);
  config.l1CachesGlobalLoads = false;
  config.l1Bytes = 16384;
  const auto r = runSynthetic(
      config, {}, kernelOf({fetch}, 1, 32), [](auto, auto) { return repeat(0, 100); },
      [](auto, auto, std::size_t, int lane) { return 4096ull + 4ull * static_cast<std::uint64_t>(lane); });
  EXPECT_EQ(r.memory.l1Hits, 99u * 4u);
  EXPECT_EQ(r.memory.dramSectors, 4u);
  // Without an L1 (cc 1.x here) every fetch goes to the memory below.
  config.l1Bytes = 0;
  const auto uncached = runSynthetic(
      config, {}, kernelOf({fetch}, 1, 32), [](auto, auto) { return repeat(0, 100); },
      [](auto, auto, std::size_t, int lane) { return 4096ull + 4ull * static_cast<std::uint64_t>(lane); });
  EXPECT_EQ(uncached.memory.l1Hits, 0u);
  EXPECT_EQ(uncached.memory.dramSectors, 400u);
}
