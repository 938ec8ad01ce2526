// PTX instruction -> trace description (kind, throughput class, memory space): one table per
// dimension, so the mapping can be read and checked in one place. Throughput classes are those
// of the CUDA C++ Programming Guide's arithmetic-instruction table (device::InstructionClass).
#include <algorithm>
#include <array>
#include <string>

#include "async_form.hpp"
#include "teg/emu/emulator.hpp"
#include "teg/ptx/contraction.hpp"
#include "teg/ptx/def_use.hpp"
#include "teg/ptx/printer.hpp"

namespace teg::emu {

namespace {

using device::InstructionClass;
using ptx::InstrClass;
using ptx::Opcode;
using trace::InstrKind;
using trace::MemorySpace;

struct ClassRow {
  InstrClass cls;
  InstrKind kind;
  InstructionClass unit;
  MemorySpace space;
};

// By the PTX timing class (ptx/opcodes.def + the instruction's type and space).
constexpr ClassRow kClassTable[] = {
    {InstrClass::IntAlu, InstrKind::Alu, InstructionClass::IntAdd, MemorySpace::None},
    {InstrClass::IntMul, InstrKind::Alu, InstructionClass::IntMul, MemorySpace::None},
    {InstrClass::Fp16, InstrKind::Alu, InstructionClass::Fp16Fma, MemorySpace::None},
    {InstrClass::Fp32, InstrKind::Alu, InstructionClass::Fp32Fma, MemorySpace::None},
    {InstrClass::Fp64, InstrKind::Alu, InstructionClass::Fp64Fma, MemorySpace::None},
    {InstrClass::Sfu, InstrKind::Alu, InstructionClass::Special, MemorySpace::None},
    {InstrClass::Conversion, InstrKind::Alu, InstructionClass::ConvertOther, MemorySpace::None},
    {InstrClass::Move, InstrKind::Alu, InstructionClass::IntLogic, MemorySpace::None},
    {InstrClass::LoadGlobal, InstrKind::Load, InstructionClass::LoadStore, MemorySpace::Global},
    {InstrClass::StoreGlobal, InstrKind::Store, InstructionClass::LoadStore, MemorySpace::Global},
    {InstrClass::LoadShared, InstrKind::Load, InstructionClass::LoadStore, MemorySpace::Shared},
    {InstrClass::StoreShared, InstrKind::Store, InstructionClass::LoadStore, MemorySpace::Shared},
    {InstrClass::LoadLocal, InstrKind::Load, InstructionClass::LoadStore, MemorySpace::Local},
    {InstrClass::StoreLocal, InstrKind::Store, InstructionClass::LoadStore, MemorySpace::Local},
    {InstrClass::LoadConst, InstrKind::Load, InstructionClass::LoadStore, MemorySpace::Constant},
    {InstrClass::LoadParam, InstrKind::Load, InstructionClass::LoadStore, MemorySpace::Param},
    {InstrClass::StoreParam, InstrKind::Store, InstructionClass::LoadStore, MemorySpace::Param},
    // Generic accesses: the space is only known per lane at run time; global is the usual case.
    {InstrClass::LoadGeneric, InstrKind::Load, InstructionClass::LoadStore, MemorySpace::Global},
    {InstrClass::StoreGeneric, InstrKind::Store, InstructionClass::LoadStore, MemorySpace::Global},
    {InstrClass::AtomicGlobal, InstrKind::Atomic, InstructionClass::LoadStore, MemorySpace::Global},
    {InstrClass::AtomicShared, InstrKind::Atomic, InstructionClass::LoadStore, MemorySpace::Shared},
    {InstrClass::AtomicGeneric, InstrKind::Atomic, InstructionClass::LoadStore, MemorySpace::Global},
    // tex is a load through the texture path (L1/texture cache); tld4, txq and surfaces are
    // unmodelled (their parse flag overrides the kind).
    {InstrClass::Texture, InstrKind::Load, InstructionClass::LoadStore, MemorySpace::Texture},
    {InstrClass::Warp, InstrKind::WarpSync, InstructionClass::WarpShuffle, MemorySpace::None},
    {InstrClass::Barrier, InstrKind::Barrier, InstructionClass::Branch, MemorySpace::None},
    {InstrClass::Fence, InstrKind::Alu, InstructionClass::Branch, MemorySpace::None},
    {InstrClass::Branch, InstrKind::Branch, InstructionClass::Branch, MemorySpace::None},
    {InstrClass::Call, InstrKind::Branch, InstructionClass::Branch, MemorySpace::None},
    {InstrClass::Return, InstrKind::Exit, InstructionClass::Branch, MemorySpace::None},
    {InstrClass::Tensor, InstrKind::Unmodelled, InstructionClass::Fp16Fma, MemorySpace::None},
    {InstrClass::AsyncCopy, InstrKind::Unmodelled, InstructionClass::LoadStore, MemorySpace::Global},
    {InstrClass::Misc, InstrKind::Alu, InstructionClass::IntLogic, MemorySpace::None},
    {InstrClass::Unknown, InstrKind::Unmodelled, InstructionClass::IntLogic, MemorySpace::None},
};

// Integer instructions whose throughput row is not the IntAdd/IntMul default (Programming Guide
// table: compare/min/max, logic, shift, clz, popc, mul24, sad, dp4a rows).
struct OpcodeRow {
  Opcode op;
  InstructionClass unit;
};
constexpr OpcodeRow kIntegerOpcodeTable[] = {
    {Opcode::Min, InstructionClass::IntCompare},   {Opcode::Max, InstructionClass::IntCompare},
    {Opcode::Setp, InstructionClass::IntCompare},  {Opcode::Set, InstructionClass::IntCompare},
    {Opcode::Selp, InstructionClass::IntCompare},  {Opcode::Slct, InstructionClass::IntCompare},
    {Opcode::And, InstructionClass::IntLogic},     {Opcode::Or, InstructionClass::IntLogic},
    {Opcode::Xor, InstructionClass::IntLogic},     {Opcode::Not, InstructionClass::IntLogic},
    {Opcode::Cnot, InstructionClass::IntLogic},    {Opcode::Lop3, InstructionClass::IntLogic},
    {Opcode::Prmt, InstructionClass::IntLogic},    {Opcode::Shl, InstructionClass::IntShift},
    {Opcode::Shr, InstructionClass::IntShift},     {Opcode::Shf, InstructionClass::IntShift},
    {Opcode::Bfe, InstructionClass::IntShift},     {Opcode::Bfi, InstructionClass::IntShift},
    {Opcode::Bmsk, InstructionClass::IntShift},    {Opcode::Szext, InstructionClass::IntShift},
    {Opcode::Clz, InstructionClass::IntClz},       {Opcode::Bfind, InstructionClass::IntClz},
    {Opcode::Brev, InstructionClass::IntClz},      {Opcode::Fns, InstructionClass::IntClz},
    {Opcode::Popc, InstructionClass::IntPopc},     {Opcode::Mul24, InstructionClass::IntMul24},
    {Opcode::Mad24, InstructionClass::IntMul24},   {Opcode::Sad, InstructionClass::Sad},
    {Opcode::Dp4a, InstructionClass::Dp4a},        {Opcode::Dp2a, InstructionClass::Dp4a},
    {Opcode::Redux, InstructionClass::WarpReduce},
};

bool isIntegerType(ptx::Type t) { return !ptx::isFloatType(t) && t != ptx::Type::Pred && t != ptx::Type::None; }

// cvt rows of the Programming Guide: 8/16-bit -> 32-bit integer; anything to/from 64-bit; other.
// A cvt between 32- and 64-bit integers is no conversion the hardware runs: a 64-bit integer is a
// register pair, so ptxas widens by writing the high register (zero: RZ or nothing, the widening
// folds into the address's IMAD.WIDE.U32; sign: SHF.R.S32.HI of the low register) and narrows by
// taking the low register. The sm_89 SASS of data/validation/kernels/luo_l1_bandwidth.cu, whose
// loop has a cvt.u64.u32 per load, has no I2I/F2I/I2F at all. Timed as the move or shift it is,
// not on the Programming Guide's 64-bit conversion row (a slow unit on the GeForce parts).
InstructionClass conversionUnit(const ptx::Instruction& in) {
  const int db = ptx::typeBits(in.type), sb = ptx::typeBits(in.type2);
  if (isIntegerType(in.type) && isIntegerType(in.type2) && db >= 32 && sb >= 32 && db != sb) {
    const bool signExtends = db > sb && ptx::isSignedType(in.type2);
    return signExtends ? InstructionClass::IntShift : InstructionClass::IntLogic;
  }
  if (db == 64 || sb == 64) return InstructionClass::Convert64;
  if (isIntegerType(in.type) && isIntegerType(in.type2) && sb < 32) return InstructionClass::ConvertNarrowInt;
  return InstructionClass::ConvertOther;
}

// PTX ISA "Cache Operators" for loads: .ca caches at all levels (L1 included), .cg at L2 only,
// .cs streams (evict first, still cached), .lu is "last use", .cv fetches again (no cache);
// ld.global.nc goes through the read-only (texture) cache. .volatile bypasses L1 as well.
trace::CachePolicy cachePolicyOf(const ptx::Function& fn, const ptx::Instruction& in) {
  if (in.has(ptx::modifier::kVolatile)) return trace::CachePolicy::BypassL1;
  if (in.has(ptx::modifier::kNc)) return trace::CachePolicy::CacheL1;
  for (ptx::Qualifier q : fn.qualifiersOf(in)) {
    if (q == ptx::Qualifier::Ca) return trace::CachePolicy::CacheL1;
    if (q == ptx::Qualifier::Cg || q == ptx::Qualifier::Cv) return trace::CachePolicy::BypassL1;
  }
  return trace::CachePolicy::Default;
}

// cp.async and mbarrier as the timing engine sees them. A copy is a global load into shared
// memory (LDGSTS on sm_80+: it occupies the LSU and the memory pipeline like a load, and no
// register waits for it); waits depend on the copies (describeKernel gives each copy a register
// of its own). The operations on an mbarrier are 8-byte shared accesses (ptxas elects one lane
// per warp for the arrive, so the lanes' common address is one access, not a conflict), a wait
// is a shared load of it. A bulk copy's bytes are not all counted: the record carries one
// 16-byte access per executing lane.
void describeAsync(const ptx::Module& module, const ptx::Function& fn, const ptx::Instruction& in,
                   trace::StaticInstruction& s) {
  const AsyncInstruction a = asyncFormOf(module, fn, in);
  s.unit = InstructionClass::LoadStore;
  switch (a.form) {
    case AsyncForm::Unsupported: s.kind = InstrKind::Unmodelled; return;
    case AsyncForm::Copy:
    case AsyncForm::BulkCopy: {
      s.kind = InstrKind::Load;
      s.space = MemorySpace::Global;
      s.accessBytes = 16;
      const auto ops = fn.operandsOf(in);
      if (a.form == AsyncForm::Copy && ops.size() >= 3 && ops[2].kind == ptx::OperandKind::Immediate)
        s.accessBytes = static_cast<std::uint8_t>(std::min<std::int64_t>(16, std::max<std::int64_t>(1, ops[2].value)));
      s.cache = a.form == AsyncForm::Copy ? cachePolicyOf(fn, in) : trace::CachePolicy::BypassL1;
      return;
    }
    case AsyncForm::CommitGroup:
    case AsyncForm::WaitGroup:
    case AsyncForm::WaitAll:
    case AsyncForm::PendingCount:
      s.kind = InstrKind::Alu;
      s.unit = InstructionClass::IntLogic;
      s.space = MemorySpace::None;
      return;
    default:
      s.kind = (a.form == AsyncForm::TestWait || a.form == AsyncForm::TryWait) ? InstrKind::Load : InstrKind::Store;
      s.space = MemorySpace::Shared;
      s.accessBytes = 8;
      return;
  }
}

}  // namespace

trace::StaticInstruction describeInstruction(const ptx::Module& module, const ptx::Function& fn,
                                             const ptx::Instruction& in) {
  trace::StaticInstruction s;
  const ClassRow* row = &kClassTable[std::size(kClassTable) - 1];
  for (const ClassRow& r : kClassTable)
    if (r.cls == in.instrClass) row = &r;
  s.kind = row->kind;
  s.unit = row->unit;
  s.space = row->space;
  if (in.instrClass == InstrClass::IntAlu || in.instrClass == InstrClass::IntMul || in.instrClass == InstrClass::Warp) {
    for (const OpcodeRow& r : kIntegerOpcodeTable)
      if (r.op == in.opcode) s.unit = r.unit;
  }
  if (in.instrClass == InstrClass::Conversion && in.opcode == Opcode::Cvt) s.unit = conversionUnit(in);
  if (in.opcode == Opcode::Ret && !fn.isEntry) s.kind = InstrKind::Branch;
  // bar.warp.sync is a warp-level synchronisation, not a block barrier.
  for (ptx::Qualifier q : fn.qualifiersOf(in))
    if (q == ptx::Qualifier::Warp && in.opcode == Opcode::Bar) s.kind = InstrKind::WarpSync;
  if (in.unmodelled()) s.kind = InstrKind::Unmodelled;
  if (s.kind == InstrKind::Load || s.kind == InstrKind::Store || s.kind == InstrKind::Atomic) {
    const int bits = in.type == ptx::Type::Pred ? 8 : ptx::typeBits(in.type);
    s.accessBytes = static_cast<std::uint8_t>(std::min(255, bits / 8 * in.vectorWidth));
  }
  if (in.opcode == Opcode::Prefetch || in.opcode == Opcode::Prefetchu) s.kind = InstrKind::Alu;
  if (s.kind == InstrKind::Load && s.space == MemorySpace::Global) s.cache = cachePolicyOf(fn, in);
  // Texture fetches go through the unified L1/texture cache on every GPU that has one.
  if (s.kind == InstrKind::Load && s.space == MemorySpace::Texture) s.cache = trace::CachePolicy::CacheL1;
  // Last: it decides kind, space, width and cache policy of these itself.
  if (in.opcode == Opcode::Cp || in.opcode == Opcode::Mbarrier) describeAsync(module, fn, in, s);
  for (const ptx::Operand& op : fn.operandsOf(in)) {
    const auto reg = static_cast<ptx::SpecialRegister>(op.index);
    if (op.kind == ptx::OperandKind::Special &&
        (reg == ptx::SpecialRegister::Clock || reg == ptx::SpecialRegister::ClockHi || reg == ptx::SpecialRegister::Clock64))
      s.readsClock = true;
  }
  std::string text = ptx::printInstruction(module, fn, in);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) text.pop_back();
  const auto start = text.find_first_not_of(" \t");
  s.text = start == std::string::npos ? "" : text.substr(start);
  return s;
}

trace::KernelInfo describeKernel(const ptx::Module& module, const ptx::Function& function) {
  trace::KernelInfo info;
  info.name = function.name;
  for (const ptx::SourceFile& f : module.files) info.sourceFiles.push_back(f.name);
  // The kernel first, then every other function with a body (callees), each with its registers
  // renumbered after the previous functions' so register numbers stay unique.
  std::vector<const ptx::Function*> order{&function};
  for (const ptx::Function& f : module.functions)
    if (f.hasBody && &f != &function) order.push_back(&f);
  std::uint32_t regBase = 0;
  for (const ptx::Function* fn : order) {
    const auto pcBase = static_cast<std::int32_t>(info.instructions.size());
    std::vector<std::int32_t> fusedInto = ptx::fmaContractionTargets(*fn);
    const std::vector<std::int32_t> logicInto = ptx::logicContractionTargets(*fn);
    for (std::size_t i = 0; i < fusedInto.size(); ++i)
      if (fusedInto[i] < 0) fusedInto[i] = logicInto[i];
    for (const ptx::Instruction& in : fn->instructions) {
      trace::StaticInstruction s = describeInstruction(module, *fn, in);
      s.pc = static_cast<std::uint32_t>(info.instructions.size());
      if (const std::int32_t add = fusedInto[s.pc - static_cast<std::uint32_t>(pcBase)]; add >= 0) s.fusedInto = pcBase + add;
      ptx::forEachRegisterAccess(*fn, in, [&](std::uint32_t reg, bool def) {
        (def ? s.defs : s.uses).push_back(regBase + reg);
      });
      if (in.sourceLine != ptx::kNone && in.sourceLine < fn->sourceLines.size()) {
        const ptx::SourceLine& sl = fn->sourceLines[in.sourceLine];
        for (std::size_t i = 0; i < module.files.size(); ++i)
          if (module.files[i].index == sl.file) s.sourceFile = static_cast<std::int32_t>(i);
        s.sourceLine = static_cast<std::int32_t>(sl.line);
      }
      info.instructions.push_back(std::move(s));
    }
    regBase += static_cast<std::uint32_t>(fn->registers.size());
  }
  // Each asynchronous copy writes a register of its own that no PTX names; every wait reads
  // them all, so the engine's scoreboard holds a wait until the copies before it are done.
  std::vector<std::uint32_t> copyRegisters;
  std::vector<std::size_t> waits;
  {
    std::size_t pc = 0;
    for (const ptx::Function* fn : order)
      for (const ptx::Instruction& in : fn->instructions) {
        if (in.opcode == Opcode::Cp || in.opcode == Opcode::Mbarrier) {
          const AsyncForm form = asyncFormOf(module, *fn, in).form;
          if (form == AsyncForm::Copy || form == AsyncForm::BulkCopy) {
            copyRegisters.push_back(regBase + static_cast<std::uint32_t>(copyRegisters.size()));
            info.instructions[pc].defs.push_back(copyRegisters.back());
          } else if (waitsForCopies(form)) {
            waits.push_back(pc);
          }
        }
        ++pc;
      }
  }
  for (const std::size_t pc : waits)
    info.instructions[pc].uses.insert(info.instructions[pc].uses.end(), copyRegisters.begin(), copyRegisters.end());
  info.registersPerThread = static_cast<std::uint32_t>(function.registers.size());
  return info;
}

}  // namespace teg::emu
