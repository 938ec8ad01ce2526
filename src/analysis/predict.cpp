#include "teg/analysis/predict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "teg/analysis/block_progress.hpp"
#include "teg/analysis/critical_path.hpp"
#include "teg/analysis/flop_counter.hpp"
#include "teg/analysis/kernel_source.hpp"
#include "teg/analysis/software_sequences.hpp"
#include "teg/analysis/trace_budget.hpp"
#include "teg/analysis/what_if.hpp"
#include "teg/emu/emulator.hpp"
#include "teg/support/error.hpp"
#include "teg/timing/config.hpp"
#include "teg/timing/engine.hpp"
#include "teg/timing/launch_views.hpp"
#include "teg/trace/trace_file.hpp"

namespace teg::analysis {

namespace {

// Warp instructions per block as the traced run delivers them (blocks arrive one at a time, in
// order, whatever the emulator's threads): the longest finished block.
class BlockLengths final : public trace::TraceListener {
 public:
  void beginBlock(std::uint32_t) override { current_ = 0; }
  void instruction(const trace::WarpInstruction&) override { ++current_; }
  void endBlock(std::uint32_t) override { longest_ = std::max(longest_, current_); }
  std::uint64_t longest() const { return longest_; }

 private:
  std::uint64_t current_ = 0;
  std::uint64_t longest_ = 0;
};

// The default sample traced more than the record limit allows: how long a block was, for a retry
// with a sample that fits (trace_budget.hpp).
struct DefaultSampleTooLong {
  std::uint64_t sampledBlocks = 0;
  std::uint64_t peerBlocks = 0;
  std::uint64_t warpInstructionsPerBlock = 0;
};

// A sample chosen after a first run stopped at the trace limit, and why.
struct FittedSample {
  TraceBudget budget;
  timing::Provenance note;
};

// The bytes of every buffer of the launch (0 when it also has textures, whose data the count would
// miss).
std::uint64_t launchBufferBytes(const emu::LaunchDescription& launch) {
  for (const auto& arg : launch.args)
    if (std::holds_alternative<emu::TextureArg>(arg.value)) return 0;
  std::uint64_t bytes = 0;
  for (const auto& b : emu::launchBuffers(launch))
    bytes += b.buffer->count * static_cast<std::uint64_t>(emu::scalarTypeSize(b.buffer->type));
  return bytes;
}

// The prediction of `source` on the plan's instruction stream.
Prediction predictOn(const PredictRequest& request, const KernelSource& source, const IsaPlan& isaPlan,
                     const FittedSample* fitted = nullptr) {
  const device::Device& gpu = *request.device;
  emu::LaunchDescription launchRun = request.launch;
  launchRun.overrunSlackBytes = request.overrunSlackBytes;
  emu::Emulator emulator(source.module, launchRun);
  applyIsaPlan(isaPlan, emulator);
  Prediction p;
  p.isa = isaPlan.choice;
  p.kernel = emulator.kernelInfo();

  // Registers and static shared memory as ptxas allocates them; else what the PTX declares.
  if (request.registersPerThread) {
    p.registersPerThread = *request.registersPerThread;
    p.registersOrigin = "--regs";
  } else if (source.resources) {
    p.registersPerThread = source.resources->registers;
    p.registersOrigin = fmt::format("ptxas ({})", source.arch);
    // Another architecture's count (nvcc 13 cannot target this GPU) may exceed what this GPU
    // allows; its own compiler would have spilled to stay within the limit.
    if (source.arch != gpu.cc.smName() && gpu.limits.maxRegistersPerThread > 0 &&
        p.registersPerThread > gpu.limits.maxRegistersPerThread) {
      p.registersOrigin = fmt::format("ptxas ({}) gave {}, above the {} this GPU allows: capped (its own compiler "
                                      "would spill; spills are not modelled)",
                                      source.arch, p.registersPerThread, gpu.limits.maxRegistersPerThread);
      p.registersPerThread = gpu.limits.maxRegistersPerThread;
    }
  } else {
    p.registersPerThread = static_cast<int>(std::min<std::uint32_t>(p.kernel.registersPerThread, 255));
    p.registersOrigin = "declared in the PTX (no ptxas figure: an upper bound of what ptxas would allocate)";
  }
  p.kernel.registersPerThread = static_cast<std::uint32_t>(p.registersPerThread);
  occupancy::Launch launch;
  launch.threadsPerBlock = static_cast<long long>(request.launch.block.count());
  launch.registersPerThread = p.registersPerThread;
  launch.staticSharedBytes = source.resources ? source.resources->staticSharedBytes
                                              : static_cast<long long>(p.kernel.sharedBytesPerBlock) - request.launch.dynamicSmem;
  launch.dynamicSharedBytes = request.launch.dynamicSmem;
  launch.carveoutPercent = request.launch.carveoutPercent;
  p.occupancy = occupancy::computeOccupancyOrThrow(gpu, launch);

  timing::TimingConfig base = timing::timingConfigFor(gpu, p.occupancy.sharedMemoryPerSm);
  // One carve-out for both sides: the occupancy's blocks per SM and the timing's L1 size.
  base.provenance.push_back(
      {"shared-memory carve-out", fmt::format("{} KiB per SM", p.occupancy.sharedMemoryPerSm / 1024),
       p.occupancy.carveoutChosenByDriver
           ? fmt::format("the driver's choice (no carve-out in the launch): the smallest of shared_memory_carveouts "
                         "that holds the {} resident blocks of {} B each (Volta Tuning Guide: the driver configures "
                         "the carve-out per kernel to avoid shared-memory occupancy bottlenecks)",
                         p.occupancy.blocksPerSm, p.occupancy.sharedMemoryPerBlock)
       : launch.carveoutPercent >= 0
           ? fmt::format("the launch's preference {} % of shared_memory_per_sm, rounded up to a carve-out the SM "
                         "has (or the smallest that holds one block)",
                         launch.carveoutPercent)
           : std::string("shared_memory_per_sm (no per-kernel carve-out on this generation)")});
  // Instructions ptxas expands into several (a division, a square root) issue as their SASS.
  const SequenceTable sequences = loadDefaultSequenceTable();
  base.sequences = sequencesToTime(sequences, gpu.cc.code());
  // The L2 is shared by the SMs that run blocks: a launch of fewer blocks than SMs leaves the
  // simulated SM a bigger share (a one-block microbenchmark sees all of it).
  const std::uint64_t activeSms = std::min<std::uint64_t>(std::max<std::uint64_t>(1, p.kernel.grid.count()),
                                                          static_cast<std::uint64_t>(std::max(1, base.smCount)));
  if (activeSms < static_cast<std::uint64_t>(base.smCount)) {
    base.l2BytesShare = gpu.memory.l2Bytes / static_cast<long long>(activeSms);
    base.provenance.push_back({"L2 share (small grid)", fmt::format("{} KiB: the launch uses {} of {} SMs", base.l2BytesShare / 1024,
                                                                    activeSms, base.smCount),
                               "model: the L2 is split among the SMs that run blocks"});
  }
  timing::EngineOptions options;
  options.residentBlocks = p.occupancy.blocksPerSm;
  const auto warpsPerBlock = static_cast<int>(p.kernel.warpsPerBlock());
  std::uint64_t sampled = request.sampledBlocks;
  // Default sample: three waves, and at least 16 blocks (short blocks pair up in the first waves;
  // the steady state needs a few more to show; see TimingEngine::finish).
  if (!request.fullGrid && sampled == 0)
    sampled = std::max<std::uint64_t>(3 * static_cast<std::uint64_t>(p.occupancy.blocksPerSm), 16);
  if (request.fullGrid) sampled = 0;
  options.peerBlocks = request.peerBlocks;
  const bool defaultSample = !request.fullGrid && request.sampledBlocks == 0;
  if (fitted != nullptr) {
    sampled = fitted->budget.sampledBlocks;
    options.peerBlocks = static_cast<int>(fitted->budget.peerBlocks);
  }
  options.maxSampledBlocks = sampled;
  options.loopSampleIterations = request.fullGrid ? 0 : request.loopSampleIterations;

  std::vector<timing::TimingConfig> configs{base};
  for (const auto& spec : request.whatIfs) {
    configs.push_back(base);
    applyWhatIf(spec, warpsPerBlock, p.occupancy.blocksPerSm, configs.back());
  }
  std::vector<std::unique_ptr<timing::TimingEngine>> engines;
  trace::TraceFanout fanout;
  for (const auto& config : configs) {
    engines.push_back(std::make_unique<timing::TimingEngine>(config, options));
    fanout.add(*engines.back());
  }
  // Launched back to back, a kernel finds in the L2 what its previous launch left there: the
  // fraction of its buffers' lines the L2's sets keep (timing::l2RetainedBetweenLaunches): that
  // share of the reads a cold L2 would miss hit instead (TimingConfig::l2WarmFraction; the
  // launch's own reuse is modelled as before); the L1 starts cold, as at every launch.
  // Debdeep23/test1's RTX 4070 runs time 100 launches back to back: arrays of 12 MB moved at
  // 1.3 TB/s, beyond the card's 504 GB/s DRAM (suite gpuperf-debdeep-rtx4070).
  const std::uint64_t bufferBytes = launchBufferBytes(request.launch);
  const auto l2Bytes = static_cast<std::uint64_t>(std::max<long long>(0, gpu.memory.l2Bytes));
  const double retained = base.forcedL2HitRate < 0 && base.l2BytesShare > 0
                              ? timing::l2RetainedBetweenLaunches(bufferBytes, l2Bytes, base.lineBytes, base.l2Ways)
                              : 0.0;
  std::unique_ptr<timing::TimingEngine> warmEngine;
  if (retained >= 0.01) {  // below that, the warm run would be the cold one
    timing::TimingConfig warm = base;
    warm.l2WarmFraction = retained;
    warmEngine = std::make_unique<timing::TimingEngine>(warm, options);
    fanout.add(*warmEngine);
  }
  std::unique_ptr<trace::TraceFileWriter> writer;
  if (!request.traceOut.empty()) {
    writer = std::make_unique<trace::TraceFileWriter>(request.traceOut);
    fanout.add(*writer);
  }

  emu::RunOptions run;
  run.threads = request.threads;
  run.maxInstructions = request.maxInstructions;
  run.maxBlockInstructions = request.maxBlockInstructions;
  run.maxTraceRecords = request.maxTraceRecords;
  run.listener = &fanout;
  const std::uint64_t gridBlocks = p.kernel.grid.count();
  // The SM's own blocks, then the peer blocks the engine estimates L2 sharing from (see
  // TimingEngine::finish); one run, so every listener sees one kernel.
  run.blockList = timing::blocksOfSimulatedSm(gridBlocks, base.smCount, sampled);
  const std::uint64_t smBlocksTraced = run.blockList.size();
  FlopCounter flops(run.blockList);  // the SM's own blocks, for the roofline
  fanout.add(flops);
  CriticalPath criticalPath(base, run.blockList);  // the latency bound of `teg bound`
  fanout.add(criticalPath);
  const int slots = timing::residentSlots(base, options);
  for (const std::uint64_t peer : timing::peerBlocksOfSimulatedSm(p.kernel.grid, base.smCount, slots, options.peerBlocks).blocks)
    run.blockList.push_back(peer);
  const std::uint64_t blocksToEmulate = run.blockList.size();
  BlockProgress blockProgress([&](std::uint64_t done) {
    if (request.progress) request.progress("emulating blocks", done, blocksToEmulate);
  });
  fanout.add(blockProgress);
  BlockLengths blockLengths;
  fanout.add(blockLengths);
  try {
    emulator.run(run);
  } catch (const emu::TraceLimitExceeded&) {
    // A finished block tells how long blocks are; without one, no sample fits (a single block
    // exceeds the limit) and the emulator's message says what to do.
    if (!defaultSample || fitted != nullptr || blockLengths.longest() == 0) throw;
    throw DefaultSampleTooLong{smBlocksTraced, static_cast<std::uint64_t>(std::max(0, options.peerBlocks)), blockLengths.longest()};
  }
  const auto replayed = [&](std::size_t i) {
    if (request.progress) request.progress("replaying through the timing engine", i, engines.size());
  };
  replayed(0);

  p.result = engines[0]->finish();
  p.result.isaReason = p.isa.reason;
  p.result.launch.bufferBytes = bufferBytes;
  p.result.launch.l2Bytes = l2Bytes;
  if (warmEngine != nullptr) {
    const timing::TimingResult warm = warmEngine->finish();
    auto& l = p.result.launch;
    l.l2Warm = true;
    l.l2Retained = retained;
    l.warmKernelMs = warm.timeMs;
    l.streamMs = warm.timeMs + l.streamOverheadUs * 1e-3;
    l.graphMs = warm.timeMs + l.graphOverheadUs * 1e-3;
  }
  p.result.assumptions.push_back(
      {"L2 between launches",
       warmEngine != nullptr
           ? fmt::format("warm: back to back, {:.1f} % of the launch's {:.4g} MiB of buffers stay in the {:.4g} MiB L2 "
                         "(the stream and graph views: that share of the cold run's L2 read misses hit, {:.4g} ms a kernel)",
                         100 * retained, static_cast<double>(bufferBytes) / 1048576.0,
                         static_cast<double>(l2Bytes) / 1048576.0, p.result.launch.warmKernelMs)
           : fmt::format("cold in every view: {}", bufferBytes == 0 ? "the launch's data size is not known (no buffers, or textures)"
                                                   : l2Bytes == 0 || base.l2BytesShare <= 0 ? "the device has no L2 for global data"
                                                   : base.forcedL2HitRate >= 0 ? "an L2 hit rate is forced"
                                                   : fmt::format("its {:.4g} MiB of buffers outgrow the {:.4g} MiB L2",
                                                                 static_cast<double>(bufferBytes) / 1048576.0,
                                                                 static_cast<double>(l2Bytes) / 1048576.0)),
       "model (timing::l2RetainedBetweenLaunches): the previous launch's lines fall into the L2's hashed sets at "
       "random; a set given at most its ways keeps them, one given more loses them all to the next launch's sweep "
       "(LRU); the L1 starts empty at every launch"});
  replayed(1);
  p.result.assumptions.insert(p.result.assumptions.begin(),
                              timing::Provenance{"registers per thread", std::to_string(p.registersPerThread), p.registersOrigin});
  if (!source.note.empty())
    p.result.assumptions.insert(p.result.assumptions.begin(),
                                timing::Provenance{"instruction stream",
                                                   source.arch + (p.isa.isa == trace::Isa::Sass ? " SASS" : " PTX"), source.note});
  p.result.assumptions.insert(p.result.assumptions.begin(),
                              timing::Provenance{"instruction set", p.isa.isa == trace::Isa::Sass ? "SASS" : "PTX",
                                                 p.isa.reason});
  if (timing::Provenance row = describeSequences(softwareSequencesOf(p.kernel, p.result, sequences, gpu.cc.code()),
                                                 sequences, gpu.cc.code(), !base.sequences.empty());
      !row.parameter.empty())
    p.result.assumptions.push_back(std::move(row));
  if (p.isa.isa == trace::Isa::Sass) {
    // The PTX path's guesses at ptxas are not applied to SASS (the engine skips them): the rows
    // that describe them would mislead.
    std::erase_if(p.result.assumptions, [](const timing::Provenance& row) {
      return row.parameter == "instruction order" || row.parameter == "fma contraction" ||
             row.parameter == "software sequences";
    });
    p.result.assumptions.push_back({"instruction order",
                                    "ptxas's SASS as it is: its schedule, stall counts and dependency barriers",
                                    "the control word of each instruction (Jia et al. 2018, arXiv:1804.06826); "
                                    "no load hoisting, FMA contraction or software sequences added"});
  }
  if (fitted != nullptr) p.result.assumptions.push_back(fitted->note);
  p.result.assumptions.push_back({"not modelled",
                                  "instruction cache, constant-cache misses, the texture unit's own pipeline (fetches "
                                  "time as L1 loads), tensor cores, DRAM pages and partition camping, L2 slices, clock "
                                  "boost changes, launch overhead",
                                  "see docs/timing.md"});
  for (std::size_t i = 1; i < engines.size(); ++i) {
    p.whatIfs.push_back({request.whatIfs[i - 1], engines[i]->finish()});
    p.whatIfs.back().result.isaReason = p.isa.reason;
    replayed(i + 1);
  }
  p.config = base;
  p.criticalPathBlockCycles = criticalPath.blockCycles();
  p.overruns = emulator.overruns();
  p.achieved = achievedFigures(gpu, base, p.result, flops.count(), gridBlocks, p.occupancy.occupancy);
  return p;
}

// The prediction on the plan's stream; when the default sample traces more records than the limit
// allows (long blocks: a 4096^3 SGEMM), once more with a sample that fits, and the report says so.
Prediction predictWithinTraceLimit(const PredictRequest& request, const KernelSource& source, const IsaPlan& plan) {
  try {
    return predictOn(request, source, plan);
  } catch (const DefaultSampleTooLong& tooLong) {
    FittedSample fitted;
    fitted.budget = fitSampleToTraceBudget(tooLong.sampledBlocks, tooLong.peerBlocks, tooLong.warpInstructionsPerBlock,
                                           request.maxTraceRecords);
    fitted.note = {"sampled blocks",
                   fmt::format("{} of the SM's blocks and {} peers (the default is {} and {})", fitted.budget.sampledBlocks,
                               fitted.budget.peerBlocks, tooLong.sampledBlocks, tooLong.peerBlocks),
                   fmt::format("a block runs up to {} warp instructions: the default sample would trace more than the "
                               "limit of {} records (--max-trace-records), so fewer blocks fill three quarters of it; "
                               "--sample-blocks N chooses another sample",
                               tooLong.warpInstructionsPerBlock, request.maxTraceRecords)};
    return predictOn(request, source, plan, &fitted);
  }
}

}  // namespace

Prediction predict(const PredictRequest& request) {
  if (request.device == nullptr) throw Error("predict: no GPU given");
  const KernelSource source = loadKernelSource(request.launch, *request.device, request.compile);
  // The what-ifs rewrite the PTX-side trace (bank conflicts, coalescing, contraction...): on a
  // SASS trace some would change nothing and say nothing, so they run on PTX (auto) or are refused.
  if (!request.whatIfs.empty() && request.isa == IsaRequest::Sass)
    throw Error("--isa sass: what-ifs (--what-if) are modelled on the PTX path only; use --isa ptx or auto");
  if (!request.whatIfs.empty() && request.isa == IsaRequest::Auto) {
    IsaPlan ptx = planIsa(IsaRequest::Ptx, *request.device, source, request.launch.kernel);
    ptx.choice.reason = "auto: PTX because what-ifs (--what-if) are modelled on the PTX path only";
    return predictWithinTraceLimit(request, source, ptx);
  }
  const IsaPlan plan = planIsa(request.isa, *request.device, source, request.launch.kernel);
  if (plan.choice.isa != trace::Isa::Sass || request.isa != IsaRequest::Auto) return predictWithinTraceLimit(request, source, plan);
  // `auto`: a kernel the SASS emulator stops on (a construct it does not run yet, found only when
  // it executes) is run on its PTX instead, and the report says why. A fault of the kernel itself
  // stops the PTX run too, with the PTX emulator's message.
  try {
    return predictWithinTraceLimit(request, source, plan);
  } catch (const Error& e) {
    IsaPlan ptx;
    ptx.choice = {trace::Isa::Ptx, fmt::format("auto: PTX because the SASS emulator stopped: {}", e.what())};
    return predictWithinTraceLimit(request, source, ptx);
  }
}

}  // namespace teg::analysis
