// IR -> PTX text. Layout follows nvcc's (tabs, one instruction per line); what matters is that
// parseModule(printModule(m)) equals m structurally (see compare.hpp).
#include "teg/ptx/printer.hpp"

#include <fmt/format.h>

namespace teg::ptx {
namespace {

std::string_view linkageName(Linkage l) {
  switch (l) {
    case Linkage::None: return "";
    case Linkage::Visible: return ".visible ";
    case Linkage::Extern: return ".extern ";
    case Linkage::Weak: return ".weak ";
    case Linkage::Common: return ".common ";
  }
  return "";
}

class Printer {
 public:
  explicit Printer(const Module& m) : m_(m) {}

  std::string module() {
    if (!m_.version.empty()) out_ += fmt::format(".version {}\n", m_.version);
    if (!m_.target.empty()) out_ += fmt::format(".target {}\n", fmt::join(m_.target, ", "));
    if (m_.addressSize != 0) out_ += fmt::format(".address_size {}\n", m_.addressSize);
    out_ += '\n';
    for (const ModuleItem& item : m_.order) {
      switch (item.kind) {
        case ModuleItem::Kind::Global:
          variable(m_.globals[item.index], "");
          break;
        case ModuleItem::Kind::Function:
          function(m_.functions[item.index]);
          break;
        case ModuleItem::Kind::Raw:
          out_ += m_.raw[item.index];
          out_ += '\n';
          break;
      }
    }
    for (const SourceFile& f : m_.files) out_ += fmt::format("\t.file\t{} \"{}\"{}\n", f.index, f.name, f.extra);
    return std::move(out_);
  }

  std::string instruction(const Function& f, const Instruction& in) {
    instructionText(f, in);
    return std::move(out_);
  }

 private:
  void declarationBody(const Variable& v) {
    if (v.align != 0) out_ += fmt::format(" .align {}", v.align);
    if (v.vectorWidth > 1) out_ += fmt::format(" .v{}", v.vectorWidth);
    out_ += ' ';
    out_ += typeName(v.type);
    if (v.isPtr) {
      out_ += " .ptr";
      if (v.ptrSpace != StateSpace::Generic) {
        out_ += ' ';
        out_ += stateSpaceName(v.ptrSpace);
      }
      if (v.ptrAlign != 0) out_ += fmt::format(" .align {}", v.ptrAlign);
    }
    out_ += ' ';
    out_ += v.name;
    for (std::uint64_t d : v.dims) out_ += d == 0 ? std::string("[]") : fmt::format("[{}]", d);
  }

  void variable(const Variable& v, std::string_view indent) {
    out_ += indent;
    out_ += linkageName(v.linkage);
    out_ += stateSpaceName(v.space);
    declarationBody(v);
    if (v.hasInitializer) {
      out_ += " = ";
      const bool braces = !v.dims.empty() || v.init.size() != 1;
      if (braces) out_ += '{';
      for (std::size_t i = 0; i < v.init.size(); ++i) {
        if (i != 0) out_ += ", ";
        initValue(v.init[i]);
      }
      if (braces) out_ += '}';
    }
    out_ += ";\n";
  }

  void initValue(const InitValue& v) {
    switch (v.kind) {
      case InitValue::Kind::Int:
        if (v.bits >> 63) {
          out_ += fmt::format("-{}", ~v.bits + 1);
        } else {
          out_ += fmt::format("{}", v.bits);
        }
        return;
      case InitValue::Kind::F32: out_ += fmt::format("0f{:08X}", v.bits); return;
      case InitValue::Kind::F64: out_ += fmt::format("0d{:016X}", v.bits); return;
      case InitValue::Kind::Symbol:
        out_ += v.text;
        if (v.bits != 0) out_ += fmt::format("+{}", v.bits);
        return;
      case InitValue::Kind::Raw: out_ += v.text; return;
    }
  }

  void paramList(const std::vector<Variable>& params) {
    out_ += "(\n";
    for (std::size_t i = 0; i < params.size(); ++i) {
      out_ += '\t';
      out_ += stateSpaceName(params[i].space);
      declarationBody(params[i]);
      out_ += i + 1 < params.size() ? ",\n" : "\n";
    }
    out_ += ")";
  }

  void function(const Function& f) {
    out_ += linkageName(f.linkage);
    out_ += f.isEntry ? ".entry " : ".func ";
    if (!f.returns.empty() || (!f.isEntry && false)) {
      paramList(f.returns);
      out_ += ' ';
    }
    out_ += f.name;
    paramList(f.params);
    out_ += '\n';
    for (const auto& d : f.headerDirectives) out_ += fmt::format("{}\n", d);
    if (!f.hasBody) {
      out_ += ";\n\n";
      return;
    }
    out_ += "{\n";
    for (const RegisterDecl& d : f.registerDecls) {
      out_ += "\t.reg ";
      if (d.vectorWidth > 1) out_ += fmt::format(".v{} ", d.vectorWidth);
      out_ += typeName(d.type);
      out_ += fmt::format(" \t{}", d.name);
      if (d.isRange) out_ += fmt::format("<{}>", d.count);
      out_ += ";\n";
    }
    for (const Variable& v : f.locals) variable(v, "\t");
    for (const auto& p : f.prototypes) out_ += fmt::format("{}\n", p);
    const SourceLine* lastLine = nullptr;
    std::size_t label = 0, directive = 0, table = 0;
    const auto n = static_cast<std::uint32_t>(f.instructions.size());
    // Labels are stored in definition order, which is position order.
    for (std::uint32_t i = 0; i <= n; ++i) {
      for (; label < f.labels.size() && f.labels[label].instruction <= i; ++label)
        out_ += fmt::format("{}:\n", f.labels[label].name);
      for (; directive < f.bodyDirectives.size() && f.bodyDirectives[directive].beforeInstruction <= i; ++directive)
        out_ += fmt::format("\t{}\n", f.bodyDirectives[directive].text);
      for (; table < f.branchTargets.size() && f.branchTargets[table].position <= i; ++table)
        branchTable(f, f.branchTargets[table]);
      if (i == n) break;
      const Instruction& in = f.instructions[i];
      if (in.sourceLine != kNone) {
        const SourceLine& line = f.sourceLines[in.sourceLine];
        if (lastLine == nullptr || !(*lastLine == line)) {
          out_ += fmt::format("\t.loc\t{} {} {}\n", line.file, line.line, line.column);
          lastLine = &line;
        }
      }
      out_ += '\t';
      instructionText(f, in);
      out_ += '\n';
    }
    out_ += "}\n\n";
  }

  // Printed where it was declared: it must precede the brx.idx that names it.
  void branchTable(const Function& f, const BranchTargets& table) {
    out_ += fmt::format("\t{}: .branchtargets ", table.name);
    for (std::size_t k = 0; k < table.labels.size(); ++k) {
      if (k != 0) out_ += ", ";
      out_ += f.labels[table.labels[k]].name;
    }
    out_ += ";\n";
  }

  void instructionText(const Function& f, const Instruction& in) {
    if (in.guarded()) {
      out_ += in.guardNegated() ? "@!" : "@";
      out_ += f.registerName(in.guard);
      out_ += ' ';
    }
    out_ += m_.mnemonic(f, in);
    auto qualifiers = f.qualifiersOf(in);
    if (in.opcode == Opcode::Unknown && !qualifiers.empty()) qualifiers = qualifiers.subspan(1);
    for (Qualifier q : qualifiers) out_ += m_.qualifierSpelling(q);
    const auto ops = f.operandsOf(in);
    if (!ops.empty()) out_ += " \t";
    operandList(f, ops);
    out_ += ';';
  }

  void operandList(const Function& f, std::span<const Operand> ops) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      operand(f, ops[i]);
      if (i + 1 < ops.size()) out_ += (ops[i].flags & operand_flags::kPipeNext) ? "|" : ", ";
    }
  }

  std::string_view symbolName(const Function& f, SymbolKind kind, std::uint32_t index) const {
    switch (kind) {
      case SymbolKind::Global: return m_.globals[index].name;
      case SymbolKind::Function: return m_.functions[index].name;
      case SymbolKind::Param: return f.params[index].name;
      case SymbolKind::ReturnParam: return f.returns[index].name;
      case SymbolKind::Local: return f.locals[index].name;
      case SymbolKind::BranchTargets: return f.branchTargets[index].name;
      case SymbolKind::Prototype: {
        std::string_view p = f.prototypes[index];
        return p.substr(0, p.find(':'));
      }
      case SymbolKind::None: return "?";
    }
    return "?";
  }

  void component(std::uint8_t c, bool rgba) {
    if (c == 0) return;
    static constexpr char kXyzw[] = "xyzw";
    static constexpr char kRgba[] = "rgba";
    out_ += '.';
    out_ += (rgba ? kRgba : kXyzw)[c - 1];
  }

  void operand(const Function& f, const Operand& op) {
    if (op.negated()) out_ += '!';
    switch (op.kind) {
      case OperandKind::Register:
        out_ += f.registerName(op.index);
        component(op.component, false);
        return;
      case OperandKind::Special:
        out_ += specialRegisterName(static_cast<SpecialRegister>(op.index));
        component(op.component, false);
        return;
      case OperandKind::Immediate: out_ += fmt::format("{}", op.value); return;
      case OperandKind::FloatImm32:
        out_ += fmt::format("0f{:08X}", static_cast<std::uint64_t>(op.value) & 0xffffffffu);
        return;
      case OperandKind::FloatImm64: out_ += fmt::format("0d{:016X}", static_cast<std::uint64_t>(op.value)); return;
      case OperandKind::Symbol:
        out_ += symbolName(f, op.symbolKind(), op.index);
        if (op.value != 0) out_ += fmt::format("+{}", op.value);
        return;
      case OperandKind::Label: out_ += f.labels[op.index].name; return;
      case OperandKind::Address:
        out_ += '[';
        switch (op.addressBase()) {
          case AddressBase::Immediate: out_ += fmt::format("{}", op.value); break;
          case AddressBase::Register:
            out_ += f.registerName(op.index);
            if (op.value != 0) out_ += fmt::format("+{}", op.value);
            break;
          case AddressBase::Symbol:
            out_ += symbolName(f, op.symbolKind(), op.index);
            if (op.value != 0) out_ += fmt::format("+{}", op.value);
            break;
        }
        out_ += ']';
        return;
      case OperandKind::Vector:
        out_ += '{';
        operandList(f, f.children(op));
        out_ += '}';
        return;
      case OperandKind::List:
        out_ += '[';
        operandList(f, f.children(op));
        out_ += ']';
        return;
      case OperandKind::ParamList:
        out_ += '(';
        operandList(f, f.children(op));
        out_ += ')';
        return;
      case OperandKind::Sink: out_ += '_'; return;
    }
  }

  const Module& m_;
  std::string out_;
};

}  // namespace

std::string printModule(const Module& module) { return Printer(module).module(); }

std::string printInstruction(const Module& module, const Function& function, const Instruction& instruction) {
  return Printer(module).instruction(function, instruction);
}

}  // namespace teg::ptx
