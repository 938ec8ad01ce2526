// Simulated warp instructions per second of the TEG engine on one core (recording the trace and
// running the model), on three synthetic kernels of 8-warp blocks with 8 resident blocks and 4
// schedulers (an sm_80-like configuration written out here):
//   mixed:  dependent FMAs, shared loads with bank conflicts and coalesced global loads (1 in 8);
//   alu:    FMAs only, four independent chains per warp (issue- and pipe-bound);
//   memory: every other instruction a global load, half of them strided (32 sectors a request),
//           over a bigger grid (DRAM-bandwidth- and C_mem-bound).
#include <benchmark/benchmark.h>

#include <functional>

#include "teg/timing/engine.hpp"

namespace {

using teg::device::InstructionClass;
using namespace teg;

constexpr std::uint32_t kPcs = 16;

trace::StaticInstruction fma(std::uint32_t def, std::vector<std::uint32_t> uses) {
  trace::StaticInstruction s;
  s.kind = trace::InstrKind::Alu;
  s.unit = InstructionClass::Fp32Fma;
  s.defs = {def};
  s.uses = std::move(uses);
  return s;
}

trace::StaticInstruction load(trace::MemorySpace space, std::uint32_t def) {
  trace::StaticInstruction s;
  s.kind = trace::InstrKind::Load;
  s.unit = InstructionClass::LoadStore;
  s.space = space;
  s.accessBytes = 4;
  s.defs = {def};
  s.uses = {1};
  return s;
}

trace::KernelInfo kernelOf(std::uint32_t blocks, const std::function<trace::StaticInstruction(std::uint32_t)>& at) {
  trace::KernelInfo k;
  k.name = "synthetic";
  k.grid = {blocks, 1, 1};
  k.block = {256, 1, 1};
  for (std::uint32_t pc = 0; pc < kPcs; ++pc) {
    trace::StaticInstruction s = at(pc);
    s.pc = pc;
    k.instructions.push_back(s);
  }
  return k;
}

trace::KernelInfo mixedKernel(std::uint32_t blocks) {
  return kernelOf(blocks, [](std::uint32_t pc) {
    if (pc % 8 == 3) return load(pc == 3 ? trace::MemorySpace::Shared : trace::MemorySpace::Global, 10 + pc);
    return fma(2 + pc % 4, {2 + (pc + 3) % 4, 10 + (pc / 8) * 8 + 3});
  });
}

trace::KernelInfo aluKernel(std::uint32_t blocks) {
  // Four chains r2..r5, each FMA depends on the previous one of its chain.
  return kernelOf(blocks, [](std::uint32_t pc) { return fma(2 + pc % 4, {2 + pc % 4, 1}); });
}

trace::KernelInfo memoryKernel(std::uint32_t blocks) {
  // Even pcs load into r10.., odd pcs consume the load two before (so two loads are in flight).
  return kernelOf(blocks, [](std::uint32_t pc) {
    if (pc % 2 == 0) return load(trace::MemorySpace::Global, 10 + pc % 4);
    return fma(2, {2, 10 + (pc + 1) % 4});
  });
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

// Lane addresses of instruction i of warp w of block b: addressOf(pc, warp, i, lane). A template
// parameter, not a std::function: 32 indirect calls per memory instruction were about a fifth of
// BM_MixedRecordOnly's time (17.4-18.1 ms, now 13.7), time the harness spent, not the engine.

// What each iteration does: record the trace and run the model (the figure issue #5 names), only
// record it (the engine's front half: coalescing, bank conflicts, the per-warp streams), or only
// time the model on the recorded trace, so that the two rates can be told apart.
enum class Stage { RecordAndSimulate, RecordOnly, SimulateOnly };

template <typename AddressOf>
void run(benchmark::State& state, const trace::KernelInfo& kernel, const AddressOf& addressOf,
         Stage stage = Stage::RecordAndSimulate) {
  const std::uint32_t blocks = kernel.grid.x;
  const std::size_t perWarp = static_cast<std::size_t>(state.range(0));
  std::uint64_t instructions = 0;
  for (auto _ : state) {
    if (stage == Stage::SimulateOnly) state.PauseTiming();  // the recording is not timed
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
          r.pc = static_cast<std::uint32_t>(i % kPcs);
          if (kernel.instructions[r.pc].kind == trace::InstrKind::Load)
            for (int lane = 0; lane < 32; ++lane)
              r.addresses[static_cast<std::size_t>(lane)] = addressOf(r.pc, std::uint64_t{b} * 8 + w, i, lane);
          engine.instruction(r);
        }
      }
      engine.endBlock(b);
    }
    if (stage == Stage::RecordOnly) {
      instructions += std::uint64_t{blocks} * 8 * perWarp;  // every recorded instruction is simulated later
      benchmark::DoNotOptimize(engine);
      continue;
    }
    if (stage == Stage::SimulateOnly) state.ResumeTiming();
    const auto result = engine.finish();
    instructions += result.warpInstructions;
    benchmark::DoNotOptimize(result.cycles);
  }
  state.counters["warp_instr/s"] = benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
}

auto mixedAddresses(std::size_t perWarp) {
  return [perWarp](std::uint32_t pc, std::uint64_t warp, std::size_t i, int lane) {
    return pc == 3 ? static_cast<std::uint64_t>(lane) * 8  // 2-way bank conflict
                   : 0x7f0000000000ull + (warp * perWarp + i) * 128 + 4u * static_cast<std::uint64_t>(lane);
  };
}

void BM_SimulatedWarpInstructions(benchmark::State& state) {
  run(state, mixedKernel(32), mixedAddresses(static_cast<std::size_t>(state.range(0))));
}
BENCHMARK(BM_SimulatedWarpInstructions)->Arg(2000)->Unit(benchmark::kMillisecond);

// The mixed kernel's recording alone: its time per instruction is a floor under the whole.
void BM_MixedRecordOnly(benchmark::State& state) {
  run(state, mixedKernel(32), mixedAddresses(static_cast<std::size_t>(state.range(0))), Stage::RecordOnly);
}
BENCHMARK(BM_MixedRecordOnly)->Arg(2000)->Unit(benchmark::kMillisecond);

// ... and the model alone on it (TimingEngine::finish: the SM model, waves, bounds).
void BM_MixedSimulateOnly(benchmark::State& state) {
  run(state, mixedKernel(32), mixedAddresses(static_cast<std::size_t>(state.range(0))), Stage::SimulateOnly);
}
BENCHMARK(BM_MixedSimulateOnly)->Arg(2000)->Unit(benchmark::kMillisecond);

void BM_AluBound(benchmark::State& state) {
  run(state, aluKernel(32), [](std::uint32_t, std::uint64_t, std::size_t, int) { return std::uint64_t{0}; });
}
BENCHMARK(BM_AluBound)->Arg(2000)->Unit(benchmark::kMillisecond);

void BM_MemoryBound(benchmark::State& state) {
  const std::size_t perWarp = static_cast<std::size_t>(state.range(0));
  run(state, memoryKernel(128), [perWarp](std::uint32_t pc, std::uint64_t warp, std::size_t i, int lane) {
    const std::uint64_t base = 0x7f0000000000ull + (warp * perWarp + i) * 1024;
    const auto l = static_cast<std::uint64_t>(lane);
    return pc % 4 == 0 ? base + 4 * l : base + 32 * l;  // coalesced (4 sectors) or strided (32 sectors)
  });
}
BENCHMARK(BM_MemoryBound)->Arg(500)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
