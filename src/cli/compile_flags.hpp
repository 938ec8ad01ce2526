// The options of every command that compiles a .cu (compile, ptx, occupancy --cu, run, predict):
// -I DIR, -D NAME[=VALUE], --nvcc-arg ARG (each repeatable, after a launch file's own) and
// --no-cache (compile even when the compile cache holds the result).
#pragma once

#include <CLI/CLI.hpp>

#include "teg/toolchain/compiler.hpp"

namespace teg::cli {

// Registers the options on `app`; they fill `options` (which must outlive the parse).
void addCompileFlags(CLI::App& app, toolchain::CompileOptions& options);

}  // namespace teg::cli
