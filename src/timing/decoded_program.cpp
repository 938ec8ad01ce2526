#include "decoded_program.hpp"

#include <algorithm>

namespace teg::timing::detail {

using device::InstructionClass;

namespace {

// MUFU and shuffles are variable-latency (MIO) on Volta+: their consumers wait on the short
// scoreboard.
Producer producerOfUnit(InstructionClass unit) {
  return unit == InstructionClass::Special || unit == InstructionClass::WarpShuffle || unit == InstructionClass::WarpReduce
             ? Producer::Short
             : Producer::Fixed;
}

void setUnit(Decoded& d, int unit, const TimingConfig& config) {
  d.unit = unit;
  d.latency = config.executionLatency[static_cast<std::size_t>(unit)];
  d.unitInterval = config.unitInterval[static_cast<std::size_t>(unit)];
  d.sameWarp = config.sameWarpInterval[static_cast<std::size_t>(unit)];
}

// Instruction `pc`, a software sequence on this GPU, as one Decoded per step: step k reads the
// instruction's sources if it reads its operands and the result register of each step it comes
// after, writes its own result register (firstRegister + k) and, for the result step, the
// instruction's destinations.
void decodeSequence(const trace::StaticInstruction& s, const SoftwareSequence& sequence, std::uint32_t firstRegister,
                    const TimingConfig& config, DecodedProgram& program, Decoded& head) {
  const Decoded instruction = head;
  auto& regs = program.regs;
  for (std::size_t k = 0; k < sequence.steps.size(); ++k) {
    const SequenceStep& step = sequence.steps[k];
    Decoded d = instruction;
    setUnit(d, static_cast<int>(step.unit), config);
    d.port = Port::Alu;
    d.groupKey = d.unit;
    d.produces = producerOfUnit(step.unit);
    d.readsClock = false;
    d.firstStep = k == 0;
    d.regsBegin = static_cast<std::uint32_t>(regs.size());
    if (step.readsOperands) regs.insert(regs.end(), s.uses.begin(), s.uses.end());
    for (const int earlier : step.after) regs.push_back(firstRegister + static_cast<std::uint32_t>(earlier));
    d.usesEnd = static_cast<std::uint32_t>(regs.size());
    regs.push_back(firstRegister + static_cast<std::uint32_t>(k));
    if (static_cast<int>(k) == sequence.result) regs.insert(regs.end(), s.defs.begin(), s.defs.end());
    d.defsEnd = static_cast<std::uint32_t>(regs.size());
    // Steps after the first are appended in order: step k + 1 lands right after step k.
    if (k + 1 < sequence.steps.size()) d.continuation = static_cast<int>(program.steps.size() + (k == 0 ? 0 : 1));
    if (k == 0) head = d;
    else program.steps.push_back(d);
  }
}

}  // namespace

DecodedProgram decodeProgram(const trace::KernelInfo& kernel, const TimingConfig& config) {
  DecodedProgram program;
  program.sass = kernel.isa == trace::Isa::Sass;
  auto& decoded = program.decoded;
  auto& fused = program.fused;
  auto& regs = program.regs;
  decoded.resize(kernel.instructions.size());
  std::uint32_t maxReg = 0;
  for (std::size_t pc = 0; pc < kernel.instructions.size(); ++pc) {
    const auto& s = kernel.instructions[pc];
    Decoded& d = decoded[pc];
    d.kind = s.kind;
    d.unit = static_cast<int>(s.unit);
    d.regsBegin = static_cast<std::uint32_t>(regs.size());
    for (auto r : s.uses) regs.push_back(r), maxReg = std::max(maxReg, r + 1);
    d.usesEnd = static_cast<std::uint32_t>(regs.size());
    for (auto r : s.defs) regs.push_back(r), maxReg = std::max(maxReg, r + 1);
    d.defsEnd = static_cast<std::uint32_t>(regs.size());
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
    } else {
      d.produces = producerOfUnit(s.unit);
    }
    setUnit(d, d.unit, config);
    // A memory instruction's result time comes from its port (shared, L1/constant, L2, DRAM), never
    // from an LD/ST class latency: a store is posted (it has no result; the SASS of every
    // generation lets the warp go on and exit without waiting for it, only for its sources to be
    // read), and one whose lanes are all off makes no access and writes no register. So neither
    // waits for a class latency, and the generation needs no such figure (none was published).
    if (memory) d.latency = 0;
    // Lai §3.2.2.2 measured the long same-warp interval of the LD/ST class on a global load
    // (GLD.U32, ~60 cycles on GT200); shared and constant accesses do not leave the SM.
    if (memory && d.port != Port::Global) d.sameWarp = std::min(d.sameWarp, config.issueIntervalCycles);
    d.readsClock = s.readsClock;
    // The PTX cache operator decides where it stands (.ca/.nc cache in L1 on every GPU with
    // one, .cg/.cv bypass it); without one the device's default applies (cc 3.x-6.x keep
    // plain global loads in L2 only: timing.l1_caches_global).
    if (d.port == Port::Global && s.kind == trace::InstrKind::Load)
      d.viaL1 = config.l1Bytes > 0 && (s.cache == trace::CachePolicy::CacheL1 ||
                                       (s.cache == trace::CachePolicy::Default && config.l1CachesGlobalLoads));
    switch (d.port) {
      case Port::Alu: d.groupKey = d.unit; break;
      case Port::Shared: d.groupKey = kMioGroupKey; break;
      case Port::Constant: d.groupKey = kLsuGroupKey; break;
      case Port::Global: d.groupKey = kGlobalGroupKeys; break;  // + the request's sectors
    }
    // cc 1.x reads shared memory into a register with an SP instruction (a move whose operand
    // is in shared memory, seed 002 §1.1.2), so a load not fused into its consumer still takes
    // an SP issue slot, as the fused form does.
    if (program.sass) {
      // ptxas's schedule (Jia 2018, control information): the warp's next instruction issues no
      // earlier than `stall` cycles after this one; variable-latency results are tracked by the
      // scoreboard barriers in the control word instead of by register.
      d.control = s.control;
      d.slots = s.sourceSlots;
      d.sameWarp = s.control.stall;
      if (d.port == Port::Constant && s.control.writeBarrier < 0) {
        // A constant load ptxas gives no write barrier (ULDC: c[bank][immediate] into a uniform
        // register, used two cycles later under the stall count alone) is fixed-latency: the
        // constant is fetched as a c[][] operand of an ALU instruction is, not requested from
        // the LSU/MIO queue that variable-latency loads (LDC with a barrier, LDG) share. The
        // PTX path times ld.param the same way (a register move, above).
        d.port = Port::Alu;
        d.unit = static_cast<int>(InstructionClass::IntAdd);
        d.produces = Producer::Short;
        setUnit(d, d.unit, config);
        d.sameWarp = s.control.stall;
        d.groupKey = d.unit;
      }
      continue;
    }
    if (config.sharedOperandLatency > 0 && d.port == Port::Shared && s.kind == trace::InstrKind::Load) {
      d.sharedOperand = true;
      d.unit = static_cast<int>(InstructionClass::IntAdd);
      d.unitInterval = config.unitInterval[static_cast<std::size_t>(d.unit)];
      d.latency = config.sharedLatency;
      d.groupKey = kFusedGroupKeys + d.unit;
    }
  }
  // The fused form of each ALU instruction that can take a shared operand (cc 1.x): it waits for
  // the load's address registers instead of its result, and runs on the shared-memory path.
  fused.assign(kernel.instructions.size(), Decoded{});
  if (config.sharedOperandLatency > 0 && !program.sass) {
    for (std::uint32_t pc = 0; pc < kernel.instructions.size(); ++pc) {
      if (!takesSharedOperand(kernel, pc)) continue;
      const auto& alu = kernel.instructions[pc];
      const auto& load = kernel.instructions[pc - 1];
      Decoded f = decoded[pc];
      f.port = Port::Shared;
      f.produces = Producer::Short;
      f.sharedOperand = true;
      f.latency = config.sharedOperandLatency;
      f.regsBegin = static_cast<std::uint32_t>(regs.size());
      for (auto r : load.uses) regs.push_back(r);
      for (auto r : alu.uses)
        if (r != load.defs.front()) regs.push_back(r);
      f.usesEnd = static_cast<std::uint32_t>(regs.size());
      for (auto r : alu.defs) regs.push_back(r);
      f.defsEnd = static_cast<std::uint32_t>(regs.size());
      f.groupKey = kFusedGroupKeys + f.unit;
      fused[pc] = f;
    }
  }
  // Software sequences: not an instruction that can take a shared operand (cc 1.x, which no
  // measured architecture is).
  std::uint32_t registers = maxReg;
  if (!config.sequences.empty() && !program.sass) {  // SASS already is the sequence
    for (std::uint32_t pc = 0; pc < kernel.instructions.size(); ++pc) {
      const auto& s = kernel.instructions[pc];
      if (s.kind != trace::InstrKind::Alu || fused[pc].sharedOperand) continue;
      const auto found = config.sequences.find(trace::mnemonicOf(s.text));
      if (found == config.sequences.end() || found->second.steps.empty()) continue;
      decodeSequence(s, found->second, registers, config, program, decoded[pc]);
      registers += static_cast<std::uint32_t>(found->second.steps.size());
    }
  }
  program.registerCount = registers;
  return program;
}

}  // namespace teg::timing::detail
