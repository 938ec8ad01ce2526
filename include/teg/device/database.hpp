// The device database: every JSON file under data/devices/ (and data/devices/generic/), plus any
// user device files (`--device-file`) that override figures of a known GPU or add a new one.
#pragma once

#include <string>
#include <vector>

#include "teg/device/device.hpp"

namespace teg::device {

class DeviceDatabase {
 public:
  // Loads every *.json under <dir> and <dir>/generic. Throws teg::Error (file and field) on a
  // malformed file.
  static DeviceDatabase loadDirectory(const std::string& dir);
  // loadDirectory(dataDirectory() + "/devices").
  static DeviceDatabase loadDefault();

  // Applies a user device file: if it names an existing device (its "id", or "inherits" with
  // no new id) its figures override that device's; otherwise it adds a device. Throws
  // teg::Error naming the file and field on malformed input.
  void applyOverrideFile(const std::string& path);

  // Case-insensitive lookup by id, name or alias ("a100", "A100-SXM4-40GB", "sm_80").
  // Throws teg::Error listing close matches when nothing matches.
  [[nodiscard]] const Device& find(const std::string& name) const;
  [[nodiscard]] const Device* tryFind(const std::string& name) const;

  // Products first (by compute capability, then name), generic sm_XY entries last.
  [[nodiscard]] const std::vector<Device>& all() const { return devices_; }

 private:
  std::vector<Device> devices_;
  friend class DatabaseBuilder;
};

}  // namespace teg::device
