#include "teg/ptx/contraction.hpp"

#include <algorithm>

#include "teg/ptx/def_use.hpp"

namespace teg::ptx {
namespace {

bool contractibleFloatType(Type t) { return t == Type::F32 || t == Type::F64; }

bool unroundedArithmetic(const Instruction& in) {
  return in.rounding == Rounding::None && !in.has(modifier::kSat) && !in.guarded() &&
         contractibleFloatType(in.type) && in.vectorWidth == 1;
}

// The registers an instruction reads and the single register it writes (kNone if not one).
struct Access {
  std::vector<std::uint32_t> reads;
  std::vector<std::uint32_t> writes;
};

Access accessOf(const Function& f, const Instruction& in) {
  Access a;
  forEachRegisterAccess(f, in, [&](std::uint32_t reg, bool def) { (def ? a.writes : a.reads).push_back(reg); });
  return a;
}

}  // namespace

std::vector<std::int32_t> fmaContractionTargets(const Function& f) {
  const auto n = static_cast<std::uint32_t>(f.instructions.size());
  std::vector<std::int32_t> target(n, -1);
  if (n == 0 || f.cfg.blockOfInstruction.size() != n) return target;
  const DefUseChains chains(f);
  std::vector<bool> absorbed(n, false);
  for (std::uint32_t m = 0; m < n; ++m) {
    const Instruction& mul = f.instructions[m];
    if (mul.opcode != Opcode::Mul || !unroundedArithmetic(mul)) continue;
    const Access mulAccess = accessOf(f, mul);
    if (mulAccess.writes.size() != 1) continue;
    const std::uint32_t product = mulAccess.writes.front();
    if (chains.definitionsOf(product).size() != 1 || chains.usesOf(product).size() != 1) continue;
    const std::uint32_t a = chains.usesOf(product).front();
    if (a <= m || absorbed[a] || f.cfg.blockOfInstruction[a] != f.cfg.blockOfInstruction[m]) continue;
    const Instruction& add = f.instructions[a];
    if ((add.opcode != Opcode::Add && add.opcode != Opcode::Sub) || !unroundedArithmetic(add) ||
        add.type != mul.type || add.has(modifier::kFtz) != mul.has(modifier::kFtz))
      continue;
    const Access addAccess = accessOf(f, add);
    if (std::count(addAccess.reads.begin(), addAccess.reads.end(), product) != 1) continue;
    // The fused instruction reads the multiply's sources where the add stands.
    bool sourcesIntact = true;
    for (std::uint32_t k = m + 1; k < a && sourcesIntact; ++k) {
      const Access between = accessOf(f, f.instructions[k]);
      for (std::uint32_t w : between.writes)
        if (std::find(mulAccess.reads.begin(), mulAccess.reads.end(), w) != mulAccess.reads.end()) sourcesIntact = false;
    }
    if (!sourcesIntact) continue;
    target[m] = static_cast<std::int32_t>(a);
    absorbed[a] = true;
  }
  return target;
}

namespace {

bool twoInputLogic(const Instruction& in) {
  return (in.opcode == Opcode::And || in.opcode == Opcode::Or || in.opcode == Opcode::Xor) && in.type == Type::B32 &&
         !in.guarded() && in.numOperands == 3;
}

}  // namespace

std::vector<std::int32_t> logicContractionTargets(const Function& f) {
  const auto n = static_cast<std::uint32_t>(f.instructions.size());
  std::vector<std::int32_t> target(n, -1);
  if (n == 0 || f.cfg.blockOfInstruction.size() != n) return target;
  const DefUseChains chains(f);
  std::vector<bool> absorbed(n, false);  // already a three-input operation
  const auto isImmediate = [&](const Instruction& in, std::uint32_t k) {
    return f.operands[in.firstOperand + k].kind == OperandKind::Immediate;
  };
  for (std::uint32_t m = 0; m < n; ++m) {
    const Instruction& first = f.instructions[m];
    if (absorbed[m] || !twoInputLogic(first)) continue;
    const Access firstAccess = accessOf(f, first);
    if (firstAccess.writes.size() != 1) continue;
    const std::uint32_t value = firstAccess.writes.front();
    if (chains.definitionsOf(value).size() != 1 || chains.usesOf(value).size() != 1) continue;
    const std::uint32_t a = chains.usesOf(value).front();
    if (a <= m || absorbed[a] || f.cfg.blockOfInstruction[a] != f.cfg.blockOfInstruction[m]) continue;
    const Instruction& second = f.instructions[a];
    if (!twoInputLogic(second)) continue;
    const Access secondAccess = accessOf(f, second);
    if (std::count(secondAccess.reads.begin(), secondAccess.reads.end(), value) != 1) continue;
    // LOP3.LUT Rd, Ra, Rb, Rc: three sources, of which one (Rb) may be an immediate.
    const int immediates = (isImmediate(first, 1) ? 1 : 0) + (isImmediate(first, 2) ? 1 : 0) +
                           (isImmediate(second, 1) ? 1 : 0) + (isImmediate(second, 2) ? 1 : 0);
    if (immediates > 1) continue;
    bool sourcesIntact = true;
    for (std::uint32_t k = m + 1; k < a && sourcesIntact; ++k) {
      const Access between = accessOf(f, f.instructions[k]);
      for (std::uint32_t w : between.writes)
        if (std::find(firstAccess.reads.begin(), firstAccess.reads.end(), w) != firstAccess.reads.end()) sourcesIntact = false;
    }
    if (!sourcesIntact) continue;
    target[m] = static_cast<std::int32_t>(a);
    absorbed[a] = true;
  }
  return target;
}

}  // namespace teg::ptx
