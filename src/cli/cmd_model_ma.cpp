// `teg model waves|tmm|combined|apsp|fit`: Ma, Chamberlain, Agrawal (ASAP 2014, seed 001).
#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "model_command.hpp"
#include "teg/models/apsp.hpp"
#include "teg/models/linear_fit.hpp"
#include "teg/models/tmm.hpp"
#include "teg/models/waves.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"

namespace teg::cli::model {

namespace {

using nlohmann::json;

json wavesJson(const models::WaveSchedule& w) {
  return {{"requested_blocks", w.requestedBlocks}, {"blocks_per_sm", w.activeBlocksPerSm},
          {"sm_count", w.smCount},                 {"slots", w.slots},
          {"waves", w.waves},                      {"tail_blocks", w.tailBlocks},
          {"tail_fill", w.tailFill},               {"f_sched", w.fSched},
          {"efficiency", w.efficiency}};
}

void addWavesText(KeyValues& kv, const models::WaveSchedule& w) {
  kv.emplace_back("blocks (B_r)", fmt::format("{}", w.requestedBlocks));
  kv.emplace_back("slots (B_a x SMs)", fmt::format("{} = {} x {}", w.slots, w.activeBlocksPerSm, w.smCount));
  kv.emplace_back("waves", fmt::format("{}", w.waves));
  kv.emplace_back("last wave", fmt::format("{} of {} slots ({:.1f} % full)", w.tailBlocks, w.slots,
                                           100 * w.tailFill));
  kv.emplace_back("f_sched (eq. 3)", num(w.fSched));
  kv.emplace_back("efficiency", fmt::format("{:.1f} % of the slot-time does work", 100 * w.efficiency));
}

// The TMM options shared by `tmm` and `combined`.
struct TmmOptions {
  double work = -1, span = 0, transactions = -1, accesses = -1, chunk = 0, latency = -1;
  double cores = 0, threadsPerCore = 0;
  MachineOptions machine;
};

void addTmmOptions(CLI::App* app, TmmOptions& o) {
  app->add_option("--work", o.work, "Work T1: total operations")->required()->check(nonNegative());
  app->add_option("--span", o.span, "Span T_inf: operations on the critical path (default 0)")
      ->check(nonNegative());
  auto* m = app->add_option("--transactions", o.transactions, "Global-memory transactions M")
                ->check(nonNegative());
  auto* a = app->add_option("--accesses", o.accesses,
                            "Global-memory accesses; M = accesses / --chunk (fully coalesced)")
                ->check(nonNegative());
  app->add_option("--chunk", o.chunk, "Chunk size C: accesses grouped per transaction (with --accesses)")
      ->check(positive())->needs(a);
  m->excludes(a);
  app->add_option("--latency", o.latency, "Latency L of one transaction, in time steps")
      ->required()->check(nonNegative());
  app->add_option("--threads-per-core", o.threadsPerCore, "Threads per core T the algorithm runs with")
      ->required()->check(positive());
  app->add_option("--cores", o.cores, "Total cores P (default: SMs x cores per SM of --gpu)")
      ->check(positive());
}

models::TmmInputs tmmInputs(Context& context, const TmmOptions& o, bool needSms, Machine& machine) {
  models::TmmInputs in;
  in.work = o.work;
  in.span = o.span;
  in.latency = o.latency;
  in.threadsPerCore = o.threadsPerCore;
  if (o.transactions >= 0) {
    in.transactions = o.transactions;
  } else if (o.accesses >= 0) {
    if (o.chunk <= 0) throw Error("--accesses needs --chunk (the chunk size C)");
    in.transactions = models::transactionsFromAccesses(o.accesses, o.chunk);
  } else {
    throw Error("give --transactions M, or --accesses with --chunk");
  }
  if (o.cores > 0 && !needSms) {
    in.cores = o.cores;
    return in;
  }
  machine = resolveMachine(context, o.machine, o.cores <= 0);
  in.cores = o.cores > 0 ? o.cores : machine.sms * machine.coresPerSm;
  return in;
}

json tmmJson(const models::TmmBound& b) {
  json j = {{"compute_term", b.computeTerm}, {"span_term", b.spanTerm}, {"memory_term", b.memoryTerm},
            {"time", b.time},                {"limiter", models::tmmLimitName(b.limiter)}};
  j["threads_per_core_to_hide_latency"] =
      b.threadsPerCoreToHideLatency ? json(*b.threadsPerCoreToHideLatency) : json(nullptr);
  j["latency_at_transition"] = b.latencyAtTransition ? json(*b.latencyAtTransition) : json(nullptr);
  return j;
}

void addTmmText(KeyValues& kv, const models::TmmInputs& in, const models::TmmBound& b) {
  kv.emplace_back("T1/P (compute)", num(b.computeTerm));
  kv.emplace_back("T_inf (span)", num(b.spanTerm));
  kv.emplace_back("M*L/(T*P) (memory)", num(b.memoryTerm));
  kv.emplace_back("T_P (eq. 1)", fmt::format("{} time steps, {} bound", num(b.time), models::tmmLimitName(b.limiter)));
  if (b.threadsPerCoreToHideLatency)
    kv.emplace_back("latency hidden from", fmt::format("T >= {} threads per core (now {})",
                                                       num(*b.threadsPerCoreToHideLatency), num(in.threadsPerCore)));
  if (b.latencyAtTransition)
    kv.emplace_back("memory bound above", fmt::format("L = {} time steps (now {})", num(*b.latencyAtTransition),
                                                      num(in.latency)));
}

}  // namespace

void registerWavesCommand(CLI::App& app, Context& context) {
  struct Opts {
    MachineOptions machine;
    ResidencyOptions residency;
    long long blocks = 0, upTo = 0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  addMachineOptions(&app, o->machine, false);
  app.add_option("--blocks", o->blocks, "Requested blocks B_r (the grid)")->required()->check(positive());
  addResidencyOptions(&app, o->residency);
  app.add_option("--up-to", o->upTo, "Sweep B_r from --blocks to this value (the zig-zag of Fig. 1)")
      ->check(positive());
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example: teg model waves --gpu gtx480 --blocks 100 --blocks-per-sm 1");
  app.callback([&context, o] {
    const auto machine = resolveMachine(context, o->machine, false);
    const auto residency = resolveResidency(context, machine.gpu, o->residency);
    if (o->upTo > 0) {
      if (o->upTo < o->blocks) throw Error("--up-to must be >= --blocks");
      if (o->upTo - o->blocks >= 100000) throw Error("--up-to: at most 100000 rows");
      json rows = json::array();
      report::Table t({"blocks", "waves", "last wave", "f_sched", "efficiency"});
      for (long long b = o->blocks; b <= o->upTo; ++b) {
        const auto w = models::scheduleWaves(b, residency.blocksPerSm, machine.sms);
        rows.push_back(wavesJson(w));
        t.addRow({fmt::format("{}", b), fmt::format("{}", w.waves), fmt::format("{}/{}", w.tailBlocks, w.slots),
                  fmt::format("{:.4f}", w.fSched), fmt::format("{:.1f} %", 100 * w.efficiency)});
      }
      json j = {{"gpu", machine.gpu}, {"sm_count", machine.sms}, {"blocks_per_sm", residency.blocksPerSm},
                {"blocks_per_sm_source", residency.source}, {"rows", rows}};
      const KeyValues kv = {{"SMs", fmt::format("{}", machine.sms)},
                            {"blocks per SM (B_a)", fmt::format("{} ({})", residency.blocksPerSm, residency.source)}};
      emit(o->json, j, kv, t.render());
      return;
    }
    const auto w = models::scheduleWaves(o->blocks, residency.blocksPerSm, machine.sms);
    json j = wavesJson(w);
    j["gpu"] = machine.gpu;
    j["blocks_per_sm_source"] = residency.source;
    KeyValues kv;
    if (!machine.gpu.empty()) kv.emplace_back("gpu", machine.gpu);
    kv.emplace_back("SMs", fmt::format("{}", machine.sms));
    kv.emplace_back("blocks per SM (B_a)", fmt::format("{} ({})", residency.blocksPerSm, residency.source));
    addWavesText(kv, w);
    emit(o->json, j, kv);
  });
}

void registerTmmCommand(CLI::App& app, Context& context) {
  struct Opts {
    TmmOptions tmm;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  addTmmOptions(&app, o->tmm);
  addMachineOptions(&app, o->tmm.machine, true);
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example: teg model tmm --work 1e9 --transactions 1e7 --latency 400 --threads-per-core 8 --gpu gtx480");
  app.callback([&context, o] {
    Machine machine;
    const auto in = tmmInputs(context, o->tmm, false, machine);
    const auto b = models::tmmBound(in);
    json j = tmmJson(b);
    j["inputs"] = {{"work", in.work}, {"span", in.span}, {"transactions", in.transactions},
                   {"latency", in.latency}, {"cores", in.cores}, {"threads_per_core", in.threadsPerCore}};
    KeyValues kv;
    if (!machine.gpu.empty()) kv.emplace_back("gpu", machine.gpu);
    kv.emplace_back("cores (P)", num(in.cores));
    kv.emplace_back("transactions (M)", num(in.transactions));
    addTmmText(kv, in, b);
    emit(o->json, j, kv);
  });
}

void registerCombinedCommand(CLI::App& app, Context& context) {
  struct Opts {
    TmmOptions tmm;
    ResidencyOptions residency;
    long long blocks = 0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  addTmmOptions(&app, o->tmm);
  addMachineOptions(&app, o->tmm.machine, true);
  app.add_option("--blocks", o->blocks, "Requested blocks B_r (the grid)")->required()->check(positive());
  addResidencyOptions(&app, o->residency);
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example: teg model combined --gpu gtx480 --work 1e9 --transactions 1e7 --latency 400 "
             "--threads-per-core 8 --blocks 100 --blocks-per-sm 2");
  app.callback([&context, o] {
    Machine machine;
    const auto in = tmmInputs(context, o->tmm, true, machine);
    const auto residency = resolveResidency(context, machine.gpu, o->residency);
    const auto c = models::combinedModel(in, o->blocks, residency.blocksPerSm, machine.sms);
    json j = {{"gpu", machine.gpu}, {"tmm", tmmJson(c.tmm)}, {"waves", wavesJson(c.waves)},
              {"time", c.time}, {"blocks_per_sm_source", residency.source}};
    KeyValues kv;
    if (!machine.gpu.empty()) kv.emplace_back("gpu", machine.gpu);
    kv.emplace_back("cores (P)", num(in.cores));
    kv.emplace_back("blocks per SM (B_a)", fmt::format("{} ({})", residency.blocksPerSm, residency.source));
    addTmmText(kv, in, c.tmm);
    addWavesText(kv, c.waves);
    kv.emplace_back("time (eq. 6: T_P x f_sched)", fmt::format("{} time steps", num(c.time)));
    emit(o->json, j, kv);
  });
}

void registerApspCommand(CLI::App& app, Context& context) {
  struct Opts {
    MachineOptions machine;
    ResidencyOptions residency;
    long long n = 0, subBlock = 0;
    double chunk = 32, latency = 0, threadsPerCore = 0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--n", o->n, "Vertices n")->required()->check(positive());
  app.add_option("--sub-block", o->subBlock, "Sub-block dimension S_D (divides n); B_r = (n/S_D)^2")
      ->required()->check(positive());
  app.add_option("--chunk", o->chunk, "Chunk size C (default 32: 'C is 32 if reads of threads are grouped')")
      ->check(positive());
  app.add_option("--latency", o->latency, "Memory latency L in time steps (the seed does not give it)")
      ->required()->check(positive());
  app.add_option("--threads-per-core", o->threadsPerCore, "Threads per core T")->required()->check(positive());
  addMachineOptions(&app, o->machine, true);
  addResidencyOptions(&app, o->residency);
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example (seed 001 sect. V): teg model apsp --gpu gtx480 --n 8192 --sub-block 32 "
             "--threads-per-core 4 --blocks-per-sm 4 --latency 16384");
  app.callback([&context, o] {
    const auto machine = resolveMachine(context, o->machine, true);
    const auto residency = resolveResidency(context, machine.gpu, o->residency);
    models::ApspInputs in;
    in.vertices = o->n;
    in.subBlock = o->subBlock;
    in.chunkSize = o->chunk;
    in.latency = o->latency;
    in.threadsPerCore = o->threadsPerCore;
    in.activeBlocksPerSm = residency.blocksPerSm;
    in.smCount = machine.sms;
    in.coresPerSm = machine.coresPerSm;
    const auto e = models::apspModel(in);
    json j = {{"gpu", machine.gpu},
              {"work", e.work},
              {"transactions", e.transactions},
              {"requested_blocks", e.requestedBlocks},
              {"sqrt_blocks_over_threads_per_core", e.fitAbscissa},
              {"tmm", tmmJson(e.combined.tmm)},
              {"waves", wavesJson(e.combined.waves)},
              {"time", e.combined.time},
              {"threads_per_core_at_transition", e.threadsPerCoreAtTransition},
              {"sub_block_at_transition", e.subBlockAtTransition},
              {"blocks_at_transition", e.blocksAtTransition}};
    KeyValues kv;
    if (!machine.gpu.empty()) kv.emplace_back("gpu", machine.gpu);
    kv.emplace_back("work T1 = n^3 lg n", num(e.work));
    kv.emplace_back("transactions M (eq. 10)", num(e.transactions));
    kv.emplace_back("blocks B_r = (n/S_D)^2", fmt::format("{}", e.requestedBlocks));
    kv.emplace_back("sqrt(B_r)/T (eq. 15's x)", num(e.fitAbscissa));
    kv.emplace_back("blocks per SM (B_a)", fmt::format("{} ({})", residency.blocksPerSm, residency.source));
    addTmmText(kv, models::TmmInputs{e.work, 0, e.transactions, in.latency, machine.sms * machine.coresPerSm,
                                     in.threadsPerCore},
               e.combined.tmm);
    addWavesText(kv, e.combined.waves);
    kv.emplace_back("time (eq. 11 / P)", fmt::format("{} time steps", num(e.combined.time)));
    kv.emplace_back("compute bound when", fmt::format("T > L/(S_D C) = {}, or S_D > {}, or B_r < {}",
                                                      num(e.threadsPerCoreAtTransition),
                                                      num(e.subBlockAtTransition), num(e.blocksAtTransition)));
    emit(o->json, j, kv);
  });
}

void registerFitCommand(CLI::App& app, Context&) {
  struct Opts {
    std::string csv;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--csv", o->csv,
                 "Measurements: a column 'time' and 'x' (= sqrt(B_r)/T), or 'blocks' and "
                 "'threads_per_core', or 'n', 'sub_block' and 'threads_per_core'")
      ->required();
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example: teg model fit --csv runs.csv   (runs.csv: n,sub_block,threads_per_core,time)");
  app.callback([o] {
    const auto samples = models::readRuntimeSamplesCsv(o->csv);
    const auto f = models::fitRuntimeModel(samples);
    json points = json::array();
    report::Table t({"line", "x", "time", "fitted", "residual"});
    for (const auto& s : samples) {
      const double fitted = f.slope * s.x + f.intercept;
      points.push_back({{"line", s.line}, {"x", s.x}, {"time", s.time}, {"fitted", fitted}});
      t.addRow({fmt::format("{}", s.line), num(s.x), num(s.time), num(fitted), num(s.time - fitted)});
    }
    const json j = {{"a1", f.slope}, {"a0", f.intercept}, {"r_squared", f.rSquared},
                    {"rmse", f.rmse}, {"points", f.points}, {"samples", points}};
    const KeyValues kv = {{"model (eq. 15)", "time = a1 * sqrt(B_r)/T + a0"},
                          {"a1", num(f.slope)},
                          {"a0", num(f.intercept)},
                          {"r^2", fmt::format("{:.4f}", f.rSquared)},
                          {"rmse", num(f.rmse)},
                          {"points", fmt::format("{}", f.points)}};
    emit(o->json, j, kv, t.render());
  });
}

}  // namespace teg::cli::model
