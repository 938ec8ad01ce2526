// The warp trace: the whole contract between the functional emulator (which produces it, live or
// into a file) and the timing engine and statistics (which consume it). Seed 000 §3.3: TEG took
// the instruction trace of each warp from a functional simulator plus the static instruction
// information from the assembly; this is both, in one record format.
//
// Static information is described once per kernel (KernelInfo); each executed warp instruction is
// a small WarpInstruction that refers to it by pc. Memory instructions carry the address of every
// active lane. Nothing here knows PTX or the emulator.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "teg/device/device.hpp"

namespace teg::trace {

enum class MemorySpace : std::uint8_t { None, Global, Shared, Local, Constant, Param, Texture };
const char* memorySpaceName(MemorySpace space);

enum class InstrKind : std::uint8_t {
  Alu,         // arithmetic, logic, conversion, move: goes to a functional unit
  Load,
  Store,
  Atomic,      // atomics and reductions (read-modify-write)
  Branch,
  Barrier,     // bar.sync / bar.arrive / bar.red
  WarpSync,    // bar.warp.sync, votes, shuffles that synchronise lanes (still executed by a unit)
  Exit,
  Unmodelled,  // parsed and executed as a no-op for timing (textures, tensor cores...)
};
const char* instrKindName(InstrKind kind);

// Where a global load may be cached, from its PTX cache operator (PTX ISA "Cache Operators"):
// .ca and .nc (the read-only/texture path) cache in L1; .cg, .cv and .volatile bypass it (L2
// only); no operator is the device's default (Default), which the timing model decides.
enum class CachePolicy : std::uint8_t { Default, CacheL1, BypassL1 };

// Which instruction set a kernel's static instructions and trace describe: nvcc's PTX (the
// engine approximates what ptxas makes of it) or the SASS the GPU runs (ptxas's own schedule).
enum class Isa : std::uint8_t { Ptx, Sass };
const char* isaName(Isa isa);

// The scheduling control word ptxas writes into each Volta-and-later SASS instruction (Jia et
// al. 2018, arXiv:1804.06826, instruction encoding; decoded by teg::sass), as the timing engine
// reads it. Absent (default) on the PTX path.
struct ControlWord {
  std::uint8_t stall = 0;          // cycles before this warp's next instruction may issue (0..15)
  bool yield = false;              // the yield hint (raw bit 0)
  std::int8_t writeBarrier = -1;   // 0..5: scoreboard barrier set until the result is written
  std::int8_t readBarrier = -1;    // 0..5: barrier set until the source registers have been read
  std::uint8_t waitMask = 0;       // bit b: wait until barrier b is clear before issuing
  std::uint8_t reuse = 0;          // bit i: source slot i's value kept in the operand-reuse cache
  // cp.async groups (not in the word: teg::sass::describe reads them from the instruction).
  // commitGroup: LDGDEPBAR (cp.async.commit_group) closes the group of copies that set its write
  // barrier. groupWaitBarrier >= 0: DEPBAR.LE SBk, N with N = groupWaitKeep > 0
  // (cp.async.wait_group N) waits until every group on barrier k but the N most recent is done.
  bool commitGroup = false;
  std::int8_t groupWaitBarrier = -1;
  std::uint8_t groupWaitKeep = 0;
  bool operator==(const ControlWord&) const = default;
};

// A SASS instruction's general-register source operands by operand slot (a, b, c, d: the slots
// the reuse flags and the register banks refer to): the R index, or -1 for a slot that is not a
// general register (RZ, an immediate, a constant...).
using OperandSlots = std::array<std::int16_t, 4>;
inline constexpr OperandSlots kNoOperandSlots = {-1, -1, -1, -1};

// One static instruction as the timing engine needs it.
struct StaticInstruction {
  std::uint32_t pc = 0;            // index in KernelInfo::instructions
  InstrKind kind = InstrKind::Alu;
  device::InstructionClass unit = device::InstructionClass::Fp32Fma;  // throughput class
  MemorySpace space = MemorySpace::None;
  std::uint8_t accessBytes = 0;    // bytes per lane for memory instructions (vector: total)
  // Register numbers (dense, per kernel) written and read; used by the scoreboard.
  std::vector<std::uint32_t> defs;
  std::vector<std::uint32_t> uses;
  bool readsClock = false;         // reads %clock/%clock64: microbenchmarks time themselves by it
  CachePolicy cache = CachePolicy::Default;  // global loads: the PTX cache operator's choice
  // A multiply ptxas fuses into a later add (ptx/contraction.hpp): the pc of that add, else -1.
  std::int32_t fusedInto = -1;
  std::int32_t sourceFile = -1;    // index in KernelInfo::sourceFiles, -1 = unknown
  std::int32_t sourceLine = 0;
  std::string text;                // the instruction as written, for reports
  // SASS only (KernelInfo::isa == Isa::Sass): ptxas's control word and the source slots.
  ControlWord control;
  OperandSlots sourceSlots = kNoOperandSlots;
};

// The PTX mnemonic with its qualifiers ("div.rn.f32") of an instruction's text, without a guard
// predicate; empty for an empty text.
std::string mnemonicOf(const std::string& instructionText);

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  [[nodiscard]] std::uint64_t count() const { return std::uint64_t{x} * y * z; }
};

struct KernelInfo {
  std::string name;
  Isa isa = Isa::Ptx;                    // what `instructions` describe
  Dim3 grid, block;
  std::uint32_t registersPerThread = 0;  // as allocated (ptxas) when known, else declared
  std::uint32_t sharedBytesPerBlock = 0; // static + dynamic
  std::uint32_t warpSize = 32;
  std::vector<StaticInstruction> instructions;
  std::vector<std::string> sourceFiles;

  [[nodiscard]] std::uint32_t warpsPerBlock() const {
    return static_cast<std::uint32_t>((block.count() + warpSize - 1) / warpSize);
  }
};

constexpr int kWarpLanes = 32;

// One executed warp instruction.
struct WarpInstruction {
  std::uint32_t block = 0;       // linear block index (x fastest)
  std::uint32_t warp = 0;        // warp index within the block
  std::uint32_t pc = 0;
  std::uint32_t activeMask = 0;  // lanes that executed it (guard predicate applied)
  // Memory instructions: byte address of each active lane (inactive lanes: unspecified).
  // Shared-memory addresses are offsets in the block's shared window.
  std::array<std::uint64_t, kWarpLanes> addresses{};
};

// Receives a kernel's trace. Blocks arrive whole and in order of completion: beginBlock, the
// instructions of all its warps (each warp's in program order; warps may interleave), endBlock.
class TraceListener {
 public:
  virtual ~TraceListener() = default;
  virtual void beginKernel(const KernelInfo& kernel) { (void)kernel; }
  virtual void beginBlock(std::uint32_t block) { (void)block; }
  virtual void instruction(const WarpInstruction& record) = 0;
  virtual void endBlock(std::uint32_t block) { (void)block; }
  virtual void endKernel() {}
};

// Forwards every event to several listeners, in order.
class TraceFanout final : public TraceListener {
 public:
  void add(TraceListener& listener) { listeners_.push_back(&listener); }
  void beginKernel(const KernelInfo& kernel) override;
  void beginBlock(std::uint32_t block) override;
  void instruction(const WarpInstruction& record) override;
  void endBlock(std::uint32_t block) override;
  void endKernel() override;

 private:
  std::vector<TraceListener*> listeners_;
};

}  // namespace teg::trace
