// The numbers a model reads from its data file (data/models/*.json), each with its source:
// {"parameters": {"<key>": {"value": <number>, "source": ...}, ...}}.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace teg::models::detail {

// parameters/<key>'s value; throws teg::Error naming the file and the key when it is missing or
// not a number.
double modelParameter(const nlohmann::json& data, const std::string& file, const char* key);

}  // namespace teg::models::detail
