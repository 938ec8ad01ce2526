// Malformed device files: every error names the file and the field (and file:line:col for bad
// JSON syntax), and a typo in a figure key or a source key is an error, never silently ignored.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "teg/device/database.hpp"
#include "teg/support/error.hpp"

namespace {

namespace fs = std::filesystem;
using teg::device::DeviceDatabase;

// A scratch database directory holding a copy of the real generic sm_80 entry plus test files.
class DeviceFileErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("teg_device_errors_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "generic");
    fs::copy_file(fs::path(TEG_SOURCE_DIR) / "data/devices/generic/sm_80.json", dir_ / "generic/sm_80.json");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  // Loads the directory and returns the error message ("" if it loaded).
  std::string loadError() {
    try {
      (void)DeviceDatabase::loadDirectory(dir_.string());
    } catch (const teg::Error& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

// A minimal valid product on top of sm_80; `figures` is spliced into its figures object.
std::string product(const std::string& extraFigures, const std::string& extraTop = "") {
  return R"({
  "name": "Test GPU",
  "inherits": "sm_80",
  "sources": {"wp": "Test whitepaper, Table 1"},)" +
         extraTop + R"(
  "figures": {
    "sm_count": {"value": 10, "source": "wp"},
    "clocks.core_mhz": {"value": 1000, "source": "wp"},
    "memory.dram_bandwidth_gbs": {"value": 500, "source": "wp"},
    "memory.l2_bytes": {"value": 1048576, "source": "wp"})" +
         extraFigures + R"(
  }
})";
}

TEST_F(DeviceFileErrors, AValidProductLoads) {
  write("test-gpu.json", product(""));
  EXPECT_EQ(loadError(), "");
}

TEST_F(DeviceFileErrors, SyntaxErrorGivesFileLineAndColumn) {
  // Line 3 has a trailing comma before '}' at column 1 of line 4.
  const auto path = write("broken.json", "{\n  \"name\": \"x\",\n  \"inherits\": \"sm_80\",\n}\n");
  const auto what = loadError();
  EXPECT_EQ(what.rfind(path + ":4:1: invalid JSON", 0), 0u) << what;
}

TEST_F(DeviceFileErrors, WrongTypeNamesFileAndField) {
  const auto path = write("test-gpu.json", product(R"(,
    "memory.bus_width_bits": {"value": "wide", "source": "wp"})"));
  const auto what = loadError();
  EXPECT_NE(what.find(path), std::string::npos) << what;
  EXPECT_NE(what.find("figures.memory.bus_width_bits: expected a positive integer"), std::string::npos) << what;
  // product() text: line 1 "{", 2 name, 3 inherits, 4 sources, 5 "figures", 6-9 the four
  // figures, 10 the bad one, indented by 4 spaces so its key starts in column 5.
  EXPECT_NE(what.find(path + ":10:5: "), std::string::npos) << what;
}

TEST_F(DeviceFileErrors, UnknownFigureKeyIsRejected) {
  write("test-gpu.json", product(R"(,
    "max_thread_per_sm": {"value": 2048, "source": "wp"})"));
  const auto what = loadError();
  EXPECT_NE(what.find("figures.max_thread_per_sm: unknown figure key"), std::string::npos) << what;
}

TEST_F(DeviceFileErrors, UnknownSourceKeyIsRejected) {
  write("test-gpu.json", product(R"(,
    "memory.bus_width_bits": {"value": 384, "source": "wpp"})"));
  const auto what = loadError();
  EXPECT_NE(what.find("figures.memory.bus_width_bits.source: unknown source key 'wpp'"), std::string::npos)
      << what;
}

TEST_F(DeviceFileErrors, LiteralCitationIsAccepted) {
  write("test-gpu.json", product(R"(,
    "memory.bus_width_bits": {"value": 384, "source": "Vendor datasheet, page 2"})"));
  EXPECT_EQ(loadError(), "");
}

TEST_F(DeviceFileErrors, MissingSourceIsRejected) {
  write("test-gpu.json", product(R"(,
    "memory.bus_width_bits": {"value": 384})"));
  EXPECT_NE(loadError().find("figures.memory.bus_width_bits.source: missing"), std::string::npos);
}

TEST_F(DeviceFileErrors, MissingRequiredFigureIsRejected) {
  // A product must say how many SMs it has.
  write("test-gpu.json", R"({"name": "No SMs", "inherits": "sm_80", "figures": {
    "clocks.core_mhz": {"value": 1000, "source": "a b"},
    "memory.dram_bandwidth_gbs": {"value": 500, "source": "a b"},
    "memory.l2_bytes": {"value": 1048576, "source": "a b"}}})");
  const auto what = loadError();
  EXPECT_NE(what.find("test-gpu.json: device 'test-gpu': missing required figure 'sm_count'"),
            std::string::npos)
      << what;
}

TEST_F(DeviceFileErrors, UnknownTopLevelKeyIsRejected) {
  write("test-gpu.json", product("", "\n  \"inherit\": \"sm_80\","));
  EXPECT_NE(loadError().find("inherit: unknown top-level key"), std::string::npos);
}

TEST_F(DeviceFileErrors, UnknownParentListsCloseIds) {
  write("test-gpu.json", R"({"name": "x", "inherits": "sm_81", "figures": {}})");
  const auto what = loadError();
  EXPECT_NE(what.find("inherits: no device file has the id 'sm_81'"), std::string::npos) << what;
  EXPECT_NE(what.find("sm_80"), std::string::npos) << what;
}

TEST_F(DeviceFileErrors, InheritanceCycleIsRejected) {
  write("a.json", R"({"name": "a", "inherits": "b", "figures": {}})");
  write("b.json", R"({"name": "b", "inherits": "a", "figures": {}})");
  EXPECT_NE(loadError().find("inherits: cycle"), std::string::npos);
}

TEST_F(DeviceFileErrors, DuplicateIdIsRejected) {
  write("one.json", product("", "\n  \"id\": \"same\","));
  write("two.json", product("", "\n  \"id\": \"same\","));
  EXPECT_NE(loadError().find("id: 'same' is already used by"), std::string::npos);
}

TEST_F(DeviceFileErrors, InconsistentWarpsAndThreadsAreRejected) {
  // 48 warps of 32 threads are 1536 threads, not sm_80's 2048.
  write("test-gpu.json", product(R"(,
    "max_warps_per_sm": {"value": 48, "source": "wp"})"));
  const auto what = loadError();
  EXPECT_NE(what.find("max_warps_per_sm * warp_size must equal max_threads_per_sm"), std::string::npos) << what;
}

TEST_F(DeviceFileErrors, DramPartitionsNeedTheirInterleave) {
  write("test-gpu.json", product(R"(,
    "memory.dram_partitions": {"value": 8, "source": "wp"})"));
  const auto what = loadError();
  EXPECT_NE(what.find("memory.dram_partitions and memory.dram_partition_bytes go together"), std::string::npos) << what;
  write("test-gpu.json", product(R"(,
    "memory.dram_partitions": {"value": 8, "source": "wp"},
    "memory.dram_partition_bytes": {"value": 256, "source": "wp"})"));
  EXPECT_EQ(loadError(), "");
}

TEST_F(DeviceFileErrors, CarveoutsMustEndAtSharedMemoryPerSm) {
  write("test-gpu.json", product(R"(,
    "shared_memory_carveouts": {"value": [0, 65536, 102400], "source": "wp"})"));
  EXPECT_NE(loadError().find("the last shared_memory_carveouts entry must equal shared_memory_per_sm"),
            std::string::npos);
}

TEST_F(DeviceFileErrors, CarveoutsMustAscend) {
  write("test-gpu.json", product(R"(,
    "shared_memory_carveouts": {"value": [0, 65536, 32768, 167936], "source": "wp"})"));
  EXPECT_NE(loadError().find("figures.shared_memory_carveouts: expected strictly ascending values"),
            std::string::npos);
}

TEST_F(DeviceFileErrors, AmbiguousAliasIsRejected) {
  write("test-gpu.json", product("", "\n  \"aliases\": [\"sm80\"],"));
  EXPECT_NE(loadError().find("also names device"), std::string::npos);
}

TEST_F(DeviceFileErrors, MeasuredFigureNeedsUnitAndMethod) {
  write("test-gpu.json", product(R"(,
    "latency.dram": {"value": 466.3, "source": "wp"})"));
  EXPECT_NE(loadError().find("figures.latency.dram: unit: expected a non-empty string"), std::string::npos);
}

}  // namespace
