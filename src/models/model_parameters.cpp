#include "model_parameters.hpp"

#include <fmt/format.h>

#include "teg/support/error.hpp"

namespace teg::models::detail {

double modelParameter(const nlohmann::json& data, const std::string& file, const char* key) {
  const auto& params = data.value("parameters", nlohmann::json::object());
  if (!params.contains(key) || !params.at(key).contains("value") || !params.at(key).at("value").is_number())
    throw Error(fmt::format("{}: parameters/{}: expected {{\"value\": <number>, \"source\": ...}}", file, key));
  return params.at(key).at("value").get<double>();
}

}  // namespace teg::models::detail
