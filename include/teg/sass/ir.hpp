// The SASS IR: what nvdisasm prints for a cubin (`nvdisasm -hex -gi -c`), read into instructions
// whose opcode, modifiers, guard predicate, operands, 128-bit encoding, decoded control word and
// source line are fields. This is the machine code the GPU runs, after ptxas fused, predicated,
// unrolled, scheduled and allocated registers (Lai 2013's TEG read it the same way, through
// cuobjdump: seed 000 §3.3). Volta and later only (sm_70+; CUDA 13 compiles sm_75 and newer):
// every instruction is 128 bits with its scheduling control in bits 105..125.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "teg/sass/control.hpp"
#include "teg/support/error.hpp"

namespace teg::sass {

enum class OperandKind {
  Register,          // R0..R254, RZ (index kZeroRegister)
  UniformRegister,   // UR0..UR254 (UR62 before Blackwell), URZ (index kZeroUniformRegister)
  Predicate,         // P0..P6, PT (index kTruePredicate)
  UniformPredicate,  // UP0..UP6, UPT
  SpecialRegister,   // SR_TID.X, SR_CLOCKLO, SRZ ... (name in `name`)
  ConvergenceBarrier,  // B0..B15 (BSSY/BSYNC/BMOV)
  ConstantBank,      // c[0x0][0x160], c[0x3][R2+0x10], cx[UR4][R0]
  Memory,            // [R2.64+0x10], [UR4+0x400], desc[UR4][R2.64], [0x40]
  Immediate,         // 0x10, -0x1, 16
  FloatImmediate,    // 2.384185791015625e-07, +INF, -QNAN
  Label,             // `(.L_x_3) or `(function)
  Other,             // anything else nvdisasm prints (kept verbatim)
};

inline constexpr int kZeroRegister = 255;         // RZ
inline constexpr int kZeroUniformRegister = 255;  // URZ (an index no UR has, as for RZ)
inline constexpr int kTruePredicate = 7;          // PT, UPT

// An address expression inside [...]: a base register (general or uniform, possibly a 64-bit
// pair), an optional second (uniform) register, and a byte offset.
struct Address {
  int baseRegister = -1;          // R index, -1 when none (kZeroRegister for [RZ])
  bool base64 = false;            // [R2.64]: R2:R3 hold a 64-bit address
  bool base32 = false;            // [R8.U32+UR8]: R8 a 32-bit offset, zero-extended (never a pair)
  int uniformRegister = -1;       // UR index, -1 when none
  std::int64_t offset = 0;        // +0x10 / -0x8
};

struct Operand {
  OperandKind kind = OperandKind::Other;
  std::string text;               // exactly as nvdisasm printed it (the printer's source)
  int column = 0;                 // where it starts on its line (1-based; 0 unknown), for messages
  int index = -1;                 // register / predicate / barrier number
  std::vector<std::string> suffixes;  // after the register: "64", "H0_H0", "B1", "X4", ...
  bool reuse = false;             // ".reuse": the operand-reuse cache (also in Control::reuse)
  bool negate = false;            // -R2
  bool logicalNot = false;        // !P0
  bool bitNot = false;            // ~R2
  bool absolute = false;          // |R2|
  std::int64_t value = 0;         // Immediate
  double floatValue = 0;          // FloatImmediate
  std::string name;               // SpecialRegister name, Label target, memory space prefix ("desc")
  // ConstantBank: bank number (-1 when it is a uniform register, then bankRegister) and the
  // address inside it; Memory: the address (descriptor register in `descriptorRegister`).
  int bank = -1;
  int bankRegister = -1;
  int descriptorRegister = -1;    // desc[UR4][...]: UR index
  Address address;
};

// The source position nvdisasm -gi prints before instructions ("//## File "f.cu", line 12
// inlined at "f.cu", line 30"): the innermost line first, then each call site outwards.
struct SourcePosition {
  std::string file;
  int line = 0;
  std::vector<std::pair<std::string, int>> inlinedAt;
  bool operator==(const SourcePosition&) const = default;
};

struct Instruction {
  std::uint32_t address = 0;      // byte offset in the function's section
  std::optional<Operand> guard;   // @P0 / @!UP1 (a Predicate or UniformPredicate operand)
  std::string opcode;             // "LDS"
  std::vector<std::string> modifiers;  // "U", "128" for LDS.U.128
  std::vector<Operand> operands;
  bool hasEncoding = false;       // nvdisasm ran with -hex (the words below are known)
  std::uint64_t low = 0;          // bits 0..63
  std::uint64_t high = 0;         // bits 64..127 (the control word lives in 105..125)
  Control control;                // decoded from `high` when hasEncoding
  int source = -1;                // index in Module::sources, -1 when nvdisasm printed none
  SourceLocation where;           // line of the disassembly text, for messages

  // "LDS.U.128"
  [[nodiscard]] std::string mnemonic() const;
  [[nodiscard]] bool hasModifier(std::string_view m) const;
};

struct Function {
  std::string name;               // the symbol (mangled)
  std::string section;            // ".text._Z3fooPf": a kernel's helper routines share its section
  bool isEntry = false;           // .other NAME,@"STO_CUDA_ENTRY ..."
  int registers = -1;             // .sectioninfo @"SHI_REGISTERS=N" when printed, else -1
  std::vector<Instruction> instructions;
  std::map<std::string, std::size_t> labels;  // label -> index of the instruction it precedes
};

struct Module {
  std::string file;               // for messages
  std::string target;             // ".target sm_80"
  std::vector<Function> functions;
  std::vector<SourcePosition> sources;  // distinct source positions, referenced by index
  std::vector<std::string> warnings;

  [[nodiscard]] const Function* findFunction(std::string_view name) const;
};

// Bytes one thread moves for a load/store/atomic (LDG.E.128 -> 16, LDS.U8 -> 1, STG.E.64 -> 8,
// LDS -> 4), from the width modifier; nullopt for an instruction that is not a memory access.
// This is the vector width a trace record needs: ptxas fuses four ld.shared.f32 into one
// LDS.128, which the PTX does not show.
std::optional<int> accessBytes(const Instruction& instruction);

// Which memory space an access goes to ("global", "shared", "local", "constant", "generic",
// "texture"), from the opcode; nullopt when it is not a memory access.
std::optional<std::string> memorySpace(const Instruction& instruction);

}  // namespace teg::sass
