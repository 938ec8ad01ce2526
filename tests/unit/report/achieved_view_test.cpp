// The achieved view shows the figures analysis computed, with their scope in every JSON name.
#include "teg/report/achieved_view.hpp"

#include <gtest/gtest.h>

namespace teg {
namespace {

analysis::Achieved sample() {
  analysis::Achieved a;
  a.sms = 108;
  a.activeSms = 108;
  a.units.push_back({"issue", 0.5, 0.5});
  analysis::MemoryLevelRate dram;
  dram.level = "DRAM";
  dram.hasPeak = true;
  dram.bytesSm = 4e6;
  dram.achievedGBsSm = 12;
  dram.peakGBsSm = 14.4;
  dram.fractionOfPeakSm = 12 / 14.4;
  dram.achievedGBsGpu = 1296;
  dram.peakGBsGpu = 1555;
  dram.fractionOfPeakGpu = 1296 / 1555.0;
  a.memory.push_back(dram);
  analysis::MemoryLevelRate l2;
  l2.level = "L2";  // no peak figure
  a.memory.push_back(l2);
  a.roofline.available = true;
  a.roofline.precision = "fp32";
  a.roofline.intensity = 0.25;
  a.roofline.ridge = 12.5;
  a.roofline.peakGflopsGpu = 19491.84;
  a.roofline.attainableGflopsGpu = 388.75;
  a.roofline.achievedGflopsGpu = 300;
  a.roofline.binding = "memory";
  a.tail = analysis::tailEffect(1000, 108, 8, 1.0);
  return a;
}

TEST(AchievedView, TextShowsPeaksRooflineAndTail) {
  const std::string text = report::renderAchievedText(sample());
  EXPECT_NE(text.find("1,296.0"), std::string::npos) << text;   // DRAM GB/s of the GPU
  EXPECT_NE(text.find("1,555.0"), std::string::npos) << text;   // its peak
  EXPECT_NE(text.find("83.3 %"), std::string::npos) << text;    // 1296 / 1555
  EXPECT_NE(text.find("no figure"), std::string::npos) << text; // L2 without a peak
  EXPECT_NE(text.find("the DRAM bandwidth roof binds"), std::string::npos) << text;
  EXPECT_NE(text.find("the last wave has 136 blocks (84.3 % of its block slots idle, 0 SMs without a block)"),
            std::string::npos)
      << text;
}

void expectScoped(const nlohmann::json& value, const std::string& path) {
  if (value.is_object()) {
    for (const auto& [key, v] : value.items()) {
      if (v.is_number()) EXPECT_TRUE(key.ends_with("_sm") || key.ends_with("_gpu")) << path << "." << key;
      else expectScoped(v, path + "." + key);
    }
  } else if (value.is_array()) {
    for (const auto& v : value) expectScoped(v, path + "[]");
  }
}

TEST(AchievedView, JsonNamesSayWhetherTheyCountOneSmOrTheGpu) {
  const auto j = report::achievedJson(sample());
  expectScoped(j, "");
  EXPECT_EQ(j["tail"]["last_wave_blocks_gpu"], 136);
  EXPECT_TRUE(j["speed_of_light"]["memory"][1]["peak_gbs_gpu"].is_null());  // L2: no figure, not 0
  EXPECT_DOUBLE_EQ(j["roofline"]["intensity_flop_per_byte_sm"].get<double>(), 0.25);
}

}  // namespace
}  // namespace teg
