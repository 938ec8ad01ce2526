// What the SM model needs of each static instruction, decoded once per kernel from the trace's
// KernelInfo and the TimingConfig: the port it issues to (a functional unit, the shared-memory
// pipe, the LSU for global or constant accesses), its unit, the three latencies of Lai §3.2.2, the
// registers it reads and writes, the kind of producer its results come from (which decides its
// consumers' stall reason) and the ready-group key its warps wait under (sm_model.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "block_trace.hpp"
#include "teg/timing/config.hpp"
#include "teg/trace/trace.hpp"

namespace teg::timing::detail {

// Which kind of producer a register waits for decides the stall reason of its consumers.
enum class Producer : std::uint8_t { Fixed, Short, Long };

enum class Port : std::uint8_t { Alu, Shared, Global, Constant };

// Ready-group keys (sm_model.cpp): [0, kClassCount) an ALU unit; [kClassCount, 2 kClassCount) a
// shared operand fused into an ALU instruction of that unit (waits for the shared pipe and the
// unit); the shared pipe (MIO); the LSU (constant accesses); then global requests by their sector
// count.
constexpr int kFusedGroupKeys = kClassCount;
constexpr int kMioGroupKey = 2 * kClassCount;
constexpr int kLsuGroupKey = 2 * kClassCount + 1;
constexpr int kGlobalGroupKeys = 2 * kClassCount + 2;  // + sectors (0 for a request without lanes)

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
  // A software sequence (software_sequence.hpp) is one Decoded per SASS step: the first in
  // `decoded`, each later one in DecodedProgram::steps, chained by `continuation`.
  int continuation = -1;       // the next step's index in DecodedProgram::steps, -1 after the last
  bool firstStep = true;       // issuing it counts an execution of its PTX instruction
  // SASS path (DecodedProgram::sass): ptxas's control word and the general-register sources by
  // operand slot. sameWarp is then the control word's stall count.
  trace::ControlWord control;
  trace::OperandSlots slots = trace::kNoOperandSlots;
};

struct DecodedProgram {
  // The kernel is SASS (trace::Isa::Sass): dependencies come from the control words (stall
  // counts, scoreboard barriers), not from the register scoreboard, and none of the PTX-side
  // approximations (shared operands, software sequences) apply.
  bool sass = false;
  std::vector<Decoded> decoded;  // per pc
  std::vector<Decoded> fused;    // per pc: the shared-operand form (only where takesSharedOperand)
  std::vector<Decoded> steps;    // software sequences' steps after their first
  std::vector<std::uint32_t> regs;  // the register lists Decoded::regsBegin.. index
  // Registers 0 .. registerCount - 1 appear: the kernel's, then one per sequence step for the
  // step's result, which the later steps that read it wait for.
  std::uint32_t registerCount = 0;

  // The form a warp's op runs in: fused when the trace says it took its operand from shared memory.
  const Decoded& of(const WarpOp& op) const {
    const Decoded& d = decoded[op.pc];
    return d.kind == trace::InstrKind::Alu && op.memory != kNoMemory ? fused[op.pc] : d;
  }
};

DecodedProgram decodeProgram(const trace::KernelInfo& kernel, const TimingConfig& config);

}  // namespace teg::timing::detail
