// teg bound --launch F --gpu NAME [--json] [--remove-binding] (and every option of predict)
// How far the kernel is from the best its resources allow, and which resource stops it
// (analysis/bounds.hpp): each resource's bound, the binding one, the prediction beside them.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "bound_sass.hpp"
#include "predict_options.hpp"
#include "teg/analysis/bounds.hpp"
#include "teg/analysis/what_if.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"
#include "teg/support/progress.hpp"
#include "teg/trace/trace.hpp"

namespace teg::cli {

namespace {

nlohmann::json vectorLoadsJson(const analysis::VectorLoadSuggestion& v) {
  return {{"scalar_lds", v.scalarLoads}, {"vector_lds", v.vectorLoads}, {"issue_cycles_before", v.issueCyclesBefore},
          {"issue_cycles_after", v.issueCyclesAfter}, {"bound_cycles_before", v.boundCyclesBefore},
          {"bound_cycles_after", v.boundCyclesAfter}, {"bound_time_ms_after", v.boundMsAfter},
          {"binding_after", v.bindingAfter}};
}

nlohmann::json remediesJson(const analysis::BoundReport& b) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : b.remedies)
    out.push_back({{"name", r.name}, {"resource", r.resource}, {"cycles_before", r.cyclesBefore},
                   {"cycles_after", r.cyclesAfter}, {"binding_after", r.bindingAfter},
                   {"bound_cycles_after", r.boundCyclesAfter}, {"bound_time_ms_after", r.boundMsAfter}});
  return out;
}

nlohmann::json boundsJson(const analysis::BoundReport& b) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : b.bounds)
    rows.push_back({{"resource", r.resource}, {"time_ms", r.timeMs}, {"cycles", r.cycles},
                    {"fraction_of_prediction", b.predictedCycles > 0 ? r.cycles / b.predictedCycles : 0},
                    {"why", r.why}});
  return {{"bounds", rows}, {"binding", b.binding}, {"predicted_time_ms", b.predictedMs},
          {"predicted_cycles", b.predictedCycles}, {"fraction_of_bound", b.fractionOfBound},
          {"blocks_scale", b.scale}, {"not_evaluated", b.notEvaluated},
          {"removing_what_if", b.removingWhatIf}, {"bank_conflict_cycles", b.bankConflictCycles},
          {"vector_loads", b.vectorLoads ? vectorLoadsJson(*b.vectorLoads) : nlohmann::json(nullptr)},
          {"remedies", remediesJson(b)}};
}

std::string count(double v) { return fmt::format("{:.4g}", v); }

std::string ms(double v) { return fmt::format("{:.4g} ms", v); }

}  // namespace

void registerBoundCommand(CLI::App& app, Context& context) {
  auto a = std::make_shared<PredictArgs>();
  auto* dynSmem = addPredictOptions(app, *a);
  auto removeBinding = std::make_shared<bool>(false);
  app.add_flag("--remove-binding", *removeBinding,
               "Also re-run with the what-if that removes the binding resource (bank conflicts, uncoalesced "
               "sectors, DRAM bandwidth x2) and show where the prediction and the bounds move");
  app.footer("Example: teg bound --launch examples/kernels/matmul_tiled.launch.json --gpu a100");
  app.callback([a, dynSmem, removeBinding, &context] {
    analysis::PredictRequest request = predictRequestOf(*a, dynSmem->count() > 0, context);
    // --remove-binding compares against a what-if run, and what-ifs run on PTX (predict.cpp):
    // both runs take the same instruction stream.
    if (*removeBinding && request.isa == analysis::IsaRequest::Auto) request.isa = analysis::IsaRequest::Ptx;
    Progress progress(std::cerr, progressWanted(a->json));
    request.progress = [&progress](std::string_view stage, std::uint64_t done, std::uint64_t total) {
      progress.update(stage, done, total);
    };
    const analysis::Prediction p = analysis::predict(request);
    // The SASS adds the register banks and the vector-load suggestion where it can be read.
    std::string noSass;
    const auto sass = sassFactsOf(request, noSass);
    analysis::BoundReport b = sass ? analysis::sassBoundsOf(p, *sass) : analysis::boundsOf(p);
    if (!sass) b.notEvaluated.push_back("the SASS: " + noSass);
    std::optional<analysis::BoundReport> after;
    if (*removeBinding && !b.removingWhatIf.empty()) {
      analysis::PredictRequest again = request;
      again.whatIfs = {b.removingWhatIf};
      // The what-if's own engine result is the second one; its bounds use the same trace.
      analysis::Prediction q = analysis::predict(again);
      q.result = q.whatIfs.front().result;
      // The bounds of the what-if run are those of its configuration (dram-bw=x2 doubles the share).
      analysis::applyWhatIf(b.removingWhatIf, static_cast<int>(q.kernel.warpsPerBlock()), q.occupancy.blocksPerSm,
                            q.config);
      after = sass ? analysis::sassBoundsOf(q, *sass) : analysis::boundsOf(q);
    }
    progress.finish();
    if (a->json) {
      auto j = boundsJson(b);
      j["kernel"] = p.kernel.name;
      j["gpu"] = request.device->id;
      if (after) j["what_if"] = {{"name", b.removingWhatIf}, {"result", boundsJson(*after)}};
      j["isa"] = {{"used", trace::isaName(p.result.isa)}, {"reason", p.result.isaReason}};
      j["out_of_bounds"] = overrunsJson(p);
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::cout << overrunWarnings(p);
    std::cout << fmt::format("kernel {} on {}: predicted {} ({:.0f} cycles of the busiest SM), timed on {}\n",
                             p.kernel.name, request.device->id, ms(b.predictedMs), b.predictedCycles,
                             trace::isaName(p.result.isa));
    if (b.bounds.empty()) return;
    const auto& top = b.bounds.front();
    std::cout << fmt::format("it cannot run faster than {} because of {} ({})\n", ms(top.timeMs), top.resource, top.why);
    std::cout << fmt::format("runs at {:.0f} % of its bound; {}-bound", 100 * b.fractionOfBound, top.resource);
    for (std::size_t i = 1; i < std::min<std::size_t>(3, b.bounds.size()); ++i)
      std::cout << fmt::format("{} {} {}", i == 1 ? "; next:" : ",", b.bounds[i].resource, ms(b.bounds[i].timeMs));
    std::cout << "\n\n";
    report::Table t({"resource", "bound", "% of prediction", "from"});
    for (const auto& r : b.bounds)
      t.addRow({r.resource, ms(r.timeMs), fmt::format("{:.0f} %", b.predictedCycles > 0 ? 100 * r.cycles / b.predictedCycles : 0),
                r.why});
    std::cout << t.render();
    if (b.scale != 1)
      std::cout << fmt::format("(counts from the simulated blocks x {:.4g}: the blocks the busiest SM runs)\n", b.scale);
    for (const auto& n : b.notEvaluated) std::cout << "not evaluated: " << n << "\n";
    if (b.vectorLoads) {
      const auto& v = *b.vectorLoads;
      const double msPerCycle = top.cycles > 0 ? top.timeMs / top.cycles : 0;
      std::cout << fmt::format(
          "\nwith vector shared loads: {} scalar LDS of adjacent words feeding FFMAs (SASS), {} LDS.128/LDS.64 would load "
          "the same\n  issue bound {} -> {}; binding bound {} -> {} ({}): the bound rises {:.0f} %\n",
          count(v.scalarLoads), count(v.vectorLoads), ms(v.issueCyclesBefore * msPerCycle), ms(v.issueCyclesAfter * msPerCycle),
          ms(v.boundCyclesBefore * msPerCycle), ms(v.boundMsAfter), v.bindingAfter,
          v.boundCyclesAfter > 0 ? 100 * (v.boundCyclesBefore / v.boundCyclesAfter - 1) : 0);
    }
    for (const auto& r : b.remedies)
      std::cout << fmt::format("\nwith {}: the {} bound {} -> at most {}; binding bound {} -> at most {} ({}){}\n", r.name, r.resource,
                               ms(r.cyclesBefore * top.timeMs / top.cycles), ms(r.cyclesAfter * top.timeMs / top.cycles),
                               ms(top.timeMs), ms(r.boundMsAfter), r.bindingAfter,
                               r.boundCyclesAfter < top.cycles
                                   ? fmt::format(": the bound falls by at least {:.0f} %", 100 * (1 - r.boundCyclesAfter / top.cycles))
                                   : std::string(": the binding bound does not move"));
    if (after)
      std::cout << fmt::format("\nwhat-if {}: predicted {} (was {}); bound {} by {}, {:.0f} % of it\n", b.removingWhatIf,
                               ms(after->predictedMs), ms(b.predictedMs),
                               after->bounds.empty() ? "-" : ms(after->bounds.front().timeMs), after->binding,
                               100 * after->fractionOfBound);
    else if (!b.removingWhatIf.empty())
      std::cout << fmt::format("\n--remove-binding re-runs with what-if {} (removes the {} excess)\n", b.removingWhatIf,
                               top.resource);
  });
}

}  // namespace teg::cli
