// `teg model mwp-cwp|ryoo`: the baselines seed 000 ch. 1 surveys (eqs. 1.1-1.2, 1.5-1.6).
#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "model_command.hpp"
#include "teg/analysis/predict.hpp"
#include "teg/analysis/ryoo_configs.hpp"
#include "teg/emu/launch.hpp"
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

void registerMwpCwpExtendedCommand(CLI::App& app, Context&) {
  auto in = std::make_shared<models::MwpCwpExtendedInput>();
  auto asJson = std::make_shared<bool>(false);
  app.add_option("--insts", in->insts, "#insts: instructions per warp")->required()->check(positive());
  app.add_option("--mem-insts", in->memInsts, "#mem_insts: memory instructions per warp")->required()->check(nonNegative());
  app.add_option("--total-warps", in->totalWarps, "#total_warps of the launch")->required()->check(positive());
  app.add_option("--active-sms", in->activeSms, "#active_SMs")->required()->check(positive());
  app.add_option("--warps", in->warps, "N: active warps per SM")->required()->check(positive());
  app.add_option("--inst-latency", in->avgInstLatency, "avg_inst_lat, cycles")->required()->check(positive());
  app.add_option("--ilp", in->ilp, "ILP of one warp (default 1)")->check(positive());
  app.add_option("--mlp", in->mlp, "MLP of one warp (default 1)")->check(positive());
  app.add_option("--simd-width", in->simdWidth, "SIMD width (default 32)")->check(positive());
  app.add_option("--mwp", in->mwp, "MWP: warps whose memory requests overlap")->required()->check(positive());
  app.add_option("--mwp-peak-bw", in->mwpPeakBw, "MWP_peak_bw: warps the peak DRAM bandwidth sustains per SM")
      ->required()->check(positive());
  app.add_option("--dram-latency", in->dramLatency, "avg_DRAM_lat, cycles")->required()->check(nonNegative());
  app.add_option("--miss-ratio", in->missRatio, "the caches' miss ratio, 0..1 (default 1)")->check(CLI::Range(0.0, 1.0));
  app.add_option("--hit-latency", in->hitLatency, "hit_lat, cycles (default 0)")->check(nonNegative());
  app.add_option("--o-sync", in->oSync, "O_sync, cycles")->check(nonNegative());
  app.add_option("--o-sfu", in->oSfu, "O_SFU, cycles")->check(nonNegative());
  app.add_option("--o-cfdiv", in->oCfDiv, "O_CFdiv, cycles")->check(nonNegative());
  app.add_option("--o-bank", in->oBank, "O_bank: bank-conflict overhead, cycles")->check(nonNegative());
  app.add_flag("--json", *asJson, "Print JSON instead of a table");
  app.footer("Example: teg model mwp-cwp-ext --insts 100 --mem-insts 10 --total-warps 1600 --active-sms 16 --warps 8 "
             "--inst-latency 18 --mwp 4 --mwp-peak-bw 6 --dram-latency 400 --miss-ratio 0.5 --hit-latency 100 --o-bank 500");
  app.callback([in, asJson] {
    const auto r = models::mwpCwpExtended(*in);
    const json j = {{"itilp", r.itilp},   {"w_parallel", r.wParallel}, {"w_serial", r.wSerial}, {"t_comp", r.tComp},
                    {"amat", r.amat},     {"cwp", r.cwp},             {"mwp_cp", r.mwpCp},     {"itmlp", r.itmlp},
                    {"t_mem", r.tMem},    {"f_overlap", r.fOverlap},  {"t_overlap", r.tOverlap}, {"cycles", r.tExec}};
    emit(*asJson, j,
         {{"T_comp", fmt::format("{} = W_parallel {} (ITILP {}) + W_serial {} (eqs. 2, 3, 6)", num(r.tComp),
                                 num(r.wParallel), num(r.itilp), num(r.wSerial))},
          {"T_mem", fmt::format("{} = AMAT {} (eq. 12) at ITMLP {} (eqs. 11, 14; CWP {}, MWP_cp {})", num(r.tMem),
                                num(r.amat), num(r.itmlp), num(r.cwp), num(r.mwpCp))},
          {"T_overlap", fmt::format("{} (F_overlap {}, eqs. 16-17)", num(r.tOverlap), num(r.fOverlap))},
          {"cycles", fmt::format("{} = T_comp + T_mem - T_overlap (eq. 1, seed eq. 1.3)", num(r.tExec))}});
  });
}

namespace {

models::RyooConfig parseRyooConfig(const std::string& s) {
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
  return c;
}

// "64" or "64,64" or "8,8,4".
emu::Dim3 parseShapeDim(const std::string& shape, const std::string& text) {
  std::vector<std::uint32_t> v;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    std::size_t used = 0;
    unsigned long n = 0;
    try {
      n = std::stoul(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != part.size() || part.empty() || n == 0 || n > 0xffffffffUL)
      throw Error(fmt::format("--shape '{}': '{}' is not a positive dimension", shape, part));
    v.push_back(static_cast<std::uint32_t>(n));
  }
  if (v.empty() || v.size() > 3) throw Error(fmt::format("--shape '{}': expected X[,Y[,Z]] for '{}'", shape, text));
  emu::Dim3 d;
  d.x = v[0];
  if (v.size() > 1) d.y = v[1];
  if (v.size() > 2) d.z = v[2];
  return d;
}

struct Shape {
  std::string name;
  emu::Dim3 grid, block;
};

// [NAME=]GRID/BLOCK, e.g. b128=782/128 or 32,32/16,16.
Shape parseShape(const std::string& s) {
  Shape sh;
  std::string rest = s;
  if (const auto eq = s.find('='); eq != std::string::npos) sh.name = s.substr(0, eq), rest = s.substr(eq + 1);
  const auto slash = rest.find('/');
  if (slash == std::string::npos) throw Error(fmt::format("--shape '{}': expected [NAME=]GRID/BLOCK, e.g. b128=782/128", s));
  sh.grid = parseShapeDim(s, rest.substr(0, slash));
  sh.block = parseShapeDim(s, rest.substr(slash + 1));
  if (sh.name.empty()) sh.name = rest;
  return sh;
}

}  // namespace

void registerRyooCommand(CLI::App& app, Context& context) {
  struct Opts {
    std::vector<std::string> configs, launches, shapes;
    std::string gpu, isa = "auto";
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--config", o->configs, "NAME:INSTR:THREADS:REGIONS:WARPS_PER_BLOCK:BLOCKS_PER_SM (repeat)");
  app.add_option("--launch", o->launches, "Launch files whose simulated traces give the metrics (repeat: one configuration each)")
      ->check(CLI::ExistingFile);
  app.add_option("--shape", o->shapes,
                 "With one --launch: [NAME=]GRID/BLOCK replacing its grid and block, e.g. b128=782/128 (repeat: one "
                 "configuration each; the arguments stay the file's)");
  app.add_option("--gpu", o->gpu, "GPU the launches are simulated on (with --launch)");
  app.add_option("--isa", o->isa, "Instruction stream of the traces: auto, ptx or sass (with --launch)");
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer(
      "Examples: teg model ryoo --config A:100:1024:4:8:2 --config B:80:1024:8:4:2 --config C:120:1024:4:8:1\n"
      "          teg model ryoo --gpu a100 --launch examples/kernels/vector_add.launch.json --shape b64=15625/64 "
      "--shape b256=3907/256 --shape b1024=977/1024");
  app.callback([o, &context] {
    if (o->configs.empty() == o->launches.empty())
      throw Error("give the configurations either as --config (figures by hand) or as --launch files (from their traces)");
    if (!o->shapes.empty() && o->launches.size() != 1) throw Error("--shape re-shapes one --launch; give exactly one");
    std::vector<models::RyooConfig> configs;
    std::vector<double> predictedMs;  // beside the metrics when the traces were simulated
    for (const auto& s : o->configs) configs.push_back(parseRyooConfig(s));
    if (!o->launches.empty()) {
      if (o->gpu.empty()) throw Error("--launch needs --gpu (the traces are simulated on it)");
      std::vector<std::pair<std::string, emu::LaunchDescription>> runs;
      for (const auto& file : o->launches) {
        auto l = emu::readLaunchFile(file);
        if (o->shapes.empty()) runs.emplace_back(std::filesystem::path(file).stem().stem().string(), l);
        for (const auto& text : o->shapes) {
          const Shape sh = parseShape(text);
          auto shaped = l;
          shaped.grid = sh.grid;
          shaped.block = sh.block;
          runs.emplace_back(sh.name, shaped);
        }
      }
      for (auto& [name, launch] : runs) {
        analysis::PredictRequest request;
        request.launch = launch;
        request.device = &context.devices().find(o->gpu);
        request.isa = analysis::parseIsaRequest(o->isa);
        analysis::Prediction p;
        try {
          p = analysis::predict(request);
        } catch (const Error& e) {
          throw Error(fmt::format("configuration '{}': {}", name, e.what()));
        }
        configs.push_back(analysis::ryooConfigOf(p, name));
        predictedMs.push_back(p.result.timeMs);
      }
    }
    const auto m = models::ryooPareto(configs);
    std::size_t fastest = 0;
    for (std::size_t i = 1; i < predictedMs.size(); ++i)
      if (predictedMs[i] < predictedMs[fastest]) fastest = i;
    std::vector<std::string> head = {"config", "Instr", "Threads", "Regions", "W_TB", "B_SM", "efficiency (eq. 1.5)",
                                     "utilization (eq. 1.6)", "Pareto"};
    if (!predictedMs.empty()) head.push_back("TEG predicted");
    report::Table t(head);
    json rows = json::array();
    for (std::size_t i = 0; i < m.size(); ++i) {
      const auto& c = configs[i];
      std::vector<std::string> row = {c.name,          num(c.instructions), num(c.threads), num(c.regions),
                                      num(c.warpsPerBlock), num(c.blocksPerSm), num(m[i].efficiency),
                                      num(m[i].utilization), m[i].pareto ? "yes" : ""};
      json r = {{"name", c.name},          {"instructions", c.instructions}, {"threads", c.threads},
                {"regions", c.regions},    {"warps_per_block", c.warpsPerBlock}, {"blocks_per_sm", c.blocksPerSm},
                {"efficiency", m[i].efficiency}, {"utilization", m[i].utilization}, {"pareto", m[i].pareto}};
      if (!predictedMs.empty()) {
        row.push_back(fmt::format("{:.4g} ms{}", predictedMs[i], i == fastest ? " (fastest)" : ""));
        r["predicted_time_ms"] = predictedMs[i];
      }
      t.addRow(row);
      rows.push_back(r);
    }
    json j = {{"configs", rows}};
    std::string extra = t.render();
    if (!predictedMs.empty()) {
      j["fastest_predicted"] = configs[fastest].name;
      j["fastest_in_pareto_subset"] = m[fastest].pareto;
      extra += fmt::format("the fastest TEG prediction ({}) is {} the Pareto subset\n", configs[fastest].name,
                           m[fastest].pareto ? "in" : "NOT in");
    }
    emit(o->json, j, {}, extra);
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
