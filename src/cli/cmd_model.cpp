// `teg model <sub>`: the analytical models of the seeds (library teg::models) from the command
// line. Each subcommand takes the model's numbers as options or pulls them from a device
// (--gpu), prints a readable table, and --json prints the same as JSON.
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <string>

#include "command.hpp"
#include "model_command.hpp"
#include "teg/models/waves.hpp"
#include "teg/occupancy/occupancy.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"

namespace teg::cli {

namespace model {

std::string num(double v) { return fmt::format("{:.6g}", v); }

namespace {

CLI::Validator numberCheck(bool allowZero) {
  return CLI::Validator(
      [allowZero](std::string& text) -> std::string {
        double v = 0;
        try {
          std::size_t used = 0;
          v = std::stod(text, &used);
          if (used != text.size()) return "'" + text + "' is not a number";
        } catch (const std::exception&) {
          return "'" + text + "' is not a number";
        }
        if (!std::isfinite(v)) return "'" + text + "' is not a finite number";
        if (allowZero ? v < 0 : v <= 0) return allowZero ? "must be >= 0" : "must be > 0";
        return {};
      },
      allowZero ? "NUMBER >= 0" : "NUMBER > 0");
}

}  // namespace

CLI::Validator positive() { return numberCheck(false); }
CLI::Validator nonNegative() { return numberCheck(true); }

void emit(bool asJson, const nlohmann::json& j, const KeyValues& text, const std::string& extra) {
  if (asJson) {
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << report::renderKeyValues(text);
  if (!extra.empty()) std::cout << "\n" << extra;
}

void addMachineOptions(CLI::App* app, MachineOptions& o, bool withCores) {
  app->add_option("--gpu", o.gpu, "GPU of the database (id, name or alias: gtx480, a100, sm_80)");
  app->add_option("--sms", o.sms, "Number of SMs (P/Q in Ma et al.); overrides the GPU's")
      ->check(positive());
  if (withCores)
    app->add_option("--cores-per-sm", o.coresPerSm,
                    "Cores per SM (P = SMs x cores); default: the GPU's fp32 results per clock per SM")
        ->check(positive());
}

Machine resolveMachine(Context& context, const MachineOptions& o, bool needCores) {
  Machine m;
  m.sms = o.sms;
  m.coresPerSm = o.coresPerSm;
  if (!o.gpu.empty()) {
    const auto& gpu = context.devices().find(o.gpu);
    m.gpu = gpu.id;
    if (m.sms == 0) m.sms = gpu.smCount;
    if (m.coresPerSm == 0) m.coresPerSm = gpu.throughputOf(device::InstructionClass::Fp32Fma);
    if (m.sms == 0)
      throw Error(fmt::format("'{}' has no SM count (a generic entry?): give --sms", gpu.id));
  }
  if (m.sms == 0) throw Error("give --gpu or --sms (the number of SMs)");
  if (needCores && m.coresPerSm <= 0) throw Error("give --gpu or --cores-per-sm (cores per SM)");
  return m;
}

void addResidencyOptions(CLI::App* app, ResidencyOptions& o) {
  auto* given = app->add_option("--blocks-per-sm", o.blocksPerSm,
                                "Active blocks per SM (B_a); or give --threads to compute it")
                    ->check(positive());
  auto* threads = app->add_option("--threads", o.threads,
                                  "Threads per block: B_a from the occupancy module (needs --gpu)")
                      ->check(positive());
  app->add_option("--regs", o.regs, "Registers per thread (with --threads)")
      ->check(nonNegative())->needs(threads);
  app->add_option("--smem", o.smem, "Static shared memory per block, bytes (with --threads)")
      ->check(nonNegative())->needs(threads);
  app->add_option("--dyn-smem", o.dynSmem, "Dynamic shared memory per block, bytes (with --threads)")
      ->check(nonNegative())->needs(threads);
  given->excludes(threads);
}

Residency resolveResidency(Context& context, const std::string& gpu, const ResidencyOptions& o) {
  if (o.blocksPerSm > 0) return {o.blocksPerSm, "given"};
  if (o.threads <= 0) throw Error("give --blocks-per-sm, or --threads (with --gpu) to compute it");
  if (gpu.empty()) throw Error("--threads needs --gpu to compute the active blocks per SM");
  const auto& device = context.devices().find(gpu);
  occupancy::Launch launch;
  launch.threadsPerBlock = o.threads;
  launch.registersPerThread = o.regs;
  launch.staticSharedBytes = o.smem;
  launch.dynamicSharedBytes = o.dynSmem;
  const auto occ = occupancy::computeOccupancyOrThrow(device, launch);
  std::string limiters;
  for (auto r : occupancy::kAllResources)
    if (occ.limitedBy(r)) limiters += (limiters.empty() ? "" : ", ") + std::string(occupancy::resourceName(r));
  return {occ.blocksPerSm, fmt::format("occupancy of {} (limited by {})", device.id, limiters)};
}

}  // namespace model

void registerModelCommand(CLI::App& app, Context& context) {
  app.require_subcommand(1);
  struct Entry {
    const char* name;
    const char* summary;
    void (*registrar)(CLI::App&, Context&);
  };
  static constexpr Entry kSubcommands[] = {
      {"waves", "Waves of blocks over the SMs, tail, f_sched (Ma et al. eq. 3; --up-to: the zig-zag)",
       model::registerWavesCommand},
      {"tmm", "TMM bound max(T1/P, T_inf, M*L/(T*P)), T threads per core, and its transition points (Ma et al. eq. 1)",
       model::registerTmmCommand},
      {"combined", "TMM bound times f_sched for a launch (Ma et al. eqs. 6-7)",
       model::registerCombinedCommand},
      {"apsp", "The seed's APSP case study: T1, M, B_r, time and transitions (Ma et al. eqs. 10-14)",
       model::registerApspCommand},
      {"fit", "Least-squares fit of Time = a1*sqrt(B_r)/T + a0 with r^2 (Ma et al. eq. 15)",
       model::registerFitCommand},
      {"gpudiag", "GPUDIAG: N_slot (eq. 3.3), fu(c) (eq. 3.6), T(g,b) (eq. 3.2), bottleneck (eq. 3.7)",
       model::registerGpudiagCommand},
      {"buffers", "GPUDIAG: recover buffer sizes and granularities from N_slot measurements (eqs. 3.12-3.13)",
       model::registerBuffersCommand},
      {"latency", "Little's law: warps needed to hide a latency at an issue interval",
       model::registerLatencyCommand},
      {"roofline", "Roofline: attainable = min(peak, intensity x bandwidth), ridge point",
       model::registerRooflineCommand},
      {"sgemm-bound", "Lai's SGEMM upper bound: register blocking, FFMA share, F_T, % of peak (seed 000 eqs. 4.1-4.11)",
       model::registerSgemmBoundCommand},
      {"volkov-sgemm", "Chien's cost model of Volkov's SGEMM on a Tesla C1060 (seed 002 sect. 3.1, Example 1)",
       model::registerVolkovSgemmCommand},
      {"mwp-cwp", "Hong & Kim's MWP-CWP model: CWP, the case and the cycles (seed 000 eqs. 1.1-1.2)",
       model::registerMwpCwpCommand},
      {"mwp-cwp-ext", "Sim et al.'s extended MWP-CWP: T_comp + T_mem - T_overlap with the cache (AMAT) and bank-conflict "
                      "(O_bank) terms (seed 000 eq. 1.3)",
       model::registerMwpCwpExtendedCommand},
      {"ryoo", "Ryoo's efficiency and utilization of configurations, and their Pareto subset (seed 000 eqs. 1.5-1.6)",
       model::registerRyooCommand},
      {"dataflow", "Lai's data-flow model of lattice QCD's Hopping_Matrix: R_A/M per access pattern (seed 000 Table 2.4)",
       model::registerDataflowCommand},
  };
  for (const auto& e : kSubcommands) e.registrar(*app.add_subcommand(e.name, e.summary), context);
}

}  // namespace teg::cli
