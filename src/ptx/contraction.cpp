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

}  // namespace teg::ptx
