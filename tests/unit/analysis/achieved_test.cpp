// Achieved figures against hand calculations: bandwidth = bytes / time at SM and GPU scope, % of
// peak against the device's figures, the roofline, and the tail of a hand-worked grid.
#include "teg/analysis/achieved.hpp"

#include <gtest/gtest.h>

#include "teg/analysis/flop_counter.hpp"

namespace teg::analysis {
namespace {

// A made-up GPU with round figures: 10 SMs at 1000 MHz, 64 fp32 FMA per clock per SM (peak 10 x
// 64 x 2 x 1 GHz = 1280 GFLOP/s), 80 GB/s of DRAM (8 B per cycle per SM).
device::Device roundGpu() {
  device::Device d;
  d.name = "round";
  d.smCount = 10;
  d.clocks.coreMhz = 1000;
  d.memory.dramBandwidthGBs = 80;
  d.throughput[static_cast<int>(device::InstructionClass::Fp32Fma)] = 64;
  return d;
}

timing::TimingConfig roundConfig() {
  timing::TimingConfig c;
  c.smCount = 10;
  c.clockMhz = 1000;
  c.schedulers = 4;
  c.issueIntervalCycles = 1;
  c.sectorBytes = 32;
  c.sharedBanks = 32;
  c.sharedBankWidth = 4;
  c.sharedWavefrontCycles = 1;   // 128 B per cycle
  c.lsuBytesPerCycle = 128;
  c.l2BytesPerCycle = 0;         // no figure
  c.dramBytesPerCycle = 8;
  return c;
}

// 1e6 simulated cycles = 1 ms at 1000 MHz; 4 MB from DRAM = 4 GB/s on the SM.
timing::TimingResult oneMillisecond() {
  timing::TimingResult r;
  r.simulatedCycles = 1e6;
  r.warpInstructions = 2'000'000;  // issue: 2e6 x 1 / 4 schedulers = 5e5 cycles = 50 %
  r.residentBlocks = 2;
  r.memory.dramBytes = 4e6;
  r.memory.sectorsRequested = 250'000;  // 8 MB through the L1: 8 GB/s of 128 GB/s
  r.memory.l1Hits = 125'000;            // 4 MB to the L2
  r.memory.sharedWavefronts = 100'000;  // 12.8 MB of wavefronts: 10 % of the shared pipe
  return r;
}

const MemoryLevelRate& level(const Achieved& a, const std::string& name) {
  for (const auto& m : a.memory)
    if (m.level == name) return m;
  throw std::runtime_error("no level " + name);
}

TEST(Achieved, BandwidthIsBytesOverTimeAtSmAndGpuScope) {
  const Achieved a = achievedFigures(roundGpu(), roundConfig(), oneMillisecond(), {}, 100, 1.0);
  EXPECT_EQ(a.activeSms, 10);
  EXPECT_DOUBLE_EQ(a.simulatedSeconds, 1e-3);
  const auto& dram = level(a, "DRAM");
  EXPECT_DOUBLE_EQ(dram.bytesSm, 4e6);
  EXPECT_DOUBLE_EQ(dram.achievedGBsSm, 4.0);     // 4e6 B / 1e-3 s
  EXPECT_DOUBLE_EQ(dram.peakGBsSm, 8.0);
  EXPECT_DOUBLE_EQ(dram.fractionOfPeakSm, 0.5);
  EXPECT_DOUBLE_EQ(dram.achievedGBsGpu, 40.0);   // 10 SMs
  EXPECT_DOUBLE_EQ(dram.peakGBsGpu, 80.0);       // the datasheet figure
  EXPECT_DOUBLE_EQ(dram.fractionOfPeakGpu, 0.5);
  const auto& l1 = level(a, "L1");
  EXPECT_DOUBLE_EQ(l1.achievedGBsSm, 8.0);
  EXPECT_DOUBLE_EQ(l1.fractionOfPeakSm, 8.0 / 128);
  const auto& l2 = level(a, "L2");
  EXPECT_DOUBLE_EQ(l2.achievedGBsSm, 4.0);
  EXPECT_FALSE(l2.hasPeak);
  EXPECT_DOUBLE_EQ(level(a, "shared").fractionOfPeakSm, 0.1);
  ASSERT_FALSE(a.units.empty());
  EXPECT_EQ(a.units[0].name, "issue");
  EXPECT_DOUBLE_EQ(a.units[0].fractionOfPeakSm, 0.5);
}

TEST(Achieved, AGridSmallerThanTheGpuLeavesSmsIdleInTheGpuFigures) {
  // 4 blocks on 10 SMs: 4 SMs move 4 GB/s each = 16 GB/s of the GPU's 80.
  const Achieved a = achievedFigures(roundGpu(), roundConfig(), oneMillisecond(), {}, 4, 1.0);
  EXPECT_EQ(a.activeSms, 4);
  const auto& dram = level(a, "DRAM");
  EXPECT_DOUBLE_EQ(dram.fractionOfPeakSm, 0.5);
  EXPECT_DOUBLE_EQ(dram.achievedGBsGpu, 16.0);
  EXPECT_DOUBLE_EQ(dram.fractionOfPeakGpu, 0.2);
  EXPECT_DOUBLE_EQ(a.units[0].fractionOfPeakGpu, 0.2);
}

TEST(Achieved, RooflinePlacesTheKernelUnderTheMemoryRoof) {
  FlopCount flops;
  flops.fp32 = 1e6;  // per SM: 1e6 FLOP over 4e6 DRAM bytes = 0.25 FLOP/B
  const Achieved a = achievedFigures(roundGpu(), roundConfig(), oneMillisecond(), flops, 100, 1.0);
  const RooflinePlace& r = a.roofline;
  ASSERT_TRUE(r.available) << r.note;
  EXPECT_EQ(r.precision, "fp32");
  EXPECT_DOUBLE_EQ(r.intensity, 0.25);
  EXPECT_DOUBLE_EQ(r.peakGflopsGpu, 1280);
  EXPECT_DOUBLE_EQ(r.ridge, 16);                  // 1280 / 80
  EXPECT_DOUBLE_EQ(r.attainableGflopsGpu, 20);    // 0.25 x 80
  EXPECT_DOUBLE_EQ(r.achievedGflopsGpu, 10);      // 1e6 x 10 SMs / 1 ms
  EXPECT_EQ(r.binding, "memory");

  flops.fp32 = 1e8;  // 25 FLOP/B: past the ridge
  EXPECT_EQ(achievedFigures(roundGpu(), roundConfig(), oneMillisecond(), flops, 100, 1.0).roofline.binding, "compute");
  EXPECT_FALSE(achievedFigures(roundGpu(), roundConfig(), oneMillisecond(), {}, 100, 1.0).roofline.available);
}

TEST(Achieved, TailOfAHandWorkedGrid) {
  // 1000 blocks on 108 SMs x 8 = 864 per wave: 2 waves, the last of 136 blocks; 1 - 136/864 of
  // the last wave's slots idle; 1728 slots offered for 1000 blocks: 728/1728 idle overall.
  const TailEffect t = tailEffect(1000, 108, 8, 0.75);
  EXPECT_EQ(t.blocksPerWave, 864u);
  EXPECT_EQ(t.waves, 2u);
  EXPECT_DOUBLE_EQ(t.wavesPerSm, 1000.0 / 864);
  EXPECT_EQ(t.lastWaveBlocks, 136u);
  EXPECT_EQ(t.idleSmsInLastWave, 0);
  EXPECT_DOUBLE_EQ(t.lastWaveIdleFraction, 1 - 136.0 / 864);
  EXPECT_DOUBLE_EQ(t.idleFraction, 728.0 / 1728);
  EXPECT_DOUBLE_EQ(t.achievedOccupancy, 0.75 * 1000 / 1728);
}

TEST(Achieved, TailWithIdleSmsAndWithoutATail) {
  // 900 blocks: the last wave has 36 blocks, one on each of 36 SMs; 72 SMs idle.
  const TailEffect t = tailEffect(900, 108, 8, 1.0);
  EXPECT_EQ(t.lastWaveBlocks, 36u);
  EXPECT_EQ(t.idleSmsInLastWave, 72);
  // 50 blocks on 108 SMs: one wave, 58 SMs without a block.
  EXPECT_EQ(tailEffect(50, 108, 8, 1.0).idleSmsInLastWave, 58);
  // Exactly two waves: nothing idle.
  const TailEffect full = tailEffect(1728, 108, 8, 0.5);
  EXPECT_EQ(full.lastWaveBlocks, 864u);
  EXPECT_DOUBLE_EQ(full.idleFraction, 0);
  EXPECT_DOUBLE_EQ(full.achievedOccupancy, 0.5);
}

TEST(FlopCounter, CountsAddMulFmaPerActiveLaneAsNsightDoes) {
  EXPECT_DOUBLE_EQ(laneFlopsOf("fma.rn.f32 %f4, %f2, %f1, %f3;").flops, 2);
  EXPECT_DOUBLE_EQ(laneFlopsOf("@%p1 add.f64 %fd1, %fd2, %fd3;").flops, 1);
  EXPECT_EQ(laneFlopsOf("mul.rn.f64 %fd1, %fd2, %fd3;").precision, LaneFlops::Precision::Fp64);
  // SASS: what ptxas made of them; its conversions and constant moves are no arithmetic.
  EXPECT_DOUBLE_EQ(laneFlopsOfSass("FFMA R4, R2, R3, R4").flops, 2);
  EXPECT_DOUBLE_EQ(laneFlopsOfSass("@!P0 FADD.FTZ R1, R2, -R3").flops, 1);
  EXPECT_EQ(laneFlopsOfSass("DFMA R4, R2, R6, R4").precision, LaneFlops::Precision::Fp64);
  EXPECT_DOUBLE_EQ(laneFlopsOfSass("HFMA2 R0, R1, R2, R3").flops, 4);
  EXPECT_DOUBLE_EQ(laneFlopsOfSass("HFMA2.MMA R3, -RZ, RZ, 0, 1.875").flops, 0);
  EXPECT_DOUBLE_EQ(laneFlopsOfSass("HADD2.F32 R0, -RZ, R2.H0_H0").flops, 0);
  EXPECT_DOUBLE_EQ(laneFlopsOfSass("IMAD R0, R1, R2, R3").flops, 0);
  EXPECT_DOUBLE_EQ(laneFlopsOfSass("UFFMA UR4, UR5, UR6, UR4").flops, 0);
  EXPECT_DOUBLE_EQ(laneFlopsOf("fma.rn.f16x2 %r1, %r2, %r3, %r4;").flops, 4);
  EXPECT_DOUBLE_EQ(laneFlopsOf("mad.lo.s32 %r1, %r2, %r3, %r4;").flops, 0);  // integer
  EXPECT_DOUBLE_EQ(laneFlopsOf("div.rn.f32 %f1, %f2, %f3;").flops, 0);      // not counted
  EXPECT_DOUBLE_EQ(laneFlopsOf("ld.global.f32 %f1, [%rd1];").flops, 0);

  trace::KernelInfo k;
  k.instructions.resize(2);
  k.instructions[0].text = "fma.rn.f32 %f4, %f2, %f1, %f3;";
  k.instructions[1].text = "add.f32 %f1, %f2, %f3;";
  FlopCounter counter({0, 4});  // block 1 is a peer block: not counted
  counter.beginKernel(k);
  for (std::uint32_t block : {0u, 1u, 4u}) {
    counter.beginBlock(block);
    trace::WarpInstruction w;
    w.block = block;
    w.activeMask = 0xffffffffu;
    w.pc = 0;
    counter.instruction(w);  // 32 lanes x 2
    w.pc = 1;
    w.activeMask = 0x0000000fu;
    counter.instruction(w);  // 4 lanes x 1
    counter.endBlock(block);
  }
  EXPECT_DOUBLE_EQ(counter.count().fp32, 2 * (64 + 4));
  EXPECT_DOUBLE_EQ(counter.count().fp64, 0);
}

}  // namespace
}  // namespace teg::analysis
