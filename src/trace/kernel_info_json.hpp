// KernelInfo <-> JSON, for the trace file header.
#pragma once

#include <nlohmann/json.hpp>

#include "teg/trace/trace.hpp"

namespace teg::trace {

nlohmann::json kernelInfoToJson(const KernelInfo& kernel);
// Throws teg::Error (prefixed by `where`) when a field is missing or of the wrong type.
KernelInfo kernelInfoFromJson(const nlohmann::json& j, const std::string& where);

}  // namespace teg::trace
