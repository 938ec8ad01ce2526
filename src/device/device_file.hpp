// One device JSON file, checked and parsed but not yet resolved against what it inherits. Every
// error found here names the file, the field and (when the key can be found in the text) its
// line and column.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "teg/support/error.hpp"

namespace teg::device::detail {

struct RawFigure {
  std::string key;        // "sm_count", "throughput.fp32_fma", "latency.dram"
  nlohmann::json value;   // the "value" (measured figures: the whole object, source resolved)
  std::string source;     // the citation, with a "sources" key already expanded
  std::string note;       // optional "note"
  std::string basis;      // optional "basis": measured | documented | derived | assumed
  std::string measuredOn; // optional "measured_on": id of the GPU a measurement was taken on
  SourceLocation where;   // where the key sits in the file
};

struct DeviceFile {
  std::string path;
  std::string id;          // "id", else the file stem
  bool idGiven = false;    // the file spelled out its "id"
  std::string name;        // may be empty in an override file
  std::vector<std::string> aliases;
  std::string inherits;    // empty: starts from nothing
  bool generic = false;
  std::vector<RawFigure> figures;  // in file order

  [[nodiscard]] const RawFigure* figure(const std::string& key) const;
};

// Reads and checks `path`. Throws teg::Error naming file and field on any problem.
DeviceFile readDeviceFile(const std::string& path);
// Same, from text already in memory (`path` names it in messages).
DeviceFile parseDeviceFile(const std::string& text, const std::string& path);

}  // namespace teg::device::detail
