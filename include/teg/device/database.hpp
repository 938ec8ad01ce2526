// The device database: every JSON file under data/devices/ (and data/devices/generic/), plus any
// user device files (`--device-file`) that override figures of a known GPU or add a new one.
#pragma once

#include <map>
#include <memory>
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
  // The same for a device file's text already in memory; `origin` names it in messages.
  void applyOverrideText(const std::string& text, const std::string& origin);

  // Case-insensitive lookup by id, name or alias ("a100", "A100-SXM4-40GB", "sm_80"); spaces,
  // '-' and '_' and a leading "NVIDIA", "GeForce" or "Tesla" are ignored ("rtx 4090" finds
  // "NVIDIA GeForce RTX 4090"). Generic entries are also found as "sm80", "8.0", "compute_80".
  // Throws teg::Error listing close matches when nothing matches.
  [[nodiscard]] const Device& find(const std::string& name) const;
  [[nodiscard]] const Device* tryFind(const std::string& name) const;

  // Products first (by compute capability, then name), generic sm_XY entries last.
  [[nodiscard]] const std::vector<Device>& all() const { return devices_; }

 private:
  struct Files;  // the parsed files, kept so that an override also reaches what inherits from it
  std::shared_ptr<const Files> files_;
  std::vector<Device> devices_;
  std::map<std::string, std::size_t> index_;  // normalised name -> index into devices_

  // Derives devices_ and index_ from files_ (strong guarantee: throws before changing anything).
  void rebuild();
  struct ParsedOverride;
  void applyOverride(ParsedOverride parsed);
  friend class DatabaseBuilder;
};

}  // namespace teg::device
