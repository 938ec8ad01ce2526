// teg validate [SUITE...] [--list] [--json] [--rows N] [--threads N]
// Predicts the published measurements of data/validation/suites/ (seed tables, microbenchmark
// papers, gpu-benches) and prints each row's error and each suite's mean and maximum against the
// tolerance it states, then the aims stated over several suites (data/validation/groups.json) whose
// suites all ran. Exit status 1 when a suite or a group misses its tolerance. SUITE is a suite name
// (e.g. chien2010-table2), a prefix of names (chien2010) or a path to a suite file.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "isa_option.hpp"
#include "teg/analysis/validation.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"
#include "teg/support/progress.hpp"

namespace teg::cli {

namespace {

struct ValidateArgs {
  std::vector<std::string> suites;
  bool list = false, json = false;
  bool strict = false;  // exit 1 when a suite or group misses its tolerance
  bool models = false;  // also compare the baseline models
  std::size_t rows = 0;
  unsigned threads = 1;
  // --isa (isa_option.hpp). auto by default, as `teg predict`: SASS wherever the GPU and the
  // kernel allow it, PTX with the reason elsewhere (docs/validation.md, "PTX vs SASS": every
  // group as good on SASS within the 0.3-point noise). --isa sass runs the suites of GPUs
  // below cc 7.5 on PTX with the reason (analysis/validation.cpp) rather than refusing the run.
  std::string isa = "auto";
};

// Which instruction streams a suite's rows were timed on: "SASS (8 rows)", or "PTX (8 rows:
// auto: PTX because ...)" with each distinct reason once.
nlohmann::json isaJson(const analysis::ValidationResult& r) {
  std::map<std::string, int> used;
  std::vector<std::string> reasons;
  for (const auto& row : r.rows) {
    ++used[trace::isaName(row.isa)];
    if (std::find(reasons.begin(), reasons.end(), row.isaReason) == reasons.end()) reasons.push_back(row.isaReason);
  }
  return {{"rows", used}, {"reasons", reasons}};
}

std::vector<analysis::ValidationSuite> selectSuites(const std::vector<std::string>& wanted) {
  std::vector<analysis::ValidationSuite> all;
  for (const auto& file : analysis::validationSuiteFiles("")) all.push_back(analysis::loadValidationSuite(file));
  if (wanted.empty()) return all;
  std::vector<analysis::ValidationSuite> chosen;
  for (const auto& w : wanted) {
    if (w.size() > 5 && w.ends_with(".json")) {
      chosen.push_back(analysis::loadValidationSuite(w));
      continue;
    }
    bool found = false;
    for (const auto& s : all)
      if (s.name == w || s.name.starts_with(w)) chosen.push_back(s), found = true;
    if (!found) {
      std::string names;
      for (const auto& s : all) names += (names.empty() ? "" : ", ") + s.name;
      throw Error(fmt::format("no validation suite is named '{}' (there are: {})", w, names));
    }
  }
  return chosen;
}

nlohmann::json resultJson(const analysis::ValidationResult& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows)
    rows.push_back({{"label", row.label}, {"measured", row.measured}, {"predicted", row.predicted},
                    {"error_pct", row.errorPct}, {"bound", row.bound}, {"binding_resource", row.bindingResource},
                    {"bound_cycles", row.boundCycles}, {"predicted_cycles", row.predictedCycles},
                    {"models", row.models}, {"isa", trace::isaName(row.isa)}});
  const auto& s = *r.suite;
  return {{"name", s.name}, {"title", s.title}, {"source", s.source}, {"gpu", s.gpu},
          {"metric", analysis::validationMetricName(s.metric)}, {"rows", rows},
          {"mean_abs_error_pct", r.meanAbsErrorPct}, {"max_abs_error_pct", r.maxAbsErrorPct},
          {"kendall_tau", r.kendallTau ? nlohmann::json(*r.kendallTau) : nlohmann::json(nullptr)},
          {"tolerance", {{"mean_pct", s.meanTolerancePct}, {"max_pct", s.maxTolerancePct}}},
          {"within_tolerance", r.withinTolerance}, {"tolerance_stated", r.toleranceStated}, {"verdict", r.verdict},
          {"isa", isaJson(r)}};
}

nlohmann::json groupJson(const analysis::ValidationGroupResult& r) {
  const auto& g = *r.group;
  return {{"name", g.name}, {"title", g.title}, {"source", g.source}, {"suites", g.suites}, {"rows", r.rows},
          {"mean_abs_error_pct", r.meanAbsErrorPct}, {"max_abs_error_pct", r.maxAbsErrorPct},
          {"tolerance", {{"mean_pct", g.meanTolerancePct}, {"max_pct", g.maxTolerancePct}}},
          {"within_tolerance", r.withinTolerance}, {"tolerance_stated", r.toleranceStated}, {"verdict", r.verdict}};
}

std::string groupsText(const std::vector<analysis::ValidationGroupResult>& groups) {
  if (groups.empty()) return "";
  std::string out = "Aims over several suites (data/validation/groups.json)\n";
  report::Table t({"group", "rows", "mean", "max", "result"});
  for (const auto& r : groups)
    t.addRow({r.group->name, std::to_string(r.rows), fmt::format("{:.2f} %", r.meanAbsErrorPct),
              fmt::format("{:.1f} %", r.maxAbsErrorPct),
              fmt::format("{}: {}", !r.toleranceStated ? "INFO" : r.withinTolerance ? "PASS" : "MISS", r.verdict)});
  out += t.render();
  for (const auto& r : groups) out += fmt::format("  {}: {}\n    source: {}\n", r.group->name, r.group->title, r.group->source);
  return out;
}

// Mean and max |error| of TEG and each baseline model over `rows` (only rows every model
// applies to, so that the columns compare the same rows).
struct ModelErrors {
  std::size_t rows = 0;
  std::map<std::string, std::pair<double, double>> byModel;  // model → (sum |err|, max |err|)
};
constexpr const char* kModels[] = {"mwp-cwp", "roofline", "data-flow"};

void addRows(ModelErrors& e, const std::vector<analysis::ValidationRowResult>& rows) {
  for (const auto& row : rows) {
    if (row.models.size() < std::size(kModels)) continue;
    ++e.rows;
    const auto add = [&](const std::string& model, double predicted) {
      const double err = std::abs(100.0 * (predicted - row.measured) / row.measured);
      auto& [sum, max] = e.byModel[model];
      sum += err;
      max = std::max(max, err);
    };
    add("TEG", row.predicted);
    for (const auto* m : kModels) add(m, row.models.at(m));
  }
}

void addModelRow(report::Table& t, const std::string& name, const ModelErrors& e) {
  if (e.rows == 0) return;
  std::vector<std::string> cells{name, std::to_string(e.rows)};
  for (const auto* m : {"TEG", "mwp-cwp", "roofline", "data-flow"}) {
    const auto& [sum, max] = e.byModel.at(m);
    cells.push_back(fmt::format("{:.1f} / {:.0f} %", sum / static_cast<double>(e.rows), max));
  }
  t.addRow(cells);
}

std::string modelsText(const std::vector<analysis::ValidationResult>& results,
                       const std::vector<analysis::ValidationGroup>& groups) {
  report::Table t({"suite or group", "rows", "TEG mean / max", "MWP-CWP", "roofline", "data-flow"});
  for (const auto& r : results) {
    ModelErrors e;
    addRows(e, r.rows);
    addModelRow(t, r.suite->name, e);
  }
  for (const auto& g : groups) {
    ModelErrors e;
    bool all = true;
    for (const auto& name : g.suites) {
      const auto it = std::find_if(results.begin(), results.end(), [&](const auto& r) { return r.suite->name == name; });
      if (it == results.end()) all = false;
      else addRows(e, it->rows);
    }
    if (all) addModelRow(t, "group " + g.name, e);
  }
  return "Models side by side (|error| over the rows of cycles and bandwidth metrics without what-ifs; "
         "docs/bound.md, include/teg/analysis/baseline_models.hpp)\n" + t.render();
}

std::string resultText(const analysis::ValidationResult& r) {
  const auto& s = *r.suite;
  std::string out = fmt::format("{} — {}\n  GPU: {}; measured: {}\n", s.name, s.title, s.gpu, s.source);
  if (!s.notes.empty()) out += fmt::format("  note: {}\n", s.notes);
  report::Table t({"row", "measured", "predicted", "error", "bound"});
  for (const auto& row : r.rows)
    t.addRow({row.label, fmt::format("{:.4g}", row.measured), fmt::format("{:.4g}", row.predicted),
              fmt::format("{:+.1f} %", row.errorPct), row.bound});
  out += t.render();
  const auto isa = isaJson(r);
  std::vector<std::string> used;
  for (const auto& [name, rows] : isa["rows"].items()) used.push_back(fmt::format("{} {} rows", name, rows.get<int>()));
  out += fmt::format("  instruction set: {} ({})\n", fmt::join(used, ", "),
                     fmt::join(isa["reasons"].get<std::vector<std::string>>(), "; "));
  if (r.kendallTau) out += fmt::format("  rank agreement (Kendall tau-b over {} rows): {:.2f}\n", r.rows.size(), *r.kendallTau);
  out += fmt::format("  {}: {}\n\n", !r.toleranceStated ? "INFO" : r.withinTolerance ? "PASS" : "MISS", r.verdict);
  return out;
}

}  // namespace

void registerValidateCommand(CLI::App& app, Context& context) {
  auto a = std::make_shared<ValidateArgs>();
  app.add_option("suites", a->suites, "Suites to run: names, name prefixes or suite files (default: all)");
  app.add_flag("--list", a->list, "List the suites and what each compares");
  app.add_flag("--json", a->json, "Print JSON");
  app.add_flag("--strict", a->strict,
               "Exit with status 1 when a suite or group misses its stated tolerance (for CI); without it, a "
               "completed validation exits 0 and the verdicts are in the report");
  app.add_option("--rows", a->rows, "Only the first N rows of each suite (a quick run)");
  app.add_option("--threads", a->threads, "Emulator worker threads")->check(CLI::Range(1u, 256u));
  addIsaOption(app, a->isa);
  app.add_flag("--models", a->models,
               "Also compare the baseline models (MWP-CWP, roofline, data-flow bound) with TEG: mean/max error per "
               "suite and group");
  app.callback([a, &context] {
    const auto suites = selectSuites(a->suites);
    if (a->list) {
      report::Table t({"suite", "gpu", "metric", "rows", "measured by"});
      for (const auto& s : suites)
        t.addRow({s.name, s.gpu, analysis::validationMetricName(s.metric), std::to_string(s.rows.size()), s.source});
      std::cout << t.render();
      return;
    }
    analysis::ValidationOptions options;
    options.threads = a->threads;
    options.isa = analysis::parseIsaRequest(a->isa);
    if (a->rows > 0) options.rowLimit = a->rows;
    const auto groups = analysis::loadValidationGroups(analysis::defaultValidationGroupsFile());
    nlohmann::json all = nlohmann::json::array();
    bool allWithin = true;
    std::vector<analysis::ValidationResult> results;
    Progress progress(std::cerr, progressWanted(a->json));
    for (const auto& suite : suites) {
      progress.update("validating suites (" + suite.name + ")", results.size() + 1, suites.size());
      results.push_back(analysis::runValidationSuite(suite, context.devices(), options));
      progress.finish();  // the suite's result starts on a clean line
      allWithin = allWithin && results.back().withinTolerance;
      if (a->json) all.push_back(resultJson(results.back()));
      else std::cout << resultText(results.back()) << std::flush;
    }
    // The groups whose suites all ran (a quick run's --rows makes them partial: not judged).
    std::vector<analysis::ValidationGroupResult> summaries;
    nlohmann::json groupsJson = nlohmann::json::array();
    if (a->rows == 0)
      for (const auto& group : groups)
        if (auto summary = analysis::summarizeValidationGroup(group, results)) {
          allWithin = allWithin && summary->withinTolerance;
          groupsJson.push_back(groupJson(*summary));
          summaries.push_back(std::move(*summary));
        }
    if (a->json)
      std::cout << nlohmann::json{{"suites", all}, {"groups", groupsJson}, {"all_within_tolerance", allWithin}}.dump(2)
                << "\n";
    else
      std::cout << groupsText(summaries);
    if (a->models && !a->json) std::cout << "\n" << modelsText(results, groups);
    if (a->strict && !allWithin) throw CLI::RuntimeError(1);
  });
}

}  // namespace teg::cli
