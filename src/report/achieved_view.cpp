#include "teg/report/achieved_view.hpp"

#include <fmt/format.h>

#include "teg/report/table.hpp"

namespace teg::report {

namespace {

std::string percent(double fraction) { return fmt::format("{:.1f} %", 100 * fraction); }

// 1234.5 -> "1,234.5"
std::string grouped(double value, int decimals) {
  std::string text = fmt::format("{:.{}f}", value, decimals);
  const auto dot = text.find('.');
  std::size_t end = dot == std::string::npos ? text.size() : dot;
  const std::size_t start = text[0] == '-' ? 1 : 0;
  while (end > start + 3) {
    end -= 3;
    text.insert(end, ",");
  }
  return text;
}

std::string rooflineText(const analysis::RooflinePlace& r) {
  if (!r.available) return fmt::format("not placed: {}", r.note);
  const std::string intensity = r.noDramTraffic ? "no DRAM traffic (unbounded FLOP/B)" : fmt::format("{:.3g} FLOP/B", r.intensity);
  return fmt::format("{} {} (ridge {:.3g} FLOP/B): attainable {} of the {} GFLOP/s peak, achieved {} GFLOP/s ({} "
                     "of attainable); the {} roof binds",
                     r.precision, intensity, r.ridge, grouped(r.attainableGflopsGpu, 1), grouped(r.peakGflopsGpu, 0),
                     grouped(r.achievedGflopsGpu, 1),
                     percent(r.attainableGflopsGpu > 0 ? r.achievedGflopsGpu / r.attainableGflopsGpu : 0),
                     r.binding == "memory" ? "DRAM bandwidth" : "compute");
}

std::string tailText(const analysis::TailEffect& t) {
  return fmt::format(
      "{} blocks, {} per wave ({} SMs x {} block{}): {:.2f} waves; the last wave has {} blocks ({} of its block "
      "slots idle, {} SM{} without a block); over the launch {} of the SM block-slot time is idle",
      t.gridBlocks, t.blocksPerWave, t.sms, t.blocksPerSm, t.blocksPerSm == 1 ? "" : "s", t.wavesPerSm, t.lastWaveBlocks,
      percent(t.lastWaveIdleFraction), t.idleSmsInLastWave, t.idleSmsInLastWave == 1 ? "" : "s",
      percent(t.idleFraction));
}

}  // namespace

std::string renderAchievedText(const analysis::Achieved& a) {
  std::string out = fmt::format(
      "\nSpeed of light (% of peak: SM = the simulated SM's sampled blocks, GPU = all {} SMs, {} of them running "
      "blocks)\n",
      a.sms, a.activeSms);
  Table t({"unit or level", "% peak SM", "% peak GPU", "GB/s SM", "GB/s GPU", "peak GB/s GPU"},
          {Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right});
  for (const auto& u : a.units) t.addRow({u.name, percent(u.fractionOfPeakSm), percent(u.fractionOfPeakGpu), "", "", ""});
  for (const auto& m : a.memory)
    t.addRow({m.level, m.hasPeak ? percent(m.fractionOfPeakSm) : "-", m.hasPeak ? percent(m.fractionOfPeakGpu) : "-",
              grouped(m.achievedGBsSm, 2), grouped(m.achievedGBsGpu, 1),
              m.hasPeak ? grouped(m.peakGBsGpu, 1) : "no figure"});
  out += t.render();
  std::vector<std::pair<std::string, std::string>> kv;
  kv.emplace_back("roofline", rooflineText(a.roofline));
  kv.emplace_back("waves", tailText(a.tail));
  kv.emplace_back("occupancy", fmt::format("achieved {} = theoretical {} x the busy share of the block slots (the "
                                           "tail counted)",
                                           percent(a.tail.achievedOccupancy), percent(a.tail.theoreticalOccupancy)));
  out += renderKeyValues(kv);
  return out;
}

nlohmann::json achievedJson(const analysis::Achieved& a) {
  using nlohmann::json;
  json units = json::array();
  for (const auto& u : a.units)
    units.push_back({{"name", u.name},
                     {"percent_of_peak_sm", 100 * u.fractionOfPeakSm},
                     {"percent_of_peak_gpu", 100 * u.fractionOfPeakGpu}});
  json memory = json::array();
  for (const auto& m : a.memory) {
    const json none = nullptr;
    memory.push_back({{"level", m.level},
                      {"bytes_sm", m.bytesSm},
                      {"achieved_gbs_sm", m.achievedGBsSm},
                      {"peak_gbs_sm", m.hasPeak ? json(m.peakGBsSm) : none},
                      {"percent_of_peak_sm", m.hasPeak ? json(100 * m.fractionOfPeakSm) : none},
                      {"achieved_gbs_gpu", m.achievedGBsGpu},
                      {"peak_gbs_gpu", m.hasPeak ? json(m.peakGBsGpu) : none},
                      {"percent_of_peak_gpu", m.hasPeak ? json(100 * m.fractionOfPeakGpu) : none},
                      {"bytes_counted", m.what},
                      {"peak_origin", m.peakOrigin}});
  }
  const auto& r = a.roofline;
  json roofline = {{"available", r.available}, {"precision", r.precision}, {"flops_sm", r.flopsSm},
                   {"dram_bytes_sm", r.dramBytesSm}};
  if (!r.available) {
    roofline["note"] = r.note;
  } else {
    roofline["intensity_flop_per_byte_sm"] = r.noDramTraffic ? json(nullptr) : json(r.intensity);
    roofline["ridge_flop_per_byte_gpu"] = r.ridge;
    roofline["peak_gflops_gpu"] = r.peakGflopsGpu;
    roofline["dram_peak_gbs_gpu"] = r.dramGBsGpu;
    roofline["attainable_gflops_gpu"] = r.attainableGflopsGpu;
    roofline["achieved_gflops_gpu"] = r.achievedGflopsGpu;
    roofline["binding"] = r.binding;
  }
  const auto& t = a.tail;
  json tail = {{"grid_blocks_gpu", t.gridBlocks},
               {"sms_gpu", t.sms},
               {"blocks_per_sm", t.blocksPerSm},
               {"blocks_per_wave_gpu", t.blocksPerWave},
               {"waves_exact_gpu", t.wavesPerSm},
               {"waves_gpu", t.waves},
               {"last_wave_blocks_gpu", t.lastWaveBlocks},
               {"idle_sms_in_last_wave_gpu", t.idleSmsInLastWave},
               {"last_wave_idle_fraction_gpu", t.lastWaveIdleFraction},
               {"idle_fraction_gpu", t.idleFraction},
               {"theoretical_occupancy_sm", t.theoreticalOccupancy},
               {"achieved_occupancy_gpu", t.achievedOccupancy}};
  return {{"speed_of_light",
           {{"sms_gpu", a.sms}, {"active_sms_gpu", a.activeSms}, {"simulated_seconds_sm", a.simulatedSeconds},
            {"units", units}, {"memory", memory}}},
          {"roofline", roofline},
          {"tail", tail}};
}

}  // namespace teg::report
