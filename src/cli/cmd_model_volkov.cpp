// `teg model volkov-sgemm`: Chien's cost model of Volkov's SGEMM (seed 002 sect. 3.1, Example 1).
#include <fmt/format.h>

#include "model_command.hpp"
#include "teg/models/volkov_sgemm.hpp"

namespace teg::cli::model {

using nlohmann::json;

void registerVolkovSgemmCommand(CLI::App& app, Context&) {
  struct Opts {
    double threads = 0, latency = 0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--threads-per-sm", o->threads, "N_T, active threads per SM (default: Example 1's 512)")->check(positive());
  app.add_option("--global-latency", o->latency, "g_L, cycles (default: Table 5's 530)")->check(positive());
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example (seed 002 Example 1): teg model volkov-sgemm   -> 278.57 Gflop/s as printed");
  app.callback([o] {
    auto p = models::volkovSgemmExample1(models::volkovSgemmDataFile());
    if (o->threads > 0) p.activeThreads = o->threads;
    if (o->latency > 0) p.globalLatency = o->latency;
    const auto c = models::volkovSgemmCost(p);
    const json j = {{"a_load", c.aLoad}, {"b_load", c.bLoad}, {"mad", c.mad}, {"cycles_per_mad", c.cyclesPerMad},
                    {"gflops", c.gflops}, {"gflops_as_printed", c.gflopsAsPrinted},
                    {"threads_per_sm", p.activeThreads}, {"global_latency", p.globalLatency},
                    {"sm_count", p.smCount}, {"clock_ghz", p.clockGhz}, {"block_m", p.blockM}, {"block_n", p.blockN}};
    const KeyValues kv = {
        {"A load", fmt::format("{} cycles/thread = g_L/N_T + MOV/32 = {}/{} + {}/32", num(c.aLoad), num(p.globalLatency),
                               num(p.activeThreads), num(p.movCyclesPerWarp))},
        {"B load", fmt::format("{} cycles/thread = g_L/N_T + 2 MOV/32", num(c.bLoad))},
        {"MAD [smem]", fmt::format("{} cycles/thread = {}/32", num(c.mad), num(p.madSmemCyclesPerWarp))},
        {"per MAD", fmt::format("{} cycles = A/{} + B/{} + MAD", num(c.cyclesPerMad), num(p.blockN), num(p.blockM))},
        {"Gflop/s", fmt::format("{:.2f} = 2 x {} SMs x {} GHz / {} ({:.2f} with the per-element costs rounded as "
                                "Example 1 prints them)",
                                c.gflops, p.smCount, num(p.clockGhz), num(c.cyclesPerMad), c.gflopsAsPrinted)}};
    emit(o->json, j, kv);
  });
}

}  // namespace teg::cli::model
