#include "sm_model.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

#include "block_trace.hpp"
#include "decoded_program.hpp"
#include "memory_system.hpp"
#include "unit_load.hpp"

namespace teg::timing::detail {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// Ready groups. Once a warp's own state (same-warp interval, scoreboard) no longer holds it back,
// when it can issue and why it cannot depend only on its scheduler and the resource its next op
// needs: t = max(resource free, scheduler free), reason NotSelected when t <= now or the scheduler
// is the later of the two, else the resource's throttle reason. So all such warps of a scheduler
// waiting for the same resource share one reason at every moment, and their stall time is charged
// per group: each group keeps the time it has spent in each reason, and a warp leaving it (to
// issue) is charged the difference since it joined.
// Keys (decoded_program.hpp): an ALU unit, a shared operand fused into an ALU instruction, the
// shared pipe (MIO), the LSU, or a global request of a given sector count: for a warp whose own
// time has passed, whether C_mem admits the request by now and, if not, when it will
// (MemorySystem::nextAcceptTime) depend only on the sector count (see resourceFree).

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
  int key = 0;
  std::vector<std::uint64_t> members;  // bit per position in the scheduler's warp list
  int count = 0;
  StallReason reason = StallReason::NotSelected;
  double since = 0;
  // The reason becomes `after` at switchAt, without an event of its own (see Sm::refresh).
  double switchAt = kNever;
  StallReason after = StallReason::NotSelected;
  // Its members were eligible at their scheduler's last turn, which issued another warp: they
  // count as not selected for that issue slot, until this time (Nsight Compute's not_selected: the
  // warp could have issued, another was picked), even if the issue made their resource busy.
  double notSelectedUntil = -kNever;
  std::array<double, kGroupReasons.size()> spent{};  // cycles in each of kGroupReasons, up to `since`
  // Global keys: the resource's free time as of lsuVersion (a binary search of the C_mem queue,
  // repeated only when a request changed it).
  std::uint64_t lsuVersion = ~std::uint64_t{0};
  double globalFreeAt = 0;

  void advance(double now) {
    if (now > switchAt) {
      spent[groupReasonIndex(reason)] += switchAt - since;
      since = switchAt;
      reason = after;
      switchAt = kNever;
    }
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
  std::uint64_t age = 0;     // start order, for the age-based policies
  double readyAt = 0;        // same-warp interval (and block launch, barrier release)
  bool live = false;
  bool atBarrier = false;
  // Per register: when its value is ready and what kind of producer writes it (the scoreboard).
  struct Register {
    double readyAt = 0;
    Producer producer = Producer::Fixed;
  };
  std::vector<Register> regs;
  // SASS path: the six scoreboard barriers (when each clears, and what kind of producer set it
  // last) and the operand-reuse cache (the register each source slot holds, -1 none).
  std::array<Register, 6> barriers{};
  // cp.async groups per barrier (ControlWord::commitGroup / groupWaitBarrier): when the open
  // group's producers are done, the completion of the most recent committed groups (a ring,
  // newest at count - 1) and of all older ones together (settled).
  struct CopyGroups {
    static constexpr std::size_t kRecent = 8;
    double open = 0, settled = 0;
    std::array<double, kRecent> recent{};
    std::size_t count = 0;  // committed groups so far
    void commit() {
      if (count >= kRecent) settled = std::max(settled, recent[count % kRecent]);
      recent[count % kRecent] = open;
      ++count;
      open = 0;
    }
    // When every committed group but the `keep` most recent is done (PTX cp.async.wait_group
    // keep). Beyond the ring it waits for the groups older than the kRecent newest: longer, never
    // shorter, than the hardware.
    [[nodiscard]] double doneExceptRecent(std::size_t keep) const {
      double t = settled;
      const std::size_t inRing = std::min(count, kRecent);
      for (std::size_t i = std::min(keep, inRing); i < inRing; ++i) t = std::max(t, recent[(count - 1 - i) % kRecent]);
      return t;
    }
  };
  std::array<CopyGroups, 6> copyGroups{};
  trace::OperandSlots reuseCache = trace::kNoOperandSlots;
  const Decoded* op = nullptr;  // decoded next op
  // evaluateOwn: when the warp's own state lets its next op issue, and why it cannot before then.
  double ownReadyAt = 0;
  StallReason ownReason = StallReason::Wait;
  int groupKey = 0;          // the ReadyGroup key of its next op
  // Stall accounting: the wait for its next op began at waitFrom (the cycle after its last issue,
  // its block's start, its barrier's release); cycles are charged by interval as they become
  // known and moved to the next op's pc when it issues.
  double waitFrom = 0;
  std::array<double, kStallReasonCount> stalled{};
  std::uint32_t stalledReasons = 0;  // bit r: stalled[r] may be non-zero (flushStalls visits only those)
  static_assert(kStallReasonCount <= 32, "stalledReasons has a bit per stall reason");
  int position = 0;  // in its scheduler's warp list
  int group = -1;    // index into Sm::groups_ while in a ReadyGroup, or -1
  std::array<double, kGroupReasons.size()> groupSpentAtJoin{};
};

// A warp waiting to join its ready group: `at` is the earliest it could issue as far as known
// when it started waiting (its own ready time, its resource's and its scheduler's free times).
struct Pending {
  double at = 0;
  int warp = 0;
};

// One warp scheduler and the state of its warps' waits. Every live warp not at a barrier is either
// pending (it cannot issue before `at`) or in the ReadyGroup of the resource its next op needs; so
// the scheduler has nothing to decide before `eventAt`, the earliest of its pending warps' times
// and its groups' earliest issue times. Resources only get busier between its turns, so these are
// lower bounds: a turn at eventAt may find nothing eligible, never miss a warp that was.
struct Scheduler {
  std::vector<int> warps;            // warp indices by position
  // Unordered, with its earliest `at` kept: a scheduler has at most a few dozen warps, and a scan
  // of them at a due turn runs faster than a binary heap's push and pop for about as many
  // instructions, its branches being predictable (docs/timing.md, "Speed").
  std::vector<Pending> pending;
  double pendingMin = kNever;
  std::vector<int> groupOfKey;       // index into Sm::groups_ per key, -1 until first used
  std::vector<int> nonEmptyGroups;   // indices into Sm::groups_
  double freeAt = 0;                 // the next issue slot
  double eventAt = kNever;
  int lastIssued = -1, lastIssuedPos = -1;
};

struct Slot {
  const BlockTrace* block = nullptr;
  int liveWarps = 0;
  int arrived = 0;
  std::size_t blockIndex = 0;
  // When the block's last global atomic is performed at the L2. A reduction no warp waits for
  // (SASS RED, an atom whose result is never read) still has to be done before the block is:
  // the kernel's end makes every atomic's effect visible.
  double atomicsDoneAt = 0;
};

class Sm {
 public:
  Sm(const TimingConfig& config, const trace::KernelInfo& kernel, const EngineOptions& options,
     const std::vector<BlockTrace>& blocks, WriteBack writeBack, const L2Fetch& fetch,
     const AtomicContention& contention, TimingResult& result)
      : config_(config), kernel_(kernel), options_(options), blocks_(blocks), result_(result),
        memory_(config, writeBack, fetch.ownFetchFraction, fetch.laterWaveOwnFetchFraction),
        firstWaveBlocks_(fetch.firstWaveBlocks), loads_(kClassCount, options.loadBuckets) {
    memory_.setAtomicContention(&contention);
    program_ = decodeProgram(kernel_, config_);
    const int slots = std::max(1, options.residentBlocks);
    const int warpsPerBlock = static_cast<int>(kernel.warpsPerBlock());
    slots_.resize(static_cast<std::size_t>(slots));
    warps_.resize(static_cast<std::size_t>(slots * warpsPerBlock));
    schedulers_.resize(static_cast<std::size_t>(std::max(1, config.schedulers)));
    for (std::size_t w = 0; w < warps_.size(); ++w) {
      Warp& warp = warps_[w];
      warp.slot = static_cast<int>(w) / warpsPerBlock;
      warp.scheduler = static_cast<int>(w % schedulers_.size());
      warp.regs.assign(program_.registerCount, Warp::Register{});
      auto& list = schedulers_[static_cast<std::size_t>(warp.scheduler)].warps;
      warp.position = static_cast<int>(list.size());
      list.push_back(static_cast<int>(w));
    }
    int mostSectors = 0;
    for (const BlockTrace& block : blocks_)
      for (const MemoryRequest& m : block.memory) mostSectors = std::max({mostSectors, int{m.sectorCount}, int{m.minimalSectors}});
    const int keys = kGlobalGroupKeys + std::max(mostSectors, 1) + 1;  // a request without lanes counts 1
    for (Scheduler& s : schedulers_) s.groupOfKey.assign(static_cast<std::size_t>(keys), -1);
    // Groups are made on first use; reserving them all keeps references to them stable.
    groups_.reserve(schedulers_.size() * static_cast<std::size_t>(keys));
    unitFreeAt_.assign(schedulers_.size() * kClassCount, 0.0);
    computeUnitSlots();
    completion_.assign(blocks.size(), 0.0);
    result_.perInstruction.assign(kernel.instructions.size(), InstructionCost{});
  }

  std::vector<double> run() {
    for (std::size_t s = 0; s < slots_.size() && nextBlock_ < blocks_.size(); ++s) startBlock(static_cast<int>(s), 0.0);
    // Decision times: the earliest moment any scheduler can issue. At each, the schedulers due
    // take their turn in order (a later one sees what an earlier one issued at the same time); one
    // that has not issued yet and got an eligible warp after its turn (a barrier released by a later
    // scheduler's issue: the release costs timing.barrier_latency, 0 where not measured) takes
    // another.
    const std::size_t schedulers = schedulers_.size();
    while (liveWarps_ > 0) {
      double now = kNever;
      for (std::size_t s = 0; s < schedulers; ++s) now = std::min(now, schedulers_[s].eventAt);
      if (now == kNever) throw std::logic_error("timing engine: live warps but none can ever issue (a barrier no warp reaches?)");
      now_ = now;
      // The schedulers due take their turns from a rotating first one: the SM-wide units they
      // share (the LSU, the shared-memory pipe) go to their requests in turn, not always to
      // scheduler 0's first (which let its warps run ahead and leave the last warps, alone, too
      // few to keep the LSU busy: gpu-cache's 8 warps reached 81 % of the V100's L1).
      const std::size_t first = firstScheduler_;
      firstScheduler_ = (firstScheduler_ + 1) % schedulers;
      for (std::size_t k = 0; k < schedulers; ++k) {
        const std::size_t s = (first + k) % schedulers;
        if (schedulers_[s].eventAt <= now) visit(s, now);
      }
      while (readiedNow_) {
        readiedNow_ = false;
        for (std::size_t k = 0; k < schedulers; ++k) {
          const std::size_t s = (first + k) % schedulers;
          if (schedulers_[s].eventAt <= now) visit(s, now);
        }
      }
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
                                ? 1.0 : static_cast<double>(schedulers_.size());
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
  std::size_t unitSlot(std::size_t s, int unit) const { return unitSlots_[s * kClassCount + static_cast<std::size_t>(unit)]; }

  void computeUnitSlots() {
    unitSlots_.resize(schedulers_.size() * kClassCount);
    for (std::size_t s = 0; s < schedulers_.size(); ++s)
      for (int unit = 0; unit < kClassCount; ++unit) {
        const auto u = static_cast<std::size_t>(config_.pipe(unit));
        unitSlots_[s * kClassCount + static_cast<std::size_t>(unit)] = (config_.unitSharedBySm[u] ? 0 : s) * kClassCount + u;
      }
  }

  const Decoded& decodedOf(const WarpOp& op) const { return program_.of(op); }

  // Starts the next block in `slot` at `start` (which may be later than now_: a block starts when
  // the previous one's last request completes).
  void startBlock(int slot, double start) {
    const BlockTrace& block = blocks_[nextBlock_];
    Slot& s = slots_[static_cast<std::size_t>(slot)];
    s.block = &block;
    s.blockIndex = nextBlock_++;
    s.arrived = 0;
    s.liveWarps = 0;
    s.atomicsDoneAt = 0;
    const int warpsPerBlock = static_cast<int>(kernel_.warpsPerBlock());
    for (int i = 0; i < warpsPerBlock; ++i) {
      Warp& w = warps_[static_cast<std::size_t>(slot * warpsPerBlock + i)];
      w.block = &block;
      w.ops = i < static_cast<int>(block.warps.size()) ? &block.warps[static_cast<std::size_t>(i)] : nullptr;
      w.next = 0;
      w.warpInBlock = static_cast<std::uint32_t>(i);
      w.age = ageCounter_++;
      w.readyAt = start + config_.blockLaunchCycles;
      w.atBarrier = false;
      w.waitFrom = now_;
      for (Warp::Register& r : w.regs) r.readyAt = 0;  // producers stay: they only name stall reasons
      for (Warp::Register& b : w.barriers) b.readyAt = 0;
      w.copyGroups = {};
      w.reuseCache = trace::kNoOperandSlots;
      w.live = w.ops != nullptr && !w.ops->empty();
      if (w.live) {
        w.op = &decodedOf((*w.ops)[0]);
        ++s.liveWarps;
        ++liveWarps_;
        wait(w);
      }
    }
    if (s.liveWarps == 0) finishBlock(slot, start);
  }

  void finishBlock(int slot, double at) {
    Slot& s = slots_[static_cast<std::size_t>(slot)];
    completion_[s.blockIndex] = at;
    lastCompletion_ = std::max(lastCompletion_, at);
    s.block = nullptr;
    if (nextBlock_ < blocks_.size()) startBlock(slot, at);
  }

  // The warp's own part of when it can issue (same-warp interval and scoreboard), which changes
  // only when the warp issues or leaves a barrier.
  void evaluateOwn(Warp& w) {
    const Decoded& d = *w.op;
    double t = w.readyAt;
    StallReason reason = StallReason::Wait;
    // Sources must be ready (RAW). A destination still pending from a variable-latency producer
    // must be too (WAW through the scoreboard); fixed-latency results retire in order.
    const auto waitFor = [&](const Warp::Register& r) {
      if (r.readyAt > t) {
        t = r.readyAt;
        reason = r.producer == Producer::Long    ? StallReason::LongScoreboard
                 : r.producer == Producer::Short ? StallReason::ShortScoreboard
                                                 : StallReason::Wait;
      }
    };
    if (program_.sass) {
      // Volta and later: the instruction waits for every scoreboard barrier in its wait mask;
      // fixed-latency dependences are covered by the earlier instructions' stall counts (readyAt).
      for (std::uint32_t mask = d.control.waitMask; mask != 0; mask &= mask - 1)
        waitFor(w.barriers[static_cast<std::size_t>(std::countr_zero(mask))]);
      if (d.control.groupWaitBarrier >= 0) {
        // DEPBAR.LE SBk, N (cp.async.wait_group N): the groups on barrier k but the N most recent.
        const std::size_t k = static_cast<std::size_t>(d.control.groupWaitBarrier);
        waitFor(Warp::Register{w.copyGroups[k].doneExceptRecent(d.control.groupWaitKeep), Producer::Long});
      }
    } else {
      for (std::uint32_t i = d.regsBegin; i < d.usesEnd; ++i) waitFor(w.regs[program_.regs[i]]);
      for (std::uint32_t i = d.usesEnd; i < d.defsEnd; ++i) {
        const Warp::Register& r = w.regs[program_.regs[i]];
        if (r.producer != Producer::Fixed) waitFor(r);
      }
    }
    w.ownReadyAt = t;
    w.ownReason = reason;
    w.groupKey = d.groupKey;
    if (d.port != Port::Alu) {
      const WarpOp& op = (*w.ops)[w.next];
      if (op.activeMask == 0) w.groupKey = d.unit;  // no lane: it waits for no pipe (issue below)
      else if (d.port == Port::Global)
        w.groupKey = kGlobalGroupKeys + (op.memory != kNoMemory ? requestSectors(*w.block, op.memory) : 1);
    }
  }

  // Warp w (live, not at a barrier, its next op decoded) starts waiting: until its own time for
  // its own reason, then until its resource and its scheduler are free as far as known now (a
  // lower bound: they only get busier) for the resource's throttle reason (NotSelected if the
  // scheduler is the later). It joins its ready group then, where the group's reasons take over.
  void wait(Warp& w) {
    evaluateOwn(w);
    charge(w, w.ownReason, w.ownReadyAt - w.waitFrom);
    Scheduler& s = schedulers_[static_cast<std::size_t>(w.scheduler)];
    const auto [free, throttle] = resourceFree(static_cast<std::size_t>(w.scheduler), w.groupKey);
    const double joinAt = std::max({w.ownReadyAt, free, s.freeAt});
    charge(w, free > w.ownReadyAt && free >= s.freeAt ? throttle : StallReason::NotSelected,
           joinAt - std::max(w.ownReadyAt, w.waitFrom));
    s.pending.push_back(Pending{joinAt, static_cast<int>(&w - warps_.data())});
    s.pendingMin = std::min(s.pendingMin, joinAt);
    s.eventAt = std::min(s.eventAt, joinAt);
    if (joinAt <= now_) readiedNow_ = true;  // possibly after its scheduler's turn at now_
  }

  void charge(Warp& w, StallReason reason, double cycles) {
    if (cycles <= 0) return;
    w.stalled[static_cast<std::size_t>(reason)] += cycles;
    w.stalledReasons |= 1u << static_cast<unsigned>(reason);
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

  // Warp w, whose own time has come, joins the ready group of its next op's resource at `now`.
  void joinGroup(Warp& w, double now) {
    Scheduler& s = schedulers_[static_cast<std::size_t>(w.scheduler)];
    int& index = s.groupOfKey[static_cast<std::size_t>(w.groupKey)];
    if (index < 0) {
      index = static_cast<int>(groups_.size());
      ReadyGroup& made = groups_.emplace_back();
      made.key = w.groupKey;
      made.members.assign((s.warps.size() + 63) / 64, 0);
    }
    ReadyGroup& g = groups_[static_cast<std::size_t>(index)];
    if (g.count++ == 0) {
      s.nonEmptyGroups.push_back(index);
      g.since = now;  // its reason is set when the scheduler's groups are refreshed, at `now`
      g.switchAt = kNever;
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
    for (std::size_t i = 0; i < kGroupReasons.size(); ++i) charge(w, kGroupReasons[i], g.spent[i] - w.groupSpentAtJoin[i]);
    g.members[static_cast<std::size_t>(w.position) / 64] &= ~(std::uint64_t{1} << (w.position % 64));
    if (--g.count == 0) {
      auto& list = schedulers_[static_cast<std::size_t>(w.scheduler)].nonEmptyGroups;
      list.erase(std::find(list.begin(), list.end(), w.group));
    }
    w.group = -1;
  }

  // The time the resource of group key `key` is free for scheduler s, and the throttle reason until
  // then.
  std::pair<double, StallReason> resourceFree(std::size_t s, int key) const {
    if (key < kFusedGroupKeys) return {unitFreeAt_[unitSlot(s, key)], StallReason::MathPipeThrottle};
    if (key < kMioGroupKey) {
      const double unit = unitFreeAt_[unitSlot(s, key - kFusedGroupKeys)];
      return unit > mioFreeAt_ ? std::pair{unit, StallReason::MathPipeThrottle} : std::pair{mioFreeAt_, StallReason::MioThrottle};
    }
    if (key == kMioGroupKey) return {mioFreeAt_, StallReason::MioThrottle};
    if (key == kLsuGroupKey) return {lsuFreeAt_, StallReason::LgThrottle};
    // A global request of `sectors` from a warp whose own time t has passed: it can go once the
    // LSU is free and C_mem admits it. Past the LSU, the time C_mem admits the request does not
    // depend on where the search starts (the in-flight sector that has to complete).
    const int sectors = key - kGlobalGroupKeys;
    return {std::max(lsuFreeAt_, memory_.nextAcceptTime(lsuFreeAt_, sectors)), StallReason::LgThrottle};
  }

  // resourceFree for a group, whose global answer is kept until the LSU or C_mem change.
  std::pair<double, StallReason> groupResource(std::size_t s, ReadyGroup& g) const {
    if (g.key < kGlobalGroupKeys) return resourceFree(s, g.key);
    if (g.lsuVersion != lsuVersion_) {
      g.globalFreeAt = resourceFree(s, g.key).first;
      g.lsuVersion = lsuVersion_;
    }
    return {g.globalFreeAt, StallReason::LgThrottle};
  }

  // The scheduler's choice among eligible warps, built up candidate by candidate.
  struct Choice {
    int warp = -1;
    int distance = std::numeric_limits<int>::max();  // loose round-robin: positions after `start`
    std::uint64_t age = std::numeric_limits<std::uint64_t>::max();
    bool greedy = false;  // greedy-then-youngest: the last issued warp is the pick
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
        if (wi == schedulers_[s].lastIssued) {
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
      case SchedulerPolicy::GreedyThenYoungest:
        // Huerta et al. 2025 §5.1.2 (RTX A6000): the same warp while it is eligible; when switching,
        // the youngest eligible warp (the one started last).
        if (wi == schedulers_[s].lastIssued) {
          choice.warp = wi;
          choice.greedy = true;
        } else if (!choice.greedy && (choice.warp < 0 || w.age > warps_[static_cast<std::size_t>(choice.warp)].age)) {
          choice.warp = wi;
        }
        break;
    }
  }

  // Every member of an eligible group is eligible; loose round-robin needs only its first member
  // at or after `start` (cyclically), the age-based policies look at all of them.
  void considerGroup(Choice& choice, const ReadyGroup& g, int start, int n, std::size_t s) const {
    const auto& mine = schedulers_[s].warps;
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

  // Scheduler s's turn at `now`: its warps whose own time has come join their groups, it issues
  // the warp its policy picks among the eligible ones (every member of a group whose resource is
  // free, if the scheduler is), and its groups' reasons and its next event are brought up to date.
  void visit(std::size_t s, double now) {
    Scheduler& sc = schedulers_[s];
    if (sc.pendingMin <= now) {  // the due ones join their groups (in any order: nothing depends on it)
      double later = kNever;
      std::size_t kept = 0;
      for (const Pending& p : sc.pending) {
        if (p.at <= now) {
          joinGroup(warps_[static_cast<std::size_t>(p.warp)], now);
        } else {
          later = std::min(later, p.at);
          sc.pending[kept++] = p;
        }
      }
      sc.pending.resize(kept);
      sc.pendingMin = later;
    }
    if (sc.freeAt <= now) {
      const int n = static_cast<int>(sc.warps.size());
      // Loose round-robin starts after the last issued warp (positions within this scheduler).
      int start = 0;
      if (config_.policy == SchedulerPolicy::LooseRoundRobin && sc.lastIssued >= 0)
        start = sc.lastIssuedPos + 1 >= n ? 0 : sc.lastIssuedPos + 1;
      Choice choice;
      for (const int index : sc.nonEmptyGroups) {
        ReadyGroup& g = groups_[static_cast<std::size_t>(index)];
        if (groupResource(s, g).first <= now) {
          g.notSelectedUntil = now + config_.issueIntervalCycles;
          considerGroup(choice, g, start, n, s);
        }
      }
      if (choice.warp >= 0) {
        Warp& w = warps_[static_cast<std::size_t>(choice.warp)];
        sc.lastIssuedPos = w.position;
        sc.lastIssued = choice.warp;
        sc.freeAt = now + config_.issueIntervalCycles;
        leaveGroup(w, now);
        issue(w, now);
      }
    }
    refresh(s, now);
  }

  // Scheduler s's groups' reasons at `now` and its next event, after a change of the resources or
  // of the scheduler's own issue slot.
  void refresh(std::size_t s, double now) {
    Scheduler& sc = schedulers_[s];
    double next = sc.pendingMin;
    for (const int index : sc.nonEmptyGroups) {
      ReadyGroup& g = groups_[static_cast<std::size_t>(index)];
      const auto [free, throttle] = groupResource(s, g);
      StallReason reason = free <= now || sc.freeAt > free ? StallReason::NotSelected : throttle;
      double switchAt = kNever;
      StallReason after = StallReason::NotSelected;
      if (reason != StallReason::NotSelected && now < g.notSelectedUntil) {
        // Eligible at the scheduler's turn, which took its resource for another warp: not
        // selected for that issue slot, then throttled.
        after = reason;
        reason = StallReason::NotSelected;
        switchAt = g.notSelectedUntil;
      }
      if (reason != g.reason || switchAt != g.switchAt || after != g.after || g.switchAt <= now) {
        g.advance(now);
        g.reason = reason;
        g.switchAt = switchAt;
        g.after = after;
      }
      next = std::min(next, std::max(free, sc.freeAt));  // when a member could issue
    }
    sc.eventAt = next;
  }

  void issue(Warp& w, double now) {
    const WarpOp& op = (*w.ops)[w.next];
    const Decoded& d = *w.op;
    flushStalls(w);
    const std::size_t s = static_cast<std::size_t>(w.scheduler);
    double complete = now + d.latency;
    double busy = d.unitInterval;
    bool sharedResource = true;  // changed a resource other schedulers' warps may wait for
    MemoryCounters& mc = result_.memory;
    // A memory instruction whose guard is false on every lane (ptxas if-converts a short branch:
    // `@P0 LDG ...; @P0 STS ...` with P0 false for the whole warp) is scheduled but "instructions
    // with a false predicate do not write results, and also do not evaluate addresses or read
    // operands" (CUDA C++ Programming Guide, "Branch Predication"): it takes its issue slot and
    // nothing of the LSU, the shared pipe or the memory system. Its barrier clears as a store's
    // does, one class latency after issue.
    const bool noLanes = op.activeMask == 0 && d.port != Port::Alu;
    switch (noLanes ? Port::Alu : d.port) {
      case Port::Alu:
        if (noLanes) {
          busy = 0;
          sharedResource = false;
          break;
        }
        unitFreeAt_[unitSlot(s, d.unit)] = now + d.unitInterval;
        sharedResource = config_.unitSharedBySm[static_cast<std::size_t>(config_.pipe(d.unit))];
        break;
      case Port::Shared: {
        const MemoryRequest* m = op.memory != kNoMemory ? &w.block->memory[op.memory] : nullptr;
        const int waves = m == nullptr ? 1 : std::max<int>(1, config_.noBankConflicts ? m->idealWavefronts : m->wavefronts);
        // A shared atomic's passes (lanes on one word serialised) take timing.shared_atomic_cycles
        // each (a wavefront's where not given).
        const double perWave = d.kind == trace::InstrKind::Atomic && config_.sharedAtomicCycles > 0
                                   ? config_.sharedAtomicCycles
                                   : config_.sharedWavefrontCycles;
        busy = std::max(d.unitInterval, waves * perWave);
        mioFreeAt_ = now + busy;
        if (d.sharedOperand) {
          // Lai §3.2.3.3: the fused instruction's latency grows with each replayed wavefront.
          const int ideal = m == nullptr ? 1 : std::max<int>(1, m->idealWavefronts);
          complete = now + d.latency + std::max(0, waves - ideal) * replayLatency();
          unitFreeAt_[unitSlot(s, d.unit)] = now + d.unitInterval;
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
        // The LD/ST path is held for the request's bytes at the data path's width, or for the
        // wavefronts its lines need in the L1TEX tag stage (memory_system.cpp), whichever is longer.
        busy = std::max({d.unitInterval,
                         config_.lsuBytesPerCycle > 0 ? sectors * config_.sectorBytes / config_.lsuBytesPerCycle : 0.0,
                         static_cast<double>(memory_.l1TagWavefronts(list, sectors))});
        lsuFreeAt_ = now + busy;
        mc.lsuBusyCycles += busy;
        ++lsuVersion_;
        if (d.kind == trace::InstrKind::Load) {
          ++mc.globalLoads;
          // A block after the SM's first wave also finds what other SMs' first-wave blocks left in the L2.
          const bool laterWave = static_cast<std::size_t>(w.block - blocks_.data()) >= firstWaveBlocks_;
          complete = memory_.load(now, list, sectors, d.viaL1, mc, laterWave);
        } else if (d.kind == trace::InstrKind::Store) {
          ++mc.globalStores;
          // A perfectly coalesced store (the what-if) writes whole words.
          memory_.store(now, list, sectors, mc, config_.perfectCoalescing || m == nullptr ? 0 : m->partialWordSectors);
          complete = now + d.latency;
        } else {
          ++mc.atomics;
          complete = memory_.atomic(now, list, sectors, m == nullptr ? 1 : std::max<int>(1, m->sameWordLanes), mc);
          Slot& own = slots_[static_cast<std::size_t>(w.slot)];
          own.atomicsDoneAt = std::max(own.atomicsDoneAt, complete);
        }
        break;
      }
      case Port::Constant:
        lsuFreeAt_ = now + d.unitInterval;
        ++lsuVersion_;
        complete = now + config_.l1HitLatency;
        break;
    }
    double conflict = 0;  // SASS: cycles lost reading the sources from the register banks
    if (program_.sass) {
      conflict = bankConflictCycles(w, d);
      if (conflict > 0) {
        // The operands take that much longer to collect: the scheduler's next issue, this
        // warp's next instruction and the result all move by it.
        schedulers_[s].freeAt += conflict;
        complete += conflict;
        result_.registerBankConflictCycles += conflict;
      }
      // Scoreboard barriers are counters (Jia 2018): each instruction that sets one adds to it,
      // so it clears when the last of them is done: the write barrier when the result is
      // written, the read barrier when the sources have left for the unit (its issue cost).
      // A producer that is not a memory access (MUFU, S2R...) names the short scoreboard.
      const Producer kind = d.produces == Producer::Long ? Producer::Long : Producer::Short;
      const auto set = [&](int barrier, double at) {
        if (barrier < 0) return;
        Warp::Register& b = w.barriers[static_cast<std::size_t>(barrier)];
        if (at > b.readyAt) b = Warp::Register{at, kind};
      };
      set(d.control.writeBarrier, complete);
      set(d.control.readBarrier, now + busy + conflict);
      if (d.control.writeBarrier >= 0) {
        // A cp.async group gathers its barrier's producers until the LDGDEPBAR that commits it.
        Warp::CopyGroups& g = w.copyGroups[static_cast<std::size_t>(d.control.writeBarrier)];
        g.open = std::max(g.open, complete);
        if (d.control.commitGroup) g.commit();
      }
    } else {
      for (std::uint32_t i = d.usesEnd; i < d.defsEnd; ++i) {
        w.regs[program_.regs[i]] = Warp::Register{complete, d.produces};
      }
    }
    w.readyAt = now + d.sameWarp + conflict;
    ++unitIssued_[static_cast<std::size_t>(d.unit)];
    unitBusy_[static_cast<std::size_t>(d.unit)] += busy;
    loads_.add(d.unit, now, std::max(complete, now + busy));
    ++result_.warpInstructions;
    result_.stalls[static_cast<int>(StallReason::Selected)] += 1.0;  // its issue cycle
    InstructionCost& cost = result_.perInstruction[op.pc];
    ++cost.issued;
    if (d.firstStep) ++cost.executions;
    recordTimeline(w, op.pc, now, complete);
    if (d.readsClock) result_.clockReads.push_back(ClockRead{w.block->block, w.warpInBlock, now});
    w.waitFrom = now + 1;
    if (d.continuation >= 0) {  // the next step of its software sequence (an ALU step: no barrier, no memory)
      w.op = &program_.steps[static_cast<std::size_t>(d.continuation)];
      wait(w);
      if (sharedResource) refreshOtherSchedulers(s, now);
      return;
    }
    ++w.next;

    Slot& slot = slots_[static_cast<std::size_t>(w.slot)];
    if (d.kind == trace::InstrKind::Barrier) {
      w.atBarrier = true;
      ++slot.arrived;
    }
    if (w.next < w.ops->size()) {
      w.op = &decodedOf((*w.ops)[w.next]);
      if (!w.atBarrier) wait(w);
    } else {
      w.live = false;
      w.atBarrier = false;
      --liveWarps_;
      --slot.liveWarps;
      if (d.kind == trace::InstrKind::Barrier) --slot.arrived;
    }
    releaseBarrierIfComplete(w.slot, now);
    if (slot.liveWarps == 0) finishBlock(w.slot, std::max({now + busy, complete, slot.atomicsDoneAt}));
    if (sharedResource) refreshOtherSchedulers(s, now);
  }

  // Register-bank conflicts of a SASS instruction (timing.register_banks, where the generation's
  // mapping is published; Jia 2018/2019): its general-register sources, less those the operand-
  // reuse cache holds from the warp's previous instruction (same slot, same register), each read
  // once from bank R mod banks; a bank delivers registerBankReads a cycle. Updates the reuse
  // cache with this instruction's flags (a flag keeps the slot's value for the next instruction).
  double bankConflictCycles(Warp& w, const Decoded& d) const {
    std::array<int, 4> read{};
    int count = 0;
    for (std::size_t slot = 0; slot < d.slots.size(); ++slot) {
      const int r = d.slots[slot];
      if (r < 0 || r == w.reuseCache[slot]) continue;
      if (std::find(read.begin(), read.begin() + count, r) == read.begin() + count) read[static_cast<std::size_t>(count++)] = r;
    }
    for (std::size_t slot = 0; slot < d.slots.size(); ++slot)
      w.reuseCache[slot] = (d.control.reuse >> slot & 1u) != 0 ? d.slots[slot] : std::int16_t{-1};
    if (config_.registerBanks <= 0 || config_.registerBankReads <= 0 || count == 0) return 0;
    int worst = 0;
    for (int bank = 0; bank < config_.registerBanks; ++bank) {
      int inBank = 0;
      for (int i = 0; i < count; ++i) inBank += read[static_cast<std::size_t>(i)] % config_.registerBanks == bank;
      worst = std::max(worst, inBank);
    }
    return std::max(0, (worst + config_.registerBankReads - 1) / config_.registerBankReads - 1);
  }

  // After an issue by scheduler s that changed a resource the whole SM shares.
  void refreshOtherSchedulers(std::size_t s, double now) {
    for (std::size_t other = 0; other < schedulers_.size(); ++other)
      if (other != s) refresh(other, now);
  }

  void releaseBarrierIfComplete(int slotIndex, double now) {
    Slot& slot = slots_[static_cast<std::size_t>(slotIndex)];
    if (slot.arrived == 0 || slot.arrived < slot.liveWarps) return;
    const int warpsPerBlock = static_cast<int>(kernel_.warpsPerBlock());
    for (int i = 0; i < warpsPerBlock; ++i) {
      Warp& w = warps_[static_cast<std::size_t>(slotIndex * warpsPerBlock + i)];
      if (w.live && w.atBarrier) {
        w.atBarrier = false;
        charge(w, StallReason::Barrier, now - w.waitFrom);
        w.waitFrom = std::max(w.waitFrom, now);
        w.readyAt = std::max(w.readyAt, now + config_.barrierLatency);
        wait(w);
      }
    }
    slot.arrived = 0;
  }

  void recordTimeline(const Warp& w, std::uint32_t pc, double issue, double complete) {
    if (w.block != &blocks_.front() || static_cast<int>(w.warpInBlock) >= options_.timelineWarps) return;
    if (static_cast<int>(w.next) >= options_.timelineInstructions) return;
    result_.timeline.push_back(TimelineEntry{w.block->block, w.warpInBlock, pc, issue, complete});
  }

  const TimingConfig& config_;
  const trace::KernelInfo& kernel_;
  const EngineOptions& options_;
  const std::vector<BlockTrace>& blocks_;
  TimingResult& result_;
  MemorySystem memory_;
  std::size_t firstWaveBlocks_ = 0;
  UnitLoad loads_;

  DecodedProgram program_;
  std::vector<Warp> warps_;
  std::vector<Slot> slots_;
  std::vector<Scheduler> schedulers_;
  std::vector<ReadyGroup> groups_;
  std::vector<double> unitFreeAt_;
  std::vector<std::size_t> unitSlots_;  // unitSlot(s, unit), per scheduler and class
  double mioFreeAt_ = 0, lsuFreeAt_ = 0;
  std::uint64_t lsuVersion_ = 0;  // counts changes of the LSU and of what C_mem holds
  double now_ = 0;                // the current decision time
  bool readiedNow_ = false;       // a warp became ready to join its group at now_
  std::size_t firstScheduler_ = 0;  // the scheduler whose turn comes first at the next decision time
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
                               const std::vector<BlockTrace>& blocks, WriteBack writeBack, const L2Fetch& fetch,
                               const AtomicContention& contention, TimingResult& result) {
  Sm sm(config, kernel, options, blocks, writeBack, fetch, contention, result);
  return sm.run();
}

}  // namespace teg::timing::detail
