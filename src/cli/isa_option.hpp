// --isa sass|ptx|auto for `teg run`, `teg predict`, `teg bound` and `teg validate`
// (analysis/isa_choice.hpp decides what `auto` means for a kernel and GPU).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace teg::cli {

void addIsaOption(CLI::App& app, std::string& isa);

}  // namespace teg::cli
