#include "sm_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <queue>

#include "block_trace.hpp"
#include "memory_system.hpp"
#include "unit_load.hpp"

namespace teg::timing::detail {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// Which kind of producer a register waits for decides the stall reason of its consumers.
enum class Producer : std::uint8_t { Fixed, Short, Long };

enum class Port : std::uint8_t { Alu, Shared, Global, Constant };

// Per static instruction, decoded once from the trace's KernelInfo and the config.
struct Decoded {
  trace::InstrKind kind = trace::InstrKind::Alu;
  Port port = Port::Alu;
  int unit = 0;
  Producer produces = Producer::Fixed;
  std::uint32_t regsBegin = 0, usesEnd = 0, defsEnd = 0;  // regs[regsBegin, usesEnd) uses, [usesEnd, defsEnd) defs
  double latency = 0, unitInterval = 0, sameWarp = 0;
  bool readsClock = false;
  bool sharedOperand = false;  // an ALU instruction fused with the ld.shared before it (cc 1.x)
  bool viaL1 = false;          // a global/local load the SM's L1 may serve (cache operator, device default)
  int groupKey = -1;           // which ReadyGroup its warps join once their own operands are ready
};

// Ready groups. Once a warp's own state (same-warp interval, scoreboard) no longer holds it back,
// when it can issue and why it cannot depend only on its scheduler and the resource its next op
// needs: t = max(resource free, scheduler free), reason NotSelected when t <= now or the scheduler
// is the later of the two, else the resource's throttle reason (Sm::evaluateRest with the warp's
// own time <= now). So all such warps of a scheduler waiting for the same resource share one
// reason at every step, and their stall time is charged per group: each group keeps the time it
// has spent in each reason, and a warp leaving it (to issue) is charged the difference since it
// joined.
// Keys: [0, kClassCount) an ALU unit; [kClassCount, 2 kClassCount) a shared operand fused into an
// ALU instruction of that unit (waits for the shared pipe and the unit); the shared pipe (MIO);
// the LSU (constant accesses); then global requests by their sector count (1..kMaxGroupedSectors):
// for a warp whose own time has passed, whether C_mem admits the request by now and, if not,
// when it will (MemorySystem::nextAcceptTime) depend only on the sector count (see groupResource).
constexpr int kFusedGroupKeys = kClassCount;
constexpr int kMioGroupKey = 2 * kClassCount;
constexpr int kLsuGroupKey = 2 * kClassCount + 1;
constexpr int kGlobalGroupKeys = 2 * kClassCount + 2;  // + sectors (0 for a request without lanes)
constexpr int kMaxGroupedSectors = 64;                 // larger requests stay ungrouped
constexpr int kGroupKeys = kGlobalGroupKeys + kMaxGroupedSectors + 1;

// The reasons a ready group can be in, and where ReadyGroup::spent counts each.
constexpr std::array<StallReason, 4> kGroupReasons = {StallReason::NotSelected, StallReason::MathPipeThrottle,
                                                      StallReason::MioThrottle, StallReason::LgThrottle};
constexpr std::size_t groupReasonIndex(StallReason reason) {
  switch (reason) {
    case StallReason::MathPipeThrottle: return 1;
    case StallReason::MioThrottle: return 2;
    case StallReason::LgThrottle: return 3;
    default: return 0;  // NotSelected
  }
}

struct ReadyGroup {
  std::vector<std::uint64_t> members;  // bit per position in the scheduler's warp list
  int count = 0;
  StallReason reason = StallReason::NotSelected;
  double since = 0;
  std::array<double, kGroupReasons.size()> spent{};  // cycles in each of kGroupReasons, up to `since`
  double earliest = kNever;                      // max(resource free, scheduler free), at the last step
  // Global keys: the resource's free time as of lsuVersion (a binary search of the C_mem queue,
  // repeated only when a request changed it).
  std::uint64_t lsuVersion = ~std::uint64_t{0};
  double globalFreeAt = 0;

  void advance(double now) {
    spent[groupReasonIndex(reason)] += now - since;
    since = now;
  }
};

struct Warp {
  const BlockTrace* block = nullptr;
  const std::vector<WarpOp>* ops = nullptr;
  std::size_t next = 0;
  int slot = 0;              // block slot
  int scheduler = 0;
  std::uint32_t warpInBlock = 0;
  std::uint64_t age = 0;     // start order, for oldest-first
  double readyAt = 0;
  bool live = false;
  bool atBarrier = false;
  std::vector<double> regReady;
  std::vector<Producer> regProducer;
  // Cached evaluation (see Sm::evaluate): `rest` is earliest() without the scheduler term, valid
  // while the warp's own state is unchanged and the resources of its next op have not changed
  // since `evaluatedAt` (a value of Sm::version_).
  const Decoded* op = nullptr;  // decoded next op
  bool restValid = false;
  std::uint64_t evaluatedAt = 0;
  double restAt = 0;
  StallReason restReason = StallReason::Wait;
  // Stall accounting, charged lazily: the warp has stalled for `stallReason` since `stallSince`.
  StallReason stallReason = StallReason::Wait;
  double stallSince = 0;
  std::array<double, kStallReasonCount> stalled{};  // charged to the next pc when it issues
  std::uint32_t stalledReasons = 0;  // bit r: stalled[r] may be non-zero (flushStalls visits only those)
  static_assert(kStallReasonCount <= 32, "stalledReasons has a bit per stall reason");
  bool selected = false;  // issued in the current step: its first cycle is "selected", not a stall
  int position = 0;       // in its scheduler's warp list
  int listIndex = -1;     // in its scheduler's list of ungrouped live warps, or -1
  int group = -1;         // index into Sm::groups_ while in a ReadyGroup, or -1
  int groupKey = -1;      // the ReadyGroup key of its next op (-1: not grouped)
  bool ownValid = false;  // ownReadyAt, ownReason, groupKey and unitSlot are up to date
  double ownReadyAt = 0;  // evaluateOwn: when the warp's own state lets it issue, and
  StallReason ownReason = StallReason::Wait;  // why not before
  std::size_t unitSlot = 0;  // Sm::unitSlot of its next op's unit
  std::array<double, kGroupReasons.size()> groupSpentAtJoin{};
  bool asleep = false;          // see Sm::sleepIfSettled
  std::uint32_t sleepCount = 0;  // tells a SleepEntry of an earlier sleep from the current one
};

struct SleepEntry {
  double time = 0;
  int warp = 0;
  std::uint32_t sleepCount = 0;
  bool operator>(const SleepEntry& other) const { return time > other.time; }
};
using SleepQueue = std::priority_queue<SleepEntry, std::vector<SleepEntry>, std::greater<>>;
constexpr double kShortestSleep = 8;  // cycles; only a matter of speed

struct Slot {
  const BlockTrace* block = nullptr;
  int liveWarps = 0;
  int arrived = 0;
  std::size_t blockIndex = 0;
};

class Sm {
 public:
  Sm(const TimingConfig& config, const trace::KernelInfo& kernel, const EngineOptions& options,
     const std::vector<BlockTrace>& blocks, WriteBack writeBack, double ownFetchFraction, TimingResult& result)
      : config_(config), kernel_(kernel), options_(options), blocks_(blocks), result_(result),
        memory_(config, writeBack, ownFetchFraction), loads_(kClassCount, options.loadBuckets) {
    decode();
    const int slots = std::max(1, options.residentBlocks);
    const int warpsPerBlock = static_cast<int>(kernel.warpsPerBlock());
    slots_.resize(static_cast<std::size_t>(slots));
    warps_.resize(static_cast<std::size_t>(slots * warpsPerBlock));
    for (std::size_t w = 0; w < warps_.size(); ++w) {
      warps_[w].slot = static_cast<int>(w) / warpsPerBlock;
      warps_[w].scheduler = static_cast<int>(w % static_cast<std::size_t>(std::max(1, config.schedulers)));
      warps_[w].regReady.assign(registerCount_, 0.0);
      warps_[w].regProducer.assign(registerCount_, Producer::Fixed);
    }
    schedulerFreeAt_.assign(static_cast<std::size_t>(std::max(1, config.schedulers)), 0.0);
    schedulerWarps_.resize(schedulerFreeAt_.size());
    for (std::size_t w = 0; w < warps_.size(); ++w) {
      auto& list = schedulerWarps_[static_cast<std::size_t>(warps_[w].scheduler)];
      warps_[w].position = static_cast<int>(list.size());
      list.push_back(static_cast<int>(w));
    }
    ungrouped_.resize(schedulerFreeAt_.size());
    groups_.resize(schedulerFreeAt_.size() * kGroupKeys);
    nonEmptyGroups_.resize(schedulerFreeAt_.size());
    for (std::size_t g = 0; g < groups_.size(); ++g)
      groups_[g].members.assign((schedulerWarps_[g / kGroupKeys].size() + 63) / 64, 0);
    lastIssued_.assign(schedulerFreeAt_.size(), -1);
    earliest_.assign(warps_.size(), kNever);
    unitFreeAt_.assign(schedulerFreeAt_.size() * kClassCount, 0.0);
    unitChangedAt_.assign(unitFreeAt_.size(), 0);
    completion_.assign(blocks.size(), 0.0);
    computeSettleMargins();
    result_.perInstruction.assign(kernel.instructions.size(), InstructionCost{});
  }

  std::vector<double> run() {
    for (std::size_t s = 0; s < slots_.size() && nextBlock_ < blocks_.size(); ++s) startBlock(static_cast<int>(s), 0.0);
    double now = 0;
    while (liveWarps_ > 0) {
      stepTime_ = now;
      const bool issued = step(now);
      const double next = nextDecisionTime(now, issued);
      endSelection(now, next);
      now = next;
    }
    result_.simulatedCycles = lastCompletion_;
    result_.bucketCycles = loads_.bucketCycles();
    for (int c = 0; c < kClassCount; ++c) {
      if (unitIssued_[static_cast<std::size_t>(c)] == 0) continue;
      UnitUsage usage;
      usage.unit = static_cast<InstructionClass>(c);
      usage.issued = unitIssued_[static_cast<std::size_t>(c)];
      usage.busyCycles = unitBusy_[static_cast<std::size_t>(c)];
      const double copies = isMemoryClass(c) || config_.unitSharedBySm[static_cast<std::size_t>(c)]
                                ? 1.0 : static_cast<double>(schedulerFreeAt_.size());
      usage.utilisation = lastCompletion_ > 0 ? usage.busyCycles / (lastCompletion_ * copies) : 0;
      usage.load = loads_.series(c, lastCompletion_);
      result_.units.push_back(std::move(usage));
    }
    return completion_;
  }

 private:
  static bool isMemoryClass(int c) { return c == static_cast<int>(InstructionClass::LoadStore); }

  // Latency added per replayed wavefront; a config without its own figure uses the pipe's.
  double replayLatency() const {
    return config_.sharedReplayLatency > 0 ? config_.sharedReplayLatency : config_.sharedWavefrontCycles;
  }

  // Where scheduler s's copy of a unit keeps its state: units with fewer lanes than the SM has
  // schedulers (fp64 on consumer parts) are one unit that every scheduler shares, and classes that
  // issue to another class's unit (config.pipeOf: GT200's SPs) use that unit's slot.
  std::size_t unitSlot(std::size_t s, int unit) const {
    const auto u = static_cast<std::size_t>(config_.pipe(unit));
    return (config_.unitSharedBySm[u] ? 0 : s) * kClassCount + u;
  }

  void decode() {
    decoded_.resize(kernel_.instructions.size());
    std::uint32_t maxReg = 0;
    for (std::size_t pc = 0; pc < kernel_.instructions.size(); ++pc) {
      const auto& s = kernel_.instructions[pc];
      Decoded& d = decoded_[pc];
      d.kind = s.kind;
      d.unit = static_cast<int>(s.unit);
      d.regsBegin = static_cast<std::uint32_t>(regs_.size());
      for (auto r : s.uses) regs_.push_back(r), maxReg = std::max(maxReg, r + 1);
      d.usesEnd = static_cast<std::uint32_t>(regs_.size());
      for (auto r : s.defs) regs_.push_back(r), maxReg = std::max(maxReg, r + 1);
      d.defsEnd = static_cast<std::uint32_t>(regs_.size());
      const bool memory = s.kind == trace::InstrKind::Load || s.kind == trace::InstrKind::Store ||
                          s.kind == trace::InstrKind::Atomic;
      if (memory) {
        d.unit = static_cast<int>(InstructionClass::LoadStore);
        switch (s.space) {
          case trace::MemorySpace::Shared: d.port = Port::Shared; d.produces = Producer::Short; break;
          case trace::MemorySpace::Global:
          case trace::MemorySpace::Local:
          case trace::MemorySpace::Texture: d.port = Port::Global; d.produces = Producer::Long; break;
          case trace::MemorySpace::Param:
            // A kernel parameter is an operand of the instruction that uses it in SASS (constant
            // bank 0 from cc 2.0 on, shared memory on cc 1.x): a register move, not a request.
            d.port = Port::Alu;
            d.unit = static_cast<int>(InstructionClass::IntAdd);
            break;
          case trace::MemorySpace::Constant:
          case trace::MemorySpace::None: d.port = Port::Constant; d.produces = Producer::Short; break;
        }
      } else if (s.unit == InstructionClass::Special || s.unit == InstructionClass::WarpShuffle ||
                 s.unit == InstructionClass::WarpReduce) {
        d.produces = Producer::Short;  // MUFU and shuffles are variable-latency (MIO) on Volta+
      }
      d.latency = config_.executionLatency[static_cast<std::size_t>(d.unit)];
      d.unitInterval = config_.unitInterval[static_cast<std::size_t>(d.unit)];
      d.sameWarp = config_.sameWarpInterval[static_cast<std::size_t>(d.unit)];
      // Lai §3.2.2.2 measured the long same-warp interval of the LD/ST class on a global load
      // (GLD.U32, ~60 cycles on GT200); shared and constant accesses do not leave the SM.
      if (memory && d.port != Port::Global) d.sameWarp = std::min(d.sameWarp, config_.issueIntervalCycles);
      d.readsClock = s.readsClock;
      // The PTX cache operator decides where it stands (.ca/.nc cache in L1 on every GPU with
      // one, .cg/.cv bypass it); without one the device's default applies (cc 3.x-6.x keep
      // plain global loads in L2 only: timing.l1_caches_global).
      if (d.port == Port::Global && s.kind == trace::InstrKind::Load)
        d.viaL1 = config_.l1Bytes > 0 && (s.cache == trace::CachePolicy::CacheL1 ||
                                         (s.cache == trace::CachePolicy::Default && config_.l1CachesGlobalLoads));
      switch (d.port) {
        case Port::Alu: d.groupKey = d.unit; break;
        case Port::Shared: d.groupKey = kMioGroupKey; break;
        case Port::Constant: d.groupKey = kLsuGroupKey; break;
        case Port::Global: d.groupKey = kGlobalGroupKeys; break;  // + the request's sectors
      }
      // cc 1.x reads shared memory into a register with an SP instruction (a move whose operand
      // is in shared memory, seed 002 §1.1.2), so a load not fused into its consumer still takes
      // an SP issue slot, as the fused form does.
      if (config_.sharedOperandLatency > 0 && d.port == Port::Shared && s.kind == trace::InstrKind::Load) {
        d.sharedOperand = true;
        d.unit = static_cast<int>(InstructionClass::IntAdd);
        d.unitInterval = config_.unitInterval[static_cast<std::size_t>(d.unit)];
        d.latency = config_.sharedLatency;
        d.groupKey = kFusedGroupKeys + d.unit;
      }
    }
    // The fused form of each ALU instruction that can take a shared operand (cc 1.x): it waits for
    // the load's address registers instead of its result, and runs on the shared-memory path.
    fused_.assign(kernel_.instructions.size(), Decoded{});
    if (config_.sharedOperandLatency > 0) {
      for (std::uint32_t pc = 0; pc < kernel_.instructions.size(); ++pc) {
        if (!takesSharedOperand(kernel_, pc)) continue;
        const auto& alu = kernel_.instructions[pc];
        const auto& load = kernel_.instructions[pc - 1];
        Decoded f = decoded_[pc];
        f.port = Port::Shared;
        f.produces = Producer::Short;
        f.sharedOperand = true;
        f.latency = config_.sharedOperandLatency;
        f.regsBegin = static_cast<std::uint32_t>(regs_.size());
        for (auto r : load.uses) regs_.push_back(r);
        for (auto r : alu.uses)
          if (r != load.defs.front()) regs_.push_back(r);
        f.usesEnd = static_cast<std::uint32_t>(regs_.size());
        for (auto r : alu.defs) regs_.push_back(r);
        f.defsEnd = static_cast<std::uint32_t>(regs_.size());
        f.groupKey = kFusedGroupKeys + f.unit;
        fused_[pc] = f;
      }
    }
    registerCount_ = maxReg;
  }

  const Decoded& decodedOf(const WarpOp& op) const {
    const Decoded& d = decoded_[op.pc];
    return d.kind == trace::InstrKind::Alu && op.memory != kNoMemory ? fused_[op.pc] : d;
  }

  void startBlock(int slot, double now) {
    const BlockTrace& block = blocks_[nextBlock_];
    Slot& s = slots_[static_cast<std::size_t>(slot)];
    s.block = &block;
    s.blockIndex = nextBlock_++;
    s.arrived = 0;
    s.liveWarps = 0;
    const int warpsPerBlock = static_cast<int>(kernel_.warpsPerBlock());
    for (int i = 0; i < warpsPerBlock; ++i) {
      Warp& w = warps_[static_cast<std::size_t>(slot * warpsPerBlock + i)];
      w.block = &block;
      w.ops = i < static_cast<int>(block.warps.size()) ? &block.warps[static_cast<std::size_t>(i)] : nullptr;
      w.next = 0;
      w.warpInBlock = static_cast<std::uint32_t>(i);
      w.age = ageCounter_++;
      w.readyAt = now + config_.blockLaunchCycles;
      w.atBarrier = false;
      w.restValid = false;
      w.ownValid = false;
      earliest_[static_cast<std::size_t>(slot * warpsPerBlock + i)] = w.ops != nullptr && !w.ops->empty() ? w.readyAt : kNever;
      w.stallReason = StallReason::Wait;
      w.stallSince = stepTime_;  // `now` may be later: a block starts when the previous one completes
      w.selected = false;
      std::fill(w.regReady.begin(), w.regReady.end(), 0.0);
      w.live = w.ops != nullptr && !w.ops->empty();
      if (w.live) {
        addUngrouped(w);
        if (w.scheduler <= evaluatedSchedulers_) noteEarliest(w.readyAt, stepTime_);
        w.op = &decodedOf((*w.ops)[0]);
        ++s.liveWarps;
        ++liveWarps_;
      }
    }
    if (s.liveWarps == 0) finishBlock(slot, now);
  }

  void finishBlock(int slot, double now) {
    Slot& s = slots_[static_cast<std::size_t>(slot)];
    completion_[s.blockIndex] = now;
    lastCompletion_ = std::max(lastCompletion_, now);
    s.block = nullptr;
    if (nextBlock_ < blocks_.size()) startBlock(slot, now);
  }

  // The warp's own part of evaluateRest (same-warp interval and scoreboard), which changes only
  // when the warp issues or leaves a barrier, so a busy resource does not redo it.
  void evaluateOwn(Warp& w) {
    const Decoded& d = *w.op;
    double t = w.readyAt;
    StallReason reason = StallReason::Wait;
    // Sources must be ready (RAW). A destination still pending from a variable-latency producer
    // must be too (WAW through the scoreboard); fixed-latency results retire in order.
    for (std::uint32_t i = d.regsBegin; i < d.defsEnd; ++i) {
      const std::uint32_t r = regs_[i];
      if (i >= d.usesEnd && w.regProducer[r] == Producer::Fixed) continue;
      if (w.regReady[r] > t) {
        t = w.regReady[r];
        reason = w.regProducer[r] == Producer::Long    ? StallReason::LongScoreboard
                 : w.regProducer[r] == Producer::Short ? StallReason::ShortScoreboard
                                                       : StallReason::Wait;
      }
    }
    w.ownReadyAt = t;
    w.ownReason = reason;
    w.groupKey = d.groupKey;
    if (d.port == Port::Global) {
      const WarpOp& op = (*w.ops)[w.next];
      const int sectors = op.memory != kNoMemory ? requestSectors(*w.block, op.memory) : 1;
      w.groupKey = sectors <= kMaxGroupedSectors ? kGlobalGroupKeys + sectors : -1;
    }
    w.unitSlot = unitSlot(static_cast<std::size_t>(w.scheduler), d.unit);
    w.ownValid = true;
  }

  // When warp `w` could issue its next instruction, and why it cannot before then, without the
  // scheduler term (applied in step()). Depends only on the warp's own state (readyAt, the
  // scoreboard of its registers, barrier) and the free time of the resource its next op needs,
  // so step() re-evaluates it only when one of those changed (resourceChangedAt).
  void evaluateRest(Warp& w) {
    w.restValid = true;
    if (w.atBarrier) {
      w.restAt = kNever;
      w.restReason = StallReason::Barrier;
      w.evaluatedAt = version_;
      return;
    }
    const WarpOp& op = (*w.ops)[w.next];
    const Decoded& d = *w.op;
    if (!w.ownValid) evaluateOwn(w);
    double t = w.ownReadyAt;
    StallReason reason = w.ownReason;
    switch (d.port) {
      case Port::Alu:
        if (const double u = unitFreeAt_[w.unitSlot]; u > t) {
          t = u;
          reason = StallReason::MathPipeThrottle;
        }
        break;
      case Port::Shared:
        if (mioFreeAt_ > t) {
          t = mioFreeAt_;
          reason = StallReason::MioThrottle;
        }
        if (d.sharedOperand) {
          if (const double u = unitFreeAt_[w.unitSlot]; u > t) {
            t = u;
            reason = StallReason::MathPipeThrottle;
          }
        }
        break;
      case Port::Global: {
        double u = lsuFreeAt_;
        const int sectors = op.memory != kNoMemory ? requestSectors(*w.block, op.memory) : 1;
        u = std::max(u, memory_.nextAcceptTime(std::max(t, u), sectors));
        if (u > t) {
          t = u;
          reason = StallReason::LgThrottle;
        }
        break;
      }
      case Port::Constant:
        if (lsuFreeAt_ > t) {
          t = lsuFreeAt_;
          reason = StallReason::LgThrottle;
        }
        break;
    }
    w.restAt = t;
    w.restReason = reason;
    w.evaluatedAt = version_;
  }

  // The last time (a value of version_) the resources warp w's next op waits for changed. The
  // memory system's answer changes only when a request is issued (nextAcceptTime is a function of
  // what is in flight), so global requests count as a change of the LSU.
  std::uint64_t resourceChangedAt(const Warp& w) const {
    const Decoded& d = *w.op;
    const std::size_t unit = w.unitSlot;
    switch (d.port) {
      case Port::Alu: return unitChangedAt_[unit];
      case Port::Shared: return d.sharedOperand ? std::max(mioChangedAt_, unitChangedAt_[unit]) : mioChangedAt_;
      case Port::Global:
      case Port::Constant: return lsuChangedAt_;
    }
    return version_;
  }

  // Ends warp w's current stall at `now` (charging it to its reason and next pc) and starts one
  // for `reason`.
  void restartStall(Warp& w, StallReason reason, double now) {
    chargeStall(w, now);
    w.stallReason = reason;
    w.stallSince = now;
  }

  void chargeStall(Warp& w, double until) {
    const double cycles = until - w.stallSince;
    if (cycles > 0) {
      w.stalled[static_cast<std::size_t>(w.stallReason)] += cycles;
      w.stalledReasons |= 1u << static_cast<unsigned>(w.stallReason);
    }
  }

  // Moves warp w's stall cycles to its next pc (before it issues) and the totals.
  void flushStalls(Warp& w) {
    auto& cost = result_.perInstruction[(*w.ops)[w.next].pc];
    for (std::uint32_t left = w.stalledReasons; left != 0; left &= left - 1) {
      const int r = std::countr_zero(left);
      const double cycles = w.stalled[static_cast<std::size_t>(r)];
      if (cycles == 0) continue;
      result_.stalls[r] += cycles;
      cost.stalls[r] += cycles;
      cost.stallCycles += cycles;
      w.stalled[static_cast<std::size_t>(r)] = 0;
    }
    w.stalledReasons = 0;
  }

  int requestSectors(const BlockTrace& block, std::uint32_t memoryIndex) const {
    const MemoryRequest& m = block.memory[memoryIndex];
    return config_.perfectCoalescing ? m.minimalSectors : m.sectorCount;
  }

  void addUngrouped(Warp& w) {
    auto& list = ungrouped_[static_cast<std::size_t>(w.scheduler)];
    w.listIndex = static_cast<int>(list.size());
    list.push_back(static_cast<int>(&w - warps_.data()));
  }

  void removeUngrouped(Warp& w) {
    auto& list = ungrouped_[static_cast<std::size_t>(w.scheduler)];
    const int moved = list.back();
    list[static_cast<std::size_t>(w.listIndex)] = moved;
    warps_[static_cast<std::size_t>(moved)].listIndex = w.listIndex;
    list.pop_back();
    w.listIndex = -1;
  }

  // How far ahead of `now` the resource of each group key can be busy: an issue at or before now
  // frees it at most this much later (the longest unit interval, shared-memory replay or LSU
  // transfer of any request in the blocks).
  void computeSettleMargins() {
    double longestInterval = 0;
    for (const double interval : config_.unitInterval) longestInterval = std::max(longestInterval, interval);
    int mostWavefronts = 1, mostSectors = 0;
    for (const BlockTrace& block : blocks_)
      for (const MemoryRequest& m : block.memory) {
        mostWavefronts = std::max({mostWavefronts, int{m.wavefronts}, int{m.idealWavefronts}});
        mostSectors = std::max({mostSectors, int{m.sectorCount}, int{m.minimalSectors}});
      }
    const double mioSpan = std::max(longestInterval, mostWavefronts * config_.sharedWavefrontCycles);
    const double lsuSpan = std::max(longestInterval, config_.lsuBytesPerCycle > 0
                                                         ? mostSectors * config_.sectorBytes / config_.lsuBytesPerCycle : 0.0);
    for (int key = 0; key < kGroupKeys; ++key) {
      double span = key < kFusedGroupKeys ? config_.unitInterval[static_cast<std::size_t>(key)]
                    : key < kMioGroupKey  ? std::max(config_.unitInterval[static_cast<std::size_t>(key - kFusedGroupKeys)], mioSpan)
                    : key == kMioGroupKey ? mioSpan
                                          : lsuSpan;
      // The scheduler term: it is free at most one issue interval after now.
      settleMargin_[static_cast<std::size_t>(key)] = std::max(span, config_.issueIntervalCycles);
    }
  }

  // A warp whose own time O is more than its resource's settle margin away cannot change its
  // evaluation before O - margin: the resource and the scheduler are free by O whatever issues
  // until then, so it waits for its own reason until O. Such a warp (and one at a barrier, until
  // the release) sleeps out of the per-step loop. Global requests do not sleep: the C_mem answer
  // changes with every request.
  bool sleepIfSettled(Warp& w, double now) {
    double wakeAt = kNever;
    if (!w.atBarrier) {
      if (w.groupKey < 0 || w.groupKey >= kGlobalGroupKeys) return false;
      wakeAt = w.ownReadyAt - settleMargin_[static_cast<std::size_t>(w.groupKey)];
      // A short sleep costs more (the queue) than the few evaluations it saves.
      if (wakeAt <= now + kShortestSleep) return false;
    }
    removeUngrouped(w);
    w.asleep = true;
    ++w.sleepCount;
    if (wakeAt != kNever) wakeQueue_.push(SleepEntry{wakeAt, static_cast<int>(&w - warps_.data()), w.sleepCount});
    return true;
  }

  void noteEarliest(double t, double now) {
    if (t > now) futureEarliest_ = std::min(futureEarliest_, t);
    else ++eligibleEntries_;
  }

  void wake(Warp& w) {
    w.asleep = false;
    addUngrouped(w);
  }

  bool isCurrent(const SleepEntry& e) const {
    const Warp& w = warps_[static_cast<std::size_t>(e.warp)];
    return w.asleep && w.sleepCount == e.sleepCount;
  }

  void wakeDue(double now) {
    while (!wakeQueue_.empty() && wakeQueue_.top().time <= now) {
      const SleepEntry e = wakeQueue_.top();
      wakeQueue_.pop();
      if (isCurrent(e)) wake(warps_[static_cast<std::size_t>(e.warp)]);
    }
  }

  // Warp w (whose stall reason is already the group's at `now`) joins its ready group.
  void joinGroup(Warp& w, double now) {
    const std::size_t s = static_cast<std::size_t>(w.scheduler);
    const int index = static_cast<int>(s) * kGroupKeys + w.groupKey;
    ReadyGroup& g = groups_[static_cast<std::size_t>(index)];
    chargeStall(w, now);
    removeUngrouped(w);
    if (g.count++ == 0) {
      nonEmptyGroups_[s].push_back(index);
      g.reason = w.stallReason;
      g.since = now;
    }
    g.advance(now);
    w.groupSpentAtJoin = g.spent;
    w.group = index;
    g.members[static_cast<std::size_t>(w.position) / 64] |= std::uint64_t{1} << (w.position % 64);
  }

  // Warp w leaves its group at `now` (to issue): charged the group's stall time since it joined.
  void leaveGroup(Warp& w, double now) {
    ReadyGroup& g = groups_[static_cast<std::size_t>(w.group)];
    g.advance(now);
    for (std::size_t i = 0; i < kGroupReasons.size(); ++i) {
      w.stalled[static_cast<std::size_t>(kGroupReasons[i])] += g.spent[i] - w.groupSpentAtJoin[i];
      w.stalledReasons |= 1u << static_cast<unsigned>(kGroupReasons[i]);
    }
    w.stallReason = g.reason;
    w.stallSince = now;
    earliest_[static_cast<std::size_t>(&w - warps_.data())] = g.earliest;
    noteEarliest(g.earliest, now);  // it joins the ungrouped warps with the group's time
    g.members[static_cast<std::size_t>(w.position) / 64] &= ~(std::uint64_t{1} << (w.position % 64));
    if (--g.count == 0) {
      --eligibleEntries_;  // the group was eligible (a member issues)
      auto& list = nonEmptyGroups_[static_cast<std::size_t>(w.scheduler)];
      list.erase(std::find(list.begin(), list.end(), w.group));
    }
    w.group = -1;
    addUngrouped(w);
  }

  // The time group key's resource is free for scheduler s, and the throttle reason until then
  // (evaluateRest's resource terms for a warp whose own time has passed).
  std::pair<double, StallReason> groupResource(std::size_t s, int key, ReadyGroup& g) const {
    if (key < kFusedGroupKeys) return {unitFreeAt_[unitSlot(s, key)], StallReason::MathPipeThrottle};
    if (key < kMioGroupKey) {
      const double unit = unitFreeAt_[unitSlot(s, key - kFusedGroupKeys)];
      return unit > mioFreeAt_ ? std::pair{unit, StallReason::MathPipeThrottle} : std::pair{mioFreeAt_, StallReason::MioThrottle};
    }
    if (key == kMioGroupKey) return {mioFreeAt_, StallReason::MioThrottle};
    if (key == kLsuGroupKey) return {lsuFreeAt_, StallReason::LgThrottle};
    // A global request of `sectors` from a warp whose own time t <= now: evaluateRest's
    // max(LSU, nextAcceptTime(max(t, LSU))) is past now exactly when this is, and then equal to
    // it: past the LSU, the time C_mem admits the request does not depend on where the search
    // starts (the in-flight sector that has to complete), and whether it admits it by now does
    // not depend on t.
    if (g.lsuVersion != lsuChangedAt_) {
      const int sectors = key - kGlobalGroupKeys;
      g.globalFreeAt = std::max(lsuFreeAt_, memory_.nextAcceptTime(lsuFreeAt_, sectors));
      g.lsuVersion = lsuChangedAt_;
    }
    return {g.globalFreeAt, StallReason::LgThrottle};
  }

  // The scheduler's choice among eligible warps, built up candidate by candidate.
  struct Choice {
    int warp = -1;
    int distance = std::numeric_limits<int>::max();  // loose round-robin: positions after `start`
    std::uint64_t age = std::numeric_limits<std::uint64_t>::max();
  };

  void consider(Choice& choice, int wi, int start, int n, std::size_t s) const {
    const Warp& w = warps_[static_cast<std::size_t>(wi)];
    switch (config_.policy) {
      case SchedulerPolicy::LooseRoundRobin: {
        const int distance = w.position >= start ? w.position - start : w.position + n - start;
        if (distance < choice.distance) choice.distance = distance, choice.warp = wi;
        break;
      }
      case SchedulerPolicy::GreedyThenOldest:
        if (wi == lastIssued_[s]) {
          choice.warp = wi;
          choice.age = 0;
        } else if (w.age < choice.age) {
          choice.warp = wi;
          choice.age = w.age;
        }
        break;
      case SchedulerPolicy::OldestFirst:
        if (w.age < choice.age) choice.age = w.age, choice.warp = wi;
        break;
    }
  }

  // Every member of an eligible group is eligible; loose round-robin needs only its first member
  // at or after `start` (cyclically), the age-based policies look at all of them.
  void considerGroup(Choice& choice, const ReadyGroup& g, int start, int n, std::size_t s) const {
    const auto& mine = schedulerWarps_[s];
    const std::size_t words = g.members.size();
    if (config_.policy == SchedulerPolicy::LooseRoundRobin) {
      // Words from the one holding `start` on, wrapping round; the last round re-reads that word
      // whole (the positions before `start`).
      std::size_t word = static_cast<std::size_t>(start) / 64;
      std::uint64_t bits = g.members[word] & (~std::uint64_t{0} << (start % 64));
      for (std::size_t k = 0; k <= words; ++k) {
        if (bits != 0) {
          const int position = static_cast<int>(word * 64) + std::countr_zero(bits);
          consider(choice, mine[static_cast<std::size_t>(position)], start, n, s);
          return;
        }
        word = word + 1 == words ? 0 : word + 1;
        bits = g.members[word];
      }
      return;
    }
    for (std::size_t word = 0; word < words; ++word)
      for (std::uint64_t bits = g.members[word]; bits != 0; bits &= bits - 1)
        consider(choice, mine[word * 64 + static_cast<std::size_t>(std::countr_zero(bits))], start, n, s);
  }

  // One decision time: each scheduler in turn re-evaluates its ungrouped warps (moving those whose
  // own operands are ready into their group), updates its groups' reasons, and issues the warp its
  // policy picks among the eligible ones.
  bool step(double now) {
    wakeDue(now);
    futureEarliest_ = kNever;
    eligibleEntries_ = 0;
    bool issuedAny = false;
    const int schedulers = static_cast<int>(schedulerFreeAt_.size());
    for (int s = 0; s < schedulers; ++s) {
      evaluatedSchedulers_ = s;
      const auto su = static_cast<std::size_t>(s);
      const int n = static_cast<int>(schedulerWarps_[su].size());
      const double schedulerFree = schedulerFreeAt_[su];
      // Loose round-robin starts after the last issued warp (positions within this scheduler).
      int start = 0;
      if (config_.policy == SchedulerPolicy::LooseRoundRobin && lastIssued_[su] >= 0)
        start = lastIssuedPos_[su] + 1 >= n ? 0 : lastIssuedPos_[su] + 1;  // no division per step
      Choice choice;
      auto& ungrouped = ungrouped_[su];
      for (std::size_t k = 0; k < ungrouped.size();) {
        const int wi = ungrouped[k];
        Warp& w = warps_[static_cast<std::size_t>(wi)];
        if (!w.restValid || (!w.atBarrier && resourceChangedAt(w) > w.evaluatedAt)) evaluateRest(w);
        double t = w.restAt;
        StallReason reason = w.restReason;
        if (!w.atBarrier && schedulerFree > t) {
          t = schedulerFree;
          reason = StallReason::NotSelected;
        }
        earliest_[static_cast<std::size_t>(wi)] = t;
        if (t > now) {
          if (reason != w.stallReason) restartStall(w, reason, now);
        } else if (w.stallReason != StallReason::NotSelected) {
          restartStall(w, StallReason::NotSelected, now);
        }
        if (!w.atBarrier && w.groupKey >= 0 && w.ownReadyAt <= now) {
          joinGroup(w, now);  // moves the last ungrouped warp to k
          continue;
        }
        if (t > now && sleepIfSettled(w, now)) continue;  // likewise
        if (t <= now) consider(choice, wi, start, n, su);
        noteEarliest(t, now);
        ++k;
      }
      for (const int index : nonEmptyGroups_[su]) {
        ReadyGroup& g = groups_[static_cast<std::size_t>(index)];
        const auto [free, throttle] = groupResource(su, index - s * kGroupKeys, g);
        const StallReason reason = free <= now || schedulerFree > free ? StallReason::NotSelected : throttle;
        if (reason != g.reason) {
          g.advance(now);
          g.reason = reason;
        }
        g.earliest = std::max(free, schedulerFree);
        noteEarliest(g.earliest, now);
        if (g.earliest <= now) considerGroup(choice, g, start, n, su);
      }
      if (choice.warp >= 0) {
        Warp& w = warps_[static_cast<std::size_t>(choice.warp)];
        if (config_.policy == SchedulerPolicy::LooseRoundRobin) lastIssuedPos_[su] = w.position;
        if (w.group >= 0) leaveGroup(w, now);
        issue(w, now);
        lastIssued_[su] = choice.warp;
        schedulerFreeAt_[su] = now + config_.issueIntervalCycles;
        issuedAny = true;
      }
    }
    evaluatedSchedulers_ = -1;
    return issuedAny;
  }

  void issue(Warp& w, double now) {
    const WarpOp& op = (*w.ops)[w.next];
    const Decoded& d = *w.op;
    // Issued: "selected" for its first cycle (counted below), waiting for its same-warp interval
    // for the rest of the step (endSelection), charged to its next pc.
    chargeStall(w, now);
    flushStalls(w);
    w.stallReason = StallReason::Wait;
    w.stallSince = now;
    w.selected = true;
    selectedWarps_.push_back(&w);
    ++version_;
    const std::size_t s = static_cast<std::size_t>(w.scheduler);
    double complete = now + d.latency;
    double busy = d.unitInterval;
    MemoryCounters& mc = result_.memory;
    switch (d.port) {
      case Port::Alu:
        unitFreeAt_[unitSlot(s, d.unit)] = now + d.unitInterval;
        unitChangedAt_[unitSlot(s, d.unit)] = version_;
        break;
      case Port::Shared: {
        const MemoryRequest* m = op.memory != kNoMemory ? &w.block->memory[op.memory] : nullptr;
        const int waves = m == nullptr ? 1 : std::max<int>(1, config_.noBankConflicts ? m->idealWavefronts : m->wavefronts);
        busy = std::max(d.unitInterval, waves * config_.sharedWavefrontCycles);
        mioFreeAt_ = now + busy;
        mioChangedAt_ = version_;
        if (d.sharedOperand) {
          // Lai §3.2.3.3: the fused instruction's latency grows with each replayed wavefront.
          const int ideal = m == nullptr ? 1 : std::max<int>(1, m->idealWavefronts);
          complete = now + d.latency + std::max(0, waves - ideal) * replayLatency();
          unitFreeAt_[unitSlot(s, d.unit)] = now + d.unitInterval;
          unitChangedAt_[unitSlot(s, d.unit)] = version_;
        } else {
          complete = now + config_.sharedLatency + (waves - 1) * replayLatency();
        }
        ++mc.sharedRequests;
        mc.sharedWavefronts += static_cast<std::uint64_t>(waves);
        break;
      }
      case Port::Global: {
        const MemoryRequest* m = op.memory != kNoMemory ? &w.block->memory[op.memory] : nullptr;
        const int sectors = m == nullptr ? 0 : requestSectors(*w.block, op.memory);
        const std::uint64_t* list = m == nullptr ? nullptr : w.block->sectors.data() + m->firstSector;
        busy = std::max(d.unitInterval, config_.lsuBytesPerCycle > 0 ? sectors * config_.sectorBytes / config_.lsuBytesPerCycle : 0.0);
        lsuFreeAt_ = now + busy;
        lsuChangedAt_ = version_;
        if (d.kind == trace::InstrKind::Load) {
          ++mc.globalLoads;
          complete = memory_.load(now, list, sectors, d.viaL1, mc);
        } else if (d.kind == trace::InstrKind::Store) {
          ++mc.globalStores;
          memory_.store(now, list, sectors, mc);
          complete = now + d.latency;
        } else {
          ++mc.atomics;
          complete = memory_.atomic(now, list, sectors, mc);
        }
        break;
      }
      case Port::Constant:
        lsuFreeAt_ = now + d.unitInterval;
        lsuChangedAt_ = version_;
        complete = now + config_.l1HitLatency;
        break;
    }
    for (std::uint32_t i = d.usesEnd; i < d.defsEnd; ++i) {
      w.regReady[regs_[i]] = complete;
      w.regProducer[regs_[i]] = d.produces;
    }
    w.readyAt = now + d.sameWarp;
    ++unitIssued_[static_cast<std::size_t>(d.unit)];
    unitBusy_[static_cast<std::size_t>(d.unit)] += busy;
    loads_.add(d.unit, now, std::max(complete, now + busy));
    ++result_.warpInstructions;
    result_.stalls[static_cast<int>(StallReason::Selected)] += 1.0;
    ++result_.perInstruction[op.pc].issued;
    recordTimeline(w, op.pc, now, complete);
    if (d.readsClock) result_.clockReads.push_back(ClockRead{w.block->block, w.warpInBlock, now});
    ++w.next;
    w.restValid = false;
    w.ownValid = false;

    Slot& slot = slots_[static_cast<std::size_t>(w.slot)];
    if (d.kind == trace::InstrKind::Barrier) {
      w.atBarrier = true;
      ++slot.arrived;
    }
    if (w.next < w.ops->size()) {
      w.op = &decodedOf((*w.ops)[w.next]);
    } else {
      w.live = false;
      removeUngrouped(w);
      --eligibleEntries_;  // it was eligible (it issued)
      earliest_[static_cast<std::size_t>(&w - warps_.data())] = kNever;
      w.atBarrier = false;
      --liveWarps_;
      --slot.liveWarps;
      if (d.kind == trace::InstrKind::Barrier) --slot.arrived;
    }
    releaseBarrierIfComplete(w.slot, now);
    if (slot.liveWarps == 0) finishBlock(w.slot, std::max(now + busy, complete));
  }

  void releaseBarrierIfComplete(int slotIndex, double now) {
    Slot& slot = slots_[static_cast<std::size_t>(slotIndex)];
    if (slot.arrived == 0 || slot.arrived < slot.liveWarps) return;
    const int warpsPerBlock = static_cast<int>(kernel_.warpsPerBlock());
    for (int i = 0; i < warpsPerBlock; ++i) {
      Warp& w = warps_[static_cast<std::size_t>(slotIndex * warpsPerBlock + i)];
      if (w.live && w.atBarrier) {
        if (w.asleep) {
          wake(w);
          if (w.scheduler <= evaluatedSchedulers_) noteEarliest(earliest_[static_cast<std::size_t>(&w - warps_.data())], now);
        }
        w.atBarrier = false;
        w.readyAt = std::max(w.readyAt, now + config_.barrierLatency);
        w.restValid = false;
        w.ownValid = false;
      }
    }
    slot.arrived = 0;
  }

  void recordTimeline(const Warp& w, std::uint32_t pc, double issue, double complete) {
    if (w.block != &blocks_.front() || static_cast<int>(w.warpInBlock) >= options_.timelineWarps) return;
    if (static_cast<int>(w.next) >= options_.timelineInstructions) return;
    result_.timeline.push_back(TimelineEntry{w.block->block, w.warpInBlock, pc, issue, complete});
  }

  // The earliest times computed in step() are lower bounds (later issues only delay warps), so the
  // next moment anything can happen is the smallest of them after `now`, or the next issue slot.
  double nextDecisionTime(double now, bool issued) {
    double next = issued ? now + config_.issueIntervalCycles : kNever;
    const double eligibleNext = now + std::min(1.0, config_.issueIntervalCycles);  // eligible, not picked
    auto include = [&](double t) { next = std::min(next, t > now ? t : eligibleNext); };
    // Every ungrouped warp's and non-empty group's earliest time, as noted when it was set.
    next = std::min(next, futureEarliest_);
    if (eligibleEntries_ > 0) next = std::min(next, eligibleNext);
    // A sleeping warp's earliest time (its own time) lies past its wake time, so only those due
    // before `next` can lower it; they are woken now, which is what the next step would do.
    while (!wakeQueue_.empty() && wakeQueue_.top().time < next) {
      const SleepEntry e = wakeQueue_.top();
      wakeQueue_.pop();
      if (!isCurrent(e)) continue;
      include(earliest_[static_cast<std::size_t>(e.warp)]);
      wake(warps_[static_cast<std::size_t>(e.warp)]);
    }
    if (next == kNever) next = now + 1;  // every warp waits at a barrier: cannot happen with a valid trace
    return next;
  }

  // Stall accounting is lazy: each live warp's stall reason holds from when it last changed (in
  // step(), issue() or startBlock()) until it changes again, and is charged then; the sum over
  // reasons is the warp-cycles of live warps. A warp issued at `now` is "selected" for
  // min(1, next - now) cycles (counted at issue) and waits for the rest of the step.
  void endSelection(double now, double next) {
    for (Warp* w : selectedWarps_) {
      if (!w->selected) continue;  // its block finished and the slot restarted
      w->selected = false;
      w->stallSince = now + std::min(1.0, next - now);
    }
    selectedWarps_.clear();
  }

  const TimingConfig& config_;
  const trace::KernelInfo& kernel_;
  const EngineOptions& options_;
  const std::vector<BlockTrace>& blocks_;
  TimingResult& result_;
  MemorySystem memory_;
  UnitLoad loads_;

  std::vector<Decoded> decoded_;
  std::vector<Decoded> fused_;  // per pc: the shared-operand form (only where takesSharedOperand)
  std::vector<std::uint32_t> regs_;
  std::uint32_t registerCount_ = 0;
  std::vector<Warp> warps_;
  std::vector<Slot> slots_;
  std::vector<double> schedulerFreeAt_;
  std::vector<int> lastIssued_;
  std::vector<int> lastIssuedPos_ = std::vector<int>(64, -1);
  std::vector<std::vector<int>> schedulerWarps_;
  // Per warp outside a group (ungrouped or asleep): its earliest time as of its last evaluation
  // (kNever when not live); a group keeps its members' in ReadyGroup::earliest.
  std::vector<double> earliest_;
  std::vector<std::vector<int>> ungrouped_;       // per scheduler: live warps not in a ReadyGroup
  std::vector<ReadyGroup> groups_;                // [scheduler * kGroupKeys + key]
  std::vector<std::vector<int>> nonEmptyGroups_;  // per scheduler: indices into groups_
  std::array<double, kGroupKeys> settleMargin_{};
  // The earliest times of the step's entries (ungrouped warps and non-empty groups), kept as they
  // are set for nextDecisionTime: the smallest after `now`, and how many are at or before it (an
  // entry removed before nextDecisionTime is always one of these: only eligible warps issue).
  double futureEarliest_ = kNever;
  int eligibleEntries_ = 0;
  int evaluatedSchedulers_ = -1;  // during step(): the last scheduler whose entries were noted
  SleepQueue wakeQueue_;  // sleeping warps by when they must be evaluated again
  std::vector<double> unitFreeAt_;
  // Resource versions for re-evaluating warps only when what they wait for changed.
  std::uint64_t version_ = 1;
  std::vector<std::uint64_t> unitChangedAt_;
  std::uint64_t mioChangedAt_ = 0, lsuChangedAt_ = 0;
  std::vector<Warp*> selectedWarps_;
  double stepTime_ = 0;
  double mioFreeAt_ = 0, lsuFreeAt_ = 0;
  std::array<std::uint64_t, kClassCount> unitIssued_{};
  std::array<double, kClassCount> unitBusy_{};
  std::vector<double> completion_;
  std::size_t nextBlock_ = 0;
  std::uint64_t ageCounter_ = 0;
  int liveWarps_ = 0;
  double lastCompletion_ = 0;
};

}  // namespace

std::vector<double> simulateSm(const TimingConfig& config, const trace::KernelInfo& kernel, const EngineOptions& options,
                               const std::vector<BlockTrace>& blocks, WriteBack writeBack, double ownFetchFraction,
                               TimingResult& result) {
  Sm sm(config, kernel, options, blocks, writeBack, ownFetchFraction, result);
  return sm.run();
}

}  // namespace teg::timing::detail
