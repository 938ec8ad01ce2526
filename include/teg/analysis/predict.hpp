// `teg predict` as a library call: from a launch description and a GPU to a timing prediction
// and its what-ifs. The pipeline (seed 000 §3.3, Fig. 3.2, with teg's own parts):
//   .cu --nvcc--> PTX + ptxas resources --parse--> IR --occupancy--> N_slot
//   --emulate the busiest SM's blocks--> warp trace --TEG engine--> cycles, stalls, bounds
// Each what-if replays the same trace through an engine whose configuration has one change.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <optional>
#include <string>
#include <vector>

#include "teg/analysis/achieved.hpp"
#include "teg/analysis/isa_choice.hpp"
#include "teg/device/device.hpp"
#include "teg/emu/emulator.hpp"
#include "teg/emu/launch.hpp"
#include "teg/occupancy/occupancy.hpp"
#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/trace/trace.hpp"

namespace teg::analysis {

struct PredictRequest {
  emu::LaunchDescription launch;
  const device::Device* device = nullptr;
  std::vector<std::string> whatIfs;
  // Blocks of the busiest SM to simulate; 0 = automatic (three waves of resident blocks, at least 16);
  // `fullGrid` simulates every block of the SM's share.
  std::uint64_t sampledBlocks = 0;
  bool fullGrid = false;
  // Blocks of other SMs' first wave traced besides the SM's own, to estimate what they bring into
  // the shared L2 (timing/l2_sharing.hpp); 0 = none. Each costs one more emulated block.
  int peerBlocks = 8;
  // Loop-iteration sampling of the simulated blocks (timing::EngineOptions::loopSampleIterations,
  // docs/timing.md); 0 = off. `fullGrid` turns it off too.
  int loopSampleIterations = 4;
  unsigned threads = 1;                  // emulator worker threads
  std::uint64_t maxInstructions = 0;     // emulator safety limit (0 = none)
  std::uint64_t maxBlockInstructions = emu::kDefaultMaxBlockInstructions;  // per block (0 = none)
  std::uint64_t maxTraceRecords = emu::kDefaultMaxTraceRecords;            // traced records (0 = none)
  toolchain::CompileOptions compile;     // for a .cu source: -I, -D, nvcc arguments, cache (arch: the GPU's)
  std::optional<int> registersPerThread; // override (e.g. for .ptx sources without ptxas)
  std::string traceOut;                  // also write the binary trace here
  // Bytes of mapped slack around each buffer (emu::Emulator::setOverrunSlack): a kernel that reads
  // or writes a little outside its arrays, which runs on a GPU (the memory beside an allocation is
  // mapped), is timed as it runs and the accesses are reported (Prediction::overruns) rather than
  // stopping the prediction; 0 = strict (`--strict-bounds`), as `teg run` is.
  std::uint64_t overrunSlackBytes = kOverrunSlackBytes;
  static constexpr std::uint64_t kOverrunSlackBytes = 64 * 1024;
  IsaRequest isa = IsaRequest::Auto;     // --isa: time the SASS or the PTX (isa_choice.hpp)
  std::string carveoutNote;
  // Told what the long stages have done (emulated blocks, timing replays), e.g. for a progress line.
  std::function<void(std::string_view stage, std::uint64_t done, std::uint64_t total)> progress;
};

struct Prediction {
  IsaChoice isa;  // which instruction stream was timed, and why
  trace::KernelInfo kernel;
  occupancy::Occupancy occupancy;
  int registersPerThread = 0;
  std::string registersOrigin;  // "ptxas (sm_80)", "declared in the PTX", "--regs"
  timing::TimingResult result;
  std::vector<timing::WhatIfOutcome> whatIfs;
  Achieved achieved;  // bandwidth and % of peak per level, roofline, tail (achieved.hpp)
  timing::TimingConfig config;  // the configuration the result was simulated with (before what-ifs)
  // Each simulated block's dependent-chain cycles at optimistic latencies (critical_path.hpp).
  std::vector<double> criticalPathBlockCycles;
  // Buffers the emulated blocks accessed outside of, within PredictRequest::overrunSlackBytes.
  std::vector<emu::BufferOverrun> overruns;
};

// Throws teg::Error with a one-line reason for bad input (missing file, compile error, impossible
// launch, emulator fault, unknown what-if).
Prediction predict(const PredictRequest& request);

}  // namespace teg::analysis
