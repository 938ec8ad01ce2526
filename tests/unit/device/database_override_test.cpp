// Inheritance and user override files (--device-file): figure provenance, overriding a known
// device, overriding a generic entry (reaches the GPUs that inherit it), adding a new GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "teg/device/database.hpp"
#include "teg/support/error.hpp"

namespace {

namespace fs = std::filesystem;
using teg::device::Device;
using teg::device::DeviceDatabase;

const Device::Figure* figure(const Device& d, const std::string& key) {
  for (const auto& f : d.figures)
    if (f.key == key) return &f;
  return nullptr;
}

class Overrides : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("teg_device_override_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "generic");
    fs::copy_file(fs::path(TEG_SOURCE_DIR) / "data/devices/generic/sm_80.json", dir_ / "generic/sm_80.json");
    write("gpu-a.json", R"({"name": "Vendor GPU A", "aliases": ["gpua"], "inherits": "sm_80",
      "sources": {"wp": "GPU A whitepaper, Table 2"},
      "figures": {"sm_count": {"value": 100, "source": "wp"}, "clocks.core_mhz": {"value": 1400, "source": "wp"},
                  "memory.dram_bandwidth_gbs": {"value": 1500, "source": "wp"},
                  "memory.l2_bytes": {"value": 41943040, "source": "wp"}}})");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  fs::path dir_;
};

TEST_F(Overrides, ProductInheritsGenericFiguresWithTheirProvenance) {
  const auto db = DeviceDatabase::loadDirectory(dir_.string());
  const Device& a = db.find("gpua");
  EXPECT_EQ(a.id, "gpu-a");
  EXPECT_EQ(a.smCount, 100);
  EXPECT_EQ(a.limits.maxThreadsPerSm, 2048);  // from sm_80 (guide: 2048 threads/SM on cc 8.0)
  const auto* threads = figure(a, "max_threads_per_sm");
  ASSERT_NE(threads, nullptr);
  EXPECT_NE(threads->definedIn.find("generic/sm_80.json"), std::string::npos);
  const auto* sms = figure(a, "sm_count");
  ASSERT_NE(sms, nullptr);
  EXPECT_EQ(sms->value, "100");
  EXPECT_EQ(sms->source, "GPU A whitepaper, Table 2");  // the "wp" key expanded
  EXPECT_NE(sms->definedIn.find("gpu-a.json"), std::string::npos);
}

TEST_F(Overrides, OverrideFileByIdReplacesFiguresAndRecordsTheFile) {
  auto db = DeviceDatabase::loadDirectory(dir_.string());
  const auto user = write("mine.json", R"({"id": "gpu-a", "figures": {
      "clocks.core_mhz": {"value": 1200, "source": "my nvidia-smi -q, locked clocks"}}})");
  db.applyOverrideFile(user);
  const Device& a = db.find("gpu-a");
  EXPECT_EQ(a.clocks.coreMhz, 1200);
  EXPECT_EQ(a.smCount, 100);  // untouched figures stay
  const auto* clock = figure(a, "clocks.core_mhz");
  ASSERT_NE(clock, nullptr);
  EXPECT_EQ(clock->definedIn, user);
  EXPECT_EQ(clock->source, "my nvidia-smi -q, locked clocks");
}

TEST_F(Overrides, OverrideByInheritsWithoutIdTargetsThatDevice) {
  auto db = DeviceDatabase::loadDirectory(dir_.string());
  db.applyOverrideFile(write("mine.json", R"({"inherits": "GPUA", "figures": {
      "sm_count": {"value": 96, "source": "binned part, my lab"}}})"));
  EXPECT_EQ(db.find("gpu-a").smCount, 96);
  EXPECT_EQ(db.all().size(), 2u);  // nothing added
}

TEST_F(Overrides, OverridingAGenericEntryReachesItsInheritors) {
  auto db = DeviceDatabase::loadDirectory(dir_.string());
  db.applyOverrideFile(write("sm80.json", R"({"id": "sm_80", "figures": {
      "max_blocks_per_sm": {"value": 16, "source": "what-if study"}}})"));
  EXPECT_EQ(db.find("sm_80").limits.maxBlocksPerSm, 16);
  EXPECT_EQ(db.find("gpu-a").limits.maxBlocksPerSm, 16);
}

TEST_F(Overrides, ANewIdAddsADevice) {
  auto db = DeviceDatabase::loadDirectory(dir_.string());
  db.applyOverrideFile(write("new.json", R"({"id": "gpu-b", "name": "My GPU B", "inherits": "gpu-a",
      "figures": {"sm_count": {"value": 50, "source": "my datasheet copy"}}})"));
  EXPECT_EQ(db.all().size(), 3u);
  const Device& b = db.find("My GPU B");
  EXPECT_EQ(b.smCount, 50);
  EXPECT_EQ(b.clocks.coreMhz, 1400);  // inherited from gpu-a
  EXPECT_EQ(db.find("gpu-a").smCount, 100);
}

TEST_F(Overrides, ANewGpuMayInheritByAlias) {
  auto db = DeviceDatabase::loadDirectory(dir_.string());
  db.applyOverrideFile(write("new.json", R"({"id": "gpu-c", "name": "GPU C", "inherits": "GPUA",
      "figures": {"sm_count": {"value": 60, "source": "my datasheet copy"}}})"));
  EXPECT_EQ(db.find("gpu-c").clocks.coreMhz, 1400);  // from gpu-a, named by its alias
}

TEST_F(Overrides, BadOverrideLeavesTheDatabaseUnchanged) {
  auto db = DeviceDatabase::loadDirectory(dir_.string());
  const auto bad = write("bad.json", R"({"id": "gpu-a", "figures": {"max_warps_per_sm": {"value": 48, "source": "a b"}}})");
  try {
    db.applyOverrideFile(bad);
    FAIL() << "expected an error";
  } catch (const teg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("max_warps_per_sm * warp_size"), std::string::npos) << e.what();
  }
  EXPECT_EQ(db.find("gpu-a").limits.maxWarpsPerSm, 64);
}

// The same override from text in memory (teg --set builds one): the origin stands where a file's
// path would, in the figure's provenance and in errors; a bad one changes nothing.
TEST_F(Overrides, OverrideTextActsAsAFileNamedByItsOrigin) {
  auto db = DeviceDatabase::loadDirectory(dir_.string());
  db.applyOverrideText(R"({"id": "gpu-a", "figures": {"clocks.core_mhz": {"value": 1300, "source": "command line"}}})",
                       "--set gpu-a:clocks.core_mhz=1300");
  const Device& a = db.find("gpu-a");
  EXPECT_EQ(a.clocks.coreMhz, 1300);
  EXPECT_EQ(a.smCount, 100);
  ASSERT_NE(figure(a, "clocks.core_mhz"), nullptr);
  EXPECT_EQ(figure(a, "clocks.core_mhz")->definedIn, "--set gpu-a:clocks.core_mhz=1300");
  try {
    db.applyOverrideText(R"({"id": "gpu-a", "figures": {"sm_count": {"value": 0, "source": "a b"}}})", "origin-x");
    FAIL() << "expected an error";
  } catch (const teg::Error& e) {
    EXPECT_EQ(e.location()->file, "origin-x");
  }
  EXPECT_EQ(db.find("gpu-a").smCount, 100);
}

TEST_F(Overrides, OverrideCannotChangeWhatADeviceInherits) {
  auto db = DeviceDatabase::loadDirectory(dir_.string());
  const auto path = write("x.json", R"({"id": "gpu-a", "inherits": "gpu-a-other", "figures": {}})");
  EXPECT_THROW(db.applyOverrideFile(path), teg::Error);
}

}  // namespace
