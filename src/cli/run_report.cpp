// teg run: statistics as text tables and JSON.
#include <fmt/format.h>

#include <sstream>
#include <map>

#include "run_support.hpp"
#include "teg/report/table.hpp"
#include "teg/support/kernel_name.hpp"
#include "teg/support/error.hpp"
#include "teg/support/input_file.hpp"

namespace teg::cli {

namespace {

std::string percent(double ratio) { return fmt::format("{:.1f}", 100.0 * ratio); }

template <typename T>
double ratio(T num, T den) {
  return den == 0 ? 0.0 : static_cast<double>(num) / static_cast<double>(den);
}

// Lines of the kernel's source files, read once (empty when a file cannot be read).
class SourceCache {
 public:
  std::string line(const std::string& file, int number) {
    auto it = files_.find(file);
    if (it == files_.end()) {
      std::vector<std::string> lines;
      // The PTX's .file names any path: a FIFO or a device there must not stall the report.
      std::istringstream in;
      try {
        in.str(readInputFile(file));
      } catch (const Error&) {
      }
      for (std::string l; std::getline(in, l);) lines.push_back(l);
      it = files_.emplace(file, std::move(lines)).first;
    }
    if (number < 1 || static_cast<std::size_t>(number) > it->second.size()) return "";
    std::string text = it->second[static_cast<std::size_t>(number - 1)];
    const auto b = text.find_first_not_of(" \t");
    text = b == std::string::npos ? "" : text.substr(b);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
  }

 private:
  std::map<std::string, std::vector<std::string>> files_;
};

std::string fileName(const trace::KernelInfo& k, std::int32_t index) {
  if (index < 0 || static_cast<std::size_t>(index) >= k.sourceFiles.size()) return "?";
  return k.sourceFiles[static_cast<std::size_t>(index)];
}

std::string baseName(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string lineLabel(const trace::KernelInfo& k, const emu::SourceLineKey& key) {
  if (key.file < 0) return "(no line)";
  return fmt::format("{}:{}", baseName(fileName(k, key.file)), key.line);
}

emu::GlobalCounters allGlobal(const emu::ExecutionCounters& c) {
  emu::GlobalCounters g = c.globalLoads;
  g += c.globalStores;
  g += c.globalAtomics;
  return g;
}

emu::SharedCounters allShared(const emu::ExecutionCounters& c) {
  emu::SharedCounters s = c.sharedLoads;
  s += c.sharedStores;
  s += c.sharedAtomics;
  return s;
}

std::string summary(const emu::KernelStatistics& stats, const emu::MemoryGeometry& g) {
  const auto& t = stats.total;
  std::vector<std::pair<std::string, std::string>> kv;
  kv.emplace_back("warp instructions", fmt::format("{}", t.warpInstructions));
  kv.emplace_back("thread instructions", fmt::format("{}", t.threadInstructions));
  kv.emplace_back("SIMD efficiency",
                  fmt::format("{} % of lanes active ({} idle lanes, {:.2f} per warp instruction); {} % executing "
                              "({} lanes predicated off)",
                              percent(t.simdEfficiency()), t.idleLanes, ratio(t.idleLanes, t.warpInstructions),
                              percent(t.nonPredicatedEfficiency()), t.predicatedOffLanes));
  kv.emplace_back("branches", fmt::format("{} ({} divergent)", t.branches, t.divergentBranches));
  const auto global = [&](const char* what, const emu::GlobalCounters& c) {
    if (c.requests == 0) return;
    // cc 1.x moves whole transactions (half-warp segment rules), not the sectors touched.
    const std::string transactions =
        g.coalescing == trace::Coalescing::Sectors
            ? ""
            : fmt::format(", {} transactions ({:.2f}/request)", c.transactions, ratio(c.transactions, c.requests));
    kv.emplace_back(what, fmt::format("{} requests, {} sectors ({:.2f}/request), {} lines{}, {} B requested / {} B "
                                      "moved = {} % coalescing efficiency",
                                      c.requests, c.sectors, ratio(c.sectors, c.requests), c.lines, transactions,
                                      c.bytesRequested, c.bytesMoved(g.sectorBytes), percent(c.efficiency(g.sectorBytes))));
  };
  global("global loads", t.globalLoads);
  global("global stores", t.globalStores);
  global("global atomics", t.globalAtomics);
  const auto shared = [&](const char* what, const emu::SharedCounters& c) {
    if (c.requests == 0) return;
    kv.emplace_back(what, fmt::format("{} requests, {} wavefronts ({:.2f}/request; {} from bank conflicts)",
                                      c.requests, c.wavefronts, ratio(c.wavefronts, c.requests),
                                      c.conflictWavefronts()));
  };
  shared("shared loads", t.sharedLoads);
  shared("shared stores", t.sharedStores);
  shared("shared atomics", t.sharedAtomics);
  if (t.local.requests)
    kv.emplace_back("local memory", fmt::format("{} requests, {} B", t.local.requests, t.local.bytesRequested));
  if (t.constant.requests)
    kv.emplace_back("constant memory", fmt::format("{} requests, {:.2f} distinct addresses/request",
                                                   t.constant.requests,
                                                   ratio(t.constant.distinctAddresses, t.constant.requests)));
  kv.emplace_back("memory geometry",
                  fmt::format("{} banks x {} B{}, {}-B sectors, {}-B lines", g.sharedBanks, g.sharedBankWidth,
                              g.halfWarpShared ? " (half-warp requests)" : "", g.sectorBytes, g.lineBytes));
  return report::renderKeyValues(kv);
}

std::string mix(const emu::ExecutionCounters& t) {
  report::Table table({"instruction kind / class", "warp instructions", "%"});
  for (int i = 0; i < emu::kInstrKinds; ++i) {
    const auto n = t.byKind[static_cast<std::size_t>(i)];
    if (n == 0) continue;
    table.addRow({trace::instrKindName(static_cast<trace::InstrKind>(i)), std::to_string(n),
                  percent(ratio(n, t.warpInstructions))});
    if (static_cast<trace::InstrKind>(i) != trace::InstrKind::Alu) continue;
    for (int c = 0; c < emu::kInstructionClasses; ++c) {
      const auto m = t.aluByClass[static_cast<std::size_t>(c)];
      if (m == 0) continue;
      table.addRow({std::string("  ") + device::instructionClassName(static_cast<device::InstructionClass>(c)),
                    std::to_string(m), percent(ratio(m, t.warpInstructions))});
    }
  }
  return table.render();
}

std::string perLine(const emu::KernelStatistics& stats, const emu::MemoryGeometry& g) {
  SourceCache sources;
  report::Table table({"line", "warp instr", "SIMD %", "div br", "gmem req", "sectors", "lines", "coalesc %",
                       "smem req", "wavefronts", "conflicts", "source"});
  for (const auto& [key, c] : stats.byLine) {
    const auto gm = allGlobal(c);
    const auto sm = allShared(c);
    const bool hasG = gm.requests > 0, hasS = sm.requests > 0;
    table.addRow({lineLabel(stats.kernel, key), std::to_string(c.warpInstructions), percent(c.simdEfficiency()),
                  c.branches ? std::to_string(c.divergentBranches) : "",
                  hasG ? std::to_string(gm.requests) : "", hasG ? std::to_string(gm.sectors) : "",
                  hasG ? std::to_string(gm.lines) : "", hasG ? percent(gm.efficiency(g.sectorBytes)) : "",
                  hasS ? std::to_string(sm.requests) : "", hasS ? std::to_string(sm.wavefronts) : "",
                  hasS ? std::to_string(sm.conflictWavefronts()) : "",
                  key.file < 0 ? "" : sources.line(fileName(stats.kernel, key.file), key.line)});
  }
  return table.render();
}

}  // namespace

std::string renderStatistics(const emu::KernelStatistics& stats, const emu::MemoryGeometry& geometry) {
  return summary(stats, geometry) + "\ninstruction mix\n" + mix(stats.total) + "\nper source line\n" +
         perLine(stats, geometry);
}

nlohmann::json statisticsJson(const emu::KernelStatistics& stats, const emu::MemoryGeometry& geometry) {
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& [key, c] : stats.byLine) {
    nlohmann::json row = emu::countersToJson(c, geometry);
    row["file"] = key.file < 0 ? nlohmann::json(nullptr) : nlohmann::json(fileName(stats.kernel, key.file));
    row["line"] = key.file < 0 ? nlohmann::json(nullptr) : nlohmann::json(key.line);
    lines.push_back(std::move(row));
  }
  return {{"kernel", demangle(stats.kernel.name)},
          {"mangled", stats.kernel.name},
          {"blocks_observed", stats.blocksObserved},
          {"geometry", emu::geometryToJson(geometry)},
          {"total", emu::countersToJson(stats.total, geometry)},
          {"lines", std::move(lines)}};
}

}  // namespace teg::cli
