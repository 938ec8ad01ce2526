#include "sass_program.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <mutex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "teg/sass/describe.hpp"
#include "teg/sass/printer.hpp"
#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"

namespace teg::emu {

namespace {

SassSpecial specialOf(const std::string& name) {
  static const std::map<std::string, SassSpecial, std::less<>> kNames = {
      {"SRZ", SassSpecial::Zero},
      {"SR_TID.X", SassSpecial::TidX},
      {"SR_TID.Y", SassSpecial::TidY},
      {"SR_TID.Z", SassSpecial::TidZ},
      {"SR_TID", SassSpecial::TidXYZ},
      {"SR_CTAID.X", SassSpecial::CtaidX},
      {"SR_CTAID.Y", SassSpecial::CtaidY},
      {"SR_CTAID.Z", SassSpecial::CtaidZ},
      {"SR_LANEID", SassSpecial::LaneId},
      {"SR_CLOCKLO", SassSpecial::ClockLo},
      {"SR_CLOCKHI", SassSpecial::ClockHi},
      {"SR_EQMASK", SassSpecial::LanemaskEq},
      {"SR_LTMASK", SassSpecial::LanemaskLt},
      {"SR_LEMASK", SassSpecial::LanemaskLe},
      {"SR_GTMASK", SassSpecial::LanemaskGt},
      {"SR_GEMASK", SassSpecial::LanemaskGe},
      {"SR_VIRTID", SassSpecial::VirtId},
      {"SR_WARPID", SassSpecial::WarpId},
      {"SR_VIRTUALSMID", SassSpecial::SmId},
      {"SR_SMID", SassSpecial::SmId},
      {"SR_CgaCtaId", SassSpecial::CgaCtaId},
      {"SR_GLOBALTIMERLO", SassSpecial::GlobalTimerLo},
      {"SR_GLOBALTIMERHI", SassSpecial::GlobalTimerHi},
  };
  const auto it = kNames.find(name);
  return it == kNames.end() ? SassSpecial::Unknown : it->second;
}

std::uint16_t registerRow(int index) {
  return index >= sass::kZeroRegister || index < 0 ? kSassZeroRow : static_cast<std::uint16_t>(index);
}

// The scale of an address register ("[R2.X4+URZ]" -> 4), 1 when there is none.
std::uint32_t addressScale(const std::string& text) {
  for (const auto& [suffix, scale] : {std::pair{".X16", 16u}, std::pair{".X8", 8u}, std::pair{".X4", 4u},
                                      std::pair{".X2", 2u}})
    if (text.find(suffix) != std::string::npos) return scale;
  return 1;
}

// `32@lo(counter)` / `32@hi(counter)`: the relocated halves of a symbol's address.
std::optional<SassProgram::SymbolAddress> symbolAddressOf(std::string_view text) {
  constexpr std::string_view lo = "32@lo(", hi = "32@hi(";
  const bool high = text.starts_with(hi);
  if ((!high && !text.starts_with(lo)) || !text.ends_with(")") || text.size() <= lo.size() + 1) return std::nullopt;
  SassProgram::SymbolAddress ref;
  ref.high = high;
  ref.symbol = std::string(text.substr(lo.size(), text.size() - lo.size() - 1));
  return ref;
}

struct Labels {
  std::map<std::string, std::uint32_t, std::less<>> pcs;  // label or function name -> pc
};

std::optional<std::uint32_t> labelPc(std::string_view name, const Labels& labels, std::uint32_t functionStart,
                                     const sass::Function& f) {
  if (const auto local = f.labels.find(std::string(name)); local != f.labels.end())
    return functionStart + static_cast<std::uint32_t>(local->second);
  if (const auto it = labels.pcs.find(name); it != labels.pcs.end()) return it->second;
  return std::nullopt;
}

// The labels of a BRX's `(*"BRANCH_TARGETS .L_x_18,.L_x_19"*)` operand (the parser joins it
// without blanks: `(*"BRANCH_TARGETS.L_x_18,.L_x_19"*)`) as pcs; nullopt when the operand is not
// such a list. A label the section does not have is a decode error.
std::optional<std::vector<std::uint32_t>> branchTargetList(const sass::Instruction& ins, const Labels& labels,
                                                           std::uint32_t functionStart, const sass::Function& f,
                                                           const SassDecodeContext& ctx) {
  constexpr std::string_view open = "(*\"BRANCH_TARGETS", close = "\"*)";
  for (const sass::Operand& o : ins.operands) {
    std::string_view text = o.text;
    if (o.kind != sass::OperandKind::Other || !text.starts_with(open) || !text.ends_with(close)) continue;
    text = text.substr(open.size(), text.size() - open.size() - close.size());
    std::vector<std::uint32_t> pcs;
    while (!text.empty()) {
      const std::size_t comma = text.find(',');
      const std::string_view name = text.substr(0, comma);
      const auto pc = labelPc(name, labels, functionStart, f);
      if (!pc) sassDecodeError(ins, ctx, fmt::format("branch target '{}' is not a label of the kernel's section in", name));
      pcs.push_back(*pc);
      text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    }
    return pcs;
  }
  return std::nullopt;
}

Opnd convertOperand(const sass::Operand& o, const Labels& labels, std::uint32_t functionStart,
                    const sass::Function& f, bool& unknownLabel) {
  Opnd r;
  r.neg = o.negate;
  r.bitNot = o.bitNot;
  r.abs = o.absolute;
  r.lnot = o.logicalNot;
  switch (o.kind) {
    case sass::OperandKind::Register:
      r.kind = OpndKind::Reg;
      r.row = registerRow(o.index);
      r.base64 = std::find(o.suffixes.begin(), o.suffixes.end(), "64") != o.suffixes.end();
      break;
    case sass::OperandKind::UniformRegister:
      r.kind = OpndKind::UReg;
      r.row = registerRow(o.index);
      break;
    case sass::OperandKind::Predicate:
      r.kind = OpndKind::Pred;
      r.row = static_cast<std::uint16_t>(std::clamp(o.index, 0, 7));
      break;
    case sass::OperandKind::UniformPredicate:
      r.kind = OpndKind::UPred;
      r.row = static_cast<std::uint16_t>(std::clamp(o.index, 0, 7));
      break;
    case sass::OperandKind::SpecialRegister:
      r.kind = OpndKind::Special;
      r.special = specialOf(o.name);
      break;
    case sass::OperandKind::ConvergenceBarrier:
      r.kind = OpndKind::Barrier;
      r.row = static_cast<std::uint16_t>(std::clamp(o.index, 0, 15));
      break;
    case sass::OperandKind::ConstantBank:
      r.kind = OpndKind::Const;
      r.bank = static_cast<std::uint8_t>(std::max(o.bank, 0));
      r.imm = static_cast<std::uint32_t>(o.address.offset);
      r.imm64 = o.address.offset;
      if (o.bankRegister >= 0) r.bankUniformRow = static_cast<std::int16_t>(registerRow(o.bankRegister));
      if (o.address.baseRegister >= 0 && o.address.baseRegister != sass::kZeroRegister)
        r.indexRow = static_cast<std::int16_t>(o.address.baseRegister);
      else if (o.address.uniformRegister >= 0 && o.address.uniformRegister != sass::kZeroUniformRegister) {
        r.indexRow = static_cast<std::int16_t>(o.address.uniformRegister);
        r.indexUniform = true;
      }
      break;
    case sass::OperandKind::Memory:
      r.kind = OpndKind::Mem;
      r.row = o.address.baseRegister < 0 ? kSassZeroRow : registerRow(o.address.baseRegister);
      r.base64 = o.address.base64;
      r.uniformRow = o.address.uniformRegister < 0 ? kSassZeroRow : registerRow(o.address.uniformRegister);
      r.imm64 = o.address.offset;
      r.imm = addressScale(o.text);
      break;
    case sass::OperandKind::Immediate:
      r.kind = OpndKind::Imm;
      r.imm = static_cast<std::uint32_t>(o.value);
      r.imm64 = o.value;
      break;
    case sass::OperandKind::FloatImmediate: {
      r.kind = OpndKind::FloatImm;
      r.fimm = o.floatValue;
      const float f32 = static_cast<float>(o.floatValue);
      r.imm = std::bit_cast<std::uint32_t>(f32);
      r.imm64 = std::bit_cast<std::int64_t>(o.floatValue);
      break;
    }
    case sass::OperandKind::Label: {
      r.kind = OpndKind::Label;
      const auto local = f.labels.find(o.name);
      if (local != f.labels.end()) {
        r.target = functionStart + static_cast<std::uint32_t>(local->second);
      } else if (const auto it = labels.pcs.find(o.name); it != labels.pcs.end()) {
        r.target = it->second;
      } else {
        unknownLabel = true;
      }
      break;
    }
    case sass::OperandKind::Other: r.kind = OpndKind::Other; break;
  }
  return r;
}

}  // namespace

SassConstantBankLayout sassConstantBankLayout(int smVersion) {
  static std::mutex mutex;
  static std::map<int, SassConstantBankLayout> cache;
  static bool loaded = false;
  std::lock_guard lock(mutex);
  if (!loaded) {
    const std::string path = dataDirectory() + "/toolchain/sass_constant_bank.json";
    std::ifstream in(path);
    if (!in) throw Error(fmt::format("cannot read {} (the SASS constant-bank layouts)", path));
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
      throw Error(fmt::format("{}: {}", path, e.what()));
    }
    const std::string source = j.value("source", "");
    for (const auto& [key, v] : j.at("architectures").items()) {
      SassConstantBankLayout l;
      l.smVersion = std::stoi(key);
      l.blockDim = v.at("block_dim").get<std::uint32_t>();
      l.gridDim = v.at("grid_dim").get<std::uint32_t>();
      l.stackPointer = v.at("stack_pointer").get<std::uint32_t>();
      l.params = v.at("params").get<std::uint32_t>();
      l.sharedReserved = v.at("shared_reserved").get<std::uint32_t>();
      l.source = source;
      cache[l.smVersion] = l;
    }
    loaded = true;
  }
  const auto it = cache.find(smVersion);
  if (it == cache.end()) {
    std::string known;
    for (const auto& [sm, l] : cache) known += fmt::format("{}sm_{}", known.empty() ? "" : ", ", sm);
    throw Error(fmt::format("the SASS emulator does not know sm_{} (data/toolchain/sass_constant_bank.json has {})",
                            smVersion, known));
  }
  return it->second;
}

void sassDecodeError(const sass::Instruction& ir, const SassDecodeContext& ctx, const std::string& why) {
  throw Error(fmt::format("{} {}", why, ir.mnemonic()));
  (void)ctx;
}

std::string SassProgram::describe(const SassInstr& in) const {
  const sass::Instruction& ir = *in.ir;
  std::size_t fi = 0;
  while (fi + 1 < functionStart.size() && functionStart[fi + 1] <= in.index) ++fi;
  std::string where;
  if (ir.source >= 0 && static_cast<std::size_t>(ir.source) < module->sources.size()) {
    const sass::SourcePosition& p = module->sources[static_cast<std::size_t>(ir.source)];
    where = fmt::format(" at {}:{}", p.file, p.line);
  } else {
    where = fmt::format(" at {}:{}", module->file, ir.where.line);
  }
  return fmt::format("'{}' (pc {} of {}){} on sm_{}", sass::formatInstruction(ir), in.index,
                     functions.empty() ? kernelName : functions[fi]->name, where, smVersion);
}

SassProgram buildSassProgram(const sass::Module& module, const std::string& kernel, int smVersion) {
  SassProgram p;
  p.module = &module;
  p.smVersion = smVersion;
  p.kernelName = kernel;
  p.layout = sassConstantBankLayout(smVersion);
  const sass::Function* entry = module.findFunction(kernel);
  if (!entry) {
    std::string names;
    for (const auto& f : module.functions)
      if (f.isEntry) names += (names.empty() ? "" : ", ") + f.name;
    throw Error(fmt::format("{}: no SASS function '{}' (entries: {})", module.file, kernel, names));
  }
  if (entry->instructions.empty()) throw Error(fmt::format("{}: SASS function '{}' is empty", module.file, kernel));
  // The pc space of sass::describeKernel: the section's functions, entry first, in module order.
  const sass::SectionLayout section = sass::layoutSection(module, *entry);
  p.functions = section.functions;
  Labels labels;
  std::uint32_t pc = 0;
  p.baseAddress = entry->instructions.front().address;
  for (const sass::Function* f : p.functions) {
    p.functionStart.push_back(pc);
    labels.pcs[f->name] = pc;
    for (const auto& [name, index] : f->labels) labels.pcs.emplace(name, pc + static_cast<std::uint32_t>(index));
    for (const sass::Instruction& ins : f->instructions) {
      if (ins.address >= p.baseAddress && (ins.address - p.baseAddress) % 16 == 0) {
        const std::uint32_t slot = (ins.address - p.baseAddress) / 16;
        if (slot < (1u << 24)) {
          if (p.pcOfAddress.size() <= slot) p.pcOfAddress.resize(slot + 1, -1);
          p.pcOfAddress[slot] = static_cast<std::int32_t>(pc);
        }
      }
      ++pc;
    }
  }

  SassHandlerTable table;
  registerIntegerHandlers(table);
  registerMemoryHandlers(table);
  registerControlHandlers(table);
  registerWarpHandlers(table);
  registerFloatHandlers(table);
  registerAsyncHandlers(table);
  const SassDecodeContext ctx{smVersion};

  std::uint32_t frames = 0;
  p.instrs.reserve(pc);
  for (std::size_t fi = 0; fi < p.functions.size(); ++fi) {
    const sass::Function& f = *p.functions[fi];
    for (const sass::Instruction& ins : f.instructions) {
      SassInstr in;
      in.ir = &ins;
      in.index = static_cast<std::uint32_t>(p.instrs.size());
      if (ins.guard) {
        in.guard = static_cast<std::uint8_t>(std::clamp(ins.guard->index, 0, 7));
        in.guardNot = ins.guard->logicalNot;
        in.guardUniform = ins.guard->kind == sass::OperandKind::UniformPredicate;
      }
      bool unknownLabel = false;
      // More operands than an instruction holds would drop the last ones (a carry-in of
      // "IADD3.X R11, PT, PT, RZ, R5, RZ, P0, P1" on sm_100 was: seed 1000160): refuse them.
      if (ins.operands.size() > in.op.size())
        sassDecodeError(ins, ctx, fmt::format("more than {} operands in", in.op.size()));
      in.nops = static_cast<std::uint8_t>(ins.operands.size());
      for (std::size_t k = 0; k < in.nops; ++k) {
        in.op[k] = convertOperand(ins.operands[k], labels, p.functionStart[fi], f, unknownLabel);
        if (ins.operands[k].kind == sass::OperandKind::Other) {
          if (auto ref = symbolAddressOf(ins.operands[k].text)) {
            ref->pc = in.index;
            ref->operand = static_cast<std::uint8_t>(k);
            in.op[k].kind = OpndKind::Imm;  // the address comes with Emulator::selectSass
            p.symbolAddresses.push_back(std::move(*ref));
          }
        }
        // nvdisasm prints every NaN immediate as QNAN / -QNAN: the payload is only in the encoding,
        // whose bits 32..63 hold the 32-bit immediate (the high word of an FP64 one). ptxas writes
        // such NaNs itself (`FSEL R7, R5, -QNAN, !P0` selects the high word 0xfff00000 of -inf...).
        if (ins.hasEncoding && ins.operands[k].kind == sass::OperandKind::FloatImmediate &&
            std::isnan(ins.operands[k].floatValue)) {
          Opnd& o = in.op[k];
          o.imm = static_cast<std::uint32_t>(ins.low >> 32);
          o.imm64 = static_cast<std::int64_t>(ins.low & 0xffffffff00000000ull);
          o.fimm = static_cast<double>(std::bit_cast<float>(o.imm));
          o.neg = o.abs = false;
        }
      }
      // The stack frames: ptxas moves R1 down by the frame size at a function's start.
      if ((ins.opcode == "IADD3" || ins.opcode == "VIADD" || ins.opcode == "IADD") && ins.operands.size() >= 3 &&
          ins.operands[0].kind == sass::OperandKind::Register && ins.operands[0].index == 1)
        for (const auto& o : ins.operands)
          if (o.kind == sass::OperandKind::Immediate) {
            // nvdisasm prints the decrement as -0x20 or as 0xffffffe0.
            const auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(o.value));
            if (v < 0 && v > -(1 << 24)) frames += static_cast<std::uint32_t>(-v);
          }
      in.uniformOnce = (ins.opcode.size() > 1 && ins.opcode[0] == 'U') ||
                       ins.opcode == "LDCU" || ins.opcode == "S2UR" ||
                       ins.opcode == "CS2UR";
      try {
        if (unknownLabel) sassDecodeError(ins, ctx, "a branch target that is not in the kernel's section:");
        const SassDecoder decoder = table.find(ins.opcode);
        if (!decoder) sassDecodeError(ins, ctx, "unsupported SASS instruction");
        decoder(in, ins, ctx);
        if (!in.fn && in.control == SassControl::None) sassDecodeError(ins, ctx, "unsupported SASS instruction");
        if (in.control == SassControl::Brx)
          if (auto targets = branchTargetList(ins, labels, p.functionStart[fi], f, ctx)) {
            p.branchTargets.push_back(std::move(*targets));
            in.aux = static_cast<std::uint32_t>(p.branchTargets.size());
          }
      } catch (const Error& e) {
        // Executing it is the error (ptxas leaves unreachable code, e.g. after a trap).
        in.fn = &sassUnsupportedInstruction;
        in.control = SassControl::None;
        in.aux = static_cast<std::uint32_t>(p.errors.size());
        p.errors.push_back(e.what());
      }
      p.instrs.push_back(in);
    }
  }
  p.localBytesPerThread = (frames + 16 + 15) & ~15u;
  return p;
}

}  // namespace teg::emu
