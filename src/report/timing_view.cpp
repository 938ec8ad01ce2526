#include "teg/report/timing_view.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "teg/report/table.hpp"
#include "teg/support/kernel_name.hpp"

namespace teg::report {

using timing::kStallReasonCount;
using timing::StallReason;

namespace {

// Cost of each source line (or of each instruction when the kernel has no line information).
struct LineCost {
  std::string where;
  std::string text;
  std::uint64_t issued = 0;      // warp instructions (a software sequence's SASS each)
  std::uint64_t executed = 0;    // executions of the line's PTX instructions
  double stalls = 0;
  std::array<double, kStallReasonCount> reasons{};
  // The line's instruction with the most stall cycles (a line is often a load, its address
  // arithmetic and the use of the value: this names which of them the warps wait at).
  std::size_t stallingPc = 0;
  double stallingCycles = -1;
};

std::vector<LineCost> costPerLine(const timing::TimingResult& r, const trace::KernelInfo& k) {
  std::map<std::pair<int, int>, LineCost> lines;
  for (std::size_t pc = 0; pc < r.perInstruction.size() && pc < k.instructions.size(); ++pc) {
    const auto& s = k.instructions[pc];
    const auto& c = r.perInstruction[pc];
    if (c.issued == 0 && c.stallCycles == 0) continue;
    const bool hasLine = s.sourceLine > 0;
    const auto key = hasLine ? std::make_pair(s.sourceFile, s.sourceLine) : std::make_pair(-1, static_cast<int>(pc));
    LineCost& line = lines[key];
    if (line.where.empty()) {
      if (hasLine) {
        const std::string file = s.sourceFile >= 0 && static_cast<std::size_t>(s.sourceFile) < k.sourceFiles.size()
                                     ? k.sourceFiles[static_cast<std::size_t>(s.sourceFile)]
                                     : "?";
        const auto slash = file.find_last_of('/');
        line.where = fmt::format("{}:{}", slash == std::string::npos ? file : file.substr(slash + 1), s.sourceLine);
      } else {
        line.where = fmt::format("pc {}", pc);
      }
      line.text = s.text;
    }
    if (c.stallCycles > line.stallingCycles) {
      line.stallingPc = pc;
      line.stallingCycles = c.stallCycles;
    }
    line.issued += c.issued;
    line.executed += c.executions;
    line.stalls += c.stallCycles;
    for (int i = 0; i < kStallReasonCount; ++i) line.reasons[static_cast<std::size_t>(i)] += c.stalls[static_cast<std::size_t>(i)];
  }
  std::vector<LineCost> out;
  for (auto& [key, line] : lines) out.push_back(std::move(line));
  std::sort(out.begin(), out.end(), [](const LineCost& a, const LineCost& b) {
    return a.stalls + static_cast<double>(a.issued) > b.stalls + static_cast<double>(b.issued);
  });
  return out;
}

StallReason topReason(const std::array<double, kStallReasonCount>& reasons) {
  int best = static_cast<int>(StallReason::NotSelected);
  for (int i = 1; i < kStallReasonCount; ++i)
    if (reasons[static_cast<std::size_t>(i)] > reasons[static_cast<std::size_t>(best)]) best = i;
  return static_cast<StallReason>(best);
}

std::string thousands(double value) {
  // Beyond 10^15 (or not finite) digit groups stop helping, and llround would overflow past 2^63.
  if (!(std::abs(value) < 1e15)) return fmt::format("{:.3e}", value);
  const auto v = static_cast<long long>(std::llround(value));
  std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

}  // namespace

std::string sparkline(const std::vector<double>& values, std::size_t width) {
  if (values.empty() || width == 0) return "";
  static const char* kBars[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  // Average groups of values down to `width` columns.
  std::vector<double> columns;
  const std::size_t group = (values.size() + width - 1) / width;
  for (std::size_t i = 0; i < values.size(); i += group) {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t j = i; j < std::min(values.size(), i + group); ++j, ++n) sum += values[j];
    columns.push_back(sum / static_cast<double>(n));
  }
  const double peak = *std::max_element(columns.begin(), columns.end());
  std::string out;
  for (double v : columns) {
    const double level = peak > 0 && std::isfinite(peak) ? std::clamp(v / peak * 8, 0.0, 8.0) : 0.0;
    out += kBars[std::isnan(level) ? 0 : static_cast<int>(std::lround(level))];
  }
  return out;
}

std::string renderTimingText(const timing::TimingResult& r, const trace::KernelInfo& k,
                             const std::vector<WhatIfOutcome>& whatIfs, const TimingViewOptions& options) {
  std::string out;
  std::vector<std::pair<std::string, std::string>> head;
  const std::string signature = demangle(r.kernel);
  head.emplace_back("kernel", signature == r.kernel ? fmt::format("{} on {}", r.kernel, r.device)
                                                    : fmt::format("{} on {} ({})", signature, r.device, r.kernel));
  head.emplace_back("launch", fmt::format("grid {}x{}x{}, block {}x{}x{} ({} warps)", k.grid.x, k.grid.y, k.grid.z,
                                          k.block.x, k.block.y, k.block.z, k.warpsPerBlock()));
  head.emplace_back("instruction set",
                    r.isaReason.empty() ? std::string(r.isa == trace::Isa::Sass ? "SASS" : "PTX")
                                        : fmt::format("{} ({})", r.isa == trace::Isa::Sass ? "SASS" : "PTX", r.isaReason));
  if (r.isa == trace::Isa::Sass)
    head.emplace_back("register banks", fmt::format("{} cycles lost to register-bank conflicts (simulated part)",
                                                    thousands(r.registerBankConflictCycles)));
  head.emplace_back("residency", fmt::format("{} blocks per SM at once; the busiest SM runs {} blocks in {} wave{}",
                                             r.residentBlocks, r.blocksOnSm, r.waves, r.waves == 1 ? "" : "s"));
  head.emplace_back("predicted", fmt::format("{} cycles = {:.4g} ms", thousands(r.cycles), r.timeMs));
  const auto& l = r.launch;
  if (l.streamOverheadUs > 0 || l.graphOverheadUs > 0 || l.synchronousOverheadUs > 0)
    head.emplace_back("with launch",
                      fmt::format("{:.4g} ms back to back in a stream (+{:g} us), {:.4g} ms in a CUDA graph (+{:g} us), "
                                  "{:.4g} ms launched then synchronised (+{:g} us)",
                                  l.streamMs, l.streamOverheadUs, l.graphMs, l.graphOverheadUs, l.synchronousMs,
                                  l.synchronousOverheadUs));
  else
    head.emplace_back("with launch", "launch overhead not given for this device (the time above is the kernel's alone)");
  if (l.l2Warm)
    head.emplace_back("L2 warm",
                      fmt::format("back to back, {:.1f} % of its {:.4g} MiB of buffers stay in the {:.4g} MiB L2: {:.4g} ms a "
                                  "kernel in the stream and graph views (cold: {:.4g} ms)",
                                  100 * l.l2Retained, static_cast<double>(l.bufferBytes) / 1048576.0,
                                  static_cast<double>(l.l2Bytes) / 1048576.0, l.warmKernelMs, l.kernelMs));
  head.emplace_back("simulated",
                    fmt::format("{} of {} blocks, {} cycles{}{}", r.blocksSimulated, r.blocksOnSm,
                                thousands(r.simulatedCycles), r.extrapolated ? " (the rest extrapolated)" : "",
                                r.loopSampling.applied
                                    ? fmt::format("; {} of their loop's {} iterations simulated, the rest extrapolated "
                                                  "(error estimate {:.2f} %)",
                                                  r.loopSampling.simulatedBackEdges[2] + 1, r.loopSampling.backEdges + 1,
                                                  100 * r.loopSampling.errorEstimate)
                                    : std::string()));
  head.emplace_back("IPC", fmt::format("{:.3f} warp instructions per cycle per SM ({} warp instructions simulated)",
                                       r.ipc, thousands(static_cast<double>(r.warpInstructions))));
  head.emplace_back("bound", fmt::format("{}: {}", r.bound, r.boundExplanation));
  out += renderKeyValues(head);

  double totalStall = 0;
  for (double s : r.stalls) totalStall += s;
  out += "\nWhere the warp-cycles went (stall reasons, as Nsight Compute names them)\n";
  Table stalls({"reason", "warp-cycles", "share", "meaning"});
  std::vector<int> order(kStallReasonCount);
  for (int i = 0; i < kStallReasonCount; ++i) order[static_cast<std::size_t>(i)] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return r.stalls[static_cast<std::size_t>(a)] > r.stalls[static_cast<std::size_t>(b)]; });
  for (int i : order) {
    const double v = r.stalls[static_cast<std::size_t>(i)];
    if (v <= 0) continue;
    stalls.addRow({timing::stallReasonName(static_cast<StallReason>(i)), thousands(v),
                   fmt::format("{:.1f} %", totalStall > 0 ? 100 * v / totalStall : 0),
                   timing::stallReasonDescription(static_cast<StallReason>(i))});
  }
  out += stalls.render();

  out += "\nFunctional units (utilisation; load = warp instructions in flight over time, Lai Fig. 3.9)\n";
  Table units({"unit", "issued", "utilisation", "peak load", "load over time"}, {Align::Left, Align::Right, Align::Right, Align::Right, Align::Left});
  for (const auto& u : r.units) {
    const double peak = u.load.empty() ? 0 : *std::max_element(u.load.begin(), u.load.end());
    units.addRow({device::instructionClassName(u.unit), thousands(static_cast<double>(u.issued)),
                  fmt::format("{:.1f} %", 100 * u.utilisation), fmt::format("{:.1f}", peak),
                  options.showLoad ? sparkline(u.load, 48) : ""});
  }
  out += units.render();

  const auto& m = r.memory;
  out += "\nMemory (simulated part)\n";
  std::vector<std::pair<std::string, std::string>> mem;
  mem.emplace_back("global", fmt::format("{} loads, {} stores, {} atomics; {} sectors: {} L1 hits, {} L2 hits{}; "
                                         "{} DRAM sectors ({} reads, {} write-backs)",
                                         m.globalLoads, m.globalStores, m.atomics, m.sectorsRequested, m.l1Hits,
                                         m.l2Hits,
                                         m.l2PeerHits > 0 ? fmt::format(" ({} brought in by other SMs)", m.l2PeerHits) : "",
                                         m.dramSectors, m.dramSectors - m.dramWriteSectors, m.dramWriteSectors));
  if (m.l2PartialWordWrites > 0)
    mem.emplace_back("L2 writes", fmt::format("{} sectors stored, {} of them in part of an ECC word (a read-modify-write "
                                              "each: two L2 sector times)",
                                              m.l2WriteSectors, m.l2PartialWordWrites));
  mem.emplace_back("shared", fmt::format("{} requests, {} wavefronts ({:.2f} per request)", m.sharedRequests,
                                         m.sharedWavefronts,
                                         m.sharedRequests ? static_cast<double>(m.sharedWavefronts) / static_cast<double>(m.sharedRequests) : 0.0));
  if (!r.dramSectorsByPartition.empty())
    mem.emplace_back("partitions", fmt::format("sampled DRAM sectors per partition {}; skew applied x{:.2f}",
                                               fmt::join(r.dramSectorsByPartition, " "), r.dramPartitionSkew));
  out += renderKeyValues(mem);
  out += options.afterMemory;

  const auto lines = costPerLine(r, k);
  if (!lines.empty()) {
    out += fmt::format("\nCost per source line (top {})\n", std::min<std::size_t>(lines.size(), static_cast<std::size_t>(options.topLines)));
    out += "(the stalling instruction: the line's instruction with the most stall cycles, and why it waits)\n";
    Table t({"line", "issued", "stall cycles", "top stall", "stalling instruction", "its stall"},
            {Align::Left, Align::Right, Align::Right, Align::Left, Align::Left, Align::Left});
    for (std::size_t i = 0; i < lines.size() && i < static_cast<std::size_t>(options.topLines); ++i) {
      const LineCost& l = lines[i];
      const bool stalls = l.stalls > 0;
      t.addRow({l.where, thousands(static_cast<double>(l.issued)), thousands(l.stalls),
                stalls ? timing::stallReasonName(topReason(l.reasons)) : "-",
                stalls ? k.instructions[l.stallingPc].text : l.text,
                stalls ? timing::stallReasonName(topReason(r.perInstruction[l.stallingPc].stalls)) : "-"});
    }
    out += t.render();
  }

  if (options.showTimeline && !r.timeline.empty()) {
    // Columns are issue and completion times scaled to at most 60 characters; a non-finite
    // time would make that scale meaningless (and the casts below undefined), so it is capped.
    out += "\nTimeline (first instructions of the first warps of the first block: I = issue, = in flight)\n";
    double span = 0;
    std::size_t rows = std::min<std::size_t>(r.timeline.size(), static_cast<std::size_t>(options.timelineRows));
    for (std::size_t i = 0; i < rows; ++i) span = std::max(span, r.timeline[i].complete);
    const double scale = span > 60 ? 60 / span : 1;
    Table t({"warp", "issue", "done", "chart", "instruction"}, {Align::Right, Align::Right, Align::Right, Align::Left, Align::Left});
    for (std::size_t i = 0; i < rows; ++i) {
      const auto& e = r.timeline[i];
      const auto column = [&](double t) { return static_cast<std::size_t>(std::clamp(t * scale, 0.0, 60.0)); };
      const auto start = std::isfinite(e.issue) ? column(e.issue) : 0;
      const auto end = std::max(start + 1, std::isfinite(e.complete) ? column(e.complete) : 60);
      std::string chart(start, ' ');
      chart += 'I';
      chart += std::string(end - start - 1, '=');
      t.addRow({std::to_string(e.warp), thousands(e.issue), thousands(e.complete), chart,
                e.pc < k.instructions.size() ? k.instructions[e.pc].text : ""});
    }
    out += t.render();
  }

  if (!whatIfs.empty()) {
    out += "\nWhat if (Lai §3.4: the same trace with one effect removed or changed)\n";
    Table t({"what-if", "cycles", "time ms", "speed-up", "bound"});
    for (const auto& w : whatIfs)
      t.addRow({w.name, thousands(w.result.cycles), fmt::format("{:.4g}", w.result.timeMs),
                fmt::format("{:.2f}x", w.result.cycles > 0 ? r.cycles / w.result.cycles : 0), w.result.bound});
    out += t.render();
  }

  out += "\nAssumptions (what the prediction rests on)\n";
  Table a({"figure", "value", "origin"}, {Align::Left, Align::Left, Align::Left});
  // The text view shortens long citations; --json carries them whole.
  auto shorten = [](const std::string& text, std::size_t width) {
    if (text.size() <= width) return text;
    std::size_t cut = width;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
    return text.substr(0, cut) + "…";
  };
  for (const auto& p : r.assumptions) a.addRow({p.parameter, shorten(p.value, 60), shorten(p.origin, 100)});
  out += a.render();
  return out;
}

nlohmann::json timingJson(const timing::TimingResult& r, const trace::KernelInfo& k,
                          const std::vector<WhatIfOutcome>& whatIfs) {
  using nlohmann::json;
  json stalls = json::object();
  for (int i = 0; i < kStallReasonCount; ++i)
    stalls[timing::stallReasonName(static_cast<StallReason>(i))] = r.stalls[static_cast<std::size_t>(i)];
  json units = json::array();
  for (const auto& u : r.units)
    units.push_back({{"unit", device::instructionClassName(u.unit)},
                     {"issued", u.issued},
                     {"busy_cycles", u.busyCycles},
                     {"utilisation", u.utilisation},
                     {"load", u.load}});
  json lines = json::array();
  for (const auto& l : costPerLine(r, k)) {
    json reasons = json::object();
    for (int i = 0; i < kStallReasonCount; ++i)
      if (l.reasons[static_cast<std::size_t>(i)] > 0)
        reasons[timing::stallReasonName(static_cast<StallReason>(i))] = l.reasons[static_cast<std::size_t>(i)];
    json row = {{"line", l.where}, {"issued", l.issued}, {"executed", l.executed}, {"stall_cycles", l.stalls},
                {"stalls", reasons}, {"instruction", l.text}};
    if (l.stalls > 0) {
      const auto& c = r.perInstruction[l.stallingPc];
      const auto& s = k.instructions[l.stallingPc];
      row["stalling_instruction"] = {{"pc", l.stallingPc},
                                     {"instruction", s.text},
                                     {"opcode", trace::mnemonicOf(s.text)},
                                     {"stall_cycles", c.stallCycles},
                                     {"top_stall", timing::stallReasonName(topReason(c.stalls))}};
    } else {
      row["stalling_instruction"] = nullptr;
    }
    lines.push_back(std::move(row));
  }
  json timeline = json::array();
  for (const auto& e : r.timeline)
    timeline.push_back({{"block", e.block}, {"warp", e.warp}, {"pc", e.pc}, {"issue", e.issue}, {"complete", e.complete}});
  json assumptions = json::array();
  for (const auto& p : r.assumptions)
    assumptions.push_back({{"figure", p.parameter}, {"value", p.value}, {"origin", p.origin}});
  json what = json::array();
  for (const auto& w : whatIfs)
    what.push_back({{"name", w.name}, {"cycles", w.result.cycles}, {"time_ms", w.result.timeMs},
                    {"speedup", w.result.cycles > 0 ? r.cycles / w.result.cycles : 0.0}, {"bound", w.result.bound},
                    {"warp_instructions", w.result.warpInstructions}});
  const auto& m = r.memory;
  return {{"kernel", demangle(r.kernel)},
          {"mangled", r.kernel},
          {"device", r.device},
          {"isa", {{"used", trace::isaName(r.isa)}, {"reason", r.isaReason}}},
          {"register_bank_conflict_cycles", r.registerBankConflictCycles},
          {"cycles", r.cycles},
          {"time_ms", r.timeMs},
          {"launch", {{"kernel_ms", r.launch.kernelMs}, {"stream_ms", r.launch.streamMs}, {"graph_ms", r.launch.graphMs},
                      {"synchronous_ms", r.launch.synchronousMs}, {"stream_overhead_us", r.launch.streamOverheadUs},
                      {"graph_overhead_us", r.launch.graphOverheadUs},
                      {"synchronous_overhead_us", r.launch.synchronousOverheadUs},
                      {"l2_warm", r.launch.l2Warm}, {"l2_retained", r.launch.l2Retained},
                      {"warm_kernel_ms", r.launch.warmKernelMs},
                      {"buffer_bytes", r.launch.bufferBytes}, {"l2_bytes", r.launch.l2Bytes}}},
          {"ipc", r.ipc},
          {"bound", r.bound},
          {"bound_explanation", r.boundExplanation},
          {"simulated_cycles", r.simulatedCycles},
          {"warp_instructions", r.warpInstructions},
          {"sampling", {{"blocks_on_sm", r.blocksOnSm}, {"blocks_simulated", r.blocksSimulated},
                        {"resident_blocks", r.residentBlocks}, {"waves", r.waves}, {"extrapolated", r.extrapolated},
                        {"loop", {{"sampled", r.loopSampling.applied}, {"branch_pc", r.loopSampling.branchPc},
                                  {"target_pc", r.loopSampling.targetPc},
                                  {"iterations", r.loopSampling.backEdges + (r.loopSampling.backEdges > 0 ? 1 : 0)},
                                  {"iterations_simulated", {r.loopSampling.simulatedBackEdges[0] + 1,
                                                            r.loopSampling.simulatedBackEdges[1] + 1,
                                                            r.loopSampling.simulatedBackEdges[2] + 1}},
                                  {"cycles_per_iteration", r.loopSampling.cyclesPerIteration},
                                  {"error_estimate", r.loopSampling.errorEstimate},
                                  {"note", r.loopSampling.note}}}}},
          {"stalls", stalls},
          {"units", units},
          {"load_bucket_cycles", r.bucketCycles},
          {"memory", {{"global_loads", m.globalLoads}, {"global_stores", m.globalStores}, {"atomics", m.atomics},
                      {"sectors", m.sectorsRequested}, {"l1_hits", m.l1Hits}, {"l2_hits", m.l2Hits},
                      {"l2_hits_from_other_sms", m.l2PeerHits},
                      {"dram_sectors", m.dramSectors}, {"dram_write_sectors", m.dramWriteSectors},
                      {"l2_write_sectors", m.l2WriteSectors}, {"l2_partial_word_writes", m.l2PartialWordWrites},
                      {"dram_bytes", m.dramBytes},
                      {"shared_requests", m.sharedRequests}, {"shared_wavefronts", m.sharedWavefronts},
                      {"atomic_unit_busy_cycles", m.atomicUnitBusyCycles},
                      {"dram_partition_skew", r.dramPartitionSkew},
                      {"dram_sectors_by_partition", r.dramSectorsByPartition}}},
          {"per_line", lines},
          {"timeline", timeline},
          {"what_if", what},
          {"assumptions", assumptions},
          {"scope", timingJsonScopes()}};
}

nlohmann::json timingJsonScopes() {
  // What each field counts (docs/predict-json.md): "gpu" the whole launch on the whole GPU (the
  // busiest SM finishes last, so its cycles are the launch's), "sm" the busiest SM over the whole
  // launch, "sm_sampled" the blocks of it the engine simulated, "none" not a count; an object
  // gives it per field.
  return {{"kernel", "none"},
          {"mangled", "none"},
          {"device", "none"},
          {"isa", "none"},
          {"register_bank_conflict_cycles", "sm_sampled"},
          {"cycles", "gpu"},
          {"time_ms", "gpu"},
          {"launch", "gpu"},
          {"ipc", "sm_sampled"},
          {"bound", "none"},
          {"bound_explanation", "none"},
          {"simulated_cycles", "sm_sampled"},
          {"warp_instructions", "sm_sampled"},
          {"sampling", "sm"},
          {"stalls", "sm_sampled"},
          {"units", "sm_sampled"},
          {"load_bucket_cycles", "sm_sampled"},
          {"memory", "sm_sampled"},
          {"per_line", "sm_sampled"},
          {"timeline", "sm_sampled"},
          {"what_if", {{"name", "none"}, {"cycles", "gpu"}, {"time_ms", "gpu"}, {"speedup", "none"},
                       {"bound", "none"}, {"warp_instructions", "sm_sampled"}}},
          {"assumptions", "none"},
          {"scope", "none"}};
}

}  // namespace teg::report
