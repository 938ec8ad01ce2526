// Batch occupancy: one JSON object per input line (`gpu`, `threads`, `regs`, `smem`, `dyn_smem`,
// optional `carveout` and `barriers`), one JSON line out per input line, in order. A line that
// cannot run — a malformed line, an unknown GPU, a launch that breaks a rule — gets
// {"line": N, "error": "..."} and the batch goes on. Blank lines are skipped.
//
// Built for volume (a million lines in well under two seconds): input is read in large chunks,
// the common flat object is scanned without building a JSON tree (anything unusual falls back to
// nlohmann::json, which also words the syntax errors), device lookups are cached by name, and
// output is formatted into one buffer.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "teg/device/device.hpp"
#include "teg/occupancy/occupancy.hpp"

namespace teg::occupancy {

// Returns the device a name denotes, or throws teg::Error (unknown name). Called once per
// distinct name.
using DeviceResolver = std::function<const device::Device&(const std::string& name)>;

struct BatchRequest {
  std::string gpu;
  Launch launch;
};

// Parses one input line; returns false and sets `error` ("column 7: ...") when it is malformed.
bool parseBatchLine(std::string_view line, BatchRequest& request, std::string& error);

// Appends the result object's fields (no braces): "blocks_per_sm":8,"warps_per_sm":64,...
void appendOccupancyJsonFields(std::string& out, const Occupancy& result);

struct BatchSummary {
  long long lines = 0;   // results written (blank lines excluded)
  long long errors = 0;  // of which errors
};

BatchSummary runBatch(std::istream& in, std::ostream& out, const DeviceResolver& resolve);

}  // namespace teg::occupancy
