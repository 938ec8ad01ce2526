#include "teg/analysis/software_sequences.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace teg::analysis {

namespace {

int smNumber(const std::string& name, const std::string& where) {
  if (name.rfind("sm_", 0) == 0 && name.size() > 3 &&
      std::all_of(name.begin() + 3, name.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
    return std::stoi(name.substr(3));
  throw Error(fmt::format("{}: architectures.{}: not an architecture name like sm_80", where, name));
}

}  // namespace

SequenceTable loadSequenceTable(const std::string& path) {
  const nlohmann::json json = readJsonFile(path);
  SequenceTable table;
  if (!json.is_object() || !json.contains("architectures") || !json["architectures"].is_object())
    throw Error(fmt::format("{}: expected an object with an \"architectures\" object", path));
  if (json.contains("source") && json["source"].is_string()) table.source = json["source"].get<std::string>();
  for (const auto& [arch, instructions] : json["architectures"].items()) {
    const int sm = smNumber(arch, path);
    if (!instructions.is_object()) throw Error(fmt::format("{}: architectures.{}: expected an object", path, arch));
    for (const auto& [name, entry] : instructions.items()) {
      const std::string field = fmt::format("{}: architectures.{}.{}.sass_instructions", path, arch, name);
      if (!entry.is_object() || !entry.contains("sass_instructions") || !entry["sass_instructions"].is_number_integer())
        throw Error(field + ": expected an integer");
      const int count = entry["sass_instructions"].get<int>();
      if (count < 1) throw Error(fmt::format("{}: {} is not a positive count", field, count));
      table.byArchitecture[sm][name] = count;
    }
  }
  return table;
}

SequenceTable loadDefaultSequenceTable() { return loadSequenceTable(dataDirectory() + "/ptx/sequences.json"); }

std::string mnemonicOf(const std::string& text) {
  std::size_t start = text.find_first_not_of(" \t");
  if (start == std::string::npos) return {};
  if (text[start] == '@') {  // a guard: "@%p1 " or "@!%p1 "
    start = text.find_first_of(" \t", start);
    if (start == std::string::npos) return {};
    start = text.find_first_not_of(" \t", start);
    if (start == std::string::npos) return {};
  }
  const std::size_t end = text.find_first_of(" \t;", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

SequenceReport softwareSequencesOf(const trace::KernelInfo& kernel, const timing::TimingResult& result,
                                   const SequenceTable& table, int architecture) {
  SequenceReport report;
  if (table.byArchitecture.empty()) return report;
  // The nearest measured architecture at or below the GPU's (ptxas for older GPUs than the
  // toolkit targets: its lowest).
  auto chosen = table.byArchitecture.upper_bound(architecture);
  chosen = chosen == table.byArchitecture.begin() ? chosen : std::prev(chosen);
  report.architecture = chosen->first;
  std::map<std::string, SequenceUse> uses;
  for (const trace::StaticInstruction& s : kernel.instructions) {
    const std::string name = mnemonicOf(s.text);
    const auto found = chosen->second.find(name);
    if (found == chosen->second.end()) continue;
    SequenceUse& use = uses[name];
    use.instruction = name;
    use.sassInstructions = found->second;
    if (s.pc < result.perInstruction.size()) use.warpInstructions += result.perInstruction[s.pc].issued;
  }
  for (auto& [name, use] : uses) report.uses.push_back(use);
  std::stable_sort(report.uses.begin(), report.uses.end(),
                   [](const SequenceUse& a, const SequenceUse& b) { return a.warpInstructions > b.warpInstructions; });
  return report;
}

timing::Provenance describeSequences(const SequenceReport& report, const SequenceTable& table, int requested) {
  if (report.uses.empty()) return {};
  std::string value;
  for (const SequenceUse& use : report.uses) {
    if (!value.empty()) value += ", ";
    value += fmt::format("{} x{} ({} SASS)", use.instruction, use.warpInstructions, use.sassInstructions);
  }
  std::string origin = fmt::format("each counted as one instruction; SASS on the fast path for sm_{}", report.architecture);
  if (report.architecture != requested) origin += fmt::format(" (the nearest measured to sm_{})", requested);
  origin += ": data/ptx/sequences.json";
  if (!table.source.empty()) origin += " (" + table.source + ")";
  return {"software sequences", value, origin};
}

}  // namespace teg::analysis
