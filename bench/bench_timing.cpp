// Simulated warp instructions per second of the TEG engine on one core: a synthetic kernel of
// 8-warp blocks mixing dependent FMAs, shared loads with bank conflicts and coalesced global
// loads, 8 resident blocks, 4 schedulers (an sm_80-like configuration written out here).
#include <benchmark/benchmark.h>

#include "teg/timing/engine.hpp"

namespace {

using teg::device::InstructionClass;
using namespace teg;

trace::KernelInfo syntheticKernel(std::uint32_t blocks) {
  trace::KernelInfo k;
  k.name = "synthetic";
  k.grid = {blocks, 1, 1};
  k.block = {256, 1, 1};
  for (std::uint32_t pc = 0; pc < 16; ++pc) {
    trace::StaticInstruction s;
    s.pc = pc;
    if (pc % 8 == 3) {
      s.kind = trace::InstrKind::Load;
      s.unit = InstructionClass::LoadStore;
      s.space = pc == 3 ? trace::MemorySpace::Shared : trace::MemorySpace::Global;
      s.accessBytes = 4;
      s.defs = {10 + pc};
      s.uses = {1};
    } else {
      s.kind = trace::InstrKind::Alu;
      s.unit = InstructionClass::Fp32Fma;
      s.defs = {2 + pc % 4};
      s.uses = {2 + (pc + 3) % 4, 10 + (pc / 8) * 8 + 3};
    }
    k.instructions.push_back(s);
  }
  return k;
}

timing::TimingConfig config() {
  timing::TimingConfig c;
  c.deviceName = "sm_80-like";
  c.smCount = 1;
  c.clockMhz = 1410;
  c.schedulers = 4;
  c.issueIntervalCycles = 1;
  c.executionLatency.fill(4);
  c.unitInterval.fill(2);
  c.sameWarpInterval.fill(1);
  c.sharedLatency = 23;
  c.sharedWavefrontCycles = 1;
  c.l1HitLatency = 36;
  c.l2HitLatency = 213;
  c.dramLatency = 573;
  c.l1Bytes = 128 * 1024;
  c.l2BytesShare = 384 * 1024;
  c.dramBytesPerCycle = 10.2;
  c.lsuBytesPerCycle = 128;
  c.maxOutstandingSectors = 183;
  return c;
}

void BM_SimulatedWarpInstructions(benchmark::State& state) {
  const std::uint32_t blocks = 32;
  const auto kernel = syntheticKernel(blocks);
  const std::size_t perWarp = static_cast<std::size_t>(state.range(0));
  std::uint64_t instructions = 0;
  for (auto _ : state) {
    timing::EngineOptions options;
    options.residentBlocks = 8;
    timing::TimingEngine engine(config(), options);
    engine.beginKernel(kernel);
    trace::WarpInstruction r;
    r.activeMask = 0xFFFFFFFFu;
    for (std::uint32_t b = 0; b < blocks; ++b) {
      engine.beginBlock(b);
      r.block = b;
      for (std::uint32_t w = 0; w < 8; ++w) {
        r.warp = w;
        for (std::size_t i = 0; i < perWarp; ++i) {
          r.pc = static_cast<std::uint32_t>(i % 16);
          for (int lane = 0; lane < 32; ++lane)
            r.addresses[static_cast<std::size_t>(lane)] =
                r.pc == 3 ? static_cast<std::uint64_t>(lane) * 8  // 2-way bank conflict
                          : 0x7f0000000000ull + ((b * 8 + w) * perWarp + i) * 128 + 4u * lane;
          engine.instruction(r);
        }
      }
      engine.endBlock(b);
    }
    const auto result = engine.finish();
    instructions += result.warpInstructions;
    benchmark::DoNotOptimize(result.cycles);
  }
  state.counters["warp_instr/s"] = benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimulatedWarpInstructions)->Arg(2000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
