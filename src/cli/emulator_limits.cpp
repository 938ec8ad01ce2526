#include "emulator_limits.hpp"

#include "command.hpp"

namespace teg::cli {

void addEmulatorLimits(CLI::App& app, EmulatorLimits& limits) {
  app.add_option("--max-instructions", limits.maxInstructions,
                 "Stop with an error after this many warp instructions in all (0 = no limit)")
      ->check(nonNegativeCount());
  app.add_option("--max-block-instructions", limits.maxBlockInstructions,
                 "Stop with an error when one block runs more warp instructions (an endless loop; 0 = no limit)")
      ->capture_default_str()
      ->check(nonNegativeCount());
  app.add_option("--max-trace-records", limits.maxTraceRecords,
                 "Stop with an error when a traced run records more warp instructions (0 = no limit)")
      ->capture_default_str()
      ->check(nonNegativeCount());
}

}  // namespace teg::cli
