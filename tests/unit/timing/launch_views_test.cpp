// Kernel launch overhead, reported apart from the kernel's time (docs/timing.md): the views add
// the device's overheads, and no kernel, not even an empty one, is predicted below them.
#include <gtest/gtest.h>

#include <cmath>

#include "synthetic.hpp"
#include "teg/device/database.hpp"
#include "teg/timing/launch_views.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
namespace trace = teg::trace;

namespace {

const teg::device::DeviceDatabase& database() {
  static const auto db = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  return db;
}

// By hand: a 10 us kernel with NVIDIA's V100 overheads (0.9, 0.5, 6.7 us) takes 10.9 us back to
// back in a stream, 10.5 us in a graph and 16.7 us launched then synchronised.
TEST(LaunchViews, AddTheOverheadsToTheKernelsTime) {
  TimingConfig c;
  c.launchStreamUs = 0.9;
  c.launchGraphUs = 0.5;
  c.launchSyncUs = 6.7;
  const LaunchViews v = launchViews(0.010, c);
  EXPECT_DOUBLE_EQ(v.kernelMs, 0.010);
  EXPECT_NEAR(v.streamMs, 0.0109, 1e-12);
  EXPECT_NEAR(v.graphMs, 0.0105, 1e-12);
  EXPECT_NEAR(v.synchronousMs, 0.0167, 1e-12);
  // Without figures every view is the kernel's time.
  const LaunchViews none = launchViews(0.010, TimingConfig{});
  EXPECT_DOUBLE_EQ(none.streamMs, 0.010);
  EXPECT_DOUBLE_EQ(none.synchronousMs, 0.010);
}

// What back-to-back launches find in the L2 (l2RetainedBetweenLaunches), against Poisson tables.
TEST(LaunchViews, TheL2KeepsTheLinesOfTheSetsThatHoldThem) {
  // A direct-mapped L2 (1 way) of 1024 lines given 1024 lines: lambda = 1, P(K <= 0) = e^-1.
  EXPECT_NEAR(l2RetainedBetweenLaunches(1024 * 128, 1024 * 128, 128, 1), std::exp(-1.0), 1e-12);
  // 16 sets of 16 ways given as many lines as they hold: lambda = 16, P(K <= 15) = 0.46674.
  EXPECT_NEAR(l2RetainedBetweenLaunches(256 * 128, 256 * 128, 128, 16), 0.46674, 1e-5);
  // One line in a 36 MiB L2: kept. Nothing touched: nothing kept.
  EXPECT_NEAR(l2RetainedBetweenLaunches(128, 37748736, 128, 16), 1.0, 1e-12);
  EXPECT_EQ(l2RetainedBetweenLaunches(0, 37748736, 128, 16), 0.0);
  // 48 MiB in the RTX 4070's 36 MiB (18,432 sets of 16): lambda = 21.33, P(K <= 15) = 0.0985;
  // 192 MiB: lambda = 85.3, nothing left to speak of.
  EXPECT_NEAR(l2RetainedBetweenLaunches(48ull << 20, 37748736, 128, 16), 0.09852, 1e-4);
  EXPECT_LT(l2RetainedBetweenLaunches(192ull << 20, 37748736, 128, 16), 1e-12);
}

// The V100 entry carries the blog's figures (data/devices/generic/sm_70.json).
TEST(LaunchViews, TheV100HasTheMeasuredOverheads) {
  const TimingConfig c = timingConfigFor(database().find("tesla-v100-sxm2-16gb"), 0);
  EXPECT_DOUBLE_EQ(c.launchStreamUs, 3.8 - 2.9);
  EXPECT_DOUBLE_EQ(c.launchGraphUs, 3.4 - 2.9);
  EXPECT_DOUBLE_EQ(c.launchSyncUs, 9.6 - 2.9);
}

// Property: on every GPU of the database from Volta on, an empty one-block kernel (one warp, one
// exit) is never predicted below its launch overhead in the stream view, whatever the kernel's
// own cycles; and every view is at least the kernel's time on every GPU.
TEST(LaunchViews, AnEmptyKernelIsNeverPredictedBelowItsLaunchOverhead) {
  trace::StaticInstruction exit;
  exit.kind = trace::InstrKind::Exit;
  exit.unit = InstructionClass::Branch;
  const auto kernel = kernelOf({exit}, 1, 32);
  int volta = 0;
  for (const auto& d : database().all()) {
    if (d.smCount <= 0 || d.timing.issueInterval <= 0) continue;  // generic entries: no product to time
    const TimingResult r = runSynthetic(timingConfigFor(d, 0), {}, kernel, [](auto, auto) { return repeat(0, 1); });
    EXPECT_GE(r.launch.streamMs, r.timeMs) << d.name;
    EXPECT_GE(r.launch.graphMs, r.timeMs) << d.name;
    EXPECT_GE(r.launch.synchronousMs, r.timeMs) << d.name;
    if (d.cc.major >= 7) {
      ++volta;
      EXPECT_GT(d.timing.launchStreamUs, 0) << d.name << ": no timing.launch_stream_us";
      EXPECT_GE(r.launch.streamMs * 1e3, d.timing.launchStreamUs) << d.name;
      EXPECT_GT(d.timing.blockLaunchCycles, 0) << d.name << ": no timing.block_launch_cycles";
    }
  }
  EXPECT_GE(volta, 20);  // the database's Volta-to-Blackwell products were all checked
}

}  // namespace
