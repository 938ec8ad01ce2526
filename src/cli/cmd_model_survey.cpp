// `teg model mwp-cwp|ryoo`: the baselines seed 000 ch. 1 surveys (eqs. 1.1-1.2, 1.5-1.6).
#include <fmt/format.h>

#include <sstream>

#include "model_command.hpp"
#include "teg/models/dataflow_qcd.hpp"
#include "teg/models/survey_models.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"

namespace teg::cli::model {

using nlohmann::json;

void registerMwpCwpCommand(CLI::App& app, Context&) {
  auto in = std::make_shared<models::MwpCwpInput>();
  auto asJson = std::make_shared<bool>(false);
  app.add_option("--mem-cycles", in->memCycles, "Mem_cycles: cycles a warp waits on memory")->required()->check(nonNegative());
  app.add_option("--comp-cycles", in->compCycles, "Comp_cycles: cycles a warp issues")->required()->check(positive());
  app.add_option("--mem-insts", in->memInsts, "#Mem_insts: memory periods per warp")->required()->check(positive());
  app.add_option("--mem-latency", in->memLatency, "Mem_L: one memory period, cycles")->required()->check(positive());
  app.add_option("--warps", in->warps, "N: active warps per SM")->required()->check(positive());
  app.add_option("--mwp", in->mwp, "MWP: warps whose memory requests overlap")->required()->check(positive());
  app.add_flag("--json", *asJson, "Print JSON instead of a table");
  app.callback([in, asJson] {
    const auto r = models::mwpCwp(*in);
    const json j = {{"cwp", r.cwp}, {"mwp", in->mwp}, {"comp_period", r.compPeriod}, {"cycles", r.cycles},
                    {"memory_bound", r.memoryBound}};
    emit(*asJson, j,
         {{"CWP", fmt::format("{} = min((Mem_cycles + Comp_cycles) / Comp_cycles, N)", num(r.cwp))},
          {"case", r.memoryBound ? "CWP >= MWP: memory-bound, eq. 1.1 Mem_cycles x N / MWP + Comp_p x MWP"
                                 : "MWP > CWP: compute-bound, eq. 1.2 Mem_p + Comp_cycles x N"},
          {"cycles", num(r.cycles)}});
  });
}

void registerRyooCommand(CLI::App& app, Context&) {
  auto specs = std::make_shared<std::vector<std::string>>();
  auto asJson = std::make_shared<bool>(false);
  app.add_option("--config", *specs, "NAME:INSTR:THREADS:REGIONS:WARPS_PER_BLOCK:BLOCKS_PER_SM (repeat)")->required();
  app.add_flag("--json", *asJson, "Print JSON instead of a table");
  app.footer("Example: teg model ryoo --config A:100:1024:4:8:2 --config B:80:1024:8:4:2 --config C:120:1024:4:8:1");
  app.callback([specs, asJson] {
    std::vector<models::RyooConfig> configs;
    for (const auto& s : *specs) {
      std::vector<std::string> f;
      std::stringstream in(s);
      std::string part;
      while (std::getline(in, part, ':')) f.push_back(part);
      if (f.size() != 6) throw Error(fmt::format("--config '{}': expected NAME:INSTR:THREADS:REGIONS:W_TB:B_SM", s));
      models::RyooConfig c;
      c.name = f[0];
      try {
        c.instructions = std::stod(f[1]);
        c.threads = std::stod(f[2]);
        c.regions = std::stod(f[3]);
        c.warpsPerBlock = std::stod(f[4]);
        c.blocksPerSm = std::stod(f[5]);
      } catch (const std::exception&) {
        throw Error(fmt::format("--config '{}': a field is not a number", s));
      }
      configs.push_back(c);
    }
    const auto m = models::ryooPareto(configs);
    report::Table t({"config", "efficiency (eq. 1.5)", "utilization (eq. 1.6)", "Pareto"});
    json rows = json::array();
    for (std::size_t i = 0; i < m.size(); ++i) {
      t.addRow({configs[i].name, num(m[i].efficiency), num(m[i].utilization), m[i].pareto ? "yes" : ""});
      rows.push_back({{"name", configs[i].name}, {"efficiency", m[i].efficiency}, {"utilization", m[i].utilization},
                      {"pareto", m[i].pareto}});
    }
    emit(*asJson, {{"configs", rows}}, {}, t.render());
  });
}

}  // namespace teg::cli::model

namespace teg::cli::model {

void registerDataflowCommand(CLI::App& app, Context& context) {
  struct Opts {
    std::string patterns, gpu;
    double alpha = -1, beta = -1, bandwidth = 0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--patterns", o->patterns, "P1..P5 as five digits, e.g. 01111 (seed 000 Table 2.3)")->required();
  app.add_option("--alpha", o->alpha, "alpha: inter-processor boundary fraction (default: the seed's 0.125)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--beta", o->beta, "beta: inter-core boundary fraction (default 0)")->check(CLI::Range(0.0, 1.0));
  app.add_option("--bandwidth-gbs", o->bandwidth, "Bandwidth of the binding data path, GB/s")->check(positive());
  app.add_option("--gpu", o->gpu, "GPU of the database: its DRAM bandwidth");
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example (seed 000 sect. 2.4.2): teg model dataflow --patterns 10000 --bandwidth-gbs 140");
  app.callback([o, &context] {
    auto d = models::hoppingMatrixData(models::hoppingMatrixDataFile());
    if (o->alpha >= 0) d.alpha = o->alpha;
    if (o->beta >= 0) d.beta = o->beta;
    const auto p = models::accessPatternsFromBits(o->patterns);
    double bw = o->bandwidth;
    if (bw <= 0 && !o->gpu.empty()) bw = context.devices().find(o->gpu).memory.dramBandwidthGBs;
    const double bytes = models::mainMemoryBytesPerSite(d, p);
    const double r = d.flopsPerSite / bytes;
    json j = {{"patterns", o->patterns}, {"alpha", d.alpha}, {"beta", d.beta}, {"bytes_per_site", bytes},
              {"flops_per_site", d.flopsPerSite}, {"r_am", r}};
    KeyValues kv = {{"patterns", o->patterns},
                    {"main-memory bytes per site", num(bytes)},
                    {"R_A/M (eq. 2.2)", fmt::format("{} flop/B = {} / {}", num(r), num(d.flopsPerSite), num(bytes))}};
    if (bw > 0) {
      j["bandwidth_gbs"] = bw;
      j["gflops"] = bw * r;
      kv.emplace_back("P = B x R_A/M", fmt::format("{} GFlop/s at {} GB/s", num(bw * r), num(bw)));
    }
    emit(o->json, j, kv);
  });
}

}  // namespace teg::cli::model
