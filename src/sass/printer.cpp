// The printer writes nvdisasm's layout: section header, symbol directives, labels, source line
// comments when the position changes, and each instruction with its two encoding words.
#include "teg/sass/printer.hpp"

#include <fmt/format.h>

#include <cmath>

namespace teg::sass {

std::string formatInstruction(const Instruction& ins) {
  std::string out;
  if (ins.guard) out += "@" + ins.guard->text + " ";
  out += ins.mnemonic();
  for (std::size_t i = 0; i < ins.operands.size(); ++i) out += (i == 0 ? " " : ", ") + ins.operands[i].text;
  return out;
}

namespace {

std::string sourceComment(const SourcePosition& p) {
  std::string out = fmt::format("\t//## File \"{}\", line {}", p.file, p.line);
  for (const auto& [file, line] : p.inlinedAt) out += fmt::format(" inlined at \"{}\", line {}", file, line);
  return out + "\n";
}

void printLabels(std::string& out, const Function& f, std::size_t index) {
  for (const auto& [name, at] : f.labels)
    if (at == index) out += name + ":\n";
}

}  // namespace

std::string printModule(const Module& m) {
  std::string out;
  if (!m.target.empty()) out += "\t.target\t" + m.target + "\n\n";
  std::string section;
  int registers = -1;
  for (const auto& f : m.functions) {
    if (f.section != section || section.empty()) {
      section = f.section.empty() ? ".text." + f.name : f.section;
      out += fmt::format("\n//--------------------- {} --------------------------\n", section);
      out += fmt::format("\t.section\t{},\"ax\",@progbits\n", section);
      registers = -1;
    }
    if (f.registers >= 0 && f.registers != registers) {
      out += fmt::format("\t.sectioninfo\t@\"SHI_REGISTERS={}\"\n", f.registers);
      registers = f.registers;
    }
    out += fmt::format("        .type           {},@function\n", f.name);
    if (f.isEntry) out += fmt::format("        .other          {},@\"STO_CUDA_ENTRY STV_DEFAULT\"\n", f.name);
    out += f.name + ":\n";
    int source = -1;
    for (std::size_t i = 0; i < f.instructions.size(); ++i) {
      const Instruction& ins = f.instructions[i];
      printLabels(out, f, i);
      if (ins.source != source && ins.source >= 0 && static_cast<std::size_t>(ins.source) < m.sources.size())
        out += sourceComment(m.sources[static_cast<std::size_t>(ins.source)]);
      source = ins.source;
      const std::string text = fmt::format("        /*{:04x}*/ {:>18} ;", ins.address, formatInstruction(ins));
      if (ins.hasEncoding)
        out += fmt::format("{:<80} /* 0x{:016x} */\n{:80} /* 0x{:016x} */\n", text, ins.low, "", ins.high);
      else
        out += text + "\n";
    }
    printLabels(out, f, f.instructions.size());
  }
  return out;
}

namespace {

bool sameFloat(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

std::optional<std::string> operandDifference(const Operand& a, const Operand& b) {
  const auto differ = [&](const char* what) { return fmt::format("operand '{}' vs '{}': {}", a.text, b.text, what); };
  if (a.text != b.text) return differ("text");
  if (a.kind != b.kind) return differ("kind");
  if (a.index != b.index) return differ("index");
  if (a.suffixes != b.suffixes || a.reuse != b.reuse) return differ("suffixes");
  if (a.negate != b.negate || a.logicalNot != b.logicalNot || a.bitNot != b.bitNot || a.absolute != b.absolute)
    return differ("prefix operators");
  if (a.value != b.value || !sameFloat(a.floatValue, b.floatValue)) return differ("value");
  if (a.name != b.name) return differ("name");
  if (a.bank != b.bank || a.bankRegister != b.bankRegister || a.descriptorRegister != b.descriptorRegister) return differ("bank");
  if (a.address.baseRegister != b.address.baseRegister || a.address.base64 != b.address.base64 ||
      a.address.base32 != b.address.base32 ||
      a.address.uniformRegister != b.address.uniformRegister || a.address.offset != b.address.offset)
    return differ("address");
  return std::nullopt;
}

}  // namespace

std::optional<std::string> firstDifference(const Module& a, const Module& b) {
  if (a.target != b.target) return "target " + a.target + " vs " + b.target;
  if (a.functions.size() != b.functions.size())
    return fmt::format("{} functions vs {}", a.functions.size(), b.functions.size());
  for (std::size_t fi = 0; fi < a.functions.size(); ++fi) {
    const Function& fa = a.functions[fi];
    const Function& fb = b.functions[fi];
    const auto where = [&](const std::string& what) { return fmt::format("function {} ({}): {}", fi, fa.name, what); };
    if (fa.name != fb.name) return where("name " + fb.name);
    if (fa.section != fb.section) return where("section " + fa.section + " vs " + fb.section);
    if (fa.isEntry != fb.isEntry) return where("entry flag");
    if (fa.registers != fb.registers) return where("registers");
    if (fa.labels != fb.labels) return where("labels");
    if (fa.instructions.size() != fb.instructions.size())
      return where(fmt::format("{} instructions vs {}", fa.instructions.size(), fb.instructions.size()));
    for (std::size_t i = 0; i < fa.instructions.size(); ++i) {
      const Instruction& x = fa.instructions[i];
      const Instruction& y = fb.instructions[i];
      const auto at = [&](const std::string& what) { return where(fmt::format("instruction {} ({}): {}", i, formatInstruction(x), what)); };
      if (x.address != y.address) return at("address");
      if (x.opcode != y.opcode || x.modifiers != y.modifiers) return at("mnemonic " + y.mnemonic());
      if (x.guard.has_value() != y.guard.has_value()) return at("guard");
      if (x.guard)
        if (auto d = operandDifference(*x.guard, *y.guard)) return at("guard " + *d);
      if (x.operands.size() != y.operands.size()) return at("operand count");
      for (std::size_t k = 0; k < x.operands.size(); ++k)
        if (auto d = operandDifference(x.operands[k], y.operands[k])) return at(*d);
      if (x.hasEncoding != y.hasEncoding || x.low != y.low || x.high != y.high || !(x.control == y.control))
        return at("encoding");
      const bool xs = x.source >= 0, ys = y.source >= 0;
      if (xs != ys) return at("source line presence");
      if (xs && !(a.sources[static_cast<std::size_t>(x.source)] == b.sources[static_cast<std::size_t>(y.source)]))
        return at("source line");
    }
  }
  return std::nullopt;
}

}  // namespace teg::sass
