// How a SASS opcode is executed: the decoded instruction (`SassInstr`, operands resolved once:
// register rows, immediates, constant-bank offsets), the warp state a handler reads and writes
// (`SassWarp`: 32-bit registers R0..R254 in lane-major rows, uniform registers, predicates as lane
// masks), and the registration of handlers by opcode (`SassHandlerTable`).
//
// Writing a handler (the pattern every sass_exec_*.cpp follows):
//
//   // FADD Rd, Ra, Rb: one loop over the active lanes, registers read through SassCtx.
//   void fadd(SassCtx& c) {
//     const SassInstr& in = c.in;
//     const SassSrc a = c.src(in.op[1]), b = c.src(in.op[2]);
//     std::uint32_t* d = c.dst(in.op[0]);
//     forEachSassLane(c.exec, [&](int l) { d[l] = f32add(a[l], b[l]); });
//   }
//   // The decoder runs once per static instruction (never at run time): it checks the modifiers
//   // and picks the handler; `in.mods` / `in.aux` keep whatever the handler needs.
//   void decodeFadd(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext&) {
//     in.fn = &fadd;
//     if (ir.hasModifier("FTZ")) in.mods |= kModFtz;
//   }
//   void registerFloatHandlers(SassHandlerTable& t) { t.add("FADD", &decodeFadd); }
//
// Operand modifiers (-R, |R|, ~R, !P) are decoded into Opnd flags but NOT applied by src(): an
// integer and a float negation differ, so each handler applies them (helpers below).
// A 64-bit value lives in an even/odd register pair (R2.64 = R2 low, R3 high): src64()/write64().
// RZ / URZ read as zero and writes to them vanish: the decoder maps them to zero rows (sources)
// and sink rows (destinations), so handlers need no test. PT reads as all lanes; writes to PT
// vanish (kPredSink).
// The guard (@P0 / @!UP1) is applied before the handler runs: `c.exec` holds the lanes that
// execute (active in the current thread group and guard true); a handler touches only those.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>

#include "teg/sass/ir.hpp"

namespace teg::emu {

inline constexpr int kSassLanes = 32;
// Register rows of a warp: R0..R254 are rows 0..254, RZ as a source reads rows 256..259 (four
// zero rows, so RZ.64 and a .128 of RZ read zeros) and as a destination writes rows 260..263.
inline constexpr std::uint16_t kSassZeroRow = 256;
inline constexpr std::uint16_t kSassSinkRow = 260;
inline constexpr std::uint16_t kSassRegRows = 264;
// Predicates P0..P6 (UP0..UP6) are indices 0..6, PT (UPT) 7; writes to PT go to index 8.
inline constexpr std::uint8_t kPredTrue = 7;
inline constexpr std::uint8_t kPredSink = 8;
inline constexpr int kPredSlots = 9;

enum class OpndKind : std::uint8_t {
  None,
  Reg,        // row = register row (RZ mapped as above)
  UReg,       // row = uniform register row (URZ mapped the same way)
  Imm,        // imm = low 32 bits, imm64 = the value (sign-extended)
  FloatImm,   // fimm = the value; imm = its binary32 bits, imm64 = its binary64 bits
  Const,      // c[bank][offset]: bank, imm = byte offset; indexRow >= 0: + R[indexRow] per lane
              // (or + UR when indexUniform); c[UR][..]: bankUniformRow >= 0
  Pred,       // row = predicate index (0..7)
  UPred,      // row = uniform predicate index (0..7)
  Special,    // special register: special = SassSpecial
  Mem,        // [R2.64+UR4+0x10]: row = base register row (kSassZeroRow for none), base64,
              // uniformRow (kSassZeroRow for none), offset in imm64, scale (R2.X4: 4) in imm
  Label,      // branch target: target = instruction index in the program
  Barrier,    // B0..B15: row = number
  Other,      // kept for the decoder to inspect (the ir operand)
};

enum class SassSpecial : std::uint8_t {
  Zero, TidX, TidY, TidZ, CtaidX, CtaidY, CtaidZ, LaneId, ClockLo, ClockHi, Clock64Lo, Clock64Hi,
  LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt, LanemaskGe, WarpId, NWarpId, SmId, NSmId, GridId,
  VirtId, CgaCtaId, GlobalTimerLo, GlobalTimerHi, EqMask, TidXYZ, Unknown,
};

struct Opnd {
  OpndKind kind = OpndKind::None;
  bool neg = false;       // -R2
  bool bitNot = false;    // ~R2
  bool abs = false;       // |R2|
  bool lnot = false;      // !P0
  bool base64 = false;    // Mem: [R2.64]; Reg: R2.64 printed (a pair)
  bool indexUniform = false;
  std::uint8_t bank = 0;
  SassSpecial special = SassSpecial::Zero;
  std::uint16_t row = 0;
  std::uint16_t uniformRow = kSassZeroRow;
  std::int16_t indexRow = -1;
  std::int16_t bankUniformRow = -1;
  std::uint32_t imm = 0;
  std::int64_t imm64 = 0;
  double fimm = 0;
  std::uint32_t target = 0;
};

struct SassCtx;
struct SassInstr;
using SassHandler = void (*)(SassCtx&);

// Control-flow classes the block runner handles itself (the handler of such an instruction is
// null; `control` says what to do).
// BRA.U.ANY's `mods` bit (SassControl::Bra): the branch is taken by the whole group.
inline constexpr std::uint32_t kModBraAny = 2;

enum class SassControl : std::uint8_t {
  None, Bra, BraDiv, Brx, Jmx, Exit, Kill, Call, Ret, Bssy, Bsync, Break, Bmov, WarpSync,
  WarpSyncCollective, BarSync, BarArrive, BarRed, Nop,
};

struct SassInstr {
  SassHandler fn = nullptr;
  SassControl control = SassControl::None;
  std::uint8_t guard = kPredTrue;   // predicate index; kPredTrue = always
  bool guardNot = false;
  bool guardUniform = false;        // @UP0
  bool memory = false;              // a memory access: the handler fills SassCtx::addresses
  bool uniformOnce = false;         // a uniform-datapath instruction (UIADD3, ULDC, LDCU, UFFMA,
                                    // S2UR...): executed once per warp, so c.exec holds only the
                                    // lowest executing lane (an in-place UR update is done once)
  std::uint8_t nops = 0;
  std::array<Opnd, 8> op{};  // Blackwell's IADD3.X Rd, PT, PT, a, b, c, P0, P1 has eight
  std::uint32_t mods = 0;           // handler-specific decoded modifiers
  std::uint32_t aux = 0;            // handler-specific (a LUT, a comparison, a width...)
  std::uint32_t aux2 = 0;
  std::uint32_t index = 0;          // its pc (instruction index in the program)
  const sass::Instruction* ir = nullptr;
};

// One warp's architectural state.
struct SassWarp {
  alignas(64) std::uint32_t r[kSassRegRows][kSassLanes];
  std::uint32_t ur[kSassRegRows];
  std::uint32_t p[kPredSlots];      // lane masks
  std::uint32_t up[kPredSlots];     // 0 or ~0u
  std::uint32_t index = 0;          // warp number in the block
  std::uint32_t validMask = 0;      // lanes that exist
  std::uint32_t exitedMask = 0;
  std::uint64_t clock = 0;          // executed warp instructions (SR_CLOCKLO, like the PTX %clock)
  std::uint32_t tid[3][kSassLanes];
};

class SassBlockRunner;

// What a handler sees: the warp, the lanes that execute, the instruction, and the block (for
// memory and errors).
struct SassCtx {
  SassCtx(SassWarp& warp, SassBlockRunner& runner, const SassInstr& instr, std::uint32_t lanes,
          std::uint64_t* laneAddresses, const std::uint32_t* const* constantBanks)
      : w(warp), block(runner), in(instr), exec(lanes), addresses(laneAddresses), banks(constantBanks) {}
  SassWarp& w;
  SassBlockRunner& block;
  const SassInstr& in;
  std::uint32_t exec;
  std::uint64_t* addresses;          // memory handlers fill one address per executing lane for the
                                     // trace (null when nobody traces)
  const std::uint32_t* const* banks; // constant banks 0..17 as 32-bit words (64 KiB + 16 each)

  // A 32-bit source: p[lane & m] (m = 31 for a per-lane row, 0 for one value).
  struct Src {
    const std::uint32_t* p;
    std::uint32_t m;
    std::uint32_t operator[](int lane) const { return p[lane & m]; }
  };
  // Reg, UReg, Imm, FloatImm (binary32 bits) and Const operands; anything else reads zeros.
  [[nodiscard]] Src src(const Opnd& o) {
    switch (o.kind) {
      case OpndKind::Reg: return {w.r[o.row], 31};
      case OpndKind::UReg: return {&w.ur[o.row], 0};
      case OpndKind::Imm:
      case OpndKind::FloatImm: return {&o.imm, 0};
      case OpndKind::Const:
        if (o.indexRow < 0 && o.bankUniformRow < 0) return {banks[o.bank] + (o.imm >> 2), 0};
        return constIndexed(o);
      default: return {kZeros, 0};
    }
  }
  // The 64-bit value of a register pair / uniform pair / constant pair / immediate for one lane
  // (an integer immediate sign-extended, a float immediate as binary64 bits).
  [[nodiscard]] std::uint64_t src64(const Opnd& o, int lane) {
    switch (o.kind) {
      case OpndKind::Reg: return w.r[o.row][lane] | (std::uint64_t{w.r[o.row + 1][lane]} << 32);
      case OpndKind::UReg: return w.ur[o.row] | (std::uint64_t{w.ur[o.row + 1]} << 32);
      case OpndKind::Imm:
      case OpndKind::FloatImm: return static_cast<std::uint64_t>(o.imm64);
      case OpndKind::Const: {
        const std::uint32_t at = constAddress(o, lane);
        return banks[o.bank][at >> 2] | (std::uint64_t{banks[o.bank][(at >> 2) + 1]} << 32);
      }
      default: return 0;
    }
  }
  // Byte offset of a constant operand for one lane (indexed forms checked against the bank).
  [[nodiscard]] std::uint32_t constAddress(const Opnd& o, int lane);
  [[nodiscard]] Src constIndexed(const Opnd& o);
  static constexpr std::uint32_t kZeros[kSassLanes] = {};
  std::uint32_t scratch[4][kSassLanes];
  int scratchUsed = 0;
  // The row of a destination register (lane-major, 32 entries).
  [[nodiscard]] std::uint32_t* dst(const Opnd& o) { return w.r[o.row]; }
  void write64(const Opnd& o, int lane, std::uint64_t v) {
    w.r[o.row][lane] = static_cast<std::uint32_t>(v);
    w.r[o.row + 1][lane] = static_cast<std::uint32_t>(v >> 32);
  }
  // Lane mask of a predicate operand (!P applied); a uniform predicate gives all lanes or none.
  [[nodiscard]] std::uint32_t pred(const Opnd& o) const {
    const std::uint32_t v = o.kind == OpndKind::UPred ? w.up[o.row] : w.p[o.row];
    return o.lnot ? ~v : v;
  }
  // Sets predicate `o` to `bits` in the executing lanes (others keep theirs).
  void setPred(const Opnd& o, std::uint32_t bits) {
    std::uint32_t& p = w.p[o.row];
    p = (p & ~exec) | (bits & exec);
    w.p[kPredTrue] = ~0u;
  }
  void setUPred(const Opnd& o, bool v) {
    w.up[o.row] = v ? ~0u : 0u;
    w.up[kPredTrue] = ~0u;
  }
  // A uniform register's value / its 64-bit pair.
  [[nodiscard]] std::uint32_t usrc(const Opnd& o, int lane = 0);
  [[nodiscard]] std::uint64_t usrc64(const Opnd& o);
  void uwrite(const Opnd& o, std::uint32_t v) { w.ur[o.row] = v; }
  void uwrite64(const Opnd& o, std::uint64_t v) {
    w.ur[o.row] = static_cast<std::uint32_t>(v);
    w.ur[o.row + 1] = static_cast<std::uint32_t>(v >> 32);
  }
  // Stops the run with an error naming the instruction, its source line, the architecture and
  // the thread (`lane`, or -1 for the warp).
  [[noreturn]] void fail(int lane, const std::string& what) const;
};
using SassSrc = SassCtx::Src;

// Calls f(lane) for each set bit of `mask`; the full-warp case is a plain loop.
template <class F>
inline void forEachSassLane(std::uint32_t mask, F&& f) {
  if (mask == 0xffffffffu) {
    for (int lane = 0; lane < kSassLanes; ++lane) f(lane);
  } else {
    for (; mask; mask &= mask - 1) f(std::countr_zero(mask));
  }
}

// Integer operand modifiers: -R (two's complement), ~R (bitwise not).
inline std::uint32_t applyIntModifiers(const Opnd& o, std::uint32_t v) {
  if (o.bitNot) v = ~v;
  if (o.neg) v = 0u - v;
  return v;
}
// Float operand modifiers on binary32 bits: |R| clears the sign, -R flips it (abs first).
inline std::uint32_t applyF32Modifiers(const Opnd& o, std::uint32_t v) {
  if (o.abs) v &= 0x7fffffffu;
  if (o.neg) v ^= 0x80000000u;
  return v;
}
inline std::uint64_t applyF64Modifiers(const Opnd& o, std::uint64_t v) {
  if (o.abs) v &= 0x7fffffffffffffffull;
  if (o.neg) v ^= 0x8000000000000000ull;
  return v;
}

// Marks operand `o` as written: RZ / URZ go to sink rows, PT / UPT to kPredSink. Decoders call it
// for each destination operand (sources keep reading zeros / true).
inline void sassDestination(Opnd& o) {
  if ((o.kind == OpndKind::Reg || o.kind == OpndKind::UReg) && o.row >= kSassZeroRow && o.row < kSassSinkRow)
    o.row = static_cast<std::uint16_t>(kSassSinkRow + (o.row - kSassZeroRow));
  if ((o.kind == OpndKind::Pred || o.kind == OpndKind::UPred) && o.row == kPredTrue) o.row = kPredSink;
}

// What decoders may look at besides the instruction: the architecture.
struct SassDecodeContext {
  int smVersion = 0;  // 75, 80, 86, 89, 90, 100, 120
};

// Decodes one static instruction (sets in.fn and whatever the handler needs); throws teg::Error
// (use sassDecodeError) for a modifier combination it does not implement.
using SassDecoder = void (*)(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx);

class SassHandlerTable {
 public:
  void add(std::string_view opcode, SassDecoder decoder) { table_[std::string(opcode)] = decoder; }
  [[nodiscard]] SassDecoder find(const std::string& opcode) const {
    const auto it = table_.find(opcode);
    return it == table_.end() ? nullptr : it->second;
  }

 private:
  std::unordered_map<std::string, SassDecoder> table_;
};

// "unsupported SASS instruction 'FOO.BAR R1, R2' (FOO.BAR) on sm_86 at file.cu:12": the error for
// anything the emulator cannot run, thrown at decode time... or when executed (see the program).
[[noreturn]] void sassDecodeError(const sass::Instruction& ir, const SassDecodeContext& ctx, const std::string& why);

// The handler registries, one per execute file; sass_program.cpp calls each once.
void registerIntegerHandlers(SassHandlerTable& table);  // sass_exec_integer.cpp
void registerMemoryHandlers(SassHandlerTable& table);   // sass_exec_memory.cpp
void registerControlHandlers(SassHandlerTable& table);  // sass_exec_control.cpp
void registerWarpHandlers(SassHandlerTable& table);     // sass_exec_warp.cpp
void registerFloatHandlers(SassHandlerTable& table);    // sass_exec_float.cpp (FP, half, double,
                                                        // conversions, MUFU)
void registerAsyncHandlers(SassHandlerTable& table);    // sass_exec_async.cpp (LDGSTS, mbarriers)
// The state of the mbarrier word at `p` for a message ("phase 0: 1 of 2 arrivals pending"),
// in the layout of `smVersion` (sass_exec_async.cpp).
std::string describeMbarrier(const std::byte* p, int smVersion, std::int64_t transactionBytes);
// ATOMS.ARRIVE (mbarrier.arrive on sm_80-89), reached from the ATOMS decoder.
void decodeAtomsArrive(SassInstr& in, const sass::Instruction& ir, const SassDecodeContext& ctx);

}  // namespace teg::emu
