// SASS instruction -> trace::StaticInstruction. The opcode table gives the kind and the
// throughput class (the CUDA C++ Programming Guide's arithmetic-instruction table rows,
// device::InstructionClass, as the PTX path uses them); the operands give the registers read and
// written (ISA knowledge nvdisasm does not print, written down here once).
#include "teg/sass/describe.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "teg/sass/printer.hpp"

namespace teg::sass {

namespace {

using device::InstructionClass;
using trace::InstrKind;

struct OpcodeRow {
  std::string_view opcode;
  InstrKind kind;
  InstructionClass unit;
};

// Volta-to-Blackwell opcodes (nvdisasm 13 spelling). IMAD stands for every integer multiply-add,
// including the IMAD.MOV/IMAD.SHL/IMAD.IADD forms ptxas uses to move values through the FMA-side
// pipe; uniform-datapath instructions (U*) take the class of their vector counterpart (the guide
// has no row for the uniform pipe). Memory opcodes are found by sass::memorySpace() instead.
constexpr std::array kOpcodeTable{
    OpcodeRow{"FADD", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FMUL", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FFMA", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FFMA32I", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FADD32I", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FMUL32I", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FMNMX", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FSETP", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FSET", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FSEL", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FCHK", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FSWZADD", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FMNMX3", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FADD2", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"UFADD", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"UFMUL", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"UFFMA", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"UFSETP", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"UFSEL", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"UFMNMX", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FFMA2", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"FMUL2", InstrKind::Alu, InstructionClass::Fp32Fma},
    OpcodeRow{"HADD2", InstrKind::Alu, InstructionClass::Fp16Fma},
    OpcodeRow{"HMUL2", InstrKind::Alu, InstructionClass::Fp16Fma},
    OpcodeRow{"HFMA2", InstrKind::Alu, InstructionClass::Fp16Fma},
    OpcodeRow{"HSETP2", InstrKind::Alu, InstructionClass::Fp16Fma},
    OpcodeRow{"HSET2", InstrKind::Alu, InstructionClass::Fp16Fma},
    OpcodeRow{"HMNMX2", InstrKind::Alu, InstructionClass::Fp16Fma},
    OpcodeRow{"DADD", InstrKind::Alu, InstructionClass::Fp64Fma},
    OpcodeRow{"DMUL", InstrKind::Alu, InstructionClass::Fp64Fma},
    OpcodeRow{"DFMA", InstrKind::Alu, InstructionClass::Fp64Fma},
    OpcodeRow{"DSETP", InstrKind::Alu, InstructionClass::Fp64Fma},
    OpcodeRow{"DMNMX", InstrKind::Alu, InstructionClass::Fp64Fma},
    OpcodeRow{"MUFU", InstrKind::Alu, InstructionClass::Special},
    OpcodeRow{"IMAD", InstrKind::Alu, InstructionClass::IntMul},
    OpcodeRow{"IMAD32I", InstrKind::Alu, InstructionClass::IntMul},
    OpcodeRow{"IMUL", InstrKind::Alu, InstructionClass::IntMul},
    OpcodeRow{"UIMAD", InstrKind::Alu, InstructionClass::IntMul},
    OpcodeRow{"IADD3", InstrKind::Alu, InstructionClass::IntAdd},
    OpcodeRow{"IADD", InstrKind::Alu, InstructionClass::IntAdd},
    OpcodeRow{"IADD32I", InstrKind::Alu, InstructionClass::IntAdd},
    OpcodeRow{"VIADD", InstrKind::Alu, InstructionClass::IntAdd},
    OpcodeRow{"UVIADD", InstrKind::Alu, InstructionClass::IntAdd},
    OpcodeRow{"VIADDMNMX", InstrKind::Alu, InstructionClass::IntCompare},
    OpcodeRow{"UIADD3", InstrKind::Alu, InstructionClass::IntAdd},
    OpcodeRow{"LEA", InstrKind::Alu, InstructionClass::IntAdd},
    OpcodeRow{"ULEA", InstrKind::Alu, InstructionClass::IntAdd},
    OpcodeRow{"IABS", InstrKind::Alu, InstructionClass::IntAdd},
    OpcodeRow{"IDP", InstrKind::Alu, InstructionClass::Dp4a},
    OpcodeRow{"IDP4A", InstrKind::Alu, InstructionClass::Dp4a},
    OpcodeRow{"VABSDIFF", InstrKind::Alu, InstructionClass::Sad},   // __sad, sad
    OpcodeRow{"VABSDIFF4", InstrKind::Alu, InstructionClass::Sad},  // __vabsdiffu4, __vsadu4 (vabsdiff4)
    OpcodeRow{"LOP3", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"ULOP3", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"LOP32I", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"PLOP3", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"UPLOP3", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"MOV", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"MOV32I", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"UMOV", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"SEL", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"USEL", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"PRMT", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"UPRMT", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"P2R", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"R2P", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"UP2UR", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"R2UR", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"S2R", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"S2UR", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"CS2R", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"CS2UR", InstrKind::Alu, InstructionClass::IntLogic},
    OpcodeRow{"SHF", InstrKind::Alu, InstructionClass::IntShift},
    OpcodeRow{"USHF", InstrKind::Alu, InstructionClass::IntShift},
    OpcodeRow{"SHL", InstrKind::Alu, InstructionClass::IntShift},
    OpcodeRow{"SHR", InstrKind::Alu, InstructionClass::IntShift},
    OpcodeRow{"BMSK", InstrKind::Alu, InstructionClass::IntShift},
    OpcodeRow{"UBMSK", InstrKind::Alu, InstructionClass::IntShift},
    OpcodeRow{"SGXT", InstrKind::Alu, InstructionClass::IntShift},
    OpcodeRow{"USGXT", InstrKind::Alu, InstructionClass::IntShift},
    OpcodeRow{"ISETP", InstrKind::Alu, InstructionClass::IntCompare},
    OpcodeRow{"UISETP", InstrKind::Alu, InstructionClass::IntCompare},
    OpcodeRow{"IMNMX", InstrKind::Alu, InstructionClass::IntCompare},
    OpcodeRow{"VIMNMX", InstrKind::Alu, InstructionClass::IntCompare},
    OpcodeRow{"VIMNMX3", InstrKind::Alu, InstructionClass::IntCompare},
    OpcodeRow{"UIMNMX", InstrKind::Alu, InstructionClass::IntCompare},
    OpcodeRow{"POPC", InstrKind::Alu, InstructionClass::IntPopc},
    OpcodeRow{"UPOPC", InstrKind::Alu, InstructionClass::IntPopc},
    OpcodeRow{"FLO", InstrKind::Alu, InstructionClass::IntClz},
    OpcodeRow{"UFLO", InstrKind::Alu, InstructionClass::IntClz},
    OpcodeRow{"BREV", InstrKind::Alu, InstructionClass::IntClz},
    OpcodeRow{"UBREV", InstrKind::Alu, InstructionClass::IntClz},
    OpcodeRow{"F2F", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"F2I", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"I2F", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"F2IP", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"I2FP", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"F2FP", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"I2I", InstrKind::Alu, InstructionClass::ConvertNarrowInt},
    OpcodeRow{"I2IP", InstrKind::Alu, InstructionClass::ConvertNarrowInt},
    OpcodeRow{"FRND", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"UI2F", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"UF2I", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"UI2FP", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"UF2FP", InstrKind::Alu, InstructionClass::ConvertOther},
    OpcodeRow{"SHFL", InstrKind::WarpSync, InstructionClass::WarpShuffle},
    OpcodeRow{"VOTE", InstrKind::WarpSync, InstructionClass::WarpShuffle},
    OpcodeRow{"VOTEU", InstrKind::WarpSync, InstructionClass::WarpShuffle},
    OpcodeRow{"MATCH", InstrKind::WarpSync, InstructionClass::WarpShuffle},
    OpcodeRow{"REDUX", InstrKind::WarpSync, InstructionClass::WarpReduce},
    OpcodeRow{"WARPSYNC", InstrKind::WarpSync, InstructionClass::Branch},
    OpcodeRow{"BSYNC", InstrKind::WarpSync, InstructionClass::Branch},
    OpcodeRow{"BSSY", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"BMOV", InstrKind::Alu, InstructionClass::Branch},
    // sm_100+: closes the converged region a collective warp operation (SHFL/VOTE under
    // divergence) opened; a control instruction like BSYNC.
    OpcodeRow{"ENDCOLLECTIVE", InstrKind::WarpSync, InstructionClass::Branch},
    OpcodeRow{"BREAK", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"BRA", InstrKind::Branch, InstructionClass::Branch},
    OpcodeRow{"BRX", InstrKind::Branch, InstructionClass::Branch},
    OpcodeRow{"JMP", InstrKind::Branch, InstructionClass::Branch},
    OpcodeRow{"JMX", InstrKind::Branch, InstructionClass::Branch},
    OpcodeRow{"CALL", InstrKind::Branch, InstructionClass::Branch},
    OpcodeRow{"RET", InstrKind::Branch, InstructionClass::Branch},
    OpcodeRow{"EXIT", InstrKind::Exit, InstructionClass::Branch},
    OpcodeRow{"KILL", InstrKind::Exit, InstructionClass::Branch},
    OpcodeRow{"BAR", InstrKind::Barrier, InstructionClass::Branch},
    OpcodeRow{"MEMBAR", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"FENCE", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"ERRBAR", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"CCTL", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"DEPBAR", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"LDGDEPBAR", InstrKind::Alu, InstructionClass::Branch},  // cp.async.commit_group
    OpcodeRow{"NANOSLEEP", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"YIELD", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"NOP", InstrKind::Alu, InstructionClass::Branch},
    OpcodeRow{"PMTRIG", InstrKind::Alu, InstructionClass::Branch},
};

const OpcodeRow* findOpcode(std::string_view opcode) {
  for (const OpcodeRow& row : kOpcodeTable)
    if (row.opcode == opcode) return &row;
  return nullptr;
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Instructions that write no register operand: every operand is read.
bool writesNoOperand(const Instruction& in) {
  static constexpr std::string_view kNoDestination[]{
      "STG", "STS", "ST", "STL", "RED", "REDG", "BAR", "BRA", "BRX", "JMP", "JMX", "EXIT",
      "BSYNC", "WARPSYNC", "CALL", "RET", "MEMBAR", "FENCE", "NOP", "DEPBAR", "ERRBAR", "CCTL", "YIELD",
      "NANOSLEEP", "KILL", "BPT", "BREAK", "BSSY", "PMTRIG", "ENDCOLLECTIVE"};
  return std::find(std::begin(kNoDestination), std::end(kNoDestination), in.opcode) != std::end(kNoDestination);
}

// Compare-and-set opcodes write two predicates first (ISETP P0, P1, ...; PLOP3 P0, P1, ...).
bool writesTwoPredicates(const Instruction& in) {
  static constexpr std::string_view kSetp[]{"ISETP", "UISETP", "FSETP", "DSETP", "HSETP2",
                                    "PSETP", "PLOP3", "UPLOP3"};
  return std::find(std::begin(kSetp), std::end(kSetp), in.opcode) != std::end(kSetp);
}

// Carry/flag outputs that follow the destination register (IADD3 R0, P0, P1, ...; LEA R2, P0,
// ...; VOTE.ANY R0, P1, ...).
int predicateOutputsAfterDestination(const Instruction& in) {
  if (in.opcode == "IADD3" || in.opcode == "UIADD3") return 2;
  if (in.opcode == "LEA" || in.opcode == "ULEA" || in.opcode == "VOTE" || in.opcode == "VOTEU" ||
      in.opcode == "IMAD" || in.opcode == "UIMAD")
    return 1;
  return 0;
}

bool isConversion(const Instruction& in) {
  return in.opcode == "F2F" || in.opcode == "F2I" || in.opcode == "I2F" || in.opcode == "F2IP" || in.opcode == "I2FP";
}

bool isFloatType(std::string_view m) { return m == "F64" || m == "F32" || m == "F16" || m == "BF16" || m == "TF32"; }
bool isIntegerType(std::string_view m) {
  return m == "S64" || m == "U64" || m == "S32" || m == "U32" || m == "S16" || m == "U16" || m == "S8" || m == "U8";
}

// How many consecutive 32-bit registers a conversion's destination and source occupy: the
// float side of F2I/I2F is named by a float type modifier, the integer side by an integer one;
// F2F names the destination type first.
std::pair<int, int> conversionWidths(const Instruction& in) {
  int dst = 1, src = 1;
  std::vector<std::string_view> floats, ints;
  for (const auto& m : in.modifiers) {
    if (isFloatType(m)) floats.push_back(m);
    if (isIntegerType(m)) ints.push_back(m);
  }
  auto wide = [](std::string_view m) { return m.find("64") != std::string_view::npos ? 2 : 1; };
  if (in.opcode == "F2F") {
    if (!floats.empty()) dst = wide(floats[0]);
    if (floats.size() > 1) src = wide(floats[1]);
  } else if (in.opcode == "F2I" || in.opcode == "F2IP") {
    if (!ints.empty()) dst = wide(ints[0]);
    if (!floats.empty()) src = wide(floats[0]);
  } else {  // I2F, I2FP
    if (!floats.empty()) dst = wide(floats[0]);
    if (!ints.empty()) src = wide(ints[0]);
  }
  return {dst, src};
}

bool isDoubleArithmetic(const Instruction& in) {
  return in.opcode == "DADD" || in.opcode == "DMUL" || in.opcode == "DFMA" || in.opcode == "DSETP" || in.opcode == "DMNMX";
}

void addRegister(std::vector<std::uint32_t>& out, const Operand& op, int count) {
  switch (op.kind) {
    case OperandKind::Register:
      if (op.index == kZeroRegister) return;
      for (int i = 0; i < count; ++i) out.push_back(static_cast<std::uint32_t>(op.index + i));
      return;
    case OperandKind::UniformRegister:
      if (op.index == kZeroUniformRegister) return;
      for (int i = 0; i < count; ++i) out.push_back(kUniformRegisterBase + static_cast<std::uint32_t>(op.index + i));
      return;
    case OperandKind::Predicate:
      if (op.index != kTruePredicate) out.push_back(kPredicateBase + static_cast<std::uint32_t>(op.index));
      return;
    case OperandKind::UniformPredicate:
      if (op.index != kTruePredicate) out.push_back(kUniformPredicateBase + static_cast<std::uint32_t>(op.index));
      return;
    default:
      return;
  }
}

bool isRegisterLike(const Operand& op) {
  return op.kind == OperandKind::Register || op.kind == OperandKind::UniformRegister ||
         op.kind == OperandKind::Predicate || op.kind == OperandKind::UniformPredicate;
}
bool isPredicate(const Operand& op) {
  return op.kind == OperandKind::Predicate || op.kind == OperandKind::UniformPredicate;
}

// Registers an address expression reads ([R2.64+0x10], desc[UR4][R2.64], c[0x3][R2], cx[UR4][R0]).
void addAddressRegisters(std::vector<std::uint32_t>& uses, const Operand& op) {
  const Address& a = op.address;
  if (a.baseRegister >= 0 && a.baseRegister != kZeroRegister)
    for (int i = 0; i < (a.base64 ? 2 : 1); ++i) uses.push_back(static_cast<std::uint32_t>(a.baseRegister + i));
  if (a.uniformRegister >= 0 && a.uniformRegister != kZeroUniformRegister)
    uses.push_back(kUniformRegisterBase + static_cast<std::uint32_t>(a.uniformRegister));
  if (op.descriptorRegister >= 0 && op.descriptorRegister != kZeroUniformRegister)
    for (int i = 0; i < 2; ++i) uses.push_back(kUniformRegisterBase + static_cast<std::uint32_t>(op.descriptorRegister + i));
  if (op.bankRegister >= 0 && op.bankRegister != kZeroUniformRegister)
    uses.push_back(kUniformRegisterBase + static_cast<std::uint32_t>(op.bankRegister));
}

int operandWidth(const Operand& op) {
  return std::find(op.suffixes.begin(), op.suffixes.end(), "64") != op.suffixes.end() ? 2 : 1;
}

// Registers written (defs) and read (uses), with 64-bit pairs and vector loads/stores expanded
// to every 32-bit register they cover.
void collectRegisters(const Instruction& in, trace::StaticInstruction& s) {
  if (in.guard) addRegister(s.uses, *in.guard, 1);
  const auto& ops = in.operands;
  std::size_t firstSource = 0;
  const int memoryWords = std::max(1, static_cast<int>(s.accessBytes) / 4);
  const bool wide = in.hasModifier("WIDE");
  const bool doubleArithmetic = isDoubleArithmetic(in);
  const auto [convertDst, convertSrc] = isConversion(in) ? conversionWidths(in) : std::pair{1, 1};
  if (!writesNoOperand(in) && !ops.empty() && isRegisterLike(ops[0])) {
    if (writesTwoPredicates(in)) {
      for (std::size_t i = 0; i < ops.size() && i < 2 && isPredicate(ops[i]); ++i) addRegister(s.defs, ops[i], 1);
      firstSource = std::min<std::size_t>(2, ops.size());
    } else {
      std::size_t next = 0;
      // SHFL/ATOM/ATOMG/ATOMS/MATCH print a predicate output before the destination register.
      if (isPredicate(ops[0]) && ops.size() > 1 && ops[1].kind == OperandKind::Register) addRegister(s.defs, ops[next++], 1);
      int width = operandWidth(ops[next]);
      if (s.kind == InstrKind::Load || s.kind == InstrKind::Atomic) width = memoryWords;
      if (wide || doubleArithmetic || in.opcode == "CS2R") width = 2;
      if (in.opcode == "CS2UR") width = in.hasModifier("32") ? 1 : 2;
      if (isConversion(in)) width = convertDst;
      addRegister(s.defs, ops[next++], width);
      for (int k = predicateOutputsAfterDestination(in); k > 0 && next < ops.size() && isPredicate(ops[next]); --k)
        addRegister(s.defs, ops[next++], 1);
      firstSource = next;
    }
  }
  for (std::size_t i = firstSource; i < ops.size(); ++i) {
    const Operand& op = ops[i];
    // Source slots a, b, c, d in order (what the reuse flags and the register banks refer to): a
    // general register, or an address's base register; anything else reads no register bank.
    if (const std::size_t slot = i - firstSource; slot < s.sourceSlots.size()) {
      const int r = op.kind == OperandKind::Register ? op.index : op.kind == OperandKind::Memory ? op.address.baseRegister : -1;
      s.sourceSlots[slot] = static_cast<std::int16_t>(r >= 0 && r != kZeroRegister ? r : -1);
    }
    if (op.kind == OperandKind::Memory || op.kind == OperandKind::ConstantBank) {
      addAddressRegisters(s.uses, op);
      continue;
    }
    int width = operandWidth(op);
    const bool lastOperand = i + 1 == ops.size();
    if ((s.kind == InstrKind::Store || s.kind == InstrKind::Atomic) && op.kind == OperandKind::Register) width = memoryWords;
    if (doubleArithmetic && op.kind == OperandKind::Register) width = 2;
    if (wide && lastOperand && op.kind == OperandKind::Register) width = 2;
    if (isConversion(in) && op.kind == OperandKind::Register) width = convertSrc;
    addRegister(s.uses, op, width);
  }
  auto unique = [](std::vector<std::uint32_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  unique(s.defs);
  unique(s.uses);
}

// Loads through the read-only path (LDG.E.CONSTANT: ld.global.nc / __ldg) may cache in L1;
// strong (volatile, .cv) loads go to the point of coherence and bypass it.
trace::CachePolicy cachePolicyOf(const Instruction& in) {
  if (in.hasModifier("CONSTANT")) return trace::CachePolicy::CacheL1;
  // cp.async.cg (LDGSTS.BYPASS, 16 bytes) bypasses L1, cp.async.ca caches there (the PTX path's
  // reading of .cg/.ca).
  if (in.opcode == "LDGSTS") return in.hasModifier("BYPASS") ? trace::CachePolicy::BypassL1 : trace::CachePolicy::CacheL1;
  if (in.opcode == "UBLKCP") return trace::CachePolicy::BypassL1;  // as the PTX path's bulk copy
  if (in.hasModifier("STRONG") && (in.hasModifier("GPU") || in.hasModifier("SYS"))) return trace::CachePolicy::BypassL1;
  return trace::CachePolicy::Default;
}

trace::MemorySpace spaceOf(std::string_view space) {
  if (space == "global" || space == "generic") return trace::MemorySpace::Global;
  if (space == "shared") return trace::MemorySpace::Shared;
  if (space == "local") return trace::MemorySpace::Local;
  if (space == "constant") return trace::MemorySpace::Constant;
  if (space == "texture") return trace::MemorySpace::Texture;
  return trace::MemorySpace::None;
}

InstrKind memoryKindOf(const Instruction& in) {
  const std::string& op = in.opcode;
  if (startsWith(op, "ATOM") || startsWith(op, "RED")) return InstrKind::Atomic;
  // mbarrier operations, as on the PTX path: an arrive (or init) is a store, a phase test a load.
  if (op == "SYNCS") return in.hasModifier("PHASECHK") ? InstrKind::Load : InstrKind::Store;
  if (startsWith(op, "ST") || op == "ARRIVES") return InstrKind::Store;
  return InstrKind::Load;
}

// The scoreboard barrier `DEPBAR.LE SB0, 0x0` names ("SB0" -> 0), or -1.
int depbarBarrier(const Instruction& in) {
  for (const Operand& op : in.operands)
    if (op.text.size() == 3 && op.text[0] == 'S' && op.text[1] == 'B' && op.text[2] >= '0' && op.text[2] <= '5')
      return op.text[2] - '0';
  return -1;
}

// The count N of `DEPBAR.LE SB0, N` (cp.async.wait_group N: N groups may stay in flight), 0 when
// none is printed; capped at 255 (a wait for fewer groups, never for more).
std::uint8_t depbarKeep(const Instruction& in) {
  for (const Operand& op : in.operands)
    if (op.kind == OperandKind::Immediate) return static_cast<std::uint8_t>(std::clamp<std::int64_t>(op.value, 0, 255));
  return 0;
}

}  // namespace

// cp.async as the PTX path times it (emu/instruction_table.cpp: every wait depends on the copies
// before it). The control words alone do not say so: an LDGSTS sets no write barrier, the
// LDGDEPBAR after it (commit_group) sets one that the hardware clears when the group's copies
// land, and DEPBAR.LE SBk waits on it through its operand, not its wait mask. So each LDGSTS
// sets the write barrier of the next LDGDEPBAR (or, after the last one, a barrier no control
// word uses), DEPBAR.LE SBk waits for barrier k, and an ARRIVES (the copies' mbarrier
// arrive, which the hardware performs when they land) waits for the copies' barrier, so the
// test_wait spin after it starts once they are done. A bulk copy (UBLKCP, sm_90+) sets the
// spare barrier too, and a phase test (SYNCS.PHASECHK) waits for it. DEPBAR.LE SBk, N with N > 0
// (cp.async.wait_group N, PTX ISA: "waits until only N or fewer of the most recent cp.async-groups
// are pending and all the prior cp.async-groups committed by the executing threads are complete")
// waits for the groups on barrier k but the N most recent: each LDGDEPBAR commits one (the
// engine keeps each group's completion, sm_model.cpp).
// (The PTX path still waits for every copy so far at any wait_group.)
static void describeAsyncCopyWaits(const SectionLayout& layout, trace::KernelInfo& info) {
  std::uint32_t used = 0;
  bool anyCopy = false;
  for (const trace::StaticInstruction& s : info.instructions) {
    if (s.control.writeBarrier >= 0) used |= 1u << s.control.writeBarrier;
    if (s.control.readBarrier >= 0) used |= 1u << s.control.readBarrier;
    used |= s.control.waitMask;
  }
  auto isCopy = [](const Instruction& in) { return in.opcode == "LDGSTS" || in.opcode == "UBLKCP"; };
  for (std::uint32_t pc = 0; pc < info.instructions.size(); ++pc) anyCopy |= isCopy(layout.at(pc));
  if (!anyCopy) return;
  int spare = -1;
  for (int b = 5; b >= 0; --b)
    if (!(used & (1u << b))) spare = b;
  // None free (sm_90 code uses all six): the copies' own scoreboard, the one an LDGDEPBAR sets
  // (other producers of that barrier then wait for the copies too: a little too long, not too
  // short).
  for (std::uint32_t pc = 0; spare < 0 && pc < info.instructions.size(); ++pc)
    if (layout.at(pc).opcode == "LDGDEPBAR") spare = info.instructions[pc].control.writeBarrier;
  int copies = spare;  // the barrier the copies so far set
  for (std::uint32_t pc = info.instructions.size(); pc-- > 0;) {
    const Instruction& in = layout.at(pc);
    trace::StaticInstruction& s = info.instructions[pc];
    if (in.opcode == "LDGDEPBAR" && s.control.writeBarrier >= 0) {
      copies = s.control.writeBarrier;
      s.control.commitGroup = true;
    }
    if (isCopy(in) && copies >= 0 && s.control.writeBarrier < 0)
      s.control.writeBarrier = static_cast<std::int8_t>(copies);
  }
  int last = -1;  // the barrier of the latest copy before this pc
  for (std::uint32_t pc = 0; pc < info.instructions.size(); ++pc) {
    const Instruction& in = layout.at(pc);
    trace::StaticInstruction& s = info.instructions[pc];
    if (isCopy(in) && s.control.writeBarrier >= 0) last = s.control.writeBarrier;
    if (in.opcode == "DEPBAR") {
      const int k = depbarBarrier(in);
      const std::uint8_t keep = depbarKeep(in);
      if (k >= 0 && keep > 0) {
        s.control.groupWaitBarrier = static_cast<std::int8_t>(k);
        s.control.groupWaitKeep = keep;
      } else if (k >= 0) {
        s.control.waitMask = static_cast<std::uint8_t>(s.control.waitMask | (1u << k));
      }
    }
    const bool waits = in.opcode == "ARRIVES" || (in.opcode == "SYNCS" && in.hasModifier("PHASECHK"));
    if (waits && last >= 0) s.control.waitMask = static_cast<std::uint8_t>(s.control.waitMask | (1u << last));
  }
}

std::optional<std::uint32_t> SectionLayout::entryPcOf(std::string_view functionName) const {
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (functions[i]->name == functionName) return firstPc[i];
  return std::nullopt;
}

const Instruction& SectionLayout::at(std::uint32_t pc) const {
  const auto it = std::upper_bound(firstPc.begin(), firstPc.end(), pc);
  const std::size_t f = static_cast<std::size_t>(it - firstPc.begin()) - 1;
  return functions[f]->instructions[pc - firstPc[f]];
}

SectionLayout layoutSection(const Module& module, const Function& entry) {
  SectionLayout layout;
  layout.functions.push_back(&entry);
  for (const Function& f : module.functions)
    if (&f != &entry && f.section == entry.section) layout.functions.push_back(&f);
  for (const Function* f : layout.functions) {
    layout.firstPc.push_back(layout.instructionCount);
    layout.instructionCount += static_cast<std::uint32_t>(f->instructions.size());
  }
  return layout;
}

trace::StaticInstruction describeInstruction(const Module& module, const Instruction& in) {
  trace::StaticInstruction s;
  if (const auto space = memorySpace(in)) {
    s.kind = memoryKindOf(in);
    s.unit = InstructionClass::LoadStore;
    s.space = spaceOf(*space);
    s.accessBytes = static_cast<std::uint8_t>(accessBytes(in).value_or(4));
    if (s.kind == InstrKind::Load && s.space == trace::MemorySpace::Global) s.cache = cachePolicyOf(in);
    if (s.space == trace::MemorySpace::Texture) s.cache = trace::CachePolicy::CacheL1;
  } else if (const OpcodeRow* row = findOpcode(in.opcode)) {
    s.kind = row->kind;
    s.unit = row->unit;
  } else {
    // Tensor-core, TMA and tile-memory opcodes (HMMA, LDSM, UTMALDG, ...) and anything newer:
    // executed by nothing the timing model knows.
    s.kind = InstrKind::Unmodelled;
    s.unit = InstructionClass::IntLogic;
  }
  if (isConversion(in)) {
    const auto [dst, src] = conversionWidths(in);
    if (dst == 2 || src == 2) s.unit = InstructionClass::Convert64;
  }
  for (const Operand& op : in.operands)
    if (op.kind == OperandKind::SpecialRegister && op.name.find("CLOCK") != std::string::npos) s.readsClock = true;
  collectRegisters(in, s);
  // ptxas's scheduling (stall, barriers, wait mask, reuse) as the timing engine reads it; zero
  // (no stall, no barrier) when nvdisasm printed no encodings.
  if (in.hasEncoding)
    s.control = trace::ControlWord{static_cast<std::uint8_t>(in.control.stall), in.control.yield,
                                   static_cast<std::int8_t>(in.control.writeBarrier),
                                   static_cast<std::int8_t>(in.control.readBarrier), in.control.waitMask, in.control.reuse};
  if (in.source >= 0 && static_cast<std::size_t>(in.source) < module.sources.size())
    s.sourceLine = module.sources[static_cast<std::size_t>(in.source)].line;
  s.text = formatInstruction(in);
  return s;
}

trace::KernelInfo describeKernel(const Module& module, const Function& entry) {
  trace::KernelInfo info;
  info.name = entry.name;
  info.isa = trace::Isa::Sass;
  const SectionLayout layout = layoutSection(module, entry);
  for (const Function* f : layout.functions) {
    for (const Instruction& in : f->instructions) {
      trace::StaticInstruction s = describeInstruction(module, in);
      s.pc = static_cast<std::uint32_t>(info.instructions.size());
      if (in.source >= 0 && static_cast<std::size_t>(in.source) < module.sources.size()) {
        const std::string& file = module.sources[static_cast<std::size_t>(in.source)].file;
        auto it = std::find(info.sourceFiles.begin(), info.sourceFiles.end(), file);
        if (it == info.sourceFiles.end()) it = info.sourceFiles.insert(info.sourceFiles.end(), file);
        s.sourceFile = static_cast<std::int32_t>(it - info.sourceFiles.begin());
      }
      info.instructions.push_back(std::move(s));
    }
  }
  describeAsyncCopyWaits(layout, info);
  info.registersPerThread = entry.registers > 0 ? static_cast<std::uint32_t>(entry.registers) : 0;
  return info;
}

}  // namespace teg::sass
