// `teg devices`: the GPU database. Lists every device, or shows one device's figures, each with
// its value, its source and the file that set it (a generic entry, the GPU's file, a user file),
// or audits which timing figures of a GPU are not measurements of it (`teg devices audit`).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "teg/device/database.hpp"
#include "teg/device/figures.hpp"
#include "teg/report/table.hpp"
#include "teg/support/data_dir.hpp"
#include "teg/timing/audit.hpp"

namespace teg::cli {

namespace {

using device::Device;
using nlohmann::json;

std::string orDash(double value, const std::string& text) { return value > 0 ? text : "-"; }

// A path under the data directory is shown relative to it ("devices/generic/sm_80.json").
std::string shortPath(const std::string& path) {
  const std::string root = dataDirectory() + "/";
  return path.compare(0, root.size(), root) == 0 ? path.substr(root.size()) : path;
}

std::string l2Text(const Device& d) {
  if (d.memory.l2Bytes <= 0) return "-";
  const double mib = static_cast<double>(d.memory.l2Bytes) / (1024.0 * 1024.0);
  return mib >= 1 ? fmt::format("{:g} MiB", mib) : fmt::format("{} KiB", d.memory.l2Bytes / 1024);
}

json summaryJson(const Device& d) {
  return {{"id", d.id},
          {"name", d.name},
          {"aliases", d.aliases},
          {"generic", d.generic},
          {"compute_capability", d.cc.str()},
          {"architecture", d.architecture},
          {"sm_count", d.smCount},
          {"core_mhz", d.clocks.coreMhz},
          {"dram_bandwidth_gbs", d.memory.dramBandwidthGBs},
          {"l2_bytes", d.memory.l2Bytes}};
}

void listDevices(const device::DeviceDatabase& db, bool asJson) {
  if (asJson) {
    json out = json::array();
    for (const auto& d : db.all()) out.push_back(summaryJson(d));
    std::cout << out.dump(2) << "\n";
    return;
  }
  report::Table table({"id", "name", "cc", "arch", "SMs", "boost MHz", "DRAM GB/s", "L2"});
  for (const auto& d : db.all())
    table.addRow({d.id, d.name, d.cc.str(), d.architecture, orDash(d.smCount, fmt::format("{}", d.smCount)),
                  orDash(d.clocks.coreMhz, fmt::format("{:g}", d.clocks.coreMhz)),
                  orDash(d.memory.dramBandwidthGBs, fmt::format("{:g}", d.memory.dramBandwidthGBs)),
                  l2Text(d)});
  std::cout << table.render();
  std::cout << fmt::format("\n{} devices. `teg devices show NAME` prints one with the source of every figure.\n",
                           db.all().size());
}

// A figure's value as JSON: numbers and arrays stay typed, anything else is a string.
json typedValue(const std::string& text) {
  const json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded() && (parsed.is_number() || parsed.is_array())) return parsed;
  return text;
}

void showDevice(const Device& d, bool asJson) {
  if (asJson) {
    json out = summaryJson(d);
    json figures = json::array();
    for (const auto& f : d.figures) {
      // "8.0" is a name, not a number.
      json value = f.key == "compute_capability" ? json(f.value) : typedValue(f.value);
      json entry = {{"key", f.key},
                    {"group", device::figureGroupOf(f.key)},
                    {"value", std::move(value)},
                    {"source", f.source},
                    {"defined_in", shortPath(f.definedIn)}};
      if (!f.note.empty()) entry["note"] = f.note;
      figures.push_back(std::move(entry));
    }
    out["figures"] = figures;
    json measured = json::object();
    for (const auto& [what, m] : d.measured)
      measured[what] = {{"value", m.value}, {"unit", m.unit}, {"method", m.method}, {"source", m.source}};
    out["measured"] = measured;
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::vector<std::pair<std::string, std::string>> head = {
      {"id", d.id},
      {"name", d.name},
      {"compute capability", fmt::format("{} ({})", d.cc.str(), d.architecture)},
  };
  if (!d.aliases.empty()) head.emplace_back("aliases", fmt::format("{}", fmt::join(d.aliases, ", ")));
  if (d.generic) head.emplace_back("kind", "generic entry (GPUs of this compute capability inherit it)");
  std::cout << report::renderKeyValues(head);
  for (const auto& group : device::figureGroups()) {
    report::Table table({"figure", "value", "source", "defined in"},
                        {report::Align::Left, report::Align::Right, report::Align::Left, report::Align::Left});
    for (const auto& f : d.figures)
      if (device::figureGroupOf(f.key) == group)
        table.addRow({f.key, f.value, f.note.empty() ? f.source : f.source + " [note: " + f.note + "]",
                      shortPath(f.definedIn)});
    if (table.rows() == 0) continue;
    std::cout << "\n" << group << "\n" << table.render();
  }
}

json auditJson(const timing::DeviceAudit& a) {
  json counts = json::object();
  for (auto b : {timing::FigureBasis::Measured, timing::FigureBasis::Sibling, timing::FigureBasis::Documented,
                 timing::FigureBasis::Derived, timing::FigureBasis::Assumed, timing::FigureBasis::Unclassified})
    counts[timing::figureBasisName(b)] = a.count(b);
  json entries = json::array();
  for (const auto& e : a.entries) {
    json entry = {{"parameter", e.parameter},
                  {"figure", e.figure.empty() ? json(nullptr) : json(e.figure)},
                  {"value", typedValue(e.value)},
                  {"basis", timing::figureBasisName(e.basis)},
                  {"reason", e.reason}};
    if (!e.measuredOn.empty()) entry["measured_on"] = e.measuredOn;
    if (!e.source.empty()) entry["source"] = e.source;
    if (!e.definedIn.empty()) entry["defined_in"] = shortPath(e.definedIn);
    entries.push_back(std::move(entry));
  }
  return {{"id", a.id}, {"name", a.name}, {"chip", a.chip.empty() ? json(nullptr) : json(a.chip)},
          {"counts", counts}, {"figures", entries}};
}

// Returns whether any audited GPU has an assumed or unclassified figure.
bool auditDevices(const device::DeviceDatabase& db, const std::vector<std::string>& names, bool asJson, bool every) {
  std::vector<const Device*> devices;
  if (names.empty()) {
    for (const auto& d : db.all())
      if (!d.generic) devices.push_back(&d);
  } else {
    for (const auto& n : names) devices.push_back(&db.find(n));
  }
  std::vector<timing::DeviceAudit> audits;
  for (const Device* d : devices) audits.push_back(timing::auditTimingFigures(*d, db));
  bool attention = false;
  for (const auto& a : audits)
    attention = attention || a.count(timing::FigureBasis::Assumed) + a.count(timing::FigureBasis::Unclassified) > 0;
  if (asJson) {
    json out = json::array();
    for (const auto& a : audits) out.push_back(auditJson(a));
    std::cout << out.dump(2) << "\n";
    return attention;
  }
  report::Table summary({"GPU", "chip", "measured", "sibling", "documented", "derived", "assumed", "unclassified"},
                        {report::Align::Left, report::Align::Left, report::Align::Right, report::Align::Right,
                         report::Align::Right, report::Align::Right, report::Align::Right, report::Align::Right});
  for (const auto& a : audits)
    summary.addRow({a.id, a.chip.empty() ? "-" : a.chip, fmt::format("{}", a.count(timing::FigureBasis::Measured)),
                    fmt::format("{}", a.count(timing::FigureBasis::Sibling)),
                    fmt::format("{}", a.count(timing::FigureBasis::Documented)),
                    fmt::format("{}", a.count(timing::FigureBasis::Derived)),
                    fmt::format("{}", a.count(timing::FigureBasis::Assumed)),
                    fmt::format("{}", a.count(timing::FigureBasis::Unclassified))});
  for (const auto& a : audits) {
    report::Table table({"parameter", "value", "basis", "why", "figure"});
    for (const auto& e : a.entries) {
      const bool listed = every || e.basis == timing::FigureBasis::Sibling || e.basis == timing::FigureBasis::Derived ||
                          timing::needsAttention(e.basis);
      if (listed)
        table.addRow({e.parameter, e.value, timing::figureBasisName(e.basis), e.reason,
                      e.figure.empty() ? "-" : e.figure + " (" + shortPath(e.definedIn) + ")"});
    }
    if (table.rows() == 0) continue;
    std::cout << fmt::format("{} ({}{})\n", a.id, a.name, a.chip.empty() ? "" : ", " + a.chip) << table.render() << "\n";
  }
  std::cout << "timing figures by basis (measured: of this product; sibling: of another product with the same chip)\n"
            << summary.render();
  return attention;
}

}  // namespace

void registerDevicesCommand(CLI::App& app, Context& context) {
  auto json = std::make_shared<bool>(false);
  app.add_flag("--json", *json, "Print JSON instead of a table");
  CLI::App* show = app.add_subcommand("show", "Print one GPU's figures with their sources and files");
  auto name = std::make_shared<std::string>();
  auto showJson = std::make_shared<bool>(false);
  show->add_option("NAME", *name, "GPU id, name or alias (a100, \"RTX 4090\", sm_80, 8.6)")->required();
  show->add_flag("--json", *showJson, "Print JSON instead of tables");
  CLI::App* audit = app.add_subcommand(
      "audit", "List each GPU's timing figures that are not a published measurement of it (sibling, derived, assumed)");
  auto auditNames = std::make_shared<std::vector<std::string>>();
  auto auditJsonFlag = std::make_shared<bool>(false);
  auto auditAll = std::make_shared<bool>(false);
  auto auditStrict = std::make_shared<bool>(false);
  audit->add_option("GPU", *auditNames, "GPUs to audit (default: every product)");
  audit->add_flag("--json", *auditJsonFlag, "Print JSON (every figure with its basis) instead of tables");
  audit->add_flag("--all-figures", *auditAll, "List measured and documented figures too");
  audit->add_flag("--strict", *auditStrict, "Exit 1 when an audited GPU has an assumed or unclassified figure");
  app.require_subcommand(0, 1);
  app.callback([&context, json, show, name, showJson, audit, auditNames, auditJsonFlag, auditAll, auditStrict] {
    const auto& db = context.devices();
    if (show->parsed()) {
      showDevice(db.find(*name), *json || *showJson);
    } else if (audit->parsed()) {
      const bool attention = auditDevices(db, *auditNames, *json || *auditJsonFlag, *auditAll);
      if (*auditStrict && attention) throw CLI::RuntimeError(1);
    } else {
      listDevices(db, *json);
    }
  });
}

}  // namespace teg::cli
