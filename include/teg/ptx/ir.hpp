// The PTX intermediate representation the emulator and the timing engine run on.
//
// A Module holds variables and functions. A Function owns flat pools: instructions (32 bytes
// each), operands (16 bytes each) and qualifiers (2 bytes each); an Instruction refers to its
// slices by offset. Registers are dense indices per function (Function::registers gives each
// one's declared type), labels are resolved to instruction indices, symbols to indices in the
// table their SymbolKind names. Per-instruction facts a hot loop needs (opcode, timing class,
// type, state space, vector width, rounding, comparison, common modifiers as bits) are decoded
// once by the parser; the ordered qualifier list is kept too, so the printer writes the
// instruction back as it was written.
//
// Not kept: comments, whitespace, `.loc` attributes after line/column (function_name,
// inlined_at), the grouping braces of nested scopes (their declarations are hoisted to the
// function, renamed `name$N` when they would clash), the contents of `.section` (raw text).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "teg/ptx/cfg.hpp"
#include "teg/ptx/isa.hpp"
#include "teg/support/error.hpp"

namespace teg::ptx {

inline constexpr std::uint32_t kNone = 0xffffffffu;

enum class OperandKind : std::uint8_t {
  Register,    // index = register index; component = .x/.y/.z/.w for vector registers
  Special,     // index = SpecialRegister; component = 1..3 for .x/.y/.z
  Immediate,   // value = the integer (two's complement)
  FloatImm32,  // value = the IEEE binary32 bits (0f3F800000)
  FloatImm64,  // value = the IEEE binary64 bits (0d..., or a decimal literal)
  Symbol,      // index into the table named by symbolKind(); value = byte offset (sym+4)
  Label,       // index = Function::labels index; value = target instruction index
  Address,     // [base+offset]: aux = AddressBase, index = register/symbol, value = offset
  Vector,      // {a, b, ...}: aux = child count, index = first child in Function::operands
  List,        // [a, {b, c}] (texture/surface coordinates): children as for Vector
  ParamList,   // (a, b) of call: children as for Vector
  Sink,        // _
};

enum class SymbolKind : std::uint8_t {
  None, Global, Function, Param, ReturnParam, Local, BranchTargets, Prototype
};
enum class AddressBase : std::uint8_t { Immediate, Register, Symbol };

namespace operand_flags {
inline constexpr std::uint8_t kNegated = 1;   // !%p
inline constexpr std::uint8_t kPipeNext = 2;  // %p|%q: this operand and the next form a pair
}  // namespace operand_flags

struct Operand {
  OperandKind kind = OperandKind::Immediate;
  std::uint8_t flags = 0;      // operand_flags | SymbolKind << 4
  std::uint8_t component = 0;  // 0 none, 1..4 = .x .y .z .w
  std::uint8_t aux = 0;
  std::uint32_t index = 0;
  std::int64_t value = 0;

  [[nodiscard]] SymbolKind symbolKind() const { return static_cast<SymbolKind>(flags >> 4); }
  [[nodiscard]] bool negated() const { return (flags & operand_flags::kNegated) != 0; }
  [[nodiscard]] AddressBase addressBase() const { return static_cast<AddressBase>(aux); }
  [[nodiscard]] std::uint32_t childCount() const { return aux; }
  bool operator==(const Operand&) const = default;
};
static_assert(sizeof(Operand) == 16);

enum class Rounding : std::uint8_t { None, Rn, Rz, Rm, Rp, Rna, Rs, Rni, Rzi, Rmi, Rpi };
enum class CompareOp : std::uint8_t {
  None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan
};

// Common modifiers as bits, for fast tests; the full ordered list is in the qualifier pool.
namespace modifier {
inline constexpr std::uint32_t kFtz = 1u << 0;
inline constexpr std::uint32_t kSat = 1u << 1;
inline constexpr std::uint32_t kApprox = 1u << 2;
inline constexpr std::uint32_t kFull = 1u << 3;
inline constexpr std::uint32_t kWide = 1u << 4;
inline constexpr std::uint32_t kHi = 1u << 5;   // .hi (mul/mad) — setp's .hi is compare()
inline constexpr std::uint32_t kLo = 1u << 6;
inline constexpr std::uint32_t kCc = 1u << 7;
inline constexpr std::uint32_t kUni = 1u << 8;
inline constexpr std::uint32_t kSync = 1u << 9;
inline constexpr std::uint32_t kAligned = 1u << 10;
inline constexpr std::uint32_t kNc = 1u << 11;
inline constexpr std::uint32_t kVolatile = 1u << 12;
inline constexpr std::uint32_t kRelaxed = 1u << 13;
inline constexpr std::uint32_t kAcquire = 1u << 14;
inline constexpr std::uint32_t kRelease = 1u << 15;
inline constexpr std::uint32_t kScopeCta = 1u << 16;
inline constexpr std::uint32_t kScopeGpu = 1u << 17;
inline constexpr std::uint32_t kScopeSys = 1u << 18;
inline constexpr std::uint32_t kScopeCluster = 1u << 19;
inline constexpr std::uint32_t kCacheHint = 1u << 20;  // any cache operator / eviction qualifier
inline constexpr std::uint32_t kTo = 1u << 21;          // cvta.to
}  // namespace modifier

namespace instr_flags {
inline constexpr std::uint8_t kGuardNegated = 1;     // @!p
inline constexpr std::uint8_t kUnmodelled = 2;       // parsed and kept, not modelled
inline constexpr std::uint8_t kUnknownOpcode = 4;    // mnemonic not in opcodes.def (warning)
inline constexpr std::uint8_t kUnknownQualifier = 8; // a qualifier not in qualifiers.def
}  // namespace instr_flags

struct Instruction {
  Opcode opcode = Opcode::Unknown;
  InstrClass instrClass = InstrClass::Unknown;
  Type type = Type::None;   // first type qualifier (cvt/set: destination type)
  Type type2 = Type::None;  // second type qualifier (cvt/set: source type), else None
  StateSpace space = StateSpace::Generic;
  std::uint8_t vectorWidth = 1;
  std::uint8_t numOperands = 0;    // top-level operands at Function::operands[firstOperand...]
  std::uint8_t numQualifiers = 0;  // at Function::qualifiers[firstQualifier...]
  std::uint8_t flags = 0;          // instr_flags
  Rounding rounding = Rounding::None;
  CompareOp compare = CompareOp::None;  // setp/set only
  std::uint32_t guard = kNone;          // predicate register, kNone when unguarded
  std::uint32_t firstOperand = 0;
  std::uint32_t firstQualifier = 0;
  std::uint32_t sourceLine = kNone;  // index into Function::sourceLines
  std::uint32_t modifiers = 0;       // modifier bits

  [[nodiscard]] bool guarded() const { return guard != kNone; }
  [[nodiscard]] bool guardNegated() const { return (flags & instr_flags::kGuardNegated) != 0; }
  [[nodiscard]] bool unmodelled() const { return (flags & instr_flags::kUnmodelled) != 0; }
  [[nodiscard]] bool has(std::uint32_t modifierBit) const { return (modifiers & modifierBit) != 0; }
  bool operator==(const Instruction&) const = default;
};
static_assert(sizeof(Instruction) == 32);

enum class Linkage : std::uint8_t { None, Visible, Extern, Weak, Common };

// An initializer element, arrays flattened in order.
struct InitValue {
  enum class Kind : std::uint8_t { Int, F32, F64, Symbol, Raw };
  Kind kind = Kind::Int;
  std::uint64_t bits = 0;  // Int/F32/F64 bits; Symbol: byte offset
  std::string text;        // Symbol: name (generic(x) keeps "generic(x)"); Raw: token text
  bool operator==(const InitValue&) const = default;
};

struct Variable {
  std::string name;
  StateSpace space = StateSpace::Global;
  Linkage linkage = Linkage::None;
  Type type = Type::B8;
  std::uint8_t vectorWidth = 1;
  std::uint32_t align = 0;                 // 0: natural
  std::vector<std::uint64_t> dims;         // [] -> 0 (unsized, e.g. extern shared)
  bool isPtr = false;                      // kernel parameter attribute .ptr
  StateSpace ptrSpace = StateSpace::Generic;
  std::uint32_t ptrAlign = 0;
  bool hasInitializer = false;
  std::vector<InitValue> init;

  // Bytes the variable occupies (0 for unsized arrays).
  [[nodiscard]] std::uint64_t sizeBytes() const;
  bool operator==(const Variable&) const = default;
};

struct RegisterDecl {
  std::string name;  // "%r" for %r<29>, the full name otherwise
  Type type = Type::B32;
  std::uint8_t vectorWidth = 1;  // .reg .v4 .f32 %v
  bool isRange = false;          // %r<29> declares %r0 .. %r28
  std::uint32_t first = 0;       // first register index
  std::uint32_t count = 1;
  bool operator==(const RegisterDecl&) const = default;
};

struct Register {
  Type type = Type::B32;
  std::uint8_t vectorWidth = 1;
  std::uint32_t decl = 0;  // index into Function::registerDecls
  bool operator==(const Register&) const = default;
};

struct Label {
  std::string name;
  std::uint32_t instruction = 0;  // the instruction it precedes (== count at the very end)
  bool operator==(const Label&) const = default;
};

struct BranchTargets {  // name: .branchtargets L1, L2, ...;  (used by brx.idx)
  std::string name;
  std::vector<std::uint32_t> labels;  // Function::labels indices
  std::uint32_t position = 0;         // the instruction it was declared before
  bool operator==(const BranchTargets&) const = default;
};

struct SourceLine {  // from .loc file line column
  std::uint32_t file = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  bool operator==(const SourceLine&) const = default;
};

struct PositionedText {  // a body directive kept verbatim (e.g. .pragma "nounroll";)
  std::uint32_t beforeInstruction = 0;
  std::string text;
  bool operator==(const PositionedText&) const = default;
};

struct Function {
  std::string name;
  bool isEntry = false;
  bool hasBody = false;
  Linkage linkage = Linkage::None;
  std::vector<Variable> returns;  // .func (.param .b32 r) f(...)
  std::vector<Variable> params;
  std::vector<std::string> headerDirectives;  // ".maxntid 256, 1, 1", ".noreturn", ...
  // With ParseOptions::deferFunctionErrors, the first error in this function's body
  // ("file:line:col: message"); the body is then dropped (hasBody false) and the error is raised
  // only by what needs the function (emu::buildProgram for a kernel that is or calls it).
  std::string deferredError;

  std::vector<RegisterDecl> registerDecls;
  std::vector<Register> registers;
  std::vector<Variable> locals;  // .local/.shared/.param/.const declared in the body
  std::vector<Instruction> instructions;
  std::vector<Operand> operands;
  std::vector<Qualifier> qualifiers;
  std::vector<Label> labels;
  std::vector<BranchTargets> branchTargets;
  std::vector<std::string> prototypes;      // "name: .callprototype ...", verbatim
  std::vector<SourceLine> sourceLines;      // distinct .loc entries, referenced by instructions
  std::vector<PositionedText> bodyDirectives;

  ControlFlowGraph cfg;  // built by the parser for functions with a body

  [[nodiscard]] std::span<const Operand> operandsOf(const Instruction& in) const {
    return {operands.data() + in.firstOperand, in.numOperands};
  }
  [[nodiscard]] std::span<const Operand> children(const Operand& op) const {
    return {operands.data() + op.index, op.aux};
  }
  [[nodiscard]] std::span<const Qualifier> qualifiersOf(const Instruction& in) const {
    return {qualifiers.data() + in.firstQualifier, in.numQualifiers};
  }
  [[nodiscard]] std::string registerName(std::uint32_t reg) const;
  [[nodiscard]] const Variable* findParam(std::string_view name) const;
};

struct SourceFile {  // .file index "name"
  std::uint32_t index = 0;
  std::string name;
  std::string extra;  // ", timestamp, size" when present, verbatim
  bool operator==(const SourceFile&) const = default;
};

// Where each top-level item appears, so the printer keeps the module's order.
struct ModuleItem {
  enum class Kind : std::uint8_t { Global, Function, Raw };
  Kind kind;
  std::uint32_t index;
  bool operator==(const ModuleItem&) const = default;
};

struct Warning {
  SourceLocation where;
  std::string message;
};

struct Module {
  std::string fileName;
  std::string version;              // "9.0"
  std::vector<std::string> target;  // {"sm_80"} or {"sm_13", "map_f64_to_f32"}
  std::uint32_t addressSize = 0;    // 0 when absent (32 or 64)
  std::vector<Variable> globals;
  std::vector<Function> functions;
  std::vector<SourceFile> files;
  std::vector<std::string> raw;     // .section blocks, module .pragma, @@DWARF lines, verbatim
  std::vector<ModuleItem> order;
  std::vector<std::string> internedNames;  // unknown qualifiers/mnemonics (kFirstInternedQualifier + i)
  std::vector<Warning> warnings;

  [[nodiscard]] std::string_view qualifierSpelling(Qualifier q) const;
  [[nodiscard]] std::string_view mnemonic(const Function& f, const Instruction& in) const;
  [[nodiscard]] const Function* findFunction(std::string_view name) const;
  [[nodiscard]] int ptxVersionTimes10() const;  // 90 for "9.0", 0 when absent
};

}  // namespace teg::ptx
