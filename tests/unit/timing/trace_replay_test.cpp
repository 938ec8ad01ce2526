// The timing engine gives the same prediction from a trace file as from the live stream
// (issue: "a listener that writes a compact binary trace file exists and the timing engine can
// replay it").
#include <gtest/gtest.h>

#include <filesystem>

#include "synthetic.hpp"
#include "teg/trace/trace_file.hpp"

using namespace teg::timing;
using namespace teg::timing::test;
using teg::trace::InstrKind;
using teg::trace::MemorySpace;

TEST(TraceReplay, FileAndLiveStreamPredictTheSameCycles) {
  auto config = simpleConfig(4, 2, 1, 2);
  config.dramBytesPerCycle = 8;
  config.l2BytesShare = 4096;
  const auto kernel = kernelOf({alu({1}, {1, 2}), memory(InstrKind::Load, MemorySpace::Global, {3}, {1}),
                                memory(InstrKind::Load, MemorySpace::Shared, {4}, {3}), alu({5}, {4, 3})},
                               4, 128);
  EngineOptions options;
  options.residentBlocks = 2;
  const auto path = (std::filesystem::temp_directory_path() / "teg_timing_replay.trace").string();
  auto pcs = [](auto, auto) { return std::vector<std::uint32_t>{0, 1, 2, 3, 0, 1, 2, 3}; };
  auto address = [](std::uint32_t b, std::uint32_t w, std::size_t i, int lane) {
    return (static_cast<std::uint64_t>(b) * 4 + w) * 4096 + i * 256 + static_cast<std::uint64_t>(lane) * 8;
  };
  // Live: the synthetic stream straight into an engine, and into a trace file at the same time.
  TimingEngine live(config, options);
  {
    teg::trace::TraceFileWriter writer(path);
    teg::trace::TraceFanout fanout;
    fanout.add(live);
    fanout.add(writer);
    fanout.beginKernel(kernel);
    for (std::uint32_t b = 0; b < 4; ++b) {
      fanout.beginBlock(b);
      for (std::uint32_t w = 0; w < 4; ++w) {
        const auto list = pcs(b, w);
        for (std::size_t i = 0; i < list.size(); ++i) {
          teg::trace::WarpInstruction r;
          r.block = b;
          r.warp = w;
          r.pc = list[i];
          r.activeMask = 0xFFFFFFFFu;
          for (int lane = 0; lane < 32; ++lane) r.addresses[static_cast<std::size_t>(lane)] = address(b, w, i, lane);
          fanout.instruction(r);
        }
      }
      fanout.endBlock(b);
    }
    fanout.endKernel();
  }
  const auto fromLive = live.finish();
  TimingEngine replayed(config, options);
  teg::trace::replayTraceFile(path, replayed);
  const auto fromFile = replayed.finish();
  EXPECT_GT(fromLive.cycles, 0);
  EXPECT_DOUBLE_EQ(fromFile.cycles, fromLive.cycles);
  EXPECT_EQ(fromFile.warpInstructions, fromLive.warpInstructions);
  EXPECT_EQ(fromFile.memory.sharedWavefronts, fromLive.memory.sharedWavefronts);
  EXPECT_EQ(fromFile.memory.dramSectors, fromLive.memory.dramSectors);
}
