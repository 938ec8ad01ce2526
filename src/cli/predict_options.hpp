// The options `teg predict` and `teg bound` share (cmd_predict.cpp): the launch (--launch, or
// --cu with --kernel/--grid/--block/--arg), the GPU, sampling, emulator limits, compile flags.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "emulator_limits.hpp"
#include "teg/analysis/predict.hpp"

namespace teg::cli {

struct PredictArgs {
  std::string launch, gpu, cu, kernel, grid, block, traceOut;
  std::vector<std::string> scalars, whatIfs;
  toolchain::CompileOptions compile;  // -I, -D, --nvcc-arg, --no-cache
  bool json = false, full = false, noTimeline = false, strictBounds = false;
  std::uint64_t sampleBlocks = 0;
  EmulatorLimits limits;
  unsigned threads = 1;
  int regs = -1;
  int carveout = -1;
  int peerBlocks = analysis::PredictRequest{}.peerBlocks;
  int loopSample = analysis::PredictRequest{}.loopSampleIterations;
  std::uint32_t dynamicSmem = 0;
  std::string isa = "auto";  // --isa (isa_option.hpp)
};

// Registers the shared options; returns --dyn-smem (whether it was given matters with --launch).
CLI::Option* addPredictOptions(CLI::App& app, PredictArgs& a);

// The request the options describe; throws teg::Error for a bad launch.
analysis::PredictRequest predictRequestOf(const PredictArgs& a, bool dynSmemGiven, Context& context);

// A prediction's accesses outside its buffers (analysis::Prediction::overruns): one "warning:"
// line per buffer for the text report ("" when there were none), and their JSON array.
std::string overrunWarnings(const analysis::Prediction& p);
nlohmann::json overrunsJson(const analysis::Prediction& p);

}  // namespace teg::cli
