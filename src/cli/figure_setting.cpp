#include "figure_setting.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "teg/support/error.hpp"

namespace teg::cli {

std::string figureSettingOverride(const std::string& setting, const device::DeviceDatabase& devices) {
  const auto colon = setting.find(':');
  const auto equals = setting.find('=', colon == std::string::npos ? 0 : colon + 1);
  if (colon == std::string::npos || equals == std::string::npos || colon == 0 || equals == colon + 1 ||
      equals + 1 == setting.size())
    throw Error("expected GPU:FIGURE=VALUE, e.g. rtx4060-laptop:clocks.core_mhz=2100");
  const std::string gpu = setting.substr(0, colon);
  const std::string key = setting.substr(colon + 1, equals - colon - 1);
  const std::string text = setting.substr(equals + 1);
  const device::Device* target = devices.tryFind(gpu);
  if (target == nullptr) (void)devices.find(gpu);  // throws, listing close matches
  // A number, an array or a quoted string as JSON; anything else ("GDDR6") as the string it is.
  nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) value = text;
  nlohmann::json doc;
  doc["id"] = target->id;
  doc["figures"][key] = {{"value", value}, {"source", fmt::format("command line: --set {}", setting)}};
  return doc.dump();
}

}  // namespace teg::cli
