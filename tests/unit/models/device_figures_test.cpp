// The models' numbers pulled from the device database, checked against datasheets and the
// CUDA guide, and GPUDIAG's N_slot against the exact occupancy module.
#include <gtest/gtest.h>

#include "teg/device/database.hpp"
#include "teg/models/device_figures.hpp"
#include "teg/models/gpudiag.hpp"
#include "teg/occupancy/occupancy.hpp"
#include "teg/support/error.hpp"

using namespace teg::models;

namespace {

const teg::device::DeviceDatabase& db() {
  static const auto database =
      teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  return database;
}

}  // namespace

// NVIDIA A100 datasheet: 19.5 TFLOP/s FP32, 9.7 TFLOP/s FP64 (non-tensor), 1555 GB/s (40 GB).
TEST(DeviceFigures, A100PeakMatchesDatasheet) {
  const auto& a100 = db().find("A100-SXM4-40GB");
  const auto fp32 = peakOf(a100, Precision::Fp32);
  EXPECT_NEAR(fp32.gflops, 19500, 0.01 * 19500);
  EXPECT_NEAR(peakOf(a100, Precision::Fp64).gflops, 9700, 0.01 * 9700);
  EXPECT_DOUBLE_EQ(fp32.bandwidthGBs, 1555);
}

// Seed 001 sect. IV: GTX480, 15 SMs of 32 cores (P = 480).
TEST(DeviceFigures, Gtx480CoresOfSeed001) {
  const auto& gtx480 = db().find("gtx480");
  EXPECT_EQ(gtx480.smCount, 15);
  EXPECT_DOUBLE_EQ(coresPerSmOf(gtx480), 32);
}

// CUDA C++ Programming Guide, cc 7.5: 16 blocks, 32 warps, 64 KB shared memory per SM,
// 64 K registers; allocation units 256 B (Occupancy Calculator) and 256 registers per warp.
TEST(DeviceFigures, T4StateBuffers) {
  const auto b = stateBuffersOf(db().find("t4"));
  EXPECT_EQ(b.barrierSlots, 16);
  EXPECT_EQ(b.warpSlots, 32);
  EXPECT_EQ(b.sharedMemory, 65536);
  EXPECT_EQ(b.sharedMemoryGranularity, 256);
  ASSERT_EQ(b.registerFiles.size(), 1u);
  EXPECT_EQ(b.registerFiles[0].size, 65536);
  EXPECT_EQ(b.registerFiles[0].granularity, 256);
}

TEST(DeviceFigures, RefusesPerBlockRegisterAllocation) {
  EXPECT_THROW(stateBuffersOf(db().find("gtx280")), teg::Error);  // cc 1.3
}

// GPUDIAG's eq. 3.3 leaves out two allocation rules of the real hardware (registers split
// between the warp schedulers, reserved shared memory per block on cc >= 8.0); both can only
// lower the residency. So on every cc >= 3.0 GPU, N_slot is never below the exact occupancy,
// and where neither rule bites (T4, 256 threads, 32 registers: 8 warps × 1024 registers
// = a quarter of a scheduler's 16384) the two agree.
TEST(DeviceFigures, NslotIsAnUpperBoundOfExactResidency) {
  int compared = 0, equal = 0;
  for (const auto& gpu : db().all()) {
    if (gpu.cc.major < 3) continue;
    const auto buffers = stateBuffersOf(gpu);
    for (int threads = 32; threads <= gpu.limits.maxThreadsPerBlock; threads += 96) {
      for (int regs : {16, 24, 32, 40, 64, 96, 128, 255}) {
        for (int smem : {0, 1000, 4096, 20000}) {
          teg::occupancy::Launch launch;
          launch.threadsPerBlock = threads;
          launch.registersPerThread = regs;
          launch.staticSharedBytes = smem;
          const auto occ = teg::occupancy::computeOccupancy(gpu, launch);
          if (!occ.ok()) continue;
          const int warps = (threads + gpu.limits.warpSize - 1) / gpu.limits.warpSize;
          const auto n = slotCount(buffers, {warps, smem, {static_cast<long long>(regs) * gpu.limits.warpSize}});
          EXPECT_GE(n.slots, occ.blocksPerSm) << gpu.id << " threads " << threads << " regs " << regs
                                              << " smem " << smem;
          ++compared;
          equal += n.slots == occ.blocksPerSm;
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(equal, compared / 2);  // the simplification is usually exact
  const auto& t4 = db().find("t4");
  teg::occupancy::Launch launch;
  launch.threadsPerBlock = 256;
  launch.registersPerThread = 32;
  EXPECT_EQ(slotCount(stateBuffersOf(t4), {8, 0, {1024}}).slots,
            teg::occupancy::computeOccupancy(t4, launch).blocksPerSm);
}
