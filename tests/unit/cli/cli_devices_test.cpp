// `teg devices` and `teg devices show` run as a user runs them, with and without --device-file.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "run_teg.hpp"

namespace {

using teg::test::runTeg;
using teg::test::writeTempFile;

TEST(CliDevices, ListsProductsAndGenericEntries) {
  const auto r = runTeg({"devices"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("sm_80"), std::string::npos);
  EXPECT_NE(r.out.find("sm_120"), std::string::npos);
  EXPECT_NE(r.out.find("DRAM GB/s"), std::string::npos);
}

TEST(CliDevices, ListJsonIsAnArrayOfDevices) {
  const auto r = runTeg({"devices", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_TRUE(doc.is_array());
  bool found = false;
  for (const auto& d : doc)
    if (d["id"] == "sm_75") {
      found = true;
      EXPECT_EQ(d["compute_capability"], "7.5");
      EXPECT_EQ(d["generic"], true);
    }
  EXPECT_TRUE(found);
}

TEST(CliDevices, ShowPrintsFiguresWithSourceAndFile) {
  const auto r = runTeg({"devices", "show", "SM_86"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("max_threads_per_sm"), std::string::npos);
  EXPECT_NE(r.out.find("1536"), std::string::npos);  // guide: 1536 threads per SM on cc 8.6
  EXPECT_NE(r.out.find("devices/generic/sm_86.json"), std::string::npos);
  EXPECT_NE(r.out.find("Technical Specifications per Compute Capability"), std::string::npos);
  for (const char* group : {"\nlimits\n", "\nissue\n", "\nmemory\n", "\nthroughput\n"})
    EXPECT_NE(r.out.find(group), std::string::npos) << group;
}

TEST(CliDevices, ShowJsonCarriesTypedValuesAndProvenance) {
  const auto r = runTeg({"devices", "show", "8.0", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["id"], "sm_80");
  const auto& figures = doc["figures"];
  const auto cc = std::find_if(figures.begin(), figures.end(), [](const auto& f) { return f["key"] == "compute_capability"; });
  ASSERT_NE(cc, figures.end());
  EXPECT_EQ((*cc)["value"], "8.0");  // a name, kept a string
  bool found = false;
  for (const auto& f : doc["figures"])
    if (f["key"] == "shared_memory_per_block_optin") {
      found = true;
      EXPECT_EQ(f["value"], 163 * 1024);  // guide: 163 KB per block (opt-in) on cc 8.0
      EXPECT_EQ(f["group"], "limits");
      EXPECT_NE(f["defined_in"].get<std::string>().find("sm_80.json"), std::string::npos);
    }
  EXPECT_TRUE(found);
}

TEST(CliDevices, UnknownGpuIsOneLineWithSuggestions) {
  const auto r = runTeg({"devices", "show", "sm_81"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("unknown GPU 'sm_81'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

TEST(CliDevices, DeviceFileOverridesAFigureAndShowsItsFile) {
  const auto path = writeTempFile("override-sm75.json", R"({"id": "sm_75", "figures": {
    "max_blocks_per_sm": {"value": 8, "source": "what-if: half the block slots"}}})");
  const auto r = runTeg({"--device-file", path, "devices", "show", "sm_75", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& f : doc["figures"])
    if (f["key"] == "max_blocks_per_sm") {
      found = true;
      EXPECT_EQ(f["value"], 8);
      EXPECT_EQ(f["source"], "what-if: half the block slots");
      EXPECT_EQ(f["defined_in"], path);
    }
  EXPECT_TRUE(found);
}

TEST(CliDevices, DeviceFileCanAddAGpuToTheList) {
  const auto path = writeTempFile("my-gpu.json", R"({"id": "my-gpu", "name": "My Lab GPU", "inherits": "sm_89",
    "figures": {"sm_count": {"value": 20, "source": "lab notes p. 3"},
                "clocks.core_mhz": {"value": 2000, "source": "lab notes p. 3"},
                "memory.dram_bandwidth_gbs": {"value": 300, "source": "lab notes p. 3"},
                "memory.l2_bytes": {"value": 16777216, "source": "lab notes p. 3"}}})");
  const auto r = runTeg({"--device-file", path, "devices"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("My Lab GPU"), std::string::npos);
}

TEST(CliDevices, MalformedDeviceFileNamesFileAndField) {
  const auto path = writeTempFile("bad-gpu.json", R"({"id": "sm_75", "figures": {
    "max_blocks_per_sm": {"value": -3, "source": "typo"}}})");
  const auto r = runTeg({"--device-file", path, "devices"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find(path + ":2:5: figures.max_blocks_per_sm: -3 is outside the possible range 1 to 4096 ("), std::string::npos)
      << r.err;
}

}  // namespace
