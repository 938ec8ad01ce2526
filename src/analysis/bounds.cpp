#include "teg/analysis/bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

namespace teg::analysis {

namespace {

using device::InstructionClass;

std::string count(double v) { return fmt::format("{:.4g}", v); }

// Largest first; the binding bound and the prediction's fraction of it.
void rank(BoundReport& b) {
  std::stable_sort(b.bounds.begin(), b.bounds.end(),
                   [](const ResourceBound& x, const ResourceBound& y) { return x.cycles > y.cycles; });
  if (!b.bounds.empty()) {
    b.binding = b.bounds.front().resource;
    b.fractionOfBound = b.predictedCycles > 0 ? b.bounds.front().cycles / b.predictedCycles : 0;
  }
}

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

constexpr const char* kBankBound = "issue + register banks";

// The bounds with `resource` at `cycles` instead (others unchanged): the remedy's figures. Not
// added when it would not lower the resource's bound.
void addRemedy(BoundReport& b, std::string name, const std::string& resource, double cycles, double msPerCycle) {
  const auto it = std::find_if(b.bounds.begin(), b.bounds.end(), [&](const ResourceBound& r) { return r.resource == resource; });
  if (it == b.bounds.end() || !(cycles < it->cycles)) return;
  BoundReport after = b;
  for (auto& r : after.bounds)
    if (r.resource == resource) r.cycles = cycles, r.timeMs = cycles * msPerCycle;
  rank(after);
  b.remedies.erase(std::remove_if(b.remedies.begin(), b.remedies.end(), [&](const Remedy& r) { return r.name == name; }),
                   b.remedies.end());
  b.remedies.push_back({std::move(name), resource, it->cycles, cycles, after.binding,
                        after.bounds.front().cycles, after.bounds.front().cycles * msPerCycle});
}

// The fewest shared wavefronts the simulated accesses could take: each warp-level shared access
// (a full warp's bytes, `accessBytes` per lane) over the banks' width per wavefront, at least one.
// Capped by the counted wavefronts (a partly active warp or paired lanes may need fewer).
// Shared atomics' extra passes are lanes contending for one word (the data), not the layout.
bool hasSharedAtomics(const Prediction& p) {
  for (std::size_t pc = 0; pc < p.kernel.instructions.size() && pc < p.result.perInstruction.size(); ++pc) {
    const auto& s = p.kernel.instructions[pc];
    if (s.space == trace::MemorySpace::Shared && s.kind == trace::InstrKind::Atomic &&
        p.result.perInstruction[pc].executions > 0)
      return true;
  }
  return false;
}

double conflictFreeWavefronts(const Prediction& p) {
  const timing::TimingConfig& c = p.config;
  const double wavefrontBytes = static_cast<double>(std::max(1, c.sharedBanks) * std::max(1, c.sharedBankWidth));
  double fewest = 0;
  for (std::size_t pc = 0; pc < p.kernel.instructions.size() && pc < p.result.perInstruction.size(); ++pc) {
    const auto& s = p.kernel.instructions[pc];
    if (s.space != trace::MemorySpace::Shared) continue;
    if (s.kind != trace::InstrKind::Load && s.kind != trace::InstrKind::Store && s.kind != trace::InstrKind::Atomic) continue;
    const double perAccess = std::max(1.0, std::ceil(trace::kWarpLanes * static_cast<double>(s.accessBytes) / wavefrontBytes));
    fewest += static_cast<double>(p.result.perInstruction[pc].executions) * perAccess;
  }
  return std::min(fewest, static_cast<double>(p.result.memory.sharedWavefronts));
}

}  // namespace

std::string whatIfRemoving(const std::string& resource, const Prediction& p) {
  const auto& m = p.result.memory;
  if (resource == "shared memory" && m.sharedWavefronts > m.sharedRequests) return "no-bank-conflicts";
  if (resource == "L1/LSU bandwidth" || resource == "L2 bandwidth") return "perfect-coalescing";
  if (resource == "DRAM bandwidth") return "dram-bw=x2";
  return "";
}

BoundReport boundsOf(const Prediction& p) {
  const timing::TimingConfig& c = p.config;
  const timing::TimingResult& r = p.result;
  BoundReport b;
  b.predictedCycles = r.cycles;
  b.predictedMs = r.timeMs;
  // The counters cover the simulated blocks; the launch has blocksOnSm of them on this SM.
  b.scale = r.blocksSimulated > 0 ? static_cast<double>(r.blocksOnSm) / static_cast<double>(r.blocksSimulated) : 1;
  const double msPerCycle = c.clockMhz > 0 ? 1.0 / (c.clockMhz * 1e3) : 0;
  const auto add = [&](std::string name, double simulatedCycles, std::string why) {
    const double cycles = simulatedCycles * b.scale;
    b.bounds.push_back({std::move(name), cycles, cycles * msPerCycle, std::move(why)});
  };
  const double schedulers = std::max(1, c.schedulers);
  add("issue", static_cast<double>(r.warpInstructions) * c.issueIntervalCycles / schedulers,
      fmt::format("{} warp instructions, one per {:g} cycles on each of {} schedulers", count(r.warpInstructions * b.scale),
                  c.issueIntervalCycles, c.schedulers));
  // Units that share a pipe (GT200's unified ALU) share its busy time.
  std::map<int, std::pair<double, std::string>> pipes;
  for (const auto& u : r.units) {
    if (u.unit == InstructionClass::LoadStore) continue;  // memory: the levels below
    const int pipe = c.pipe(static_cast<int>(u.unit));
    const double copies = c.unitSharedBySm[static_cast<std::size_t>(pipe)] ? 1.0 : schedulers;
    auto& [cycles, members] = pipes[pipe];
    cycles += u.busyCycles / copies;
    members += fmt::format("{}{} {}", members.empty() ? "" : ", ", count(u.issued * b.scale),
                           device::instructionClassName(u.unit));
  }
  const auto& m = r.memory;
  // cc 1.x: shared-memory accesses issue as ALU instructions (a MAD with a shared operand, a move
  // from shared memory) whose busy time the engine books to their ALU class although they occupy
  // the shared-memory path, not the pipe (timing/decoded_program.cpp). Each occupies its class at
  // most max(interval, wavefronts x cycles) <= interval + wavefronts x cycles, so that much comes
  // off each pipe's time (which of the classes they were booked to is not in the result).
  const bool sharedOperands = c.sharedOperandLatency > 0 && m.sharedRequests > 0;
  double widestInterval = 0;
  for (const double v : c.unitInterval) widestInterval = std::max(widestInterval, v);
  const double sharedOnAlu = sharedOperands ? static_cast<double>(m.sharedRequests) * widestInterval +
                                                  static_cast<double>(m.sharedWavefronts) * c.sharedWavefrontCycles
                                            : 0;
  for (const auto& [pipe, entry] : pipes) {
    double cycles = entry.first;
    std::string why = fmt::format("{} warp instructions at the unit's throughput", entry.second);
    if (sharedOperands) {
      const double copies = c.unitSharedBySm[static_cast<std::size_t>(pipe)] ? 1.0 : schedulers;
      cycles = std::max(0.0, cycles - sharedOnAlu / copies);
      why += ", less the shared-memory accesses they carry (cc 1.x shared operands)";
    }
    add(fmt::format("{} unit", device::instructionClassName(static_cast<InstructionClass>(pipe))), cycles, why);
  }
  if (m.sharedRequests > 0)
    add("shared memory", static_cast<double>(m.sharedWavefronts) * c.sharedWavefrontCycles,
        fmt::format("{} wavefronts for {} requests ({:.2f} per request), {:g} cycles each",
                    count(m.sharedWavefronts * b.scale), count(m.sharedRequests * b.scale),
                    static_cast<double>(m.sharedWavefronts) / static_cast<double>(m.sharedRequests),
                    c.sharedWavefrontCycles));
  if (c.lsuBytesPerCycle > 0 && m.sectorsRequested > 0)
    add("L1/LSU bandwidth", static_cast<double>(m.sectorsRequested) * c.sectorBytes / c.lsuBytesPerCycle,
        fmt::format("{} sectors of {} B at {:g} B/cycle", count(m.sectorsRequested * b.scale), c.sectorBytes,
                    c.lsuBytesPerCycle));
  const std::uint64_t l2Sectors = m.sectorsRequested - std::min(m.l1Hits, m.sectorsRequested);
  if (c.l2BytesPerCycle > 0 && l2Sectors > 0)
    add("L2 bandwidth", static_cast<double>(l2Sectors) * c.sectorBytes / c.l2BytesPerCycle,
        fmt::format("{} sectors that miss the L1 at the SM's share, {:.4g} B/cycle", count(l2Sectors * b.scale),
                    c.l2BytesPerCycle));
  if (c.dramBytesPerCycle > 0 && m.dramBytes > 0)
    add("DRAM bandwidth", m.dramBytes / c.dramBytesPerCycle,
        fmt::format("{} bytes at the SM's share, {:.4g} B/cycle", count(m.dramBytes * b.scale), c.dramBytesPerCycle));
  // Same-address atomics: the busiest sector's L2 atomic unit performs its operations one after
  // another, the other SMs' interleaved with this SM's (timing::MemorySystem::atomic).
  if (c.l2AtomicCycles > 0 && m.atomicUnitBusyCycles > 0)
    add("same-address atomics", m.atomicUnitBusyCycles,
        fmt::format("the busiest address's L2 atomic unit, {:g} cycles per operation, the other SMs' operations on it "
                    "interleaved with this SM's",
                    c.l2AtomicCycles));
  // Latency at the kernel's occupancy: R blocks side by side, each at least its slowest warp's
  // dependent chain; the SM's blocks cannot finish before max(longest, sum / R).
  if (!p.criticalPathBlockCycles.empty()) {
    double longest = 0, sum = 0;
    for (const double t : p.criticalPathBlockCycles) longest = std::max(longest, t), sum += t;
    const int resident = std::max(1, r.residentBlocks);
    const double launchSum = sum * static_cast<double>(r.blocksOnSm) / static_cast<double>(p.criticalPathBlockCycles.size());
    const double cycles = std::max(longest, launchSum / resident);
    b.bounds.push_back({"latency", cycles, cycles * msPerCycle,
                        fmt::format("dependent chains at optimistic latencies: {:.4g} cycles per block (longest {:.4g}), "
                                    "{} blocks resident",
                                    sum / static_cast<double>(p.criticalPathBlockCycles.size()), longest, resident)});
  }
  rank(b);
  b.removingWhatIf = whatIfRemoving(b.binding, p);
  if (m.sharedRequests > 0 && !sharedOperands && !hasSharedAtomics(p))
    addRemedy(b, "conflict-free shared memory (padding or a swizzle)", "shared memory",
              conflictFreeWavefronts(p) * c.sharedWavefrontCycles * b.scale, msPerCycle);
  b.notEvaluated.push_back(
      "register banks: the trace is PTX, whose registers are virtual; the bank a physical register sits in (Kepler: "
      "seed 000 Table 4.1, data/models/sgemm_bound.json) is known only after ptxas allocates them");
  return b;
}

BoundReport sassBoundsOf(const Prediction& p, const SassFacts& sass) {
  BoundReport b = boundsOf(p);
  std::erase_if(b.notEvaluated, [](const std::string& n) { return n.rfind("register banks", 0) == 0; });
  // How many times a warp ran each source line: the mean executions of its PTX instructions
  // (a line's SASS runs as often as its PTX; SASS and PTX carry the same -lineinfo lines).
  std::map<std::pair<std::string, int>, std::pair<double, double>> executions;  // (file, line) -> (sum, count)
  const auto& k = p.kernel;
  for (std::size_t pc = 0; pc < k.instructions.size() && pc < p.result.perInstruction.size(); ++pc) {
    const auto& s = k.instructions[pc];
    if (s.sourceLine <= 0 || s.sourceFile < 0 || static_cast<std::size_t>(s.sourceFile) >= k.sourceFiles.size()) continue;
    auto& [sum, n] = executions[{fileName(k.sourceFiles[static_cast<std::size_t>(s.sourceFile)]), s.sourceLine}];
    sum += static_cast<double>(p.result.perInstruction[pc].executions);
    n += 1;
  }
  double conflicts = 0, scalarLoads = 0, vectorLoads = 0;
  for (const auto& line : sass.lines) {
    const auto it = executions.find({fileName(line.file), line.line});
    if (it == executions.end() || it->second.second == 0) continue;
    const double runs = it->second.first / it->second.second;
    conflicts += runs * line.bankConflictCycles;
    scalarLoads += runs * line.vectorisableLoads;
    vectorLoads += runs * line.vectorLoads;
  }
  const timing::TimingConfig& c = p.config;
  const double schedulers = std::max(1, c.schedulers);
  const double msPerCycle = c.clockMhz > 0 ? 1.0 / (c.clockMhz * 1e3) : 0;
  const auto issue = std::find_if(b.bounds.begin(), b.bounds.end(), [](const ResourceBound& r) { return r.resource == "issue"; });
  const double issueCycles = issue == b.bounds.end() ? 0 : issue->cycles;
  if (sass.bankLayoutKnown) {
    // A conflicting instruction's extra read delays its warp's issue by the layout's penalty (one
    // cycle where a bank serves its reads one after another; 0.274 measured on Turing), so the
    // issue slots grow by conflicts x penalty (Jia 2018: remapping registers to avoid them sped
    // an SGEMM up by about 15 %).
    b.bankConflictCycles = conflicts * b.scale;
    const double cycles = issueCycles + b.bankConflictCycles * sass.bankPenaltyCycles / schedulers;
    b.bounds.push_back({kBankBound, cycles, cycles * msPerCycle,
                        fmt::format("issue slots plus {} extra register reads of bank conflicts in the {} SASS, {:g} "
                                    "cycles each, on {} schedulers ({})",
                                    count(b.bankConflictCycles), sass.arch, sass.bankPenaltyCycles, c.schedulers,
                                    sass.bankLayout)});
  } else {
    b.notEvaluated.push_back("register banks: " + sass.bankLayout);
  }
  rank(b);
  b.removingWhatIf = whatIfRemoving(b.binding, p);
  // The remedies' binding bounds change with the bank bound added: evaluate them again.
  const std::vector<Remedy> before = b.remedies;
  b.remedies.clear();
  for (const auto& r : before) addRemedy(b, r.name, r.resource, r.cyclesAfter, msPerCycle);
  if (sass.bankLayoutKnown && b.bankConflictCycles > 0)
    addRemedy(b, "a register allocation without bank conflicts", kBankBound, issueCycles, msPerCycle);
  if (scalarLoads > vectorLoads) {
    VectorLoadSuggestion v;
    v.scalarLoads = scalarLoads * b.scale;
    v.vectorLoads = vectorLoads * b.scale;
    const double saved = (v.scalarLoads - v.vectorLoads) * c.issueIntervalCycles / schedulers;
    v.issueCyclesBefore = issueCycles;
    v.issueCyclesAfter = std::max(0.0, issueCycles - saved);
    BoundReport after = b;
    for (auto& r : after.bounds)
      if (r.resource == "issue" || r.resource == kBankBound) {
        r.cycles = std::max(0.0, r.cycles - saved);
        r.timeMs = r.cycles * msPerCycle;
      }
    rank(after);
    v.boundCyclesBefore = b.bounds.empty() ? 0 : b.bounds.front().cycles;
    v.boundCyclesAfter = after.bounds.empty() ? 0 : after.bounds.front().cycles;
    v.boundMsAfter = v.boundCyclesAfter * msPerCycle;
    v.bindingAfter = after.binding;
    b.vectorLoads = v;
  }
  return b;
}

}  // namespace teg::analysis
