// The timing.* figures of data/devices (Lai ch. 3 timing model): every product resolves a complete
// timing configuration, every generic entry carries the generation's figures, and the figures
// that cite a seed or a data/validation CSV row equal that seed value or that row (read from the
// CSV here, independently of the device files).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "teg/device/database.hpp"
#include "teg/device/device.hpp"
#include "teg/support/error.hpp"
#include "teg/timing/config.hpp"
#include "validation_csv.hpp"

namespace {

using teg::device::Device;
using teg::device::DeviceDatabase;
using teg::device::InstructionClass;

const DeviceDatabase& database() {
  static const DeviceDatabase db =
      DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  return db;
}

double latencyOf(const Device& d, InstructionClass c) { return d.timing.latency[static_cast<int>(c)]; }
double sameWarpOf(const Device& d, InstructionClass c) { return d.timing.sameWarp[static_cast<int>(c)]; }

std::vector<std::vector<std::string>> readCsv(const std::string& name) { return teg::test::readValidationCsv(name); }

// The fields of the "(a, b, c)" citation that follows `marker` in a source ("" if absent).
std::vector<std::string> citation(const std::string& source, const std::string& marker) {
  const auto at = source.find(marker);
  if (at == std::string::npos) return {};
  const std::string inside = source.substr(at + marker.size(), source.find(')', at) - at - marker.size());
  std::vector<std::string> out;
  std::size_t from = 0;
  for (auto comma = inside.find(", "); comma != std::string::npos; comma = inside.find(", ", from)) {
    out.push_back(inside.substr(from, comma - from));
    from = comma + 2;
  }
  out.push_back(inside.substr(from));
  return out;
}

// --- completeness ------------------------------------------------------------------------------

TEST(TimingFigures, EveryProductResolvesACompleteTimingConfig) {
  int products = 0;
  for (const Device& d : database().all()) {
    if (d.generic) continue;
    ++products;
    SCOPED_TRACE(d.id);
    teg::timing::TimingConfig c;
    ASSERT_NO_THROW(c = teg::timing::timingConfigFor(d, d.limits.sharedMemoryPerSm));
    EXPECT_GT(c.clockMhz, 0);
    EXPECT_GT(c.issueIntervalCycles, 0);
    for (int i = 0; i < teg::timing::kClassCount; ++i) {
      EXPECT_GT(c.executionLatency[static_cast<std::size_t>(i)], 0) << i;
      EXPECT_GT(c.sameWarpInterval[static_cast<std::size_t>(i)], 0) << i;
    }
    EXPECT_GT(c.sharedLatency, 0);
    EXPECT_GT(c.l1HitLatency, 0);
    EXPECT_GT(c.l2HitLatency, 0);
    EXPECT_GT(c.dramLatency, 0);
    // Memory levels are ordered: a shared load or an L1 hit is cheaper than an L2 hit, which is
    // not dearer than DRAM (cc 1.x has no caches: there both equal the DRAM latency).
    EXPECT_LT(c.sharedLatency, c.l2HitLatency);
    EXPECT_LE(c.l2HitLatency, c.dramLatency);
    EXPECT_GT(c.sharedWavefrontCycles, 0);
    EXPECT_GT(c.maxOutstandingSectors, 0);
  }
  EXPECT_GE(products, 40);
}

TEST(TimingFigures, EveryGenericEntryCarriesTheGenerationFigures) {
  int generics = 0;
  for (const Device& d : database().all()) {
    if (!d.generic) continue;
    ++generics;
    SCOPED_TRACE(d.id);
    EXPECT_GT(d.timing.issueInterval, 0);
    EXPECT_FALSE(d.timing.schedulerPolicy.empty());
    EXPECT_GT(latencyOf(d, InstructionClass::Fp32Fma), 0);
    EXPECT_GT(d.timing.sharedLatency, 0);
    EXPECT_GT(d.timing.l1Latency, 0);
    EXPECT_GT(d.timing.l2Latency, 0);
    EXPECT_GT(d.timing.dramLatency, 0);
    EXPECT_GT(d.timing.sharedWavefrontCycles, 0);
    EXPECT_NE(d.timing.l1CachesGlobalLoads, -1);
    // Kepler and later issue one warp instruction per scheduler per clock; Tesla and Fermi every
    // 2 shader cycles (Lai §3.2.2.1; CUDA C Programming Guide v4.2 §5.2.3).
    EXPECT_EQ(d.timing.issueInterval, d.cc.major < 3 ? 2.0 : 1.0);
  }
  EXPECT_EQ(generics, 29);  // sm_10 ... sm_121
}

// --- seed figures ------------------------------------------------------------------------------

TEST(TimingFigures, Gt200IsLaisTable31) {
  const Device& d = database().find("sm_13");
  // Lai Table 3.1: execution latency 24 (integer and float), 48 (double); same-warp issue 8 / 32.
  EXPECT_EQ(latencyOf(d, InstructionClass::Fp32Fma), 24);
  EXPECT_EQ(latencyOf(d, InstructionClass::IntAdd), 24);
  EXPECT_EQ(latencyOf(d, InstructionClass::Fp64Fma), 48);
  EXPECT_EQ(sameWarpOf(d, InstructionClass::Fp32Fma), 8);
  EXPECT_EQ(sameWarpOf(d, InstructionClass::Fp64Fma), 32);
  // Lai §3.2.2.2: a warp waits ~60 cycles after issuing a global load.
  EXPECT_EQ(sameWarpOf(d, InstructionClass::LoadStore), 60);
  // Lai §3.2.2.4: shared ~38 cycles, global 436-443 cycles.
  EXPECT_EQ(d.timing.sharedLatency, 38);
  EXPECT_GE(d.timing.dramLatency, 436);
  EXPECT_LE(d.timing.dramLatency, 443);
  EXPECT_EQ(d.timing.issueInterval, 2);
  EXPECT_EQ(d.timing.schedulerPolicy, "loose-round-robin");
  // Lai §3.2.3.3: 74 cycles conflict-free, 266 with a 16-way conflict in each half-warp; the warp
  // is 2 wavefronts (one per half-warp) conflict-free and 2 x 16 = 32 with the conflict: the
  // latency of each replay. The pipe's own rate is the guide's 32 bits per bank per 2 clocks.
  EXPECT_NEAR(d.timing.sharedReplayLatency, (266.0 - 74.0) / (32 - 2), 1e-9);
  EXPECT_EQ(d.timing.sharedOperandLatency, 74);
  EXPECT_EQ(d.timing.sharedWavefrontCycles, 2);
  EXPECT_EQ(d.timing.l1CachesGlobalLoads, 0);
}

TEST(TimingFigures, TeslaC1060IsChiensMadMicrobenchmark) {
  // Seed 002 Tables 2-3: MAD latency 31.5 (registers) and 34.6 cycles (shared operand); a MAD
  // with a shared operand issues every 6 cycles per warp = 2 half-warp wavefronts of 3 cycles.
  const auto& d = database().find("Tesla C1060");
  EXPECT_EQ(d.measured.at("mad").value, 31.5);
  EXPECT_EQ(d.measured.at("mad_smem").value, 34.6);
  EXPECT_EQ(d.timing.sharedWavefrontCycles, 6.0 / 2);
}

TEST(TimingFigures, DependentFmaLatencyPerGenerationAsPublished) {
  // CUDA C Programming Guide v4.2 §5.2.3: about 22 clock cycles on cc 2.x.
  EXPECT_EQ(latencyOf(database().find("sm_20"), InstructionClass::Fp32Fma), 22);
  // Arafa et al. 2019 (PPT-GPU table): Kepler 9, Maxwell 6.
  EXPECT_EQ(latencyOf(database().find("sm_35"), InstructionClass::Fp32Fma), 9);
  EXPECT_EQ(latencyOf(database().find("sm_52"), InstructionClass::Fp32Fma), 6);
  // Volta Tuning Guide: 'four clock cycles, compared to six cycles on Pascal'.
  EXPECT_EQ(latencyOf(database().find("sm_60"), InstructionClass::Fp32Fma), 6);
  EXPECT_EQ(latencyOf(database().find("sm_70"), InstructionClass::Fp32Fma), 4);
  // Abdelkhalik 2022 text: dependent add.f32 4 cycles on A100.
  EXPECT_EQ(latencyOf(database().find("sm_80"), InstructionClass::Fp32Fma), 4);
}

TEST(TimingFigures, L1CachingOfGlobalLoadsPerGeneration) {
  // CUDA guide 'Global Memory' sections: cc 2.x L1 by default; cc 3.x/5.x/6.x L2 only; 7.0+ L1.
  EXPECT_EQ(database().find("sm_20").timing.l1CachesGlobalLoads, 1);
  EXPECT_EQ(database().find("sm_35").timing.l1CachesGlobalLoads, 0);
  EXPECT_EQ(database().find("sm_52").timing.l1CachesGlobalLoads, 0);
  EXPECT_EQ(database().find("sm_61").timing.l1CachesGlobalLoads, 0);
  EXPECT_EQ(database().find("sm_70").timing.l1CachesGlobalLoads, 1);
  EXPECT_EQ(database().find("sm_90").timing.l1CachesGlobalLoads, 1);
}

// --- figures citing data/validation rows -------------------------------------------------------

TEST(TimingFigures, LatenciesCitingTheValidationCsvsAreItsRows) {
  // instruction_latency.csv: gpu,cc,isa,instruction,kind,cycles,...
  std::multimap<std::string, double> instructionRows;
  for (const auto& f : readCsv("instruction_latency.csv"))
    instructionRows.emplace(f.at(0) + "|" + f.at(2) + "|" + f.at(3) + "|" + f.at(4), std::stod(f.at(5)));
  // memory_latency.csv: gpu,cc,level,cycles,method,...
  std::map<std::string, double> memoryRows;
  for (const auto& f : readCsv("memory_latency.csv"))
    memoryRows[f.at(0) + "|" + f.at(2) + "|" + f.at(4)] = std::stod(f.at(3));
  ASSERT_FALSE(instructionRows.empty());
  ASSERT_FALSE(memoryRows.empty());

  int checked = 0;
  for (const Device& d : database().all()) {
    for (const auto& fig : d.figures) {
      if (fig.key.rfind("timing.", 0) != 0) continue;
      SCOPED_TRACE(d.id + " " + fig.key + " = " + fig.value);
      if (const auto row = citation(fig.source, "instruction_latency.csv ("); !row.empty()) {
        ASSERT_EQ(row.size(), 4u) << fig.source;
        EXPECT_EQ(row[3], "dependent_latency");  // never the A100 independent-issue CPI rows
        EXPECT_EQ(fig.key.rfind("timing.latency.", 0), 0u);
        const auto [first, last] = instructionRows.equal_range(row[0] + "|" + row[1] + "|" + row[2] + "|" + row[3]);
        ASSERT_NE(first, last) << fig.source;
        bool matches = false;
        for (auto it = first; it != last; ++it) matches = matches || it->second == std::stod(fig.value);
        EXPECT_TRUE(matches);
        ++checked;
      } else if (const auto mrow = citation(fig.source, "memory_latency.csv ("); !mrow.empty()) {
        ASSERT_EQ(mrow.size(), 3u) << fig.source;
        // timing.<level>_latency cites the row of that level.
        EXPECT_EQ(fig.key, "timing." + mrow[1] + "_latency");
        const auto found = memoryRows.find(mrow[0] + "|" + mrow[1] + "|" + mrow[2]);
        ASSERT_NE(found, memoryRows.end()) << fig.source;
        EXPECT_DOUBLE_EQ(std::stod(fig.value), found->second);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 60);
}

TEST(TimingFigures, L2BandwidthIsTheMemoryThroughputRow) {
  // memory_throughput.csv: gpu,cc,level,value,unit,theoretical,source,access,...
  std::map<std::string, std::pair<double, std::string>> rows;  // gpu|level|access -> value, unit
  for (const auto& f : readCsv("memory_throughput.csv"))
    rows[f.at(0) + "|" + f.at(2) + "|" + f.at(7)] = {std::stod(f.at(3)), f.at(4)};
  // The SM clock each GB/s row ran at: Jia 2019's GPUs (data/validation/README.md, 'GPUs and
  // clocks', from Jia Table 3.1) and the RTX 3060 Laptop GPU of YKTian-x2b's README at its boost
  // clock, 1702 MHz (the source prints no clock; it converts its own per-clock results at 1.7 GHz).
  // GB/s / MHz * 1000 = bytes per SM clock.
  const std::map<std::string, double> clockMhz = {
      {"V100", 1380}, {"T4", 1590}, {"P100", 1328}, {"RTX 3060 Laptop", 1702}};

  int checked = 0;
  for (const Device& d : database().all()) {
    if (d.generic || d.timing.l2BytesPerClock <= 0) continue;
    SCOPED_TRACE(d.id);
    std::string source;
    for (const auto& fig : d.figures)
      if (fig.key == "timing.l2_bytes_per_clk") source = fig.source;
    if (source.rfind("derived:", 0) == 0) continue;  // TimingFigures.DerivedL2BandwidthScalesWithL2Capacity
    const auto cited = citation(source, "memory_throughput.csv (");
    ASSERT_GE(cited.size(), 2u) << source;
    EXPECT_EQ(cited[1], "l2");
    const std::string access = cited.size() > 2 ? cited[2] : "";
    const auto found = rows.find(cited[0] + "|" + cited[1] + "|" + access);
    ASSERT_NE(found, rows.end()) << source;
    const auto& [value, unit] = found->second;
    if (unit == "B/clk") {
      EXPECT_DOUBLE_EQ(d.timing.l2BytesPerClock, value);
    } else {
      ASSERT_EQ(unit, "GB/s");
      ASSERT_EQ(clockMhz.count(cited[0]), 1u);
      EXPECT_NEAR(d.timing.l2BytesPerClock, value * 1000.0 / clockMhz.at(cited[0]), 0.05);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 7);  // V100-PCIe, T4, P100, A100-PCIe, RTX 4090, H800, RTX 3060 Laptop
}

// Every product from Volta on has an L2 bandwidth: measured (above) or derived from a measured
// product of its architecture by the L2-capacity rule its source states ("<v> B/clk of <id> (...)
// x <a> MB / <b> MB"). Checked by recomputing it from the named product's figures, so a changed
// reference or L2 size cannot leave a stale derived value behind.
TEST(TimingFigures, DerivedL2BandwidthScalesWithL2Capacity) {
  int derived = 0;
  for (const Device& d : database().all()) {
    if (d.generic || d.cc.major < 7) continue;
    SCOPED_TRACE(d.id);
    EXPECT_GT(d.timing.l2BytesPerClock, 0) << "a Volta-or-later product needs timing.l2_bytes_per_clk";
    std::string source;
    for (const auto& fig : d.figures)
      if (fig.key == "timing.l2_bytes_per_clk") source = fig.source;
    if (source.rfind("derived:", 0) != 0) continue;
    const auto of = source.find(" B/clk of ");
    ASSERT_NE(of, std::string::npos) << source;
    const auto idStart = of + std::string(" B/clk of ").size();
    const std::string refId = source.substr(idStart, source.find(' ', idStart) - idStart);
    const Device& ref = database().find(refId);
    std::string refSource;
    for (const auto& fig : ref.figures)
      if (fig.key == "timing.l2_bytes_per_clk") refSource = fig.source;
    EXPECT_EQ(refSource.rfind("derived:", 0), std::string::npos) << "derived from a derived figure: " << refId;
    ASSERT_GT(ref.memory.l2Bytes, 0);
    const double expected = ref.timing.l2BytesPerClock * static_cast<double>(d.memory.l2Bytes) /
                            static_cast<double>(ref.memory.l2Bytes);
    EXPECT_NEAR(d.timing.l2BytesPerClock, expected, 0.05 + 1e-9 * expected);
    ++derived;
  }
  EXPECT_GE(derived, 23);
}

}  // namespace

namespace {

std::string sourceOf(const Device& d, const std::string& key) {
  for (const auto& fig : d.figures)
    if (fig.key == key) return fig.source;
  return "";
}

bool derived(const std::string& source) { return source.rfind("derived:", 0) == 0; }

// Measured sustained DRAM bandwidths are the dram rows of memory_throughput.csv; Jia's rows are
// printed in GiB/s (the unit the table gives), filed in GB/s.
TEST(TimingFigures, MeasuredSustainedDramBandwidthIsTheMemoryThroughputRow) {
  std::map<std::string, std::pair<double, std::string>> rows;  // gpu -> value, unit (level dram)
  for (const auto& f : readCsv("memory_throughput.csv"))
    if (f.at(2) == "dram") rows[f.at(0)] = {std::stod(f.at(3)), f.at(4)};
  int checked = 0;
  for (const Device& d : database().all()) {
    if (d.generic || d.memory.dramSustainedGBs <= 0) continue;
    const std::string source = sourceOf(d, "memory.dram_sustained_gbs");
    if (derived(source)) continue;
    SCOPED_TRACE(d.id);
    const auto cited = citation(source, "memory_throughput.csv (");
    ASSERT_EQ(cited.size(), 2u) << source;
    EXPECT_EQ(cited[1], "dram");
    const auto found = rows.find(cited[0]);
    ASSERT_NE(found, rows.end()) << source;
    const auto& [value, unit] = found->second;
    const double gbs = unit == "GiB/s" ? value * 1.073741824 : value;
    if (unit != "GiB/s") {
      EXPECT_EQ(unit, "GB/s");
    }
    EXPECT_NEAR(d.memory.dramSustainedGBs, gbs, 0.05);
    ++checked;
  }
  EXPECT_EQ(checked, 11);  // V100-PCIe, T4, P100, A100-PCIe, RTX 4090, H800, RTX 5090 (a 5090 D's copy), RTX 2080 Ti (bandwidthTest's device-to-device copy); BabelStream Copy: A100 SXM4 80GB, H100 SXM5, H200
}

// Every product from Volta on has a sustained DRAM bandwidth below its peak; a derived one is the
// mean sustained / peak ratio of the measured products with the memory type its source names,
// times its own peak (recomputed here from those products' figures).
TEST(TimingFigures, DerivedSustainedDramBandwidthFollowsTheMemoryTypeRule) {
  int derivedCount = 0;
  for (const Device& d : database().all()) {
    if (d.generic || d.cc.major < 7) continue;
    SCOPED_TRACE(d.id);
    EXPECT_GT(d.memory.dramSustainedGBs, 0);
    EXPECT_LE(d.memory.dramSustainedGBs, d.memory.dramBandwidthGBs);
    const std::string source = sourceOf(d, "memory.dram_sustained_gbs");
    if (!derived(source)) continue;
    const std::string marker = "the products with ";
    const auto at = source.find(marker);
    ASSERT_NE(at, std::string::npos) << source;
    const auto typeStart = at + marker.size();
    const std::string type = source.substr(typeStart, source.find(' ', typeStart) - typeStart);
    double sum = 0;
    int n = 0;
    for (const Device& m : database().all()) {
      if (m.generic || m.memory.dramType != type || m.memory.dramSustainedGBs <= 0) continue;
      if (derived(sourceOf(m, "memory.dram_sustained_gbs"))) continue;
      sum += m.memory.dramSustainedGBs / m.memory.dramBandwidthGBs;
      ++n;
    }
    ASSERT_GT(n, 0) << "no measured product with " << type;
    EXPECT_NEAR(d.memory.dramSustainedGBs, d.memory.dramBandwidthGBs * sum / n, 0.05 + 1e-4 * d.memory.dramBandwidthGBs);
    ++derivedCount;
  }
  EXPECT_GE(derivedCount, 23);
}


// timing.l2_atomic_cycles of GV100, AD104 and TU102 products: Debdeep23/test1's atomic_hotspot rows
// (data/validation/atomic_hotspot.csv), recomputed here. Every thread adds 1 to one word `iters` times;
// ptxas folds each warp's adds into one RED by one lane, so a warp makes one operation on the word per
// iteration. A row of 20 trials with iters "50+100" is the mean of 10 trials of each (the source's
// aggregation merged its two commands: its population standard deviation is then half the gap between
// the two levels, which must be 2x apart), so 75 operations per warp. ns per operation x the measured
// GPU's clocks.core_mhz = cycles; every product citing a row carries that GPU's value, measured on it
// (its own) or on a GPU of the same chip (a sibling).
TEST(TimingFigures, L2AtomicCyclesAreTheAtomicHotspotRows) {
  // atomic_hotspot.csv: gpu,name_reported,cc,N,block,grid_blocks,iters,trials,time_ms,std_ms,source
  struct Size {
    double timeMs = 0;  // summed, then the mean of the rows
    int rows = 0;
    double opsPerWarp = 0, warps = 0;
  };
  std::map<std::string, Size> sizes;  // gpu|N
  for (const auto& f : readCsv("atomic_hotspot.csv")) {
    SCOPED_TRACE(f.at(0) + " " + f.at(3));
    Size& s = sizes[f.at(0) + "|" + f.at(3)];
    const double blocks = std::stod(f.at(5));
    EXPECT_DOUBLE_EQ(blocks, std::stod(f.at(3)) / std::stod(f.at(4)));  // N / block
    s.warps = blocks * std::stod(f.at(4)) / 32;
    if (f.at(6) == "50+100") {
      EXPECT_EQ(f.at(7), "20");
      const double mean = std::stod(f.at(8)), sd = std::stod(f.at(9));
      EXPECT_NEAR((mean + sd) / (mean - sd), 2.0, 0.01);  // the two levels: 50 and 100 iterations
      s.opsPerWarp = 75;
    } else {
      EXPECT_EQ(f.at(7), "1");  // one trial per row
      s.opsPerWarp = std::stod(f.at(6));
    }
    s.timeMs += std::stod(f.at(8));
    ++s.rows;
  }
  const auto nsPerOperation = [&](const std::string& key) {
    const Size& s = sizes.at(key);
    return s.timeMs / s.rows * 1e6 / (s.warps * s.opsPerWarp);
  };
  // The sizes of one GPU agree (the unit, not the launch, sets the time).
  for (const auto& [key, s] : sizes) {
    const std::string gpu = key.substr(0, key.find('|'));
    for (const auto& [other, t] : sizes) {
      if (other.rfind(gpu + "|", 0) == 0) {
        EXPECT_NEAR(nsPerOperation(key) / nsPerOperation(other), 1.0, 0.01) << key << " against " << other;
      }
    }
  }

  std::map<std::string, int> perGpu;
  int own = 0;
  for (const Device& d : database().all()) {
    for (const auto& fig : d.figures) {
      if (fig.key != "timing.l2_atomic_cycles") continue;
      const auto row = citation(fig.source, "atomic_hotspot.csv (");
      if (row.empty()) continue;
      SCOPED_TRACE(d.id + ": " + fig.source);
      ASSERT_EQ(row.size(), 2u);
      ASSERT_EQ(sizes.count(row[0] + "|" + row[1]), 1u);
      EXPECT_EQ(fig.basis, "measured");
      const Device& on = database().find(fig.measuredOn);
      EXPECT_EQ(on.chip, d.chip);  // its own or a sibling's
      EXPECT_NEAR(d.timing.l2AtomicCycles, nsPerOperation(row[0] + "|" + row[1]) * on.clocks.coreMhz / 1000.0, 0.0005);
      ++perGpu[row[0]];
      own += fig.measuredOn == d.id ? 1 : 0;
    }
  }
  // TITAN V: 7 GV100 products; RTX 4070: 7 AD104 products; RTX 2080 Ti: 4 TU102 products.
  EXPECT_EQ(perGpu, (std::map<std::string, int>{{"RTX 2080 Ti", 4}, {"RTX 4070", 7}, {"TITAN V", 7}}));
  EXPECT_EQ(own, 3);
  EXPECT_DOUBLE_EQ(database().find("l4").timing.l2AtomicCycles, 1.461);
  EXPECT_DOUBLE_EQ(database().find("tesla-v100-sxm2-16gb").timing.l2AtomicCycles, 1.148);
}

}  // namespace
