#include "program.hpp"

#include "async_form.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "teg/ptx/isa.hpp"
#include "teg/support/error.hpp"
#include "teg/support/memory_limit.hpp"

namespace teg::emu {
namespace {

using ptx::Operand;
using ptx::OperandKind;
using ptx::Qualifier;
using ptx::QualifierCategory;
using ptx::StateSpace;
using ptx::SymbolKind;
using ptx::Type;

std::uint64_t f32ToF64Bits(std::uint64_t bits) {
  const float f = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  return std::bit_cast<std::uint64_t>(static_cast<double>(f));
}
std::uint64_t f64ToF32Bits(std::uint64_t bits) {
  const double d = std::bit_cast<double>(bits);
  return std::bit_cast<std::uint32_t>(static_cast<float>(d));
}

struct SymbolPlace {
  Space space = Space::Global;
  std::uint64_t address = 0;
  bool frameRelative = false;
};

// The offset at which `v` goes after `used` bytes with alignment `align`, when the variable then
// ends within 32 bits; throws naming it otherwise (a 32-bit sum would wrap to a small offset).
std::uint64_t fitsIn32Bits(const char* what, const ptx::Variable& v, std::uint32_t used, std::uint32_t align) {
  const std::uint64_t at = (std::uint64_t{used} + align - 1) / align * align;
  if (at > 0xffffffffull || v.sizeBytes() > 0xffffffffull - at)
    throw Error(fmt::format("{} '{}' ({} bytes after {} bytes of others) does not fit 32-bit offsets", what, v.name,
                            v.sizeBytes(), used));
  return at;
}

class Decoder {
 public:
  Decoder(const ptx::Module& module, Program& program) : module_(module), program_(program) {}

  // The functions the kernel can reach through direct calls (and function symbols it names), and
  // the module variables those functions name: only these get shared memory, as ptxas gives each
  // kernel only the shared variables it uses. One layout for every kernel of a file would let an
  // overflow of one kernel's array land silently in another kernel's array.
  void findReachable() {
    reachable_.assign(module_.functions.size(), false);
    globalUsed_.assign(module_.globals.size(), false);
    std::vector<std::uint32_t> work{program_.kernelIndex};
    reachable_[program_.kernelIndex] = true;
    while (!work.empty()) {
      const ptx::Function& fn = module_.functions[work.back()];
      work.pop_back();
      // The parser set this function aside (ptx::ParseOptions::deferFunctionErrors): only now,
      // when the kernel needs it, is its error the user's.
      if (!fn.deferredError.empty()) throw Error(fn.deferredError);
      auto visit = [&](auto& self, const Operand& op) -> void {
        const bool symbolic = op.kind == OperandKind::Symbol ||
                              (op.kind == OperandKind::Address && op.addressBase() == ptx::AddressBase::Symbol);
        if (symbolic && op.symbolKind() == SymbolKind::Function && op.index < reachable_.size() &&
            !reachable_[op.index]) {
          reachable_[op.index] = true;
          work.push_back(op.index);
        }
        if (symbolic && op.symbolKind() == SymbolKind::Global && op.index < globalUsed_.size())
          globalUsed_[op.index] = true;
        if (op.kind == OperandKind::Vector || op.kind == OperandKind::ParamList || op.kind == OperandKind::List)
          for (const Operand& c : fn.children(op)) self(self, c);
      };
      for (const ptx::Instruction& in : fn.instructions)
        for (const Operand& op : fn.operandsOf(in)) visit(visit, op);
    }
  }

  [[nodiscard]] bool reachable(std::uint32_t function) const { return reachable_[function]; }

  void layoutModule(const std::vector<std::uint64_t>& globalAddress) {
    findReachable();
    ModuleLayout& L = program_.layout;
    L.globalAddress = globalAddress;
    L.globalAddress.resize(module_.globals.size(), 0);
    std::uint32_t shared = 0;
    std::uint32_t dynAlign = 16;
    auto placeShared = [&](const ptx::Variable& v) -> std::uint64_t {
      const std::uint32_t a = naturalAlign(v);
      if (v.sizeBytes() == 0) {  // extern .shared x[]: the launch's dynamic shared memory
        dynAlign = std::max(dynAlign, a);
        return kDynamicMarker;
      }
      // Shared offsets are 32-bit (as on the GPU): a total beyond that would wrap onto the
      // variables placed first, so the end is computed in 64 bits and checked.
      const std::uint64_t at = fitsIn32Bits("shared variable", v, shared, a);
      shared = static_cast<std::uint32_t>(at + v.sizeBytes());
      return at;
    };
    std::uint32_t constBytes = 0;
    auto placeConst = [&](const ptx::Variable& v) -> std::uint64_t {
      const std::uint64_t at = fitsIn32Bits("constant variable", v, constBytes, naturalAlign(v));
      constBytes = static_cast<std::uint32_t>(at);
      constBytes += static_cast<std::uint32_t>(v.sizeBytes());
      checkAllocation(fmt::format("constant variable '{}'", v.name), constBytes);
      L.constBank.resize(constBytes);
      writeInitializer(v, L.constBank.data() + at);
      return at;
    };
    for (std::size_t i = 0; i < module_.globals.size(); ++i) {
      const ptx::Variable& v = module_.globals[i];
      if (v.space == StateSpace::Shared && globalUsed_[i]) L.globalAddress[i] = placeShared(v);
      else if (v.space == StateSpace::Const) L.globalAddress[i] = placeConst(v);
    }
    for (std::size_t i = 0; i < module_.globals.size(); ++i) {
      const ptx::Variable& v = module_.globals[i];
      if (v.space != StateSpace::Global || !v.hasInitializer) continue;
      checkAllocation(fmt::format("initialised global variable '{}'", v.name), v.sizeBytes());
      std::vector<std::byte> bytes(v.sizeBytes());
      writeInitializer(v, bytes.data());
      L.globalInits.emplace_back(static_cast<std::uint32_t>(i), std::move(bytes));
    }
    localShared_.resize(module_.functions.size());
    localConst_.resize(module_.functions.size());
    for (std::size_t f = 0; f < module_.functions.size(); ++f) {
      const ptx::Function& fn = module_.functions[f];
      localShared_[f].assign(fn.locals.size(), 0);
      localConst_[f].assign(fn.locals.size(), 0);
      if (!reachable_[f]) continue;
      for (std::size_t i = 0; i < fn.locals.size(); ++i) {
        if (fn.locals[i].space == StateSpace::Shared) localShared_[f][i] = placeShared(fn.locals[i]);
        if (fn.locals[i].space == StateSpace::Const) localConst_[f][i] = placeConst(fn.locals[i]);
      }
    }
    if (std::uint64_t{shared} + dynAlign - 1 > 0xffffffffull)
      throw Error(fmt::format("static shared memory of {} bytes leaves no 32-bit offset for the dynamic shared memory",
                              shared));
    L.dynamicSharedOffset = alignUp(shared, dynAlign);
    L.sharedBytes = shared;
    // Resolve the dynamic marker now that the static size is known.
    for (std::size_t i = 0; i < module_.globals.size(); ++i)
      if (module_.globals[i].space == StateSpace::Shared && L.globalAddress[i] == kDynamicMarker)
        L.globalAddress[i] = L.dynamicSharedOffset;
    for (auto& fnOffsets : localShared_)
      for (auto& o : fnOffsets)
        if (o == kDynamicMarker) o = L.dynamicSharedOffset;
    // Kernel parameters, packed with natural alignment as the CUDA ABI does.
    const ptx::Function& kernel = module_.functions[program_.kernelIndex];
    std::uint32_t p = 0;
    for (const ptx::Variable& v : kernel.params) {
      p = alignUp(p, naturalAlign(v));
      L.kernelParamOffsets.push_back(p);
      L.kernelParamSizes.push_back(static_cast<std::uint32_t>(v.sizeBytes()));
      p += static_cast<std::uint32_t>(v.sizeBytes());
    }
    L.kernelParamBytes = p;
  }

  void writeInitializer(const ptx::Variable& v, std::byte* out) {
    if (!v.hasInitializer) return;
    const std::size_t elem = v.type == Type::Pred ? 1 : static_cast<std::size_t>(ptx::typeBits(v.type) / 8);
    std::size_t at = 0;
    const std::size_t total = v.sizeBytes();
    for (const ptx::InitValue& iv : v.init) {
      if (at + elem > total) break;
      std::uint64_t bits = iv.bits;
      switch (iv.kind) {
        case ptx::InitValue::Kind::F32:
          if (elem == 8) bits = f32ToF64Bits(bits);
          break;
        case ptx::InitValue::Kind::F64:
          if (elem == 4) bits = f64ToF32Bits(bits);
          break;
        case ptx::InitValue::Kind::Symbol: {
          // Address of another variable (+ byte offset); generic(x) is the same in global space.
          std::string name = iv.text;
          if (name.rfind("generic(", 0) == 0) name = name.substr(8, name.size() - 9);
          std::uint64_t base = 0;
          for (std::size_t g = 0; g < module_.globals.size(); ++g)
            if (module_.globals[g].name == name) base = program_.layout.globalAddress[g];
          bits = base + iv.bits;
          break;
        }
        case ptx::InitValue::Kind::Raw:
          throw Error(fmt::format("initializer '{}' of '{}' is not supported by the emulator", iv.text, v.name));
        case ptx::InitValue::Kind::Int: break;
      }
      std::memcpy(out + at, &bits, elem);
      at += elem;
    }
  }

  Code decodeFunction(std::uint32_t index) {
    const ptx::Function& fn = module_.functions[index];
    Code code;
    code.function = &fn;
    code.index = index;
    fn_ = &fn;
    fnIndex_ = index;
    code_ = &code;
    // Register slots.
    slotOf_.assign(fn.registers.size(), 0);
    for (std::size_t r = 0; r < fn.registers.size(); ++r) {
      slotOf_[r] = code.slotCount;
      const int bits = fn.registers[r].type == Type::Pred ? 1 : ptx::typeBits(fn.registers[r].type);
      for (int c = 0; c < fn.registers[r].vectorWidth; ++c) code.slotBits.push_back(static_cast<std::uint32_t>(bits));
      code.slotCount += fn.registers[r].vectorWidth;
    }
    // Frame: [params][returns][.local and .param locals].
    std::uint32_t frame = 0;
    auto place = [&](const ptx::Variable& v) {
      frame = alignUp(frame, naturalAlign(v));
      const std::uint32_t at = frame;
      frame += static_cast<std::uint32_t>(std::max<std::uint64_t>(v.sizeBytes(), 1));
      return at;
    };
    if (!fn.isEntry) {
      for (const auto& v : fn.params) { code.paramOffsets.push_back(place(v)); code.paramSizes.push_back(static_cast<std::uint32_t>(v.sizeBytes())); }
      for (const auto& v : fn.returns) { code.returnOffsets.push_back(place(v)); code.returnSizes.push_back(static_cast<std::uint32_t>(v.sizeBytes())); }
    }
    localOffsets_.assign(fn.locals.size(), 0);
    for (std::size_t i = 0; i < fn.locals.size(); ++i)
      if (fn.locals[i].space == StateSpace::Local || fn.locals[i].space == StateSpace::Param)
        localOffsets_[i] = place(fn.locals[i]);
    code.localFrameBytes = frame;  // exact, so accesses past the last variable are caught
    code.instrs.resize(fn.instructions.size());
    for (std::size_t pc = 0; pc < fn.instructions.size(); ++pc) decode(static_cast<std::uint32_t>(pc), code.instrs[pc]);
    return code;
  }

 private:
  static constexpr std::uint64_t kDynamicMarker = ~std::uint64_t{0};

  SymbolPlace resolveSymbol(const Operand& op) {
    const ptx::Function& fn = *fn_;
    switch (op.symbolKind()) {
      case SymbolKind::Global: {
        const ptx::Variable& v = module_.globals[op.index];
        const std::uint64_t a = program_.layout.globalAddress[op.index];
        switch (v.space) {
          case StateSpace::Global: return {Space::Global, a, false};
          case StateSpace::Shared: return {Space::Shared, a, false};
          case StateSpace::Const: return {Space::Const, a, false};
          default: break;
        }
        throw Error(fmt::format("module variable '{}' in {} space is not supported by the emulator", v.name,
                                ptx::stateSpaceName(v.space)));
      }
      case SymbolKind::Local: {
        const ptx::Variable& v = fn.locals[op.index];
        switch (v.space) {
          case StateSpace::Shared: return {Space::Shared, localShared_[fnIndex_][op.index], false};
          case StateSpace::Const: return {Space::Const, localConst_[fnIndex_][op.index], false};
          case StateSpace::Local:
          case StateSpace::Param: return {Space::Local, localOffsets_[op.index], true};
          default: break;
        }
        throw Error(fmt::format("variable '{}' in {} space is not supported by the emulator", v.name,
                                ptx::stateSpaceName(v.space)));
      }
      case SymbolKind::Param:
        if (fn.isEntry) return {Space::KernelParam, program_.layout.kernelParamOffsets[op.index], false};
        return {Space::Local, code_->paramOffsets[op.index], true};
      case SymbolKind::ReturnParam: return {Space::Local, code_->returnOffsets[op.index], true};
      default: break;
    }
    return {Space::Global, 0, false};
  }

  Src decodeSrc(const Operand& op, Type type) {
    Src s;
    s.negated = op.negated();
    switch (op.kind) {
      case OperandKind::Register: {
        s.kind = SrcKind::Reg;
        s.slot = slotOf_[op.index] + (op.component ? op.component - 1u : 0u);
        s.regBits = code_->slotBits[s.slot];
        break;
      }
      case OperandKind::Special:
        s.kind = SrcKind::Special;
        s.slot = op.index;
        if (ptx::isReservedSharedRegister(static_cast<ptx::SpecialRegister>(op.index))) program_.layout.usesReservedShared = true;
        // The driver's grid workspace of a cooperative launch (cooperative_groups/details/driver_abi.h).
        if (op.index == static_cast<std::uint32_t>(ptx::SpecialRegister::Envreg1) ||
            op.index == static_cast<std::uint32_t>(ptx::SpecialRegister::Envreg2))
          program_.layout.readsGridWorkspace = true;
        s.component = op.component ? static_cast<std::uint8_t>(op.component - 1) : 0;
        break;
      case OperandKind::Immediate:
        s.kind = SrcKind::Imm;
        s.imm = static_cast<std::uint64_t>(op.value);
        break;
      case OperandKind::FloatImm32:
        s.kind = SrcKind::Imm;
        s.imm = type == Type::F64 ? f32ToF64Bits(static_cast<std::uint64_t>(op.value)) : static_cast<std::uint64_t>(op.value);
        break;
      case OperandKind::FloatImm64:
        s.kind = SrcKind::Imm;
        s.imm = (type == Type::F32 || type == Type::Tf32) ? f64ToF32Bits(static_cast<std::uint64_t>(op.value))
                                                          : static_cast<std::uint64_t>(op.value);
        break;
      case OperandKind::Symbol: {
        if (op.symbolKind() == SymbolKind::Function) {
          s.kind = SrcKind::Symbol;
          s.slot = op.index;
          break;
        }
        const SymbolPlace p = resolveSymbol(op);
        s.kind = SrcKind::Symbol;
        s.symbolSpace = p.space;
        s.imm = p.address + static_cast<std::uint64_t>(op.value);
        break;
      }
      case OperandKind::Vector:
      case OperandKind::ParamList:
      case OperandKind::List: {
        std::vector<Src> kids;
        for (const Operand& c : fn_->children(op)) kids.push_back(decodeSrc(c, type));
        s.kind = SrcKind::Vector;
        s.slot = static_cast<std::uint32_t>(code_->vectorChildren.size());
        s.count = static_cast<std::uint32_t>(kids.size());
        code_->vectorChildren.insert(code_->vectorChildren.end(), kids.begin(), kids.end());
        break;
      }
      case OperandKind::Sink: s.kind = SrcKind::Sink; break;
      default: s.kind = SrcKind::None; break;
    }
    return s;
  }

  Addr decodeAddr(const Operand& op, const ptx::Instruction& in) {
    Addr a;
    a.offset = op.value;
    switch (op.addressBase()) {
      case ptx::AddressBase::Immediate: a.base = Addr::Base::Imm; break;
      case ptx::AddressBase::Register:
        a.base = Addr::Base::Reg;
        a.slot = slotOf_[op.index];
        a.reg32 = code_->slotBits[a.slot] <= 32;
        break;
      case ptx::AddressBase::Symbol: {
        Operand sym = op;
        sym.kind = OperandKind::Symbol;
        sym.value = 0;
        const SymbolPlace p = resolveSymbol(sym);
        a.base = Addr::Base::Symbol;
        a.space = p.space;
        a.frameRelative = p.frameRelative;
        a.offset = static_cast<std::int64_t>(p.address) + op.value;
        return a;
      }
    }
    a.space = spaceOf(in.space);
    return a;
  }

  Space spaceOf(StateSpace s) const {
    switch (s) {
      case StateSpace::Global: return Space::Global;
      case StateSpace::Shared:
      case StateSpace::SharedCluster: return Space::Shared;
      case StateSpace::Local: return Space::Local;
      case StateSpace::Const: return Space::Const;
      case StateSpace::Param: return fn_->isEntry ? Space::KernelParam : Space::Local;
      default: return Space::Generic;
    }
  }

  void decode(std::uint32_t pc, Decoded& d) {
    const ptx::Function& fn = *fn_;
    const ptx::Instruction& in = fn.instructions[pc];
    d.ir = &in;
    d.op = in.opcode;
    d.type = in.type;
    d.type2 = in.type2;
    d.space = spaceOf(in.space);
    d.guardNegated = in.guardNegated();
    if (in.guarded()) d.guard = slotOf_[in.guard];
    if (in.unmodelled() || !ptx::opcodeInfo(in.opcode).modelled || in.opcode == ptx::Opcode::Unknown)
      d.flags |= dflag::kUnsupported;
    if ((d.flags & dflag::kUnsupported) && onlyKnownExtraQualifiers(fn, in)) d.flags &= ~dflag::kUnsupported;
    for (Qualifier q : fn.qualifiersOf(in)) {
      const auto id = static_cast<std::uint16_t>(q);
      if (id >= ptx::kFirstInternedQualifier) continue;
      if (ptx::qualifierCategory(q) == QualifierCategory::Operation) {
        if (d.qual == 0) d.qual = id; else d.qual2 = id;
      }
      switch (q) {
        case Qualifier::Uni: d.flags |= dflag::kUni; break;
        case Qualifier::Arrive: d.flags |= dflag::kArrive; break;
        case Qualifier::Warp: d.flags |= dflag::kWarpBar; break;
        case Qualifier::Red: d.flags |= dflag::kRedBar; break;
        case Qualifier::Clamp: d.flags |= dflag::kClamp; break;
        case Qualifier::R: d.flags |= dflag::kShfRight; break;
        case Qualifier::Noftz: d.flags |= dflag::kNoFtz; break;
        default: break;
      }
    }
    if (in.opcode == ptx::Opcode::Bar || in.opcode == ptx::Opcode::Barrier) {
      // setp-like bool operation of bar.red is its reduction: .popc/.and/.or
      if (d.qual == static_cast<std::uint16_t>(Qualifier::Popc) || d.qual == static_cast<std::uint16_t>(Qualifier::And) ||
          d.qual == static_cast<std::uint16_t>(Qualifier::Or))
        d.flags |= dflag::kRedBar;
    }
    const auto ops = fn.operandsOf(in);
    const Type srcType = (in.opcode == ptx::Opcode::Cvt || in.opcode == ptx::Opcode::Set) ? in.type2 : in.type;
    std::size_t i = 0;
    bool hasDst = false;
    switch (ptx::opcodeInfo(in.opcode).dest) {
      case ptx::DestRule::Yes: hasDst = !ops.empty(); break;
      case ptx::DestRule::No: break;
      case ptx::DestRule::BarRed: hasDst = (d.flags & dflag::kRedBar) != 0; break;
      case ptx::DestRule::IfRegister:
        hasDst = !ops.empty() && (ops[0].kind == OperandKind::Register || ops[0].kind == OperandKind::Vector ||
                                  ops[0].kind == OperandKind::Sink);
        break;
    }
    if (in.opcode == ptx::Opcode::Call) {
      decodeCall(in, d);
      return;
    }
    if (hasDst) {
      d.hasDst = true;
      d.dst = decodeSrc(ops[0], in.type);
      i = 1;
      if ((ops[0].flags & ptx::operand_flags::kPipeNext) && ops.size() > 1) {
        d.hasDst2 = true;
        d.dst2 = decodeSrc(ops[1], in.type);
        i = 2;
      }
    }
    int addresses = 0;
    for (; i < ops.size(); ++i) {
      const Operand& op = ops[i];
      if (op.kind == OperandKind::Address && addresses < 3) {
        (addresses == 0 ? d.addr : addresses == 1 ? d.addr2 : d.addr3) = decodeAddr(op, in);
        ++addresses;
        continue;
      }
      if (op.kind == OperandKind::Label) {
        d.target = static_cast<std::uint32_t>(op.value);
        continue;
      }
      if (op.kind == OperandKind::Symbol && op.symbolKind() == SymbolKind::BranchTargets) {
        d.target = op.index;  // brx.idx: the table
        continue;
      }
      if (d.numSrc < 4) d.src[d.numSrc++] = decodeSrc(op, srcType);
    }
    if (in.opcode == ptx::Opcode::Cp || in.opcode == ptx::Opcode::Mbarrier) decodeAsync(fn, in, addresses, d);
    if (in.opcode == ptx::Opcode::Bra || in.opcode == ptx::Opcode::Brx) {
      const auto& cfg = fn.cfg;
      d.reconverge = kNoReconverge;
      if (pc < cfg.blockOfInstruction.size()) {
        const std::uint32_t b = cfg.blockOfInstruction[pc];
        const std::uint32_t ip = cfg.blocks[b].ipdom;
        if (ip != ptx::kExitBlock && ip < cfg.blocks.size()) d.reconverge = cfg.blocks[ip].first;
      }
    }
  }

  // cp.async / mbarrier (PTX ISA §9.7.9.25, §9.7.13.15): the form, in `qual`; the source of a
  // copy is global memory (the first address, the destination, takes the instruction's first
  // space: shared). Forms the emulator does not run (tensor copies, reductions, multicast,
  // prefetches) stay unsupported and stop with the instruction named.
  void decodeAsync(const ptx::Function& fn, const ptx::Instruction& in, int addresses, Decoded& d) {
    d.flags |= dflag::kAsyncForm;
    d.qual = d.qual2 = 0;
    const AsyncInstruction async = asyncFormOf(module_, fn, in);
    const AsyncForm form = async.form;
    d.qual = async.pack();
    if (form == AsyncForm::Unsupported) { d.flags |= dflag::kUnsupported; return; }
    const bool copy = form == AsyncForm::Copy || form == AsyncForm::BulkCopy;
    if (copy && addresses < (form == AsyncForm::BulkCopy ? 3 : 2)) d.flags |= dflag::kUnsupported;
    if (copy && d.addr2.base == Addr::Base::Reg) d.addr2.space = Space::Global;
    if (form == AsyncForm::BulkCopy && d.addr3.base == Addr::Base::Reg) d.addr3.space = Space::Shared;
  }

  // testp's classes are not in qualifiers.def (the parser interns them and flags the instruction
  // unmodelled); the emulator knows them.
  bool onlyKnownExtraQualifiers(const ptx::Function& fn, const ptx::Instruction& in) const {
    if (in.opcode != ptx::Opcode::Testp || (in.flags & ptx::instr_flags::kUnknownOpcode)) return false;
    for (Qualifier q : fn.qualifiersOf(in)) {
      if (static_cast<std::uint16_t>(q) < ptx::kFirstInternedQualifier) continue;
      const std::string_view s = module_.qualifierSpelling(q);
      if (s != ".finite" && s != ".infinite" && s != ".number" && s != ".notanumber" && s != ".normal" &&
          s != ".subnormal")
        return false;
    }
    return true;
  }

  void decodeCall(const ptx::Instruction& in, Decoded& d) {
    const auto ops = fn_->operandsOf(in);
    bool seenTarget = false;
    for (const Operand& op : ops) {
      if (op.kind == OperandKind::Symbol && op.symbolKind() == SymbolKind::Function) {
        d.target = op.index;
        seenTarget = true;
      } else if (op.kind == OperandKind::ParamList) {
        const Src list = decodeSrc(op, Type::None);
        if (!seenTarget) { d.callRets = list.slot; d.callRetCount = list.count; }
        else { d.callArgs = list.slot; d.callArgCount = list.count; }
      } else if (op.kind == OperandKind::Register && !seenTarget) {
        d.flags |= dflag::kUnsupported;  // indirect call through a register
      }
    }
    // The CUDA runtime's printf is declared, not defined, in the PTX: run on the host.
    if (seenTarget && !module_.functions[d.target].hasBody && module_.functions[d.target].name == "vprintf" &&
        d.callArgCount == 2) {
      d.flags |= dflag::kPrintf;
      return;
    }
    if (!seenTarget || !module_.functions[d.target].hasBody) d.flags |= dflag::kUnsupported;
  }

  const ptx::Module& module_;
  Program& program_;
  const ptx::Function* fn_ = nullptr;
  std::uint32_t fnIndex_ = 0;
  Code* code_ = nullptr;
  std::vector<std::uint32_t> slotOf_;
  std::vector<std::uint32_t> localOffsets_;
  std::vector<std::vector<std::uint64_t>> localShared_, localConst_;
  std::vector<bool> reachable_;   // per module function: callable from the kernel
  std::vector<bool> globalUsed_;  // per module variable: named by a reachable function
};

}  // namespace

std::uint32_t alignUp(std::uint32_t value, std::uint32_t align) {
  if (align <= 1) return value;
  return (value + align - 1) / align * align;
}

std::uint32_t naturalAlign(const ptx::Variable& v) {
  if (v.align) return v.align;
  const int bits = v.type == Type::Pred ? 8 : ptx::typeBits(v.type);
  return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(bits / 8) * v.vectorWidth);
}

Program buildProgram(const ptx::Module& module, std::uint32_t kernelIndex,
                     const std::vector<std::uint64_t>& globalAddress) {
  Program program;
  program.module = &module;
  program.kernelIndex = kernelIndex;
  Decoder decoder(module, program);
  decoder.layoutModule(globalAddress);
  program.codes.resize(module.functions.size());
  // Only what the kernel can reach is decoded: another kernel of the file has parameters and
  // shared variables of its own that this launch does not lay out.
  for (std::uint32_t f = 0; f < module.functions.size(); ++f)
    if (module.functions[f].hasBody && decoder.reachable(f)) program.codes[f] = decoder.decodeFunction(f);
  // Trace pcs: the kernel first, then the other functions in module order (as describeKernel),
  // counting the functions not decoded too so that pcs agree with it.
  std::uint32_t pc = static_cast<std::uint32_t>(module.functions[kernelIndex].instructions.size());
  for (std::uint32_t f = 0; f < module.functions.size(); ++f) {
    if (f == kernelIndex || !module.functions[f].hasBody) continue;
    program.codes[f].pcBase = pc;
    pc += static_cast<std::uint32_t>(module.functions[f].instructions.size());
  }
  return program;
}

}  // namespace teg::emu
