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

// --set GPU:FIGURE=VALUE: one figure of one GPU from the command line (a laptop's own clock), as a
// one-figure device file would set it, after any --device-file, its source naming the setting.
TEST(CliDevices, SetChangesOneFigureOfOneGpuAndSaysWhereItCameFrom) {
  const auto figureOf = [](const nlohmann::json& doc, const std::string& key) {
    for (const auto& f : doc["figures"])
      if (f["key"] == key) return f;
    return nlohmann::json();
  };
  const auto plain = runTeg({"devices", "show", "rtx4060-laptop", "--json"});
  ASSERT_EQ(plain.exitCode, 0) << plain.err;
  const auto before = nlohmann::json::parse(plain.out);
  ASSERT_NE(figureOf(before, "clocks.core_mhz")["value"], 2100);
  const auto set = runTeg({"--set", "NVIDIA GeForce RTX 4060 Laptop GPU:clocks.core_mhz=2100", "devices", "show",
                           "rtx4060-laptop", "--json"});
  ASSERT_EQ(set.exitCode, 0) << set.err;
  const auto after = nlohmann::json::parse(set.out);
  EXPECT_EQ(figureOf(after, "clocks.core_mhz")["value"], 2100);
  EXPECT_NE(figureOf(after, "clocks.core_mhz")["source"].get<std::string>().find("command line"), std::string::npos);
  EXPECT_EQ(figureOf(after, "sm_count"), figureOf(before, "sm_count"));
  // Another GPU keeps its own clock.
  const auto other = runTeg({"--set", "rtx4060-laptop:clocks.core_mhz=2100", "devices", "show", "rtx4060", "--json"});
  ASSERT_EQ(other.exitCode, 0) << other.err;
  EXPECT_NE(figureOf(nlohmann::json::parse(other.out), "clocks.core_mhz")["value"], 2100);
  // After --device-file, whatever the order on the command line; a string value needs no quotes.
  const auto path = writeTempFile("laptop-clock.json", R"({"id": "rtx4060-laptop", "figures": {
    "clocks.core_mhz": {"value": 1800, "source": "nvidia-smi -q on my laptop"}}})");
  const auto both = runTeg({"--set", "rtx4060-laptop:clocks.core_mhz=2100", "--set", "rtx4060-laptop:memory.dram_type=GDDR6X",
                            "--device-file", path, "devices", "show", "rtx4060-laptop", "--json"});
  ASSERT_EQ(both.exitCode, 0) << both.err;
  const auto doc = nlohmann::json::parse(both.out);
  EXPECT_EQ(figureOf(doc, "clocks.core_mhz")["value"], 2100);
  EXPECT_EQ(figureOf(doc, "memory.dram_type")["value"], "GDDR6X");
}

TEST(CliDevices, AMalformedSetNamesItselfAndTheRuleBroken) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"rtx4060-laptop:clocks.core_mhz", "expected GPU:FIGURE=VALUE"},
      {"clocks.core_mhz=2100", "expected GPU:FIGURE=VALUE"},
      {"rtx4060-laptop:=2100", "expected GPU:FIGURE=VALUE"},
      {"rtx4060-laptop:clocks.core_mhz=", "expected GPU:FIGURE=VALUE"},
      {"rtx 4060 laptp:clocks.core_mhz=2100", "unknown GPU 'rtx 4060 laptp'"},
      {"rtx4060-laptop:clocks.core_mhzz=2100", "figures.clocks.core_mhzz: unknown figure key"},
      {"rtx4060-laptop:clocks.core_mhz=-5", "figures.clocks.core_mhz: -5 is outside the possible range"},
      {"rtx4060-laptop:sm_count=many", "figures.sm_count: expected a positive integer"},
  };
  for (const auto& [setting, rule] : cases) {
    SCOPED_TRACE(setting);
    const auto r = runTeg({"--set", setting, "devices"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("--set '" + setting + "': "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(rule), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace

// --- teg devices audit --------------------------------------------------------------------------

namespace {

const nlohmann::json* auditFigure(const nlohmann::json& gpu, const std::string& parameter) {
  for (const auto& f : gpu["figures"])
    if (f["parameter"] == parameter) return &f;
  return nullptr;
}

}  // namespace

TEST(CliDevicesAudit, JsonGivesEveryFigureWithItsBasis) {
  const auto r = runTeg({"devices", "audit", "h100", "b200", "--json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;  // without --strict the audit reports, it does not fail
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.size(), 2u);
  EXPECT_EQ(doc[0]["id"], "h100-sxm5-80gb");
  EXPECT_EQ(doc[0]["chip"], "GH100");
  // H100's L1 latency is Luo et al.'s H800 PCIe measurement: the same GH100 chip.
  const auto* l1 = auditFigure(doc[0], "L1 hit latency");
  ASSERT_NE(l1, nullptr);
  EXPECT_EQ((*l1)["basis"], "sibling");
  EXPECT_EQ((*l1)["measured_on"], "h800-pcie-80gb");
  EXPECT_EQ((*l1)["value"], 40.7);
  // B200's L2 latency is its own measurement.
  const auto* l2 = auditFigure(doc[1], "L2 hit latency");
  ASSERT_NE(l2, nullptr);
  EXPECT_EQ((*l2)["basis"], "measured");
  // The counts add up to the figures listed.
  int total = 0;
  for (const auto& [basis, n] : doc[1]["counts"].items()) total += n.get<int>();
  EXPECT_EQ(total, static_cast<int>(doc[1]["figures"].size()));
}

TEST(CliDevicesAudit, TextListsTheFiguresThatAreNotOwnMeasurements) {
  const auto r = runTeg({"devices", "audit", "l4"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The L4 (AD104) takes the sm_89 latencies measured on the RTX 4090 (AD102): assumed.
  EXPECT_NE(r.out.find("measured on rtx4090 (AD102), not on this chip (AD104)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("timing figures by basis"), std::string::npos);
}

TEST(CliDevicesAudit, StrictExitsOneWhenAFigureIsAssumed) {
  const auto assumed = runTeg({"devices", "audit", "l4", "--strict"});
  EXPECT_EQ(assumed.exitCode, 1);
  const auto generic = runTeg({"devices", "audit", "sm_80"});
  EXPECT_EQ(generic.exitCode, 1);
  EXPECT_NE(generic.err.find("generic entry"), std::string::npos) << generic.err;
  const auto unknown = runTeg({"devices", "audit", "no-such-gpu"});
  EXPECT_EQ(unknown.exitCode, 1);
}
