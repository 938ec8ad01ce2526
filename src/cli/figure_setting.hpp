// `--set GPU:FIGURE=VALUE`: one device figure changed on the command line, as a one-figure
// override file would change it (data/devices/README.md, "Overriding or adding figures").
#pragma once

#include <string>

#include "teg/device/database.hpp"

namespace teg::cli {

// The device-file text that sets FIGURE of the GPU `setting` names ("rtx4060-laptop:clocks.core_mhz=2100":
// the GPU by any of its names, the figure by its key, the value as JSON where it parses as JSON, a
// string otherwise). The figure's source says it came from the command line. Throws teg::Error
// when it is not of that form or names no GPU (close matches listed); the caller names the setting.
std::string figureSettingOverride(const std::string& setting, const device::DeviceDatabase& devices);

}  // namespace teg::cli
