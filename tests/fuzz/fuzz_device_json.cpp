// libFuzzer target for user device files (DeviceDatabase::applyOverrideFile, what --device-file
// and measured profiles go through): any input must either apply or throw teg::Error naming the
// file and the field or JSON position; the database must stay usable (every device found, its
// derived figures computed) either way — never a crash, hang or sanitizer report.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "teg/device/database.hpp"
#include "teg/support/error.hpp"

namespace {

const teg::device::DeviceDatabase& baseDatabase() {
  static const auto db = teg::device::DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  return db;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/teg-fuzz-device-" + std::to_string(getpid()) + ".json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  teg::device::DeviceDatabase db = baseDatabase();
  try {
    db.applyOverrideFile(path);
  } catch (const teg::Error&) {
    // Rejected with a message; the database must be as it was (strong guarantee).
  }
  for (const auto& device : db.all()) (void)db.find(device.name);
  return 0;
}
