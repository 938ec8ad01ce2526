// GPUDIAG estimators (seed 004 sect. 3.2.3, eqs. 3.9-3.13) on N_slot measurements generated
// from known buffers, clean and with off-by-one noise.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <random>
#include <string>

#include "teg/models/gpudiag.hpp"
#include "teg/models/gpudiag_estimate.hpp"
#include "teg/support/error.hpp"

using namespace teg::models;

namespace {

// The hidden truth: a Volta-like SM (N1 = 32 blocks, N2 = 64 warps), 48 KB shared memory in
// 256-byte units, 65536 registers in 256-register units.
constexpr int kN1 = 32, kN2 = 64;
constexpr std::int64_t kS = 49152, kSmin = 256, kR = 65536, kRmin = 256;

StateBuffers truth() {
  StateBuffers b;
  b.barrierSlots = kN1;
  b.warpSlots = kN2;
  b.sharedMemory = kS;
  b.sharedMemoryGranularity = kSmin;
  b.registerFiles = {{kR, kRmin}};
  return b;
}

// "Measures" N_slot with eq. 3.3 — what the deadlock kernel of Fig. 3.4 would find.
int measure(int warps, std::int64_t smem, std::int64_t regs) {
  return slotCount(truth(), {warps, smem, {regs}}).slots;
}

SlotMeasurements cleanMeasurements() {
  SlotMeasurements m;
  for (int b = 1; b <= 64; ++b) m.warpSlots.push_back({b, measure(b, 0, 32)});  // eq. 3.9
  for (std::int64_t s = 1; s <= kS; s += 97) m.sharedMemory.push_back({s, measure(1, s, 32)});
  for (int b : {1, 2, 3, 4, 8}) {
    for (std::int64_t r = 64; r <= 8192; r += 61) m.registers.push_back({b, r, measure(b, 0, r)});
  }
  return m;
}

// Off-by-one errors (a timeout firing early or late) on `percent` % of the samples, from a fixed
// seed with the raw generator so that the data are the same on every standard library.
template <typename Sample>
int addNoise(std::vector<Sample>& samples, unsigned seed, unsigned percent) {
  std::mt19937 rng(seed);
  int changed = 0;
  for (auto& s : samples) {
    if (rng() % 100 >= percent) continue;
    const int delta = (rng() % 2 == 0) ? 1 : -1;
    if (s.slots + delta < 0) continue;
    s.slots += delta;
    ++changed;
  }
  return changed;
}

}  // namespace

TEST(GpudiagEstimate, CleanDataGiveEq312And313Exactly) {
  const auto m = cleanMeasurements();
  const auto wsb = estimateWarpSlots(m.warpSlots);
  EXPECT_EQ(wsb.barrierSlots, kN1);  // N1 = N_slot,wsb(1)
  EXPECT_EQ(wsb.warpSlots, kN2);     // N2 = max_b b·N_slot,wsb(b)
  EXPECT_EQ(wsb.mismatches, 0);

  const auto shm = estimateSharedMemory(m.sharedMemory, wsb);
  EXPECT_EQ(shm.size, kS);
  EXPECT_EQ(shm.granularity, kSmin);
  EXPECT_EQ(shm.mismatches, 0);

  const auto rf = estimateRegisterFile(m.registers, wsb);
  EXPECT_EQ(rf.size, kR);
  EXPECT_EQ(rf.granularity, kRmin);
  EXPECT_EQ(rf.mismatches, 0);
}

TEST(GpudiagEstimate, RecoversParametersFromNoisyData) {
  auto m = cleanMeasurements();
  const int noisyW = addNoise(m.warpSlots, 1, 10);
  const int noisyS = addNoise(m.sharedMemory, 2, 10);
  const int noisyR = addNoise(m.registers, 3, 10);
  ASSERT_GT(noisyW, 0);
  ASSERT_GT(noisyS, 0);
  ASSERT_GT(noisyR, 0);

  const auto wsb = estimateWarpSlots(m.warpSlots);
  EXPECT_EQ(wsb.barrierSlots, kN1);
  EXPECT_EQ(wsb.warpSlots, kN2);
  EXPECT_EQ(wsb.mismatches, noisyW);  // exactly the corrupted samples disagree

  const auto shm = estimateSharedMemory(m.sharedMemory, wsb);
  EXPECT_EQ(shm.size, kS);
  EXPECT_EQ(shm.granularity, kSmin);
  EXPECT_EQ(shm.mismatches, noisyS);

  const auto rf = estimateRegisterFile(m.registers, wsb);
  EXPECT_EQ(rf.size, kR);
  EXPECT_EQ(rf.granularity, kRmin);
  EXPECT_EQ(rf.mismatches, noisyR);
}

// The seed's plain estimator N2 = max_b b·N(b) is fooled by a single +1 error on the sample
// that sets the maximum; the tolerant search is not.
TEST(GpudiagEstimate, OneHighSampleDoesNotInflateN2) {
  auto m = cleanMeasurements();
  for (auto& s : m.warpSlots)
    if (s.warps == 64) s.slots = 2;  // true ⌊64/64⌋ = 1; plain eq. 3.12 would say 128
  const auto wsb = estimateWarpSlots(m.warpSlots);
  EXPECT_EQ(wsb.warpSlots, kN2);
  EXPECT_EQ(wsb.mismatches, 1);
}

TEST(GpudiagEstimate, OtherGranularitiesAreFoundToo) {
  // 128-byte shared-memory unit (cc 8.x) and 512 registers: regenerate from a different truth.
  StateBuffers t = truth();
  t.sharedMemoryGranularity = 128;
  t.registerFiles = {{kR, 512}};
  std::vector<SharedMemorySample> shm;
  for (std::int64_t s = 1; s <= kS; s += 89) shm.push_back({s, slotCount(t, {1, s, {0}}).slots});
  std::vector<RegisterSample> regs;
  for (int b : {1, 2, 4})
    for (std::int64_t r = 64; r <= 8192; r += 67)
      regs.push_back({b, r, slotCount(t, {b, 0, {r}}).slots});
  const WarpSlotEstimate wsb{kN1, kN2, 0};
  const auto s = estimateSharedMemory(shm, wsb);
  EXPECT_EQ(s.granularity, 128);
  EXPECT_EQ(s.size, kS);
  const auto r = estimateRegisterFile(regs, wsb);
  EXPECT_EQ(r.granularity, 512);
  EXPECT_EQ(r.size, kR);
}

TEST(GpudiagEstimate, CsvOfTheThreeTests) {
  const auto m = parseSlotMeasurements(
      "test,warps,smem,regs,nslot\n"
      "warp_slots,1,0,0,32\n"
      "warp_slots,4,0,0,16\n"
      "shared_memory,1,4096,0,12\n"
      "registers,2,0,1024,32\n",
      "m.csv");
  ASSERT_EQ(m.warpSlots.size(), 2u);
  EXPECT_EQ(m.warpSlots[1].warps, 4);
  EXPECT_EQ(m.warpSlots[1].slots, 16);
  ASSERT_EQ(m.sharedMemory.size(), 1u);
  EXPECT_EQ(m.sharedMemory[0].bytes, 4096);
  ASSERT_EQ(m.registers.size(), 1u);
  EXPECT_EQ(m.registers[0].registersPerWarp, 1024);

  try {
    parseSlotMeasurements("test,warps,smem,regs,nslot\nwarp_slot,1,0,0,32\n", "bad.csv");
    FAIL();
  } catch (const teg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv:2:1: unknown test 'warp_slot'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parseSlotMeasurements("test,warps,smem,regs,nslot\nwarp_slots,0,0,0,3\n", "z.csv"),
               teg::Error);  // b = 0
  EXPECT_THROW(parseSlotMeasurements("test,warps,smem,regs,nslot\nshared_memory,1,9,0,3\n", "y.csv"),
               teg::Error);  // no warp_slots rows
}

TEST(GpudiagEstimate, RejectsEmptyInput) {
  EXPECT_THROW(estimateWarpSlots({}), teg::Error);
  EXPECT_THROW(estimateSharedMemory({}, {32, 64, 0}), teg::Error);
  EXPECT_THROW(estimateRegisterFile({}, {32, 64, 0}), teg::Error);
  EXPECT_THROW(estimateWarpSlots({{1, 0}, {2, 0}}), teg::Error);  // nothing ever fits
}

namespace {

// The estimators' definition, tried exhaustively (what they did before issue 24 made them
// n log n): every candidate against every sample, fewest mismatches, ties to the smaller values.
WarpSlotEstimate warpSlotsByExhaustion(const std::vector<WarpSlotSample>& samples) {
  WarpSlotEstimate best{0, 0, INT_MAX};
  std::vector<std::int64_t> n1s, n2s;
  for (const auto& s : samples) {
    if (s.slots > 0) n1s.push_back(s.slots);
    n2s.push_back(std::int64_t{s.warps} * s.slots);
  }
  std::sort(n1s.begin(), n1s.end());
  std::sort(n2s.begin(), n2s.end());
  for (const auto n1 : n1s)
    for (const auto n2 : n2s) {
      if (n2 < 1) continue;
      int miss = 0;
      for (const auto& s : samples) miss += std::min<std::int64_t>(n1, n2 / s.warps) != s.slots;
      if (miss < best.mismatches) best = {static_cast<int>(n1), static_cast<int>(n2), miss};
    }
  return best;
}

BufferEstimate sharedMemoryByExhaustion(const std::vector<SharedMemorySample>& samples, int cap) {
  BufferEstimate best{0, 0, INT_MAX};
  std::int64_t largest = 1;
  for (const auto& s : samples) largest = std::max(largest, s.bytes);
  for (const auto g : powerOfTwoCandidates(largest)) {
    std::vector<std::int64_t> sizes;
    for (const auto& s : samples)
      if (s.bytes > 0) sizes.push_back(roundUpTo(s.bytes, g) * s.slots);
    std::sort(sizes.begin(), sizes.end());
    for (const auto size : sizes) {
      int miss = 0;
      for (const auto& s : samples) {
        const std::int64_t u = roundUpTo(s.bytes, g);
        miss += (u > 0 ? std::min<std::int64_t>(cap, size / u) : cap) != s.slots;
      }
      if (miss < best.mismatches) best = {size, g, miss};
    }
  }
  return best;
}

}  // namespace

// Issue 24: `teg model buffers --csv` was quadratic (cubic for the warp slots). The sweep must
// choose exactly what trying every candidate chooses, on random noisy data.
TEST(GpudiagEstimate, SweepAgreesWithExhaustiveSearch) {
  std::mt19937 rng(24);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<WarpSlotSample> warps;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i)
      warps.push_back({1 + static_cast<int>(rng() % 16), static_cast<int>(rng() % 12)});
    if (std::none_of(warps.begin(), warps.end(), [](const auto& s) { return s.slots > 0; })) continue;
    const auto got = estimateWarpSlots(warps), want = warpSlotsByExhaustion(warps);
    EXPECT_EQ(got.barrierSlots, want.barrierSlots) << "trial " << trial;
    EXPECT_EQ(got.warpSlots, want.warpSlots) << "trial " << trial;
    EXPECT_EQ(got.mismatches, want.mismatches) << "trial " << trial;

    std::vector<SharedMemorySample> shm;
    for (int i = 0; i < n; ++i)
      shm.push_back({static_cast<std::int64_t>(rng() % 3000), static_cast<int>(rng() % 9)});
    if (std::none_of(shm.begin(), shm.end(), [](const auto& s) { return s.bytes > 0; })) continue;
    const WarpSlotEstimate wsb{6, 64, 0};  // cap N_slot,wsb(1) = 6
    const auto gotS = estimateSharedMemory(shm, wsb), wantS = sharedMemoryByExhaustion(shm, 6);
    EXPECT_EQ(gotS.size, wantS.size) << "trial " << trial;
    EXPECT_EQ(gotS.granularity, wantS.granularity) << "trial " << trial;
    EXPECT_EQ(gotS.mismatches, wantS.mismatches) << "trial " << trial;
  }
}

// 200 000 measurements (tens of minutes before): the clean truth is still found.
TEST(GpudiagEstimate, LargeCsvIsEstimated) {
  std::string csv = "test,warps,smem,regs,nslot\n";
  for (int i = 0; i < 100000; ++i) {
    const int b = 1 + i % 64;
    csv += fmt::format("warp_slots,{},0,0,{}\n", b, measure(b, 0, 32));
    const std::int64_t smem = 1 + (i * 7919) % kS;
    csv += fmt::format("shared_memory,1,{},0,{}\n", smem, measure(1, smem, 32));
  }
  const auto m = parseSlotMeasurements(csv, "big.csv");
  const auto wsb = estimateWarpSlots(m.warpSlots);
  EXPECT_EQ(wsb.barrierSlots, kN1);
  EXPECT_EQ(wsb.warpSlots, kN2);
  EXPECT_EQ(wsb.mismatches, 0);
  const auto s = estimateSharedMemory(m.sharedMemory, wsb);
  EXPECT_EQ(s.size, kS);
  EXPECT_EQ(s.granularity, kSmin);
  EXPECT_EQ(s.mismatches, 0);
}
