// Timing configurations built from real device entries (timingConfigFor) replayed on hand-worked
// schedules: the figures a device file gives must reach the engine as the paper measured them.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "synthetic.hpp"
#include "teg/device/database.hpp"
#include "teg/support/error.hpp"

using namespace teg::timing;
using namespace teg::timing::test;

namespace {

const teg::device::DeviceDatabase& database() {
  static const auto db = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  return db;
}

TimingConfig gtx280() { return timingConfigFor(database().find("gtx280"), 16 * 1024); }

// Wong et al. 2010 (GTX 280): r1 = r1 * r2 in 32 bits is four native instructions with 96 cycles
// of latency; one warp running a dependent chain of them takes 96 cycles per multiply.
// The unified L1's associativity follows from memory.l1_sets (4) and the L1 the carve-out leaves,
// 128-byte lines: V100 without shared memory 128 KiB = 1024 lines = 4 x 256 ways; A100 with the
// 32 KiB carve-out of 32 blocks' reserved shared memory 160 KiB = 4 x 320; T4 with 32 KiB of its
// 96 KiB shared 64 KiB = 4 x 128. The P100's L1 is apart from shared memory and has no l1_sets:
// it keeps TimingConfig's 4 ways.
TEST(DeviceConfig, TheUnifiedL1HasFourSetsOfTheWaysItsCarveOutLeaves) {
  EXPECT_EQ(timingConfigFor(database().find("tesla-v100-pcie-16gb"), 0).l1Ways, 256);
  EXPECT_EQ(timingConfigFor(database().find("a100-sxm4-40gb"), 32 * 1024).l1Ways, 320);
  EXPECT_EQ(timingConfigFor(database().find("tesla-t4"), 32 * 1024).l1Ways, 128);
  EXPECT_EQ(timingConfigFor(database().find("tesla-p100-sxm2-16gb"), 0).l1Ways, 4);
}

TEST(DeviceConfig, Gt200DependentIntegerMultiplyChainTakes96CyclesEach) {
  const auto kernel = kernelOf({alu({1}, {1, 2}, InstructionClass::IntMul)}, 1, 32);
  const auto r = runSynthetic(gtx280(), {}, kernel, [](auto, auto) { return repeat(0, 50); });
  EXPECT_DOUBLE_EQ(r.cycles, 50 * 96.0);
}

// ... and 2 of them complete per clock per SM: 16 warps of independent multiplies keep the SP
// pipe busy 32 / 2 = 16 cycles per warp instruction, four times a 24-bit multiply's 4.
TEST(DeviceConfig, Gt200IntegerMultiplyThroughputIsTwoPerClock) {
  const std::size_t n = 40;
  const auto kernel32 = kernelOf({alu({1}, {2, 3}, InstructionClass::IntMul)}, 1, 16 * 32);
  const auto r32 = runSynthetic(gtx280(), {}, kernel32, [&](auto, auto) { return repeat(0, n); });
  const auto kernel24 = kernelOf({alu({1}, {2, 3}, InstructionClass::IntMul24)}, 1, 16 * 32);
  const auto r24 = runSynthetic(gtx280(), {}, kernel24, [&](auto, auto) { return repeat(0, n); });
  // 640 warp instructions through one pipe: 16 cycles each, plus the last one's latency.
  EXPECT_NEAR(r32.cycles, 16 * 40 * 16.0 + 96, 16.0);
  EXPECT_NEAR(r24.cycles, 16 * 40 * 4.0 + 24, 8.0);
}

// Shared loads are hoisted like global ones where they are instructions of their own (LDS, cc 2.0
// on), not on cc 1.x, whose ALU instructions read a shared operand directly (the load is fused).
TEST(DeviceConfig, SharedLoadsAreHoistedOnlyWhereTheyAreNotFusedIntoTheirConsumer) {
  EXPECT_FALSE(gtx280().hoistSharedLoads);
  EXPECT_GT(gtx280().sharedOperandLatency, 0);
  for (const char* id : {"gtx480", "tesla-t4", "a100-sxm4-40gb", "h100-sxm5-80gb"}) {
    const auto config = timingConfigFor(database().find(id), 0);
    EXPECT_TRUE(config.hoistLoads && config.hoistSharedLoads) << id;
    EXPECT_EQ(config.sharedOperandLatency, 0) << id;
  }
}

// Coalescing follows the compute capability: the segment rules of cc 1.0/1.1 and 1.2/1.3, sectors
// from Fermi on.
TEST(DeviceConfig, CoalescingRulesFollowTheComputeCapability) {
  EXPECT_EQ(gtx280().coalescing, Coalescing::Cc13Segments);
  EXPECT_EQ(timingConfigFor(database().find("tesla-c1060"), 0).coalescing, Coalescing::Cc13Segments);
  // No cc 1.0/1.1 product is in the database: a profile of one (the generic entry with the GTX
  // 280's SM count, clocks and memory) gets the older rules.
  auto cc11 = database().find("sm_11");
  const auto& gt200 = database().find("gtx280");
  cc11.smCount = gt200.smCount;
  cc11.clocks = gt200.clocks;
  cc11.memory = gt200.memory;
  EXPECT_EQ(timingConfigFor(cc11, 0).coalescing, Coalescing::Cc10Segments);
  for (const char* id : {"gtx480", "a100-sxm4-40gb"})
    EXPECT_EQ(timingConfigFor(database().find(id), 0).coalescing, Coalescing::Sectors) << id;
}

}  // namespace

namespace {

// Issue 24: device figures at the edges of what the loader accepts (data/devices/ranges/) must
// keep the engine's arithmetic finite: the slowest clock, the longest latencies and issue
// interval, the thinnest throughput and bandwidth. (Under the sanitizer build: UBSan clean.)
TEST(DeviceConfig, ExtremeAcceptedFiguresGiveAFiniteTime) {
  const auto path = std::filesystem::temp_directory_path() / "teg_extreme_figures_a100.json";
  std::ofstream(path) << R"({"id": "a100-sxm4-40gb", "figures": {
    "clocks.core_mhz": {"value": 1, "source": "edge of the range"},
    "clocks.base_mhz": {"value": 1, "source": "edge of the range"},
    "timing.issue_interval": {"value": 1000000, "source": "edge of the range"},
    "timing.latency.fp32_fma": {"value": 1000000, "source": "edge of the range"},
    "timing.same_warp.fp32_fma": {"value": 1000000, "source": "edge of the range"},
    "timing.dram_latency": {"value": 1000000, "source": "edge of the range"},
    "latency.dram": {"value": 1000000, "unit": "cycles", "method": "m", "source": "edge of the range"},
    "latency.l2": {"value": 1000000, "unit": "cycles", "method": "m", "source": "edge of the range"},
    "throughput.fp32_fma": {"value": 0.001, "source": "edge of the range"},
    "throughput.load_store": {"value": 0.001, "source": "edge of the range"},
    "memory.dram_bandwidth_gbs": {"value": 0.1, "source": "edge of the range"},
    "memory.dram_sustained_gbs": {"value": 0.1, "source": "edge of the range"},
    "timing.l2_bytes_per_clk": {"value": 0.1, "source": "edge of the range"}}})";
  auto db = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  db.applyOverrideFile(path.string());
  std::filesystem::remove(path);
  const TimingConfig config = timingConfigFor(db.find("a100"), 0);
  std::vector<teg::trace::StaticInstruction> code = independentGlobalLoads(4);
  code.push_back(alu({1}, {1, 10}));
  const auto kernel = kernelOf(code, 2, 64);
  const auto r = runSynthetic(config, {}, kernel, [](auto, auto) { return std::vector<std::uint32_t>{0, 1, 2, 3, 4, 4, 4}; },
                              [](auto block, auto warp, std::size_t i, int lane) {
                                return 0x10000000ull + (block * 2 + warp) * 4096 + i * 1024 + lane * 4;
                              });
  EXPECT_TRUE(std::isfinite(r.cycles) && r.cycles > 0) << r.cycles;
  EXPECT_TRUE(std::isfinite(r.timeMs) && r.timeMs > 0) << r.timeMs;
  for (const auto& u : r.units)
    for (double load : u.load) EXPECT_TRUE(std::isfinite(load));
}

// A sustained DRAM bandwidth above the peak (an override of one without the other) is an error
// naming both figures, not a pipe faster than the datasheet.
TEST(DeviceConfig, ASustainedDramBandwidthAboveThePeakIsAnError) {
  const auto path = std::filesystem::temp_directory_path() / "teg_sustained_above_peak.json";
  std::ofstream(path) << R"({"id": "tesla-v100-pcie-16gb", "figures": {
    "memory.dram_bandwidth_gbs": {"value": 500, "source": "a test override"}}})";
  auto db = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  db.applyOverrideFile(path.string());
  std::filesystem::remove(path);
  try {
    timingConfigFor(db.find("tesla-v100-pcie-16gb"), 0);
    FAIL() << "expected an error";
  } catch (const teg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("memory.dram_sustained_gbs 805.3 is above the peak memory.dram_bandwidth_gbs 500"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace

// The L1 data path (timing.l1_bytes_per_clk): the RTX 4090's is Luo 2024's 16-byte-load figure,
// 121.2 B/clk/SM, not its 16 LD/ST lanes x 4 B = 64; a device without the figure keeps lanes x 4
// (V100: 32 x 4 = 128). A warp's 16-byte load (32 x 16 B = 16 sectors) then holds the 4090's
// LSU 512 / 121.2 = 4.22 cycles instead of 8.
TEST(DeviceConfig, TheL1DataPathIsTheMeasuredWidthWhereGivenElseTheLanesTimesFour) {
  auto db = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  EXPECT_DOUBLE_EQ(timingConfigFor(db.find("rtx4090"), 0).lsuBytesPerCycle, 121.2);
  EXPECT_DOUBLE_EQ(timingConfigFor(db.find("tesla-v100-pcie-16gb"), 0).lsuBytesPerCycle, 128.0);
}
