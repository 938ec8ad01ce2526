// The options of every command that runs the emulator (run, predict): --max-instructions,
// --max-block-instructions and --max-trace-records, the limits that stop an endless kernel or a
// trace that would outgrow memory (emu::RunOptions says what each bounds).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>

#include "teg/emu/emulator.hpp"

namespace teg::cli {

struct EmulatorLimits {
  std::uint64_t maxInstructions = 0;  // all blocks together (0 = none)
  std::uint64_t maxBlockInstructions = emu::kDefaultMaxBlockInstructions;
  std::uint64_t maxTraceRecords = emu::kDefaultMaxTraceRecords;
};

// Registers the options on `app`; they fill `limits` (which must outlive the parse).
void addEmulatorLimits(CLI::App& app, EmulatorLimits& limits);

}  // namespace teg::cli
