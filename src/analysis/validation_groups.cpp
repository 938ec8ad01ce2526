// Aims stated over several validation suites at once (see validation.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "teg/analysis/validation.hpp"
#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace teg::analysis {

std::string defaultValidationGroupsFile() { return dataDirectory() + "/validation/groups.json"; }

std::vector<ValidationGroup> loadValidationGroups(const std::string& path) {
  if (!std::filesystem::exists(path)) return {};
  const nlohmann::json j = parseJson(readTextFile(path), path);
  std::vector<ValidationGroup> groups;
  try {
    const auto& list = j.at("groups");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto& g = list[i];
      const std::string where = fmt::format("{}: /groups/{}", path, i);
      ValidationGroup group;
      group.name = g.at("name").get<std::string>();
      group.title = g.at("title").get<std::string>();
      group.source = g.at("source").get<std::string>();
      group.suites = g.at("suites").get<std::vector<std::string>>();
      if (group.suites.empty()) throw Error(fmt::format("{}: 'suites' names no suite", where));
      if (g.contains("tolerance")) {
        group.meanTolerancePct = g["tolerance"].value("mean_pct", 0.0);
        group.maxTolerancePct = g["tolerance"].value("max_pct", 0.0);
      }
      groups.push_back(std::move(group));
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}: {}", path, e.what()));
  }
  return groups;
}

std::optional<ValidationGroupResult> summarizeValidationGroup(const ValidationGroup& group,
                                                              const std::vector<ValidationResult>& results) {
  ValidationGroupResult out;
  out.group = &group;
  double sumAbs = 0;
  for (const std::string& name : group.suites) {
    const auto it = std::find_if(results.begin(), results.end(),
                                 [&](const ValidationResult& r) { return r.suite != nullptr && r.suite->name == name; });
    if (it == results.end()) return std::nullopt;
    for (const ValidationRowResult& row : it->rows) {
      sumAbs += std::abs(row.errorPct);
      out.maxAbsErrorPct = std::max(out.maxAbsErrorPct, std::abs(row.errorPct));
      ++out.rows;
    }
  }
  out.meanAbsErrorPct = out.rows == 0 ? 0 : sumAbs / static_cast<double>(out.rows);
  out.toleranceStated = group.meanTolerancePct > 0 || group.maxTolerancePct > 0;
  out.verdict = toleranceVerdict(out.meanAbsErrorPct, out.maxAbsErrorPct, group.meanTolerancePct,
                                 group.maxTolerancePct, out.withinTolerance);
  return out;
}

}  // namespace teg::analysis
