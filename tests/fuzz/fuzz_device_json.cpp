// libFuzzer target for user device files (DeviceDatabase::applyOverrideFile, what --device-file
// and measured profiles go through): any input must either apply or throw teg::Error naming the
// file and the field or JSON position; the database must stay usable (every device found, its
// derived figures computed) either way — never a crash, hang or sanitizer report.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "teg/device/database.hpp"
#include "teg/support/error.hpp"

namespace {

// A small database of the real files the seed corpus refers to (the A100 and the generic entries
// its overrides and new GPUs inherit): each input works on a copy, and copying all of
// data/devices under ASan took ~10 ms an input (about 700 inputs in CI's 7 s).
const teg::device::DeviceDatabase& baseDatabase() {
  static const auto db = [] {
    namespace fs = std::filesystem;
    const fs::path source = fs::path(TEG_SOURCE_DIR) / "data" / "devices";
    const fs::path scratch = fs::temp_directory_path() / ("teg-fuzz-devices-" + std::to_string(getpid()));
    fs::create_directories(scratch / "generic");
    std::error_code ignored;
    fs::create_symlink(source / "a100-sxm4-40gb.json", scratch / "a100-sxm4-40gb.json", ignored);
    for (const char* generic : {"sm_75.json", "sm_80.json", "sm_89.json", "sm_90.json"})
      fs::create_symlink(source / "generic" / generic, scratch / "generic" / generic, ignored);
    return teg::device::DeviceDatabase::loadDirectory(scratch.string());
  }();
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
