// Small queries on the IR that need no analysis.
#include "teg/ptx/ir.hpp"

#include <fmt/format.h>

namespace teg::ptx {

std::uint64_t Variable::sizeBytes() const {
  std::uint64_t bytes = static_cast<std::uint64_t>(typeBits(type) / 8) * vectorWidth;
  if (type == Type::Pred) bytes = 1;
  for (std::uint64_t d : dims) bytes *= d;
  return bytes;
}

std::string Function::registerName(std::uint32_t reg) const {
  const RegisterDecl& decl = registerDecls[registers[reg].decl];
  if (!decl.isRange) return decl.name;
  return fmt::format("{}{}", decl.name, reg - decl.first);
}

const Variable* Function::findParam(std::string_view paramName) const {
  for (const auto& p : params)
    if (p.name == paramName) return &p;
  return nullptr;
}

std::string_view Module::qualifierSpelling(Qualifier q) const {
  const auto id = static_cast<std::uint16_t>(q);
  if (id < kFirstInternedQualifier) return qualifierName(q);
  const std::size_t i = id - kFirstInternedQualifier;
  return i < internedNames.size() ? std::string_view(internedNames[i]) : std::string_view("?");
}

std::string_view Module::mnemonic(const Function& f, const Instruction& in) const {
  if (in.opcode != Opcode::Unknown) return opcodeInfo(in.opcode).mnemonic;
  // An unknown mnemonic is interned and stored as the instruction's first qualifier.
  return qualifierSpelling(f.qualifiers[in.firstQualifier]);
}

const Function* Module::findFunction(std::string_view name) const {
  const Function* found = nullptr;
  for (const auto& f : functions)
    if (f.name == name && (found == nullptr || f.hasBody)) found = &f;
  return found;
}

int Module::ptxVersionTimes10() const {
  const auto dot = version.find('.');
  if (dot == std::string::npos) return 0;
  int major = 0, minor = 0;
  for (char c : version.substr(0, dot)) major = major * 10 + (c - '0');
  for (char c : version.substr(dot + 1)) minor = minor * 10 + (c - '0');
  return major * 10 + minor;
}

}  // namespace teg::ptx
