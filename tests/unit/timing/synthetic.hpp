// Synthetic kernels and traces for timing tests: a few static instructions and per-warp streams
// written by hand, so that expected cycle counts can be worked out on paper.
#pragma once

#include <functional>
#include <vector>

#include "teg/timing/engine.hpp"

namespace teg::timing::test {

using device::InstructionClass;

// A config with one scheduler, no memory system surprises and the given ALU figures.
inline TimingConfig simpleConfig(double latency, double unitInterval, double sameWarp, int schedulers = 1) {
  TimingConfig c;
  c.deviceName = "synthetic";
  c.smCount = 1;
  c.clockMhz = 1000;
  c.schedulers = schedulers;
  c.issueIntervalCycles = 1;
  c.executionLatency.fill(latency);
  c.unitInterval.fill(unitInterval);
  c.sameWarpInterval.fill(sameWarp);
  c.sharedLatency = 20;
  c.sharedWavefrontCycles = 2;
  c.l1HitLatency = 30;
  c.l2HitLatency = 200;
  c.dramLatency = 400;
  c.lineBytes = 128;
  c.sectorBytes = 32;
  c.l1Bytes = 0;  // no L1: every global access goes to the L2/DRAM
  c.l1CachesGlobalLoads = false;
  return c;
}

inline trace::StaticInstruction alu(std::vector<std::uint32_t> defs, std::vector<std::uint32_t> uses,
                                    InstructionClass unit = InstructionClass::Fp32Fma) {
  trace::StaticInstruction s;
  s.kind = trace::InstrKind::Alu;
  s.unit = unit;
  s.defs = std::move(defs);
  s.uses = std::move(uses);
  return s;
}

inline trace::StaticInstruction memory(trace::InstrKind kind, trace::MemorySpace space, std::vector<std::uint32_t> defs,
                                       std::vector<std::uint32_t> uses, std::uint8_t bytes = 4) {
  trace::StaticInstruction s;
  s.kind = kind;
  s.unit = InstructionClass::LoadStore;
  s.space = space;
  s.accessBytes = bytes;
  s.defs = std::move(defs);
  s.uses = std::move(uses);
  return s;
}

inline trace::StaticInstruction barrier() {
  trace::StaticInstruction s;
  s.kind = trace::InstrKind::Barrier;
  s.unit = InstructionClass::Branch;
  return s;
}

inline trace::KernelInfo kernelOf(std::vector<trace::StaticInstruction> instructions, std::uint32_t gridBlocks,
                                  std::uint32_t threadsPerBlock) {
  trace::KernelInfo k;
  k.name = "synthetic";
  k.grid = {gridBlocks, 1, 1};
  k.block = {threadsPerBlock, 1, 1};
  for (std::size_t i = 0; i < instructions.size(); ++i) instructions[i].pc = static_cast<std::uint32_t>(i);
  k.instructions = std::move(instructions);
  return k;
}

// Streams `pcsOfWarp(block, warp)` for every block and warp; memory instructions get the
// addresses `addressOf(block, warp, index, lane)`; every lane is active unless `activeMaskOf(block,
// warp, index)` says otherwise (a guard predicate false on some lanes).
inline TimingResult runSynthetic(
    const TimingConfig& config, const EngineOptions& options, const trace::KernelInfo& kernel,
    const std::function<std::vector<std::uint32_t>(std::uint32_t, std::uint32_t)>& pcsOfWarp,
    const std::function<std::uint64_t(std::uint32_t, std::uint32_t, std::size_t, int)>& addressOf = nullptr,
    const std::function<std::uint32_t(std::uint32_t, std::uint32_t, std::size_t)>& activeMaskOf = nullptr) {
  TimingEngine engine(config, options);
  engine.beginKernel(kernel);
  for (std::uint32_t b = 0; b < kernel.grid.count(); ++b) {
    engine.beginBlock(b);
    for (std::uint32_t w = 0; w < kernel.warpsPerBlock(); ++w) {
      const auto pcs = pcsOfWarp(b, w);
      for (std::size_t i = 0; i < pcs.size(); ++i) {
        trace::WarpInstruction r;
        r.block = b;
        r.warp = w;
        r.pc = pcs[i];
        r.activeMask = activeMaskOf ? activeMaskOf(b, w, i) : 0xFFFFFFFFu;
        if (addressOf)
          for (int lane = 0; lane < 32; ++lane) r.addresses[lane] = addressOf(b, w, i, lane);
        engine.instruction(r);
      }
    }
    engine.endBlock(b);
  }
  engine.endKernel();
  return engine.finish();
}

inline std::vector<std::uint32_t> repeat(std::uint32_t pc, std::size_t n) { return std::vector<std::uint32_t>(n, pc); }

// n global loads into n different registers r10.. (one register would serialise them: WAW on a
// pending load waits, as the hardware scoreboard does), addressed by r2.
inline std::vector<trace::StaticInstruction> independentGlobalLoads(std::uint32_t n) {
  std::vector<trace::StaticInstruction> loads;
  for (std::uint32_t i = 0; i < n; ++i) loads.push_back(memory(trace::InstrKind::Load, trace::MemorySpace::Global, {10 + i}, {2}));
  return loads;
}

// pcs 0, 1, ..., n - 1: every instruction of a straight-line kernel once.
inline std::vector<std::uint32_t> everyPc(std::uint32_t n) {
  std::vector<std::uint32_t> pcs(n);
  for (std::uint32_t i = 0; i < n; ++i) pcs[i] = i;
  return pcs;
}

}  // namespace teg::timing::test
