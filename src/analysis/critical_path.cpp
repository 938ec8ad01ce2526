#include "teg/analysis/critical_path.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>

namespace teg::analysis {

namespace {

using device::InstructionClass;
using trace::InstrKind;
using trace::MemorySpace;

double classLatency(const timing::TimingConfig& c, InstructionClass cls) {
  return c.executionLatency[static_cast<std::size_t>(cls)];
}

// A software sequence's shortest path from its operands to its result: steps wait only for the
// steps they read (issue spacing left out: this is a lower bound).
double sequenceLatency(const timing::TimingConfig& c, const timing::SoftwareSequence& s) {
  std::vector<double> done(s.steps.size(), 0);
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    double start = 0;
    for (const int e : s.steps[k].after)
      if (e >= 0 && static_cast<std::size_t>(e) < k) start = std::max(start, done[static_cast<std::size_t>(e)]);
    done[k] = start + classLatency(c, s.steps[k].unit);
  }
  return s.result >= 0 && static_cast<std::size_t>(s.result) < done.size() ? done[static_cast<std::size_t>(s.result)] : 0;
}

// The most optimistic latency of one static instruction (cycles from its issue until a dependent
// instruction may issue); -1 for a multiply ptxas fuses into its add (no issue of its own).
double optimisticLatency(const timing::TimingConfig& c, const trace::StaticInstruction& s) {
  const bool memory = s.kind == InstrKind::Load || s.kind == InstrKind::Store || s.kind == InstrKind::Atomic;
  if (!memory) {
    if (s.kind != InstrKind::Alu && s.kind != InstrKind::WarpSync) return 0;
    if (c.fuseMultiplyAdds && s.fusedInto >= 0) return -1;
    if (!c.sequences.empty()) {
      const auto found = c.sequences.find(trace::mnemonicOf(s.text));
      if (found != c.sequences.end() && !found->second.steps.empty()) return sequenceLatency(c, found->second);
    }
    double latency = classLatency(c, s.unit);
    // cc 1.x: an ALU instruction may take its shared operand directly at this latency.
    if (c.sharedOperandLatency > 0) latency = std::min(latency, c.sharedOperandLatency);
    return latency;
  }
  switch (s.space) {
    case MemorySpace::Shared:
      // cc 1.x fuses a shared load into its consumer, whose latency then covers both.
      return c.sharedOperandLatency > 0 ? 0 : c.sharedLatency;
    case MemorySpace::Global:
    case MemorySpace::Local:
    case MemorySpace::Texture: {
      const bool viaL1 = c.l1Bytes > 0 && (s.cache == trace::CachePolicy::CacheL1 ||
                                           (s.cache == trace::CachePolicy::Default && c.l1CachesGlobalLoads));
      if (s.kind != InstrKind::Load) return std::min(c.l1HitLatency, c.l2HitLatency);  // atomics: at best a hit
      return viaL1 ? c.l1HitLatency : c.l2HitLatency;
    }
    default: return 0;  // constants and parameters: operands of the instruction in SASS
  }
}

// bar.sync 0 / barrier.sync.aligned 0 / bar.red.popc.u32 %r, 0, %p: every warp of the block takes
// part. A thread-count operand (bar.sync 1, 64) names a subset; bar.arrive does not wait.
bool blockWideBarrier(const trace::StaticInstruction& s) {
  if (s.kind != InstrKind::Barrier) return false;
  const std::string m = trace::mnemonicOf(s.text);
  if (m.find("arrive") != std::string::npos) return false;
  const auto starts = [&](std::initializer_list<const char*> prefixes) {
    for (const char* p : prefixes)
      if (m.rfind(p, 0) == 0) return true;
    return false;
  };
  const bool red = starts({"bar.red", "barrier.red", "bar.cta.red", "barrier.cta.red"});
  const bool sync = starts({"bar.sync", "barrier.sync", "bar.cta.sync", "barrier.cta.sync"});
  if (!red && !sync) return false;
  const auto operands = std::count(s.text.begin(), s.text.end(), ',') + 1;
  return red ? operands == 3 : operands == 1;
}

}  // namespace

CriticalPath::CriticalPath(const timing::TimingConfig& config, std::vector<std::uint64_t> blocks)
    : config_(config), blocks_(std::move(blocks)) {
  std::sort(blocks_.begin(), blocks_.end());
}

void CriticalPath::beginKernel(const trace::KernelInfo& kernel) {
  latencyOf_.clear();
  joins_.clear();
  registers_ = 0;
  for (const auto& s : kernel.instructions) {
    latencyOf_.push_back(optimisticLatency(config_, s));
    joins_.push_back(blockWideBarrier(s));
    for (const auto r : s.defs) registers_ = std::max(registers_, r + 1);
    for (const auto r : s.uses) registers_ = std::max(registers_, r + 1);
  }
  warps_.clear();
  blockCycles_.clear();
  instructions_ = kernel.instructions;
}

void CriticalPath::beginBlock(std::uint32_t block) {
  counting_ = std::binary_search(blocks_.begin(), blocks_.end(), std::uint64_t{block});
  warps_.clear();
  release_.clear();
}

void CriticalPath::instruction(const trace::WarpInstruction& record) {
  if (!counting_ || record.pc >= latencyOf_.size()) return;
  if (record.warp >= warps_.size()) warps_.resize(record.warp + 1);
  Warp& w = warps_[record.warp];
  if (w.ready.empty()) w.ready.assign(registers_, 0.0);
  const auto& s = instructions_[record.pc];
  if (w.atBarrier) {  // every warp has reached that barrier by now (see the header)
    w.floor = std::max(w.floor, release_[w.barriers - 1]);
    w.atBarrier = false;
  }
  double start = w.floor;
  for (const auto r : s.uses) start = std::max(start, w.ready[r]);
  if (joins_[record.pc]) {
    const double arrival = std::max(start, w.end);
    if (release_.size() <= w.barriers) release_.resize(w.barriers + 1, 0.0);
    release_[w.barriers] = std::max(release_[w.barriers], arrival);
    ++w.barriers;
    w.atBarrier = true;
  }
  const double latency = latencyOf_[record.pc];
  if (latency < 0) {  // fused multiply: its result is its operands, consumed by the add's issue
    for (const auto r : s.defs) w.ready[r] = start;
    return;
  }
  ++w.issued;
  const double done = start + latency;
  for (const auto r : s.defs) w.ready[r] = done;
  // The launch ends when its last instruction has issued (a store's or the exit's completion is
  // not waited for), so the chain ends at the last issue, not at the last result.
  w.end = std::max(w.end, start);
}

void CriticalPath::endBlock(std::uint32_t) {
  if (counting_) {
    double slowest = 0;
    for (const Warp& w : warps_)
      slowest = std::max({slowest, w.end, static_cast<double>(w.issued) * config_.issueIntervalCycles});
    blockCycles_.push_back(slowest);
  }
  counting_ = false;
  warps_.clear();
}

}  // namespace teg::analysis
