// What `teg bound` reads from the kernel's SASS (analysis::SassFacts): register-bank conflict
// cycles and vectorisable scalar LDS per source line, from the cubin nvcc made for the GPU.
#pragma once

#include <optional>
#include <string>

#include "teg/analysis/bounds.hpp"
#include "teg/analysis/predict.hpp"

namespace teg::cli {

// nullopt, with `why` saying so, when the kernel has no SASS here: a .ptx source, a GPU older
// than nvcc 13's oldest target (its SASS would be another architecture's), or no nvdisasm.
std::optional<analysis::SassFacts> sassFactsOf(const analysis::PredictRequest& request, std::string& why);

}  // namespace teg::cli
