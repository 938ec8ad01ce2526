// teg: how fast will this CUDA kernel run on that GPU, and why — without a GPU.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "checked_stdout.hpp"
#include "command.hpp"
#include "figure_setting.hpp"
#include "teg/support/cleanup.hpp"
#include "teg/support/error.hpp"

namespace teg::cli {

const device::DeviceDatabase& Context::devices() {
  if (!database_) {
    database_ = std::make_unique<device::DeviceDatabase>(device::DeviceDatabase::loadDefault());
    for (const auto& file : deviceFiles) database_->applyOverrideFile(file);
    for (const auto& setting : figureSettings) {
      try {
        database_->applyOverrideText(figureSettingOverride(setting, *database_), setting);
      } catch (const Error& e) {
        // The position is in the one-figure file made from the setting, which the user never saw.
        throw Error(fmt::format("--set '{}': {}", setting, e.message()));
      }
    }
  }
  return *database_;
}

namespace {

constexpr CommandEntry kCommands[] = {
    {"devices", "List the GPU database or show one GPU's figures with their sources",
     registerDevicesCommand},
    {"occupancy", "Blocks, warps and occupancy per SM of a launch, what limits it, cliffs, sweeps",
     registerOccupancyCommand},
    {"model", "Analytical models: waves and f_sched, TMM, GPUDIAG T(g,b) and fu(c), latency hiding, SGEMM bound",
     registerModelCommand},
    {"compile", "Compile a .cu with nvcc and report each kernel's ptxas resources",
     registerCompileCommand},
    {"ptx", "Read PTX: statistics, parse check, round trip", registerPtxCommand},
    {"sass", "Read the SASS the GPU runs (nvdisasm): control words, source lines, mix per block and line",
     registerSassCommand},
    {"run", "Run a kernel on the functional emulator: results, --check, per-line warp statistics",
     registerRunCommand},
    {"predict", "Predict a kernel's cycles and time on a GPU with the TEG timing engine, and explain them",
     registerPredictCommand},
    {"bound", "How much faster could a kernel run, and what stops it: each resource's bound beside the prediction",
     registerBoundCommand},
    {"validate", "Predict published measurements (seed tables, microbenchmark papers) and report the errors",
     registerValidateCommand},
};

// Output that never reached its destination (`teg ... > /dev/full`) must not end in exit status
// 0: flushed and checked here, once, at the end. Returns the exit status to use.
int checkStandardOutput(const CheckedStdout& out, int status) {
  std::cout.flush();
  if (out.error() == 0) return status;
  std::fprintf(stderr, "teg: error: cannot write standard output: %s\n", std::strerror(out.error()));
  return status != 0 ? status : 1;
}

}  // namespace
}  // namespace teg::cli

int main(int argc, char** argv) {
  using namespace teg::cli;
  // An interrupted run removes its unfinished output files and stops the nvcc it started.
  teg::installCleanupHandlers();
  // The C++ streams on their own buffers (fast std::cin for `occupancy --batch -`); cerr stays
  // unit-buffered, so its order with stderr's fprintf holds.
  std::ios::sync_with_stdio(false);
  static CheckedStdout checkedStdout;  // static: outlives any late flush of std::cout
  std::streambuf* const originalStdout = std::cout.rdbuf(&checkedStdout);
  CLI::App app{"teg — predicts how fast a CUDA kernel runs on an NVIDIA GPU, and why, without a GPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "teg 0.1.0");
  Context context;
  app.add_option("--device-file", context.deviceFiles,
                 "A device JSON file that overrides or adds GPUs (repeatable)")
      ->check(CLI::ExistingFile);
  app.add_option("--set", context.figureSettings,
                 "Change one figure of one GPU, GPU:FIGURE=VALUE (repeatable; after --device-file): e.g. "
                 "rtx4060-laptop:clocks.core_mhz=2100 for your laptop's clock (nvidia-smi -q)");
  for (const auto& command : kCommands) {
    CLI::App* sub = app.add_subcommand(command.name, command.summary);
    command.registrar(*sub, context);
  }
  int status = 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    status = app.exit(e);
  } catch (const teg::Error& e) {
    std::fprintf(stderr, "teg: error: %s\n", e.what());
    status = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "teg: internal error: %s\n", e.what());
    status = 2;
  }
  status = checkStandardOutput(checkedStdout, status);
  std::cout.rdbuf(originalStdout);
  return status;
}
