// Structural module comparison for the round-trip property. Pool offsets (firstOperand,
// firstQualifier, compound operands' child index) and source-line indices are compared by
// what they point at, not by value.
#include "teg/ptx/compare.hpp"

#include <fmt/format.h>

namespace teg::ptx {
namespace {

using Diff = std::optional<std::string>;

Diff compareOperand(const Module& ma, const Function& fa, const Operand& a, const Module& mb,
                    const Function& fb, const Operand& b) {
  if (a.kind != b.kind || a.flags != b.flags || a.component != b.component || a.aux != b.aux)
    return std::string("operand kind/flags differ");
  const bool compound = a.kind == OperandKind::Vector || a.kind == OperandKind::List ||
                        a.kind == OperandKind::ParamList;
  if (!compound) {
    if (a.index != b.index || a.value != b.value) return std::string("operand value differs");
    return std::nullopt;
  }
  const auto ca = fa.children(a), cb = fb.children(b);
  for (std::size_t i = 0; i < ca.size(); ++i)
    if (auto d = compareOperand(ma, fa, ca[i], mb, fb, cb[i])) return fmt::format("element {}: {}", i, *d);
  return std::nullopt;
}

Diff compareInstruction(const Module& ma, const Function& fa, const Instruction& a, const Module& mb,
                        const Function& fb, const Instruction& b) {
  Instruction x = a, y = b;
  x.firstOperand = y.firstOperand = 0;
  x.firstQualifier = y.firstQualifier = 0;
  x.sourceLine = y.sourceLine = 0;
  if (!(x == y)) return std::string("opcode, type, modifiers, guard or counts differ");
  const auto qa = fa.qualifiersOf(a), qb = fb.qualifiersOf(b);
  for (std::size_t i = 0; i < qa.size(); ++i)
    if (ma.qualifierSpelling(qa[i]) != mb.qualifierSpelling(qb[i])) return fmt::format("qualifier {} differs", i);
  const bool la = a.sourceLine != kNone, lb = b.sourceLine != kNone;
  if (la != lb || (la && !(fa.sourceLines[a.sourceLine] == fb.sourceLines[b.sourceLine])))
    return std::string("source line differs");
  const auto oa = fa.operandsOf(a), ob = fb.operandsOf(b);
  for (std::size_t i = 0; i < oa.size(); ++i)
    if (auto d = compareOperand(ma, fa, oa[i], mb, fb, ob[i])) return fmt::format("operand {}: {}", i, *d);
  return std::nullopt;
}

Diff compareFunction(const Module& ma, const Function& a, const Module& mb, const Function& b) {
  if (a.name != b.name || a.isEntry != b.isEntry || a.hasBody != b.hasBody || a.linkage != b.linkage)
    return std::string("header differs");
  if (a.returns != b.returns) return std::string("return parameters differ");
  if (a.params != b.params) return std::string("parameters differ");
  if (a.headerDirectives != b.headerDirectives) return std::string("header directives differ");
  if (a.registerDecls != b.registerDecls) return std::string("register declarations differ");
  if (a.registers != b.registers) return std::string("registers differ");
  if (a.locals != b.locals) return std::string("local variables differ");
  if (a.labels != b.labels) return std::string("labels differ");
  if (a.branchTargets != b.branchTargets) return std::string("branch target tables differ");
  if (a.prototypes != b.prototypes) return std::string("call prototypes differ");
  if (a.bodyDirectives != b.bodyDirectives) return std::string("body directives differ");
  if (a.instructions.size() != b.instructions.size())
    return fmt::format("instruction count differs ({} vs {})", a.instructions.size(), b.instructions.size());
  for (std::size_t i = 0; i < a.instructions.size(); ++i)
    if (auto d = compareInstruction(ma, a, a.instructions[i], mb, b, b.instructions[i]))
      return fmt::format("instruction {}: {}", i, *d);
  if (!(a.cfg == b.cfg)) return std::string("control-flow graph differs");
  return std::nullopt;
}

}  // namespace

std::optional<std::string> firstDifference(const Module& a, const Module& b) {
  if (a.version != b.version || a.target != b.target || a.addressSize != b.addressSize)
    return std::string("module directives differ");
  if (a.globals != b.globals) return std::string("global variables differ");
  if (a.files != b.files) return std::string(".file entries differ");
  if (a.raw != b.raw) return std::string("raw sections differ");
  if (a.order != b.order) return std::string("item order differs");
  if (a.functions.size() != b.functions.size()) return std::string("function count differs");
  for (std::size_t i = 0; i < a.functions.size(); ++i)
    if (auto d = compareFunction(a, a.functions[i], b, b.functions[i]))
      return fmt::format("function {} ({}): {}", i, a.functions[i].name, *d);
  return std::nullopt;
}

}  // namespace teg::ptx
