// The latency bound's barriers (critical_path.hpp), worked by hand: two warps, 4-cycle ALU
// latency, one issue per cycle. Warp 0 runs a chain of three dependent instructions (issues at
// 0, 4, 8) before the barrier, warp 1 none; after it both run a chain of two (8, 12 after the
// release at 8). With a block-wide bar.sync the block takes 12 cycles; with a barrier of a
// thread count (a subset, not joined) warp 1's chain starts at 0 and the block takes 8.
#include <gtest/gtest.h>

#include "teg/analysis/critical_path.hpp"

using namespace teg;

namespace {

trace::KernelInfo kernel(const std::string& barrierText) {
  trace::KernelInfo k;
  k.name = "k";
  k.block = {64, 1, 1};
  const auto alu = [&](std::vector<std::uint32_t> defs, std::vector<std::uint32_t> uses) {
    trace::StaticInstruction s;
    s.pc = static_cast<std::uint32_t>(k.instructions.size());
    s.kind = trace::InstrKind::Alu;
    s.unit = device::InstructionClass::Fp32Fma;
    s.defs = std::move(defs);
    s.uses = std::move(uses);
    s.text = "add.f32 %f1, %f2, %f3;";
    k.instructions.push_back(s);
  };
  alu({0}, {});
  alu({1}, {0});
  alu({2}, {1});
  trace::StaticInstruction bar;
  bar.pc = 3;
  bar.kind = trace::InstrKind::Barrier;
  bar.text = barrierText;
  k.instructions.push_back(bar);
  alu({3}, {});
  alu({4}, {3});
  trace::StaticInstruction exit;
  exit.pc = 6;
  exit.kind = trace::InstrKind::Exit;
  exit.text = "ret;";
  k.instructions.push_back(exit);
  return k;
}

double blockCycles(const std::string& barrierText) {
  timing::TimingConfig c;
  c.executionLatency[static_cast<std::size_t>(device::InstructionClass::Fp32Fma)] = 4;
  c.issueIntervalCycles = 1;
  analysis::CriticalPath path(c, {0});
  path.beginKernel(kernel(barrierText));
  path.beginBlock(0);
  const auto run = [&](std::uint32_t warp, std::initializer_list<std::uint32_t> pcs) {
    for (const auto pc : pcs) {
      trace::WarpInstruction r;
      r.warp = warp;
      r.pc = pc;
      r.activeMask = ~0u;
      path.instruction(r);
    }
  };
  run(0, {0, 1, 2, 3});
  run(1, {3});
  run(0, {4, 5, 6});
  run(1, {4, 5, 6});
  path.endBlock(0);
  return path.blockCycles().at(0);
}

}  // namespace

TEST(CriticalPathBarriers, ABlockWideBarrierJoinsTheWarpsChains) {
  EXPECT_DOUBLE_EQ(blockCycles("bar.sync 0;"), 12);
  EXPECT_DOUBLE_EQ(blockCycles("barrier.sync.aligned 0;"), 12);
}

TEST(CriticalPathBarriers, ASubsetBarrierOrAnArriveIsNotJoined) {
  EXPECT_DOUBLE_EQ(blockCycles("bar.sync 1, 64;"), 8);
  EXPECT_DOUBLE_EQ(blockCycles("bar.arrive 1, 64;"), 8);
}
