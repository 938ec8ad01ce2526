// The generic sm_XY entries against independent expectations: figures typed in here from the
// CUDA C++ Programming Guide and seed 003 (J. Verschelde, MCS 572 lecture 33, which copies the
// guide's tables), the consistency rules every GPU obeys, and cuda_occupancy.h as an oracle for
// the allocation rules occupancy depends on.
#include <gtest/gtest.h>

#include <set>

#include "teg/device/database.hpp"

#if defined(TEG_HAVE_CUDA_OCCUPANCY)
#include <cuda_occupancy.h>
#endif

namespace {

using teg::device::Device;
using teg::device::DeviceDatabase;
using teg::device::InstructionClass;

const DeviceDatabase& db() {
  static const DeviceDatabase database = DeviceDatabase::loadDirectory(TEG_SOURCE_DIR "/data/devices");
  return database;
}

std::vector<const Device*> generics() {
  std::vector<const Device*> out;
  for (const auto& d : db().all())
    if (d.generic) out.push_back(&d);
  return out;
}

TEST(GenericEntries, EveryDocumentedComputeCapabilityHasOne) {
  std::set<std::string> have;
  for (const auto* d : generics()) have.insert(d->cc.str());
  for (const char* cc : {"1.0", "1.1", "1.2", "1.3", "2.0", "2.1", "3.0", "3.2", "3.5", "3.7", "5.0", "5.2",
                         "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6", "8.7", "8.9", "9.0",
                         "10.0", "10.3", "11.0", "12.0", "12.1"})
    EXPECT_TRUE(have.count(cc)) << "no generic entry for cc " << cc;
}

TEST(GenericEntries, ObeyTheRulesEveryGpuObeys) {
  for (const auto* d : generics()) {
    SCOPED_TRACE(d->id);
    const auto& l = d->limits;
    EXPECT_EQ(d->id, d->cc.smName());
    EXPECT_EQ(l.warpSize, 32);
    EXPECT_EQ(l.maxWarpsPerSm * 32, l.maxThreadsPerSm);
    EXPECT_EQ(l.sharedMemoryCarveouts.back(), l.sharedMemoryPerSm);
    EXPECT_LE(l.sharedMemoryPerBlockOptin, l.sharedMemoryPerSm);
    EXPECT_EQ(l.sharedMemoryBanks, d->cc.major == 1 ? 16 : 32);  // guide: 16 banks on cc 1.x
    EXPECT_EQ(l.constantMemory, 64 * 1024);
    // Registers go per block on cc 1.x, per warp later (Occupancy Calculator).
    EXPECT_EQ(l.registerAllocationGranularity == teg::device::RegisterGranularity::Block, d->cc.major == 1);
    EXPECT_GT(d->throughputOf(InstructionClass::Fp32Fma), 0);
    // Reserved shared memory per block: 1 KB from cc 8.0 on (guide), none before.
    EXPECT_EQ(l.reservedSharedMemoryPerBlock, d->cc.major >= 8 ? 1024 : 0);
    // Every figure has a source and a file.
    for (const auto& f : d->figures) {
      EXPECT_FALSE(f.source.empty()) << f.key;
      EXPECT_FALSE(f.definedIn.empty()) << f.key;
    }
  }
}

// Seed 003's table "streaming multiprocessor resources" (from the guide's appendix G).
TEST(GenericEntries, MatchSeed003ResidencyTable) {
  const auto& cc11 = db().find("1.1").limits;
  EXPECT_EQ(cc11.maxThreadsPerBlock, 512);
  EXPECT_EQ(cc11.maxBlocksPerSm, 8);
  EXPECT_EQ(cc11.maxWarpsPerSm, 24);
  EXPECT_EQ(cc11.maxThreadsPerSm, 768);
  const auto& cc20 = db().find("2.0").limits;
  EXPECT_EQ(cc20.maxThreadsPerBlock, 1024);
  EXPECT_EQ(cc20.maxWarpsPerSm, 48);
  EXPECT_EQ(cc20.maxThreadsPerSm, 1536);
  const auto& cc35 = db().find("3.5").limits;
  EXPECT_EQ(cc35.maxBlocksPerSm, 16);
  EXPECT_EQ(cc35.maxThreadsPerSm, 2048);
  // Seed 003's Occupancy Calculator page for cc 3.5: 65536 registers, 49152 B shared memory.
  EXPECT_EQ(cc35.registersPerSm, 65536);
  EXPECT_EQ(cc35.sharedMemoryPerSm, 49152);
  EXPECT_EQ(db().find("6.0").limits.maxBlocksPerSm, 32);
}

// Seed 003's "number of operations per clock cycle per multiprocessor" (cc 1.x, 2.0, 3.5).
TEST(GenericEntries, MatchSeed003ThroughputTable) {
  const auto& cc13 = db().find("1.3");
  EXPECT_EQ(cc13.throughputOf(InstructionClass::Fp32Fma), 8);
  EXPECT_EQ(cc13.throughputOf(InstructionClass::Fp64Fma), 1);
  EXPECT_EQ(cc13.throughputOf(InstructionClass::IntAdd), 8);
  EXPECT_EQ(cc13.throughputOf(InstructionClass::Special), 2);
  const auto& cc20 = db().find("2.0");
  EXPECT_EQ(cc20.throughputOf(InstructionClass::Fp32Fma), 32);
  EXPECT_EQ(cc20.throughputOf(InstructionClass::Fp64Fma), 16);
  EXPECT_EQ(cc20.throughputOf(InstructionClass::IntAdd), 32);
  EXPECT_EQ(cc20.throughputOf(InstructionClass::Special), 4);
  const auto& cc35 = db().find("3.5");
  EXPECT_EQ(cc35.throughputOf(InstructionClass::Fp32Fma), 192);
  EXPECT_EQ(cc35.throughputOf(InstructionClass::Fp64Fma), 64);
  EXPECT_EQ(cc35.throughputOf(InstructionClass::IntAdd), 160);
  EXPECT_EQ(cc35.throughputOf(InstructionClass::Special), 32);
}

// Hand-checked against the guide's "Technical Specifications per Compute Capability" table.
TEST(GenericEntries, MatchTheGuideSpecificationTable) {
  struct Row {
    const char* cc;
    int threadsPerSm, blocksPerSm, smemPerSmKb, optinKb;
  };
  for (const Row& r : {Row{"7.0", 2048, 32, 96, 96}, Row{"7.5", 1024, 16, 64, 64}, Row{"8.0", 2048, 32, 164, 163},
                       Row{"8.6", 1536, 16, 100, 99}, Row{"8.9", 1536, 24, 100, 99}, Row{"9.0", 2048, 32, 228, 227},
                       Row{"12.0", 1536, 24, 100, 99}}) {
    SCOPED_TRACE(r.cc);
    const auto& l = db().find(r.cc).limits;
    EXPECT_EQ(l.maxThreadsPerSm, r.threadsPerSm);
    EXPECT_EQ(l.maxBlocksPerSm, r.blocksPerSm);
    EXPECT_EQ(l.sharedMemoryPerSm, r.smemPerSmKb * 1024);
    EXPECT_EQ(l.sharedMemoryPerBlockOptin, r.optinKb * 1024);
    EXPECT_EQ(l.sharedMemoryPerBlock, 48 * 1024);
  }
}

#if defined(TEG_HAVE_CUDA_OCCUPANCY)
cudaOccDeviceProp occProps(const Device& d) {
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
  p.numSms = 1;
  p.sharedMemPerBlockOptin = static_cast<size_t>(d.limits.sharedMemoryPerBlockOptin);
  p.reservedSharedMemPerBlock = static_cast<size_t>(d.limits.reservedSharedMemoryPerBlock);
  return p;
}
#endif

TEST(GenericEntries, AllocationRulesAgreeWithCudaOccupancyHeader) {
#if !defined(TEG_HAVE_CUDA_OCCUPANCY)
  GTEST_SKIP() << "cuda_occupancy.h not found (install the CUDA toolkit to run this oracle test)";
#else
  int checked = 0;
  for (const auto* d : generics()) {
    if (d->cc.major < 3) continue;  // the header covers cc >= 3.0 only
    SCOPED_TRACE(d->id);
    const cudaOccDeviceProp p = occProps(*d);
    int value = 0;
    ASSERT_EQ(cudaOccSMemAllocationGranularity(&value, &p), CUDA_OCC_SUCCESS);
    EXPECT_EQ(d->limits.sharedMemoryAllocationUnit, value);
    ASSERT_EQ(cudaOccRegAllocationGranularity(&value, &p), CUDA_OCC_SUCCESS);
    EXPECT_EQ(d->limits.registerAllocationUnit, value);
    ASSERT_EQ(cudaOccSubPartitionsPerMultiprocessor(&value, &p), CUDA_OCC_SUCCESS);
    EXPECT_EQ(d->issue.subPartitions, value);
    ASSERT_EQ(cudaOccMaxBlocksPerMultiprocessor(&value, &p), CUDA_OCC_SUCCESS);
    EXPECT_EQ(d->limits.maxBlocksPerSm, value);
    if (d->cc.major >= 7) {
      // The carve-outs are exactly the sizes the driver rounds a request up to.
      std::set<int> rounded;
      for (int request = 0; request <= d->limits.sharedMemoryPerSm; request += 256) {
        size_t size = static_cast<size_t>(request);
        ASSERT_EQ(cudaOccAlignUpShmemSizeVoltaPlus(&size, &p), CUDA_OCC_SUCCESS) << request;
        rounded.insert(static_cast<int>(size));
      }
      EXPECT_EQ(std::vector<int>(rounded.begin(), rounded.end()), d->limits.sharedMemoryCarveouts);
    } else if (d->cc.major == 3) {
      // Kepler: prefer-L1 leaves shared = per-SM + 16 KB - 48 KB; prefer-equal is the mid-point.
      cudaOccDeviceState state;
      std::set<int> sizes;
      for (auto config : {CACHE_PREFER_NONE, CACHE_PREFER_SHARED, CACHE_PREFER_L1, CACHE_PREFER_EQUAL}) {
        state.cacheConfig = config;
        size_t bytes = 0;
        ASSERT_EQ(cudaOccSMemPreference(&bytes, &p, &state), CUDA_OCC_SUCCESS);
        sizes.insert(static_cast<int>(bytes));
      }
      EXPECT_EQ(std::vector<int>(sizes.begin(), sizes.end()), d->limits.sharedMemoryCarveouts);
    }
    if (d->cc.major >= 5) {
      // Barriers: with one barrier per block, the header's barrier limit is the number of
      // barriers per SM (2 or 1 per block slot, cudaOccMaxBlocksPerSMBlockBarrierLimit).
      cudaOccFuncAttributes attributes;
      attributes.numBlockBarriers = 1;
      int limit = 0;
      ASSERT_EQ(cudaOccMaxBlocksPerSMBlockBarrierLimit(&limit, d->limits.maxBlocksPerSm, &p, &attributes),
                CUDA_OCC_SUCCESS);
      EXPECT_EQ(d->limits.barriersPerSm, limit);
    }
    ++checked;
  }
  EXPECT_GE(checked, 20);
#endif
}

}  // namespace
