#include "teg/analysis/software_sequences.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>

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

// One instruction's entry: its count and, per SASS instruction, its class, the earlier ones it
// reads and which one writes the result (scripts/measure-ptx-sequences.py).
timing::SoftwareSequence parseSequence(const nlohmann::json& entry, const std::string& where) {
  const auto field = [&](const char* name) { return fmt::format("{}.{}", where, name); };
  if (!entry.is_object() || !entry.contains("sass_instructions") || !entry["sass_instructions"].is_number_integer())
    throw Error(field("sass_instructions") + ": expected an integer");
  const int count = entry["sass_instructions"].get<int>();
  if (count < 1) throw Error(fmt::format("{}: {} is not a positive count", field("sass_instructions"), count));
  const auto list = [&](const char* name) -> const nlohmann::json& {
    if (!entry.contains(name) || !entry[name].is_array() || entry[name].size() != static_cast<std::size_t>(count))
      throw Error(fmt::format("{}: expected a list of {} (one per SASS instruction)", field(name), count));
    return entry[name];
  };
  const nlohmann::json& classes = list("sass_classes");
  const nlohmann::json& depends = list("sass_depends");
  timing::SoftwareSequence sequence;
  for (int i = 0; i < count; ++i) {
    const auto at = static_cast<std::size_t>(i);
    timing::SequenceStep step;
    const auto unit =
        classes[at].is_string() ? device::instructionClassFromName(classes[at].get<std::string>()) : std::nullopt;
    if (!unit)
      throw Error(fmt::format("{}[{}]: {} is not an instruction class (fp32_fma, special, ...)", field("sass_classes"), i,
                              classes[at].dump()));
    step.unit = *unit;
    if (!depends[at].is_array())
      throw Error(fmt::format("{}[{}]: expected a list of positions", field("sass_depends"), i));
    for (const auto& d : depends[at]) {
      if (!d.is_number_integer() || d.get<int>() < -1 || d.get<int>() >= i)
        throw Error(fmt::format("{}[{}]: {} is neither -1 (the instruction's operands) nor an earlier position",
                                field("sass_depends"), i, d.dump()));
      if (d.get<int>() == -1) step.readsOperands = true;
      else step.after.push_back(d.get<int>());
    }
    sequence.steps.push_back(std::move(step));
  }
  if (!entry.contains("sass_result") || !entry["sass_result"].is_number_integer() ||
      entry["sass_result"].get<int>() < 0 || entry["sass_result"].get<int>() >= count)
    throw Error(fmt::format("{}: expected the position (0 to {}) of the instruction writing the result",
                            field("sass_result"), count - 1));
  sequence.result = entry["sass_result"].get<int>();
  return sequence;
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
    for (const auto& [name, entry] : instructions.items())
      table.byArchitecture[sm][name] = parseSequence(entry, fmt::format("{}: architectures.{}.{}", path, arch, name));
  }
  return table;
}

SequenceTable loadDefaultSequenceTable() { return loadSequenceTable(dataDirectory() + "/ptx/sequences.json"); }

int sequenceArchitectureFor(const SequenceTable& table, int architecture) {
  if (table.byArchitecture.empty()) return 0;
  auto chosen = table.byArchitecture.upper_bound(architecture);
  return (chosen == table.byArchitecture.begin() ? chosen : std::prev(chosen))->first;
}

timing::SequenceShapes sequencesToTime(const SequenceTable& table, int architecture) {
  const int chosen = sequenceArchitectureFor(table, architecture);
  if (chosen == 0 || chosen > architecture) return {};
  return table.byArchitecture.at(chosen);
}

SequenceReport softwareSequencesOf(const trace::KernelInfo& kernel, const timing::TimingResult& result,
                                   const SequenceTable& table, int architecture) {
  SequenceReport report;
  report.architecture = sequenceArchitectureFor(table, architecture);
  if (report.architecture == 0) return report;
  const timing::SequenceShapes& shapes = table.byArchitecture.at(report.architecture);
  std::map<std::string, SequenceUse> uses;
  for (const trace::StaticInstruction& s : kernel.instructions) {
    const std::string name = trace::mnemonicOf(s.text);
    const auto found = shapes.find(name);
    if (found == shapes.end()) continue;
    SequenceUse& use = uses[name];
    use.instruction = name;
    use.sassInstructions = static_cast<int>(found->second.steps.size());
    if (s.pc < result.perInstruction.size()) use.warpInstructions += result.perInstruction[s.pc].executions;
  }
  for (auto& [name, use] : uses) report.uses.push_back(use);
  std::stable_sort(report.uses.begin(), report.uses.end(),
                   [](const SequenceUse& a, const SequenceUse& b) { return a.warpInstructions > b.warpInstructions; });
  return report;
}

timing::Provenance describeSequences(const SequenceReport& report, const SequenceTable& table, int requested,
                                     bool timed) {
  if (report.uses.empty()) return {};
  std::string value;
  for (const SequenceUse& use : report.uses) {
    if (!value.empty()) value += ", ";
    value += fmt::format("{} x{} ({} SASS)", use.instruction, use.warpInstructions, use.sassInstructions);
  }
  std::string origin =
      timed ? fmt::format("timed as the SASS of their fast path on sm_{} (each instruction on its unit, after the ones "
                          "it reads; the slow path for special operands is not)",
                          report.architecture)
            : fmt::format("each counted as one instruction: no measurement for sm_{} or older (the SASS counts "
                          "given are sm_{}'s)",
                          requested, report.architecture);
  if (timed && report.architecture != requested) origin += fmt::format(" (the nearest measured to sm_{})", requested);
  origin += ": data/ptx/sequences.json";
  if (!table.source.empty()) origin += " (" + table.source + ")";
  return {"software sequences", value, origin};
}

}  // namespace teg::analysis
