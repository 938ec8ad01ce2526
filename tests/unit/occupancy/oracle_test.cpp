// teg's occupancy against NVIDIA's own calculator, cuda_occupancy.h (CUDA toolkit), for every
// device of the database with cc >= 3.0 that the header knows: blocks per SM, every per-resource
// block limit, the limiting factors, and the registers and shared memory allocated per block must
// be identical. The oracle is called as a CUDA program would after
// cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - static): default
// device state, FUNC_SHMEM_LIMIT_OPTIN, one block barrier (what cudaFuncAttributes converts to).
//
// Coverage per device: every block size 1..max x every register count 0..max (no shared memory);
// 30 block sizes x 21 register counts x ~100-200 shared-memory sizes (a 2039-byte stride plus
// both sides of every N-blocks boundary), alternately all dynamic or partly static; for cc >= 7.0,
// 10 carve-out preferences; and the block-size suggestion against
// cudaOccMaxPotentialOccupancyBlockSize.
#include <gtest/gtest.h>

#ifdef TEG_HAVE_CUDA_OCCUPANCY_H
#include <climits>
#include <cstring>
#include <cuda_occupancy.h>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "teg/occupancy/occupancy.hpp"
#include "teg/occupancy/sweep.hpp"
#include "test_devices.hpp"

namespace teg::occupancy {
namespace {

using device::Device;

// Distinct devices (products that only inherit a generic entry's limits add nothing) of cc >= 3.0.
std::vector<std::string> oracleDeviceIds() {
  std::vector<std::string> ids;
  try {
    std::vector<const Device*> seen;
    for (const Device& d : test::database().all()) {
      if (d.cc.major < 3) continue;
      bool duplicate = false;
      for (const Device* s : seen) {
        const auto& a = s->limits;
        const auto& b = d.limits;
        if (s->cc == d.cc && s->issue.subPartitions == d.issue.subPartitions &&
            a.maxThreadsPerBlock == b.maxThreadsPerBlock && a.maxThreadsPerSm == b.maxThreadsPerSm &&
            a.maxBlocksPerSm == b.maxBlocksPerSm && a.registersPerSm == b.registersPerSm &&
            a.maxRegistersPerBlock == b.maxRegistersPerBlock &&
            a.maxRegistersPerThread == b.maxRegistersPerThread &&
            a.sharedMemoryPerSm == b.sharedMemoryPerSm &&
            a.sharedMemoryCarveouts == b.sharedMemoryCarveouts &&
            a.sharedMemoryPerBlock == b.sharedMemoryPerBlock &&
            a.sharedMemoryPerBlockOptin == b.sharedMemoryPerBlockOptin &&
            a.reservedSharedMemoryPerBlock == b.reservedSharedMemoryPerBlock &&
            a.sharedMemoryAllocationUnit == b.sharedMemoryAllocationUnit &&
            a.barriersPerSm == b.barriersPerSm && a.registerAllocationUnit == b.registerAllocationUnit)
          duplicate = true;
      }
      if (!duplicate) {
        seen.push_back(&d);
        ids.push_back(d.id);
      }
    }
  } catch (const std::exception&) {
    // The database failed to load: the device tests report that; here there is nothing to run.
  }
  if (ids.empty()) ids.push_back("<no device database>");
  return ids;
}

class OracleTest : public ::testing::TestWithParam<std::string> {};

#ifdef TEG_HAVE_CUDA_OCCUPANCY_H

cudaOccDeviceProp propsOf(const Device& d) {
  cudaOccDeviceProp p;
  p.computeMajor = d.cc.major;
  p.computeMinor = d.cc.minor;
  p.maxThreadsPerBlock = d.limits.maxThreadsPerBlock;
  p.maxThreadsPerMultiprocessor = d.limits.maxThreadsPerSm;
  p.regsPerBlock = d.limits.maxRegistersPerBlock;
  p.regsPerMultiprocessor = d.limits.registersPerSm;
  p.warpSize = d.limits.warpSize;
  p.sharedMemPerBlock = static_cast<size_t>(d.limits.sharedMemoryPerBlock);
  p.sharedMemPerMultiprocessor = static_cast<size_t>(d.limits.sharedMemoryPerSm);
  p.numSms = std::max(1, d.smCount);
  p.sharedMemPerBlockOptin = static_cast<size_t>(d.limits.sharedMemoryPerBlockOptin);
  p.reservedSharedMemPerBlock = static_cast<size_t>(d.limits.reservedSharedMemoryPerBlock);
  return p;
}

cudaOccFuncAttributes attributesOf(const Device& d, int regs, long long staticSmem) {
  cudaOccFuncAttributes a;
  a.maxThreadsPerBlock = d.limits.maxThreadsPerBlock;
  a.numRegs = regs;
  a.sharedSizeBytes = static_cast<size_t>(staticSmem);
  a.partitionedGCConfig = PARTITIONED_GC_OFF;
  a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  const long long optin = std::max(d.limits.sharedMemoryPerBlockOptin, d.limits.sharedMemoryPerBlock);
  a.maxDynamicSharedSizeBytes = static_cast<size_t>(std::max(0LL, optin - staticSmem));
  a.numBlockBarriers = 1;
  a.virtualResourceCount = 0;
  return a;
}

unsigned oracleBit(Resource r) {
  switch (r) {
    case Resource::Warps: return OCC_LIMIT_WARPS;
    case Resource::Registers: return OCC_LIMIT_REGISTERS;
    case Resource::SharedMemory: return OCC_LIMIT_SHARED_MEMORY;
    case Resource::Blocks: return OCC_LIMIT_BLOCKS;
    case Resource::Barriers: return OCC_LIMIT_BARRIERS;
  }
  return 0;
}

class Checker {
 public:
  explicit Checker(const Device& d) : d_(d), calc_(d), props_(propsOf(d)) {}

  void check(int threads, int regs, long long staticSmem, long long dynSmem, int carveout = -1) {
    ++count_;
    Launch l;
    l.threadsPerBlock = threads;
    l.registersPerThread = regs;
    l.staticSharedBytes = staticSmem;
    l.dynamicSharedBytes = dynSmem;
    l.carveoutPercent = carveout;
    // The prepared calculator, and now and then the one-shot function (they must agree).
    const Occupancy t = calc_(l);
    if (count_ % 4096 == 0) {
      const Occupancy once = computeOccupancy(d_, l);
      if (once.blocksPerSm != t.blocksPerSm || once.violation != t.violation || once.limiters != t.limiters)
        fail("computeOccupancy", "differs from OccupancyCalculator");
    }

    cudaOccFuncAttributes attr = attributesOf(d_, regs, staticSmem);
    cudaOccDeviceState state;
    state.carveoutConfig = carveout;
    cudaOccResult o{};
    const cudaOccError status =
        cudaOccMaxActiveBlocksPerMultiprocessor(&o, &props_, &attr, &state, threads, static_cast<size_t>(dynSmem));
    auto where = [&] {
      return fmt::format("{} threads={} regs={} static={} dyn={} carveout={}", d_.id, threads, regs,
                         staticSmem, dynSmem, carveout);
    };
    if (status != CUDA_OCC_SUCCESS) {
      fail(where(), fmt::format("oracle error {}", static_cast<int>(status)));
      return;
    }
    if (o.activeBlocksPerMultiprocessor == 0) {
      if (t.ok()) fail(where(), fmt::format("oracle: 0 blocks; teg: {} blocks", t.blocksPerSm));
      return;
    }
    if (!t.ok()) {
      fail(where(), fmt::format("oracle: {} blocks; teg: {}", o.activeBlocksPerMultiprocessor,
                              violationMessage(d_, l, t)));
      return;
    }
    std::string diff;  // stays empty (no allocation) while everything agrees
    auto same = [&](const char* what, long long a, long long b) {
      if (a != b) diff += fmt::format(" {}: teg {} oracle {};", what, a, b);
    };
    same("blocks", t.blocksPerSm, o.activeBlocksPerMultiprocessor);
    same("warps limit", t.limit(Resource::Warps), o.blockLimitWarps);
    same("registers limit", t.limit(Resource::Registers), o.blockLimitRegs);
    same("shared memory limit", t.limit(Resource::SharedMemory), o.blockLimitSharedMem);
    same("blocks limit", t.limit(Resource::Blocks), o.blockLimitBlocks);
    same("allocated registers", t.registersPerBlock, o.allocatedRegistersPerBlock);
    same("allocated shared memory", t.sharedMemoryPerBlock, static_cast<long long>(o.allocatedSharedMemPerBlock));
    // cuda_occupancy.h applies the barrier limit from cc 9.0 on only; before that it has no
    // barrier figure to compare.
    const bool barriersCompared = d_.cc.major >= 9;
    if (barriersCompared) same("barriers limit", t.limit(Resource::Barriers), o.blockLimitBarriers);
    unsigned ours = 0;
    for (Resource r : kAllResources)
      if (t.limitedBy(r) && (r != Resource::Barriers || barriersCompared)) ours |= oracleBit(r);
    same("limiting factors", ours, o.limitingFactors & ~static_cast<unsigned>(OCC_LIMIT_VIRTUAL_RESOURCES));
    if (!diff.empty()) fail(where(), diff);
  }

  void checkSuggestion(int regs, long long dynSmem) {
    ++count_;
    Launch l;
    l.registersPerThread = regs;
    l.dynamicSharedBytes = dynSmem;
    const Suggestion s = suggestBlockSize(d_, l);
    cudaOccFuncAttributes attr = attributesOf(d_, regs, 0);
    cudaOccDeviceState state;
    int minGrid = 0, blockSize = 0;
    const cudaOccError status = cudaOccMaxPotentialOccupancyBlockSize(&minGrid, &blockSize, &props_, &attr,
                                                                      &state, static_cast<size_t>(dynSmem));
    const std::string where = fmt::format("{} suggest regs={} dyn={}", d_.id, regs, dynSmem);
    if (status != CUDA_OCC_SUCCESS) {
      fail(where, fmt::format("oracle error {}", static_cast<int>(status)));
      return;
    }
    const long long ourGrid = static_cast<long long>(s.blocksPerSm) * props_.numSms;
    if (s.blockSize != blockSize || ourGrid != minGrid)
      fail(where, fmt::format("teg block {} grid {}; oracle block {} grid {}", s.blockSize, ourGrid,
                              blockSize, minGrid));
    if (d_.smCount > 0 && s.minGridSize != minGrid)
      fail(where, fmt::format("min_grid_size teg {} oracle {}", s.minGridSize, minGrid));
  }

  [[nodiscard]] long long count() const { return count_; }
  [[nodiscard]] long long failures() const { return failures_; }
  [[nodiscard]] const std::vector<std::string>& messages() const { return messages_; }

 private:
  void fail(const std::string& where, const std::string& what) {
    ++failures_;
    if (messages_.size() < 10) messages_.push_back(where + ": " + what);
  }

  const Device& d_;
  OccupancyCalculator calc_;
  cudaOccDeviceProp props_;
  long long count_ = 0;
  long long failures_ = 0;
  std::vector<std::string> messages_;
};

bool oracleKnows(const Device& d) {
  cudaOccDeviceProp p = propsOf(d);
  cudaOccFuncAttributes a = attributesOf(d, 16, 0);
  cudaOccDeviceState s;
  cudaOccResult r{};
  return cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, 128, 0) == CUDA_OCC_SUCCESS;
}

TEST_P(OracleTest, MatchesCudaOccupancyHeader) {
  const Device* d = test::database().tryFind(GetParam());
  ASSERT_NE(d, nullptr) << GetParam();
  if (!oracleKnows(*d)) GTEST_SKIP() << "cuda_occupancy.h does not know cc " << d->cc.str();
  Checker checker(*d);
  const auto& l = d->limits;
  const int maxThreads = l.maxThreadsPerBlock;
  const int maxRegs = std::min(255, l.maxRegistersPerThread);
  const long long optin = std::max(l.sharedMemoryPerBlockOptin, l.sharedMemoryPerBlock);

  // 1. Every block size x every register count, no shared memory.
  for (int t = 1; t <= maxThreads; ++t)
    for (int r = 0; r <= maxRegs; ++r) checker.check(t, r, 0, 0);

  // 2. Shared memory: a 997-byte stride past the limit, plus both sides of every boundary where
  // the SM's shared memory holds exactly N blocks.
  std::vector<long long> sizes;
  for (long long s = 0; s <= optin + 2 * l.sharedMemoryAllocationUnit; s += 2039) sizes.push_back(s);
  for (int n = 1; n <= l.maxBlocksPerSm; ++n) {
    const long long edge = l.sharedMemoryPerSm / n - l.reservedSharedMemoryPerBlock;
    for (long long s : {edge - 1, edge, edge + 1})
      if (s >= 0) sizes.push_back(s);
  }
  for (long long s : {optin - 1, optin, optin + 1}) sizes.push_back(s);
  const int threadSet[] = {1, 31, 32, 33, 64, 96, 100, 128, 160, 192, 200, 224, 256, 288, 320,
                           384, 448, 500, 512, 576, 640, 672, 704, 768, 800, 896, 960, 993, 1000, 1024};
  const int regSet[] = {0, 1, 8, 16, 17, 24, 32, 33, 40, 48, 56, 63, 64, 72, 80, 88, 96, 128, 168, 200, 255};
  for (int t : threadSet) {
    if (t > maxThreads) continue;
    for (int r : regSet) {
      if (r > maxRegs) continue;
      bool withStatic = (t + r) % 2 == 0;
      for (long long s : sizes) {
        // Alternately all dynamic, or the first 2 KB static.
        const long long st = withStatic ? std::min<long long>(s, 2048) : 0;
        checker.check(t, r, st, s - st);
        withStatic = !withStatic;
      }
    }
  }

  // 3. Carve-out preferences (the cudaFuncAttributePreferredSharedMemoryCarveout of cc >= 7.0).
  if (d->cc.major >= 7) {
    for (int carveout : {0, 1, 10, 25, 33, 50, 66, 75, 99, 100})
      for (int t : {32, 128, 256, 1024})
        for (int r : {0, 32, 64})
          for (long long s = 0; s <= optin; s += 1499) checker.check(t, r, 0, s, carveout);
  }

  // 4. The block-size suggestion.
  for (int r : {0, 16, 32, 40, 48, 64, 100, 128, 200, 255})
    for (long long dyn : {0LL, 1024LL, 4096LL, 20000LL, 48000LL, 100000LL, 200000LL})
      if (r <= maxRegs && dyn <= optin) checker.checkSuggestion(r, dyn);

  for (const auto& m : checker.messages()) ADD_FAILURE() << m;
  EXPECT_EQ(checker.failures(), 0) << "of " << checker.count() << " configurations";
  RecordProperty("configurations", std::to_string(checker.count()));
  std::printf("[ oracle   ] %s (cc %s): %lld configurations compared\n", d->id.c_str(),
              d->cc.str().c_str(), checker.count());
}

#else

TEST_P(OracleTest, MatchesCudaOccupancyHeader) {
  GTEST_SKIP() << "cuda_occupancy.h not found at configure time (set TEG_CUDA_OCCUPANCY_INCLUDE_DIR "
                  "to the CUDA toolkit's include directory to compare against NVIDIA's calculator)";
}

#endif

INSTANTIATE_TEST_SUITE_P(Devices, OracleTest, ::testing::ValuesIn(oracleDeviceIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name;
                           for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace teg::occupancy
