// `teg model latency|roofline`: Little's law (seed 002) and the roofline bound.
#include <fmt/format.h>

#include <iostream>

#include "model_command.hpp"
#include "teg/models/device_figures.hpp"
#include "teg/models/latency_hiding.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"

namespace teg::cli::model {

using nlohmann::json;

void registerLatencyCommand(CLI::App& app, Context&) {
  struct Opts {
    double latency = 0, interval = 0;
    int warps = 0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--latency", o->latency, "Latency to hide, cycles")->required()->check(positive());
  app.add_option("--issue-interval", o->interval, "Cycles the unit spends per warp instruction")
      ->required()->check(positive());
  app.add_option("--warps", o->warps, "Show rounds for 1..W warps (default: twice the warps needed)")
      ->check(CLI::Range(1, 4096));
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example (seed 002 Table 2): teg model latency --latency 34.6 --issue-interval 6");
  app.callback([o] {
    const auto h = models::warpsToHideLatency(o->latency, o->interval);
    const int upTo = o->warps > 0 ? o->warps : std::min(4096, std::max(2, 2 * h.warpsNeeded));
    report::Table t({"warps", "cycles per round", "cycles per warp", "issue busy", "bound"});
    json rows = json::array();
    for (int w = 1; w <= upTo; ++w) {
      const auto r = models::roundTime(w, o->latency, o->interval);
      rows.push_back({{"warps", w}, {"cycles", r.cycles}, {"cycles_per_warp", r.cyclesPerWarp},
                      {"utilization", r.utilization}, {"latency_bound", r.latencyBound}});
      t.addRow({fmt::format("{}", w), num(r.cycles), num(r.cyclesPerWarp), fmt::format("{:.1f} %", 100 * r.utilization),
                r.latencyBound ? "latency" : "issue"});
    }
    const json j = {{"latency", o->latency}, {"issue_interval", o->interval},
                    {"warps_needed", h.warpsNeeded}, {"rounds", rows}};
    const KeyValues kv = {
        {"latency", fmt::format("{} cycles", num(o->latency))},
        {"issue interval", fmt::format("{} cycles per warp", num(o->interval))},
        {"warps needed", fmt::format("{} = ceil({} / {}) (Little's law)", h.warpsNeeded, num(o->latency),
                                     num(o->interval))}};
    emit(o->json, j, kv, t.render());
  });
}

void registerRooflineCommand(CLI::App& app, Context& context) {
  struct Opts {
    std::string gpu, precision = "fp32";
    double peak = 0, bandwidth = 0;
    std::vector<double> intensities;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--gpu", o->gpu, "GPU of the database: peak FMA rate and DRAM bandwidth");
  app.add_option("--precision", o->precision, "fp16, fp32 or fp64 (with --gpu; default fp32)")
      ->check(CLI::IsMember({"fp16", "fp32", "fp64"}));
  app.add_option("--peak-gflops", o->peak, "Peak arithmetic rate, GFLOP/s (overrides the GPU's)")
      ->check(positive());
  app.add_option("--bandwidth-gbs", o->bandwidth, "Memory bandwidth, GB/s (overrides the GPU's)")
      ->check(positive());
  app.add_option("--intensity", o->intensities, "Arithmetic intensity, flop/byte (one or more)")
      ->required()->check(nonNegative());
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example: teg model roofline --gpu a100 --intensity 0.25 4 64");
  app.callback([&context, o] {
    double peak = o->peak, bandwidth = o->bandwidth;
    std::string gpuId;
    if (!o->gpu.empty()) {
      const auto& gpu = context.devices().find(o->gpu);
      gpuId = gpu.id;
      const auto precision = o->precision == "fp16"   ? models::Precision::Fp16
                             : o->precision == "fp64" ? models::Precision::Fp64
                                                      : models::Precision::Fp32;
      if (peak <= 0) peak = models::peakOf(gpu, precision).gflops;
      if (bandwidth <= 0) bandwidth = gpu.memory.dramBandwidthGBs;
      if (bandwidth <= 0) throw Error(fmt::format("'{}' has no DRAM bandwidth: give --bandwidth-gbs", gpu.id));
    }
    if (peak <= 0 || bandwidth <= 0) throw Error("give --gpu, or --peak-gflops and --bandwidth-gbs");
    report::Table t({"intensity (flop/B)", "attainable GFLOP/s", "% of peak", "bound"});
    json rows = json::array();
    double ridge = 0;
    for (const double ai : o->intensities) {
      const auto r = models::roofline(peak, bandwidth, ai);
      ridge = r.ridge;
      rows.push_back({{"intensity", ai}, {"attainable_gflops", r.attainable}, {"memory_bound", r.memoryBound}});
      t.addRow({num(ai), num(r.attainable), fmt::format("{:.1f} %", 100 * r.attainable / peak),
                r.memoryBound ? "memory" : "compute"});
    }
    const json j = {{"gpu", gpuId}, {"precision", o->precision}, {"peak_gflops", peak},
                    {"bandwidth_gbs", bandwidth}, {"ridge", ridge}, {"points", rows}};
    KeyValues kv;
    if (!gpuId.empty()) kv.emplace_back("gpu", fmt::format("{} ({})", gpuId, o->precision));
    kv.emplace_back("peak", fmt::format("{} GFLOP/s", num(peak)));
    kv.emplace_back("bandwidth", fmt::format("{} GB/s", num(bandwidth)));
    kv.emplace_back("ridge point", fmt::format("{} flop/byte", num(ridge)));
    emit(o->json, j, kv, t.render());
  });
}

}  // namespace teg::cli::model
