// Lai's SGEMM upper bound (seed 000 ch. 4): the three figures of sect. 4.3.5 to the printed digit,
// the register allocation of sect. 4.4.2, the bank rule of sect. 4.2.3 against Table 4.1, and what
// the bound says for GPUs the seed never saw (hand calculations from their datasheet figures).
#include <gtest/gtest.h>

#include <cmath>

#include "teg/device/database.hpp"
#include "teg/models/sgemm_bound.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

using namespace teg::models;

namespace {

const teg::device::DeviceDatabase& db() {
  static const auto database =
      teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  return database;
}

std::string dataFile() { return std::string(TEG_SOURCE_DIR) + "/data/models/sgemm_bound.json"; }

SgemmBound boundOf(const std::string& gpu, int lds) {
  return sgemmBound(sgemmBoundParametersFor(db().find(gpu), lds, dataFile()));
}

// The seed prints one decimal of a percentage.
double printed(double fraction) { return std::round(1000 * fraction) / 10; }

}  // namespace

// Sect. 4.3.5: "the potential peak is about 82.5 % (6²/(6²+6·2·0.5) · 30.8/32)".
TEST(SgemmBound, Gtx580Lds64Is82_5Percent) {
  const auto s = boundOf("gtx580", 64);
  EXPECT_EQ(s.blocking.blocking, 6);
  EXPECT_DOUBLE_EQ(s.instructionFactor, 0.5);
  EXPECT_NEAR(s.ffmaShare, 36.0 / 42.0, 1e-12);  // 85.7 %, sect. 4.3.2
  EXPECT_NEAR(s.throughputFactor, 30.8 / 32, 1e-12);
  EXPECT_EQ(printed(s.boundFraction), 82.5);
  EXPECT_EQ(s.binding, "SM throughput");
}

// Sect. 4.3.5: 54.6 % (LDS.64, 122.4/192) and 57.6 % (LDS.128, 119.9/192) on the GTX 680.
TEST(SgemmBound, Gtx680Lds64Is54_6AndLds128Is57_6Percent) {
  const auto s64 = boundOf("gtx680", 64);
  const auto s128 = boundOf("gtx680", 128);
  EXPECT_EQ(s64.blocking.blocking, 6);
  EXPECT_EQ(s128.blocking.blocking, 6);
  EXPECT_EQ(printed(s64.boundFraction), 54.6);
  EXPECT_EQ(printed(s128.boundFraction), 57.6);
  EXPECT_NEAR(s128.ffmaShare, 36.0 / 39.0, 1e-12);  // 92.3 %
}

// Sect. 4.3.2: "in the best case we can only achieve around 71 % (24.5/32 · 92.3 %)" (LDS.128 on
// Fermi), and LDS: 75 % of instructions are FFMA.
TEST(SgemmBound, Gtx580OtherWidths) {
  EXPECT_NEAR(boundOf("gtx580", 128).boundFraction, 0.71, 0.005);
  const auto s32 = boundOf("gtx580", 32);
  EXPECT_DOUBLE_EQ(s32.ffmaShare, 0.75);
  EXPECT_NEAR(s32.boundFraction, 0.75 * 31.3 / 32, 1e-12);
}

// Sect. 4.4.2: with B_R = 6, 256 threads per block and L = 16 the allocation is 63 registers
// (36 C + 12 prefetch + 6 A + 2 B + 7 index); sect. 4.3.5: 512 active threads on Fermi, 1024 on
// Kepler; eq. 4.3: B_R <= 7 with 63 registers.
TEST(SgemmBound, RegisterAllocationOfSect4_4_2) {
  auto p = sgemmBoundParametersFor(db().find("gtx580"), 64, dataFile());
  const auto b = maxRegisterBlocking(p);
  EXPECT_EQ(b.blocking, 6);
  EXPECT_EQ(b.looseBlocking, 7);
  EXPECT_EQ(b.sharedBlocking, 96);
  EXPECT_EQ(b.activeThreads, 512);
  // The seed chose L = 16 (12 prefetch registers, 63 in all); L = 8 also satisfies eq. 4.4, and
  // the model takes the smallest: 6 prefetch registers. Both fit, neither fits B_R = 7.
  EXPECT_EQ(b.stride, 8);
  EXPECT_EQ(6 * 6 + 2 * 96 * 16 / 256 + 6 + 2 + p.indexRegisters, 63);
  EXPECT_EQ(maxRegisterBlocking(sgemmBoundParametersFor(db().find("gtx680"), 64, dataFile())).activeThreads, 1024);
}

// The unit-rate F_T on the seed's GPUs: issue-bound (the seed's conclusion), and above the
// measured one (the measurement includes dependences the rates leave out).
TEST(SgemmBound, DerivedThroughputIsIssueBoundOnFermiAndKepler) {
  for (const char* gpu : {"gtx580", "gtx680"}) {
    const auto s = boundOf(gpu, 64);
    EXPECT_EQ(s.derivedLimiter, "issue") << gpu;
    EXPECT_GT(s.derivedThroughputFactor, s.throughputFactor) << gpu;
  }
  // Fermi: 42 thread instructions at 32 per clock: F_T = 1 exactly, 85.7 % of peak.
  EXPECT_NEAR(boundOf("gtx580", 64).derivedThroughputFactor, 1.0, 1e-12);
}

// GPUs the seed did not measure: 255 registers per thread allow B_R = 14 (196 + 14 + 14 + 4 + 7 =
// 235 with LDS.128 and L = 8). A100: 64 FP32 lanes against 128 issue slots per clock, so the FP32
// units bind: 100 % of peak. H100: 128 FP32 lanes = 128 issue slots: issue-bound like Kepler,
// 196 / (196 + 7) = 96.55 % with LDS.128, 196 / 210 = 93.3 % with LDS.64.
TEST(SgemmBound, A100IsFp32BoundAndH100IssueBound) {
  const auto a100 = boundOf("a100", 128);
  EXPECT_EQ(a100.blocking.blocking, 14);
  EXPECT_EQ(a100.derivedLimiter, "FP32 units");
  EXPECT_NEAR(a100.boundFraction, 1.0, 1e-12);
  const auto h100 = boundOf("h100", 128);
  EXPECT_EQ(h100.blocking.blocking, 14);
  EXPECT_EQ(h100.derivedLimiter, "issue");
  EXPECT_NEAR(h100.boundFraction, 196.0 / 203.0, 1e-12);
  EXPECT_NEAR(boundOf("h100", 64).boundFraction, 196.0 / 210.0, 1e-12);
}

// Eq. 4.8: B_Sh/4 flop per byte; GTX 580: 96/4 x 192.4 GB/s = 4617.6 GFLOP/s, far above the SM
// bound, so eq. 4.11 picks the SM bound.
TEST(SgemmBound, MemoryBoundOfEq4_8) {
  const auto s = boundOf("gtx580", 64);
  EXPECT_NEAR(s.memBoundGflops, 24 * 192.4, 1e-9);
  EXPECT_LT(s.smBoundGflops, s.memBoundGflops);
  // With a tenth of the bandwidth the memory bound takes over.
  auto p = sgemmBoundParametersFor(db().find("gtx580"), 64, dataFile());
  p.bandwidthGBs = 19.24;
  const auto starved = sgemmBound(p);
  EXPECT_EQ(starved.binding, "global memory bandwidth");
  EXPECT_NEAR(starved.potentialGflops, 24 * 19.24, 1e-9);
}

TEST(SgemmBound, RejectsImpossibleParameters) {
  auto p = sgemmBoundParametersFor(db().find("gtx580"), 64, dataFile());
  p.threadsPerBlock = 200;  // not a square
  EXPECT_THROW(maxRegisterBlocking(p), teg::Error);
  p.threadsPerBlock = 256;
  p.maxRegistersPerThread = 10;  // 1 + 2 + 1 + 2 + 7 = 13 > 10: nothing fits
  EXPECT_THROW(maxRegisterBlocking(p), teg::Error);
  p.maxRegistersPerThread = 63;
  p.ldsWidthBits = 96;
  EXPECT_THROW(sgemmBound(p), teg::Error);
}

// Sect. 4.2.3's bank rule reproduces the conflict column of Table 4.1 (data file), and the
// measured rates fall to about 1/2 and 1/3 with a 2- and 3-way conflict for FFMA.
TEST(SgemmBound, KeplerBanksReproduceTable4_1) {
  const auto data = teg::readJsonFile(dataFile());
  int checked = 0;
  double best = 0;
  for (const auto& row : data.at("kepler_register_banks").at("rows")) {
    const std::string text = row.at("instruction").get<std::string>();
    std::vector<int> sources;
    // "OP RD, RA, RB[, RC]": the registers after the destination.
    std::size_t pos = text.find(',');
    while (pos != std::string::npos) {
      const std::size_t r = text.find('R', pos);
      sources.push_back(std::stoi(text.substr(r + 1)));
      pos = text.find(',', r);
    }
    EXPECT_EQ(keplerBankConflictDegree(sources), row.at("conflict").get<int>()) << text;
    if (text.rfind("FFMA", 0) == 0) {
      if (row.at("conflict") == 1) best = row.at("throughput").get<double>();
      else EXPECT_NEAR(row.at("throughput").get<double>() * row.at("conflict").get<int>(), best, 0.02 * best) << text;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 12);
  EXPECT_EQ(keplerRegisterBank(0), 0);
  EXPECT_EQ(keplerRegisterBank(4), 1);
  EXPECT_EQ(keplerRegisterBank(1), 2);
  EXPECT_EQ(keplerRegisterBank(13), 3);
}
