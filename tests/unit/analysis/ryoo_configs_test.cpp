// Ryoo's metrics from a trace (analysis/ryoo_configs.hpp), checked against a hand count on a
// made-up prediction: a block of 64 threads (2 warps), 3 blocks simulated, 4 resident.
#include <gtest/gtest.h>

#include "teg/analysis/ryoo_configs.hpp"
#include "teg/support/error.hpp"

using namespace teg;

namespace {

trace::StaticInstruction instr(trace::InstrKind kind, trace::MemorySpace space = trace::MemorySpace::None) {
  trace::StaticInstruction s;
  s.kind = kind;
  s.space = space;
  return s;
}

analysis::Prediction sixWarps() {
  analysis::Prediction p;
  p.kernel.grid = {100, 1, 1};
  p.kernel.block = {64, 1, 1};
  // pc: 0 global load, 1 ALU, 2 shared load, 3 barrier, 4 local load, 5 ALU (a loop body), 6 exit
  p.kernel.instructions = {instr(trace::InstrKind::Load, trace::MemorySpace::Global),
                           instr(trace::InstrKind::Alu),
                           instr(trace::InstrKind::Load, trace::MemorySpace::Shared),
                           instr(trace::InstrKind::Barrier),
                           instr(trace::InstrKind::Load, trace::MemorySpace::Local),
                           instr(trace::InstrKind::Alu),
                           instr(trace::InstrKind::Exit)};
  p.result.perInstruction.resize(7);
  // Six warps: each runs pcs 0-4 twice (a loop of two trips), pc 5 ten times, pc 6 once.
  const std::uint64_t runs[] = {12, 12, 12, 12, 12, 60, 6};
  for (std::size_t pc = 0; pc < 7; ++pc) p.result.perInstruction[pc].executions = runs[pc];
  p.result.blocksSimulated = 3;
  p.result.residentBlocks = 4;
  return p;
}

}  // namespace

// Per warp: 2 x 5 + 10 + 1 = 21 instructions; blocking ones: the global load, the barrier and the
// local load twice = 6, so 7 regions (the shared load does not block); 100 x 64 threads; W_TB 2.
TEST(RyooFromTrace, CountsPerWarpAndBlockingRegions) {
  const auto c = analysis::ryooConfigOf(sixWarps(), "b64");
  EXPECT_EQ(c.name, "b64");
  EXPECT_DOUBLE_EQ(c.instructions, 21);
  EXPECT_DOUBLE_EQ(c.threads, 6400);
  EXPECT_DOUBLE_EQ(c.regions, 7);
  EXPECT_DOUBLE_EQ(c.warpsPerBlock, 2);
  EXPECT_DOUBLE_EQ(c.blocksPerSm, 4);
  // eq. 1.6: 21/7 x ((2-1)/2 + 3 x 2) = 3 x 6.5
  EXPECT_DOUBLE_EQ(models::ryooMetrics(c).utilization, 19.5);
}

TEST(RyooFromTrace, NoSimulatedWarpIsAnError) {
  auto p = sixWarps();
  p.result.blocksSimulated = 0;
  EXPECT_THROW(analysis::ryooConfigOf(p, "empty"), Error);
}
