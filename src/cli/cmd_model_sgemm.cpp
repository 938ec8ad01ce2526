// `teg model sgemm-bound`: Lai's SGEMM performance upper bound (seed 000 ch. 4, eqs. 4.1-4.11).
#include <fmt/format.h>

#include "model_command.hpp"
#include "teg/models/sgemm_bound.hpp"
#include "teg/report/table.hpp"

namespace teg::cli::model {

using nlohmann::json;

void registerSgemmBoundCommand(CLI::App& app, Context& context) {
  struct Opts {
    std::string gpu;
    int ldsWidth = 64;
    int threadsPerBlock = 0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--gpu", o->gpu, "GPU of the database (gtx580, gtx680, a100, h100, ...)")->required();
  app.add_option("--lds-width", o->ldsWidth, "Width of the shared-memory loads: 32 (LDS), 64 (LDS.64), 128 (LDS.128)")
      ->check(CLI::IsMember({32, 64, 128}));
  app.add_option("--threads-per-block", o->threadsPerBlock,
                 "T_B, a square (default: the seed's 256, data/models/sgemm_bound.json)")
      ->check(CLI::Range(1, 4096));
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Examples (seed 000 sect. 4.3.5): teg model sgemm-bound --gpu gtx580            -> 82.5 %\n"
             "                                  teg model sgemm-bound --gpu gtx680 --lds-width 128 -> 57.6 %");
  app.callback([&context, o] {
    const auto& gpu = context.devices().find(o->gpu);
    auto p = models::sgemmBoundParametersFor(gpu, o->ldsWidth, models::sgemmBoundDataFile());
    if (o->threadsPerBlock > 0) {
      p.threadsPerBlock = o->threadsPerBlock;
      p.origins.emplace_back("T_B", "--threads-per-block");
    }
    const auto s = models::sgemmBound(p);
    const auto& b = s.blocking;
    json origins = json::object();
    for (const auto& [k, v] : p.origins) origins[k] = v;  // the last origin of a parameter wins
    const json j = {
        {"gpu", gpu.id},
        {"lds_width", o->ldsWidth},
        {"register_blocking", b.blocking},
        {"loose_register_blocking", b.looseBlocking},
        {"stride", b.stride},
        {"shared_blocking", b.sharedBlocking},
        {"registers_per_thread", b.registersPerThread},
        {"prefetch_registers", b.prefetchRegisters},
        {"active_blocks", b.activeBlocks},
        {"active_threads", b.activeThreads},
        {"instruction_factor", s.instructionFactor},
        {"ffma_share", s.ffmaShare},
        {"throughput_factor", s.throughputFactor},
        {"throughput_factor_origin", s.throughputOrigin},
        {"derived_throughput_factor", s.derivedThroughputFactor},
        {"derived_limiter", s.derivedLimiter},
        {"peak_gflops", p.peakGflops},
        {"sm_bound_gflops", s.smBoundGflops},
        {"memory_bound_gflops", s.memBoundGflops},
        {"potential_gflops", s.potentialGflops},
        {"bound_fraction", s.boundFraction},
        {"binding", s.binding},
        {"parameters", origins}};
    const KeyValues kv = {
        {"gpu", gpu.id},
        {"LDS width", fmt::format("LDS{} (F_I = {})", o->ldsWidth == 32 ? "" : fmt::format(".{}", o->ldsWidth),
                                  num(s.instructionFactor))},
        {"register blocking B_R", fmt::format("{} (eq. 4.5: {} registers of R_Max {}: {} C + {} prefetch + {} A + {} B + "
                                              "{} index; eq. 4.3 alone allows {})",
                                              b.blocking, b.registersPerThread, p.maxRegistersPerThread,
                                              b.blocking * b.blocking, b.prefetchRegisters, b.blocking,
                                              o->ldsWidth / 32, p.indexRegisters, b.looseBlocking)},
        {"stride L, B_Sh", fmt::format("{}, {} (eqs. 4.4, 4.7; T_B = {})", b.stride, b.sharedBlocking, p.threadsPerBlock)},
        {"active threads T_SM", fmt::format("{} ({} blocks; eqs. 4.2, 4.6)", b.activeThreads, b.activeBlocks)},
        {"FFMA share", fmt::format("{:.1f} % = {}^2 / ({}^2 + {} x 2 x {})", 100 * s.ffmaShare, b.blocking, b.blocking,
                                   b.blocking, num(s.instructionFactor))},
        {"F_T", fmt::format("{} ({})", num(s.throughputFactor), s.throughputOrigin)},
        {"F_T from unit rates", fmt::format("{} ({}-bound)", num(s.derivedThroughputFactor), s.derivedLimiter)},
        {"P_SMBound (eq. 4.10)", fmt::format("{} GFLOP/s", num(s.smBoundGflops))},
        {"P_MemBound (eq. 4.8)", fmt::format("{} GFLOP/s", num(s.memBoundGflops))},
        {"bound (eq. 4.11)", fmt::format("{} GFLOP/s = {:.1f} % of the {} GFLOP/s peak; bound by {}",
                                         num(s.potentialGflops), 100 * s.boundFraction, num(p.peakGflops), s.binding)}};
    report::Table t({"parameter", "source"});
    for (const auto& [k, v] : p.origins) t.addRow({k, v});
    emit(o->json, j, kv, t.render());
  });
}

}  // namespace teg::cli::model
