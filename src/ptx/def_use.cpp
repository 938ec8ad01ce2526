// Register accesses and reaching definitions. A register with one definition needs no data
// flow (its definition reaches every use; the use is possibly undefined unless the definition
// dominates it); registers with several definitions get a per-register bit-vector data flow over
// the blocks, with an extra "undefined at entry" bit.
#include "teg/ptx/def_use.hpp"

#include <algorithm>
#include <bit>

namespace teg::ptx {
namespace {

bool writesFirstOperand(const Function& f, const Instruction& in) {
  if (in.numOperands == 0) return false;
  switch (opcodeInfo(in.opcode).dest) {
    case DestRule::Yes: return true;
    case DestRule::No: return false;
    case DestRule::BarRed: {
      for (Qualifier q : f.qualifiersOf(in))
        if (q == Qualifier::Red) return true;
      return false;
    }
    case DestRule::IfRegister: {
      const OperandKind k = f.operands[in.firstOperand].kind;
      return k == OperandKind::Register || k == OperandKind::Vector || k == OperandKind::Sink;
    }
  }
  return false;
}

void visitOperand(const Function& f, const Operand& op, bool def,
                  const std::function<void(std::uint32_t, bool)>& visit) {
  switch (op.kind) {
    case OperandKind::Register: visit(op.index, def); return;
    case OperandKind::Address:
      if (op.addressBase() == AddressBase::Register) visit(op.index, false);
      return;
    case OperandKind::Vector: case OperandKind::List: case OperandKind::ParamList:
      for (const Operand& c : f.children(op)) visitOperand(f, c, def && op.kind == OperandKind::Vector, visit);
      return;
    default: return;
  }
}

}  // namespace

void forEachRegisterAccess(const Function& f, const Instruction& in,
                           const std::function<void(std::uint32_t, bool)>& visit) {
  if (in.guarded()) visit(in.guard, false);
  const auto ops = f.operandsOf(in);
  std::size_t defs = 0;
  if (writesFirstOperand(f, in)) {
    defs = 1;
    while (defs < ops.size() && (ops[defs - 1].flags & operand_flags::kPipeNext)) ++defs;
  }
  for (std::size_t i = 0; i < ops.size(); ++i) visitOperand(f, ops[i], i < defs, visit);
}

DefUseChains::DefUseChains(const Function& f) {
  const auto nreg = static_cast<std::uint32_t>(f.registers.size());
  const auto n = static_cast<std::uint32_t>(f.instructions.size());
  useSiteOffsets_.assign(n + 1, 0);
  std::vector<std::uint32_t> defSiteOffsets(n + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    useSiteOffsets_[i] = static_cast<std::uint32_t>(useSites_.size());
    defSiteOffsets[i] = static_cast<std::uint32_t>(defSites_.size());
    forEachRegisterAccess(f, f.instructions[i], [&](std::uint32_t reg, bool def) {
      (def ? defSites_ : useSites_).push_back({i, reg});
    });
  }
  useSiteOffsets_[n] = static_cast<std::uint32_t>(useSites_.size());
  defSiteOffsets[n] = static_cast<std::uint32_t>(defSites_.size());

  // Per-register site lists (CSR), in program order.
  auto buildCsr = [nreg](const std::vector<RegisterSite>& sites, std::vector<std::uint32_t>& offsets,
                         std::vector<std::uint32_t>& ids) {
    offsets.assign(nreg + 1, 0);
    for (const auto& s : sites) ++offsets[s.reg + 1];
    for (std::uint32_t r = 0; r < nreg; ++r) offsets[r + 1] += offsets[r];
    ids.resize(sites.size());
    std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
    for (std::uint32_t s = 0; s < sites.size(); ++s) ids[fill[sites[s].reg]++] = s;
  };
  std::vector<std::uint32_t> defIdOffsets, defIds, useIdOffsets, useIds;
  buildCsr(defSites_, defIdOffsets, defIds);
  buildCsr(useSites_, useIdOffsets, useIds);
  auto toInstructions = [](const std::vector<RegisterSite>& sites, const std::vector<std::uint32_t>& offsets,
                           const std::vector<std::uint32_t>& ids, std::vector<std::uint32_t>& outOffsets,
                           std::vector<std::uint32_t>& out) {
    outOffsets.assign(offsets.size(), 0);
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      for (std::uint32_t k = offsets[r]; k < offsets[r + 1]; ++k) {
        const std::uint32_t instr = sites[ids[k]].instruction;
        if (out.size() == outOffsets[r] || out.back() != instr) out.push_back(instr);
      }
      outOffsets[r + 1] = static_cast<std::uint32_t>(out.size());
    }
  };
  toInstructions(defSites_, defIdOffsets, defIds, defOffsets_, defs_);
  toInstructions(useSites_, useIdOffsets, useIds, useOffsets_, uses_);

  // Reaching definitions per use site; kNone in a list = "undefined on some path".
  reaching_.assign(useSites_.size(), {});
  const ControlFlowGraph& cfg = f.cfg;
  if (n == 0 || cfg.blocks.empty()) return;
  auto dominatesBlock = [&](std::uint32_t a, std::uint32_t b) {
    if (!cfg.blocks[b].reachable) return true;  // unreachable code: nothing to report
    while (true) {
      if (a == b) return true;
      if (b == 0) return false;
      b = cfg.blocks[b].idom;
    }
  };
  const auto nb = static_cast<std::uint32_t>(cfg.blocks.size());
  for (std::uint32_t r = 0; r < nreg; ++r) {
    const std::uint32_t d0 = defIdOffsets[r], d1 = defIdOffsets[r + 1];
    const std::uint32_t u0 = useIdOffsets[r], u1 = useIdOffsets[r + 1];
    if (u0 == u1) continue;
    if (d1 - d0 <= 1) {
      for (std::uint32_t k = u0; k < u1; ++k) {
        const std::uint32_t use = useIds[k];
        auto& list = reaching_[use];
        if (d1 == d0) {
          list.push_back(kNone);
          continue;
        }
        const RegisterSite& def = defSites_[defIds[d0]];
        const std::uint32_t ui = useSites_[use].instruction;
        const std::uint32_t bd = cfg.blockOfInstruction[def.instruction], bu = cfg.blockOfInstruction[ui];
        const bool dominated = bd == bu ? def.instruction < ui : dominatesBlock(bd, bu);
        list.push_back(defIds[d0]);
        if (!dominated || f.instructions[def.instruction].guarded()) list.push_back(kNone);
      }
      continue;
    }
    // Bits 0..k-1: the register's definitions in order; bit k: undefined at entry.
    const std::uint32_t k = d1 - d0;
    const std::size_t words = (k + 1 + 63) / 64;
    std::vector<std::uint64_t> in(nb * words, 0), out(nb * words, 0), gen(nb * words, 0);
    std::vector<char> resets(nb, 0);
    for (std::uint32_t j = d0; j < d1; ++j) {
      const RegisterSite& def = defSites_[defIds[j]];
      const std::uint32_t b = cfg.blockOfInstruction[def.instruction];
      const std::uint32_t bit = j - d0;
      if (!f.instructions[def.instruction].guarded()) {
        resets[b] = 1;
        std::fill(gen.begin() + b * words, gen.begin() + (b + 1) * words, 0);
      }
      gen[b * words + bit / 64] |= 1ull << (bit % 64);
    }
    bool changed = true;
    while (changed) {
      changed = false;
      for (std::uint32_t b = 0; b < nb; ++b) {
        for (std::size_t w = 0; w < words; ++w) {
          std::uint64_t v = (b == 0 && w == k / 64) ? 1ull << (k % 64) : 0;  // undefined at entry
          for (std::uint32_t p : cfg.blocks[b].predecessors) v |= out[p * words + w];
          in[b * words + w] = v;
        }
        for (std::size_t w = 0; w < words; ++w) {
          const std::uint64_t v = (resets[b] ? 0 : in[b * words + w]) | gen[b * words + w];
          if (v != out[b * words + w]) {
            out[b * words + w] = v;
            changed = true;
          }
        }
      }
    }
    // The register's uses and definitions walked together in program order: at a use, the
    // definitions reaching it are its block's entry set, replaced by each unguarded definition
    // before it in the block and added to by each guarded one. A block is a contiguous range of
    // instructions, so one forward pass does it: linear in the sites and the answer's size
    // (rescanning the block's earlier definitions per use made a long straight-line block
    // quadratic).
    std::vector<std::uint32_t> live;  // def-site ids reaching the current point, ascending
    bool undefined = false;           // ... and whether "undefined at entry" does
    std::uint32_t block = ~0u;
    std::uint32_t next = d0;          // the first definition not yet passed
    for (std::uint32_t u = u0; u < u1; ++u) {
      const std::uint32_t use = useIds[u];
      const std::uint32_t ui = useSites_[use].instruction;
      const std::uint32_t b = cfg.blockOfInstruction[ui];
      if (b != block) {
        block = b;
        live.clear();
        for (std::size_t w = 0; w < words; ++w)
          for (std::uint64_t bits = in[b * words + w]; bits != 0; bits &= bits - 1) {
            const auto bit = static_cast<std::uint32_t>(w * 64 + std::countr_zero(bits));
            if (bit < k) live.push_back(defIds[d0 + bit]);
          }
        undefined = in[b * words + k / 64] >> (k % 64) & 1;
      }
      for (; next < d1 && defSites_[defIds[next]].instruction < ui; ++next) {
        const std::uint32_t di = defSites_[defIds[next]].instruction;
        if (cfg.blockOfInstruction[di] != b) continue;  // an earlier block: in[b] accounts for it
        if (!f.instructions[di].guarded()) {
          live.clear();
          undefined = false;
        }
        live.push_back(defIds[next]);
      }
      auto& list = reaching_[use];
      list.assign(live.begin(), live.end());
      if (undefined) list.push_back(kNone);
    }
  }
}

std::span<const std::uint32_t> DefUseChains::definitionsOf(std::uint32_t reg) const {
  return {defs_.data() + defOffsets_[reg], defOffsets_[reg + 1] - defOffsets_[reg]};
}

std::span<const std::uint32_t> DefUseChains::usesOf(std::uint32_t reg) const {
  return {uses_.data() + useOffsets_[reg], useOffsets_[reg + 1] - useOffsets_[reg]};
}

std::vector<std::uint32_t> DefUseChains::reachingDefinitions(std::uint32_t instruction, std::uint32_t reg) const {
  std::vector<std::uint32_t> result;
  if (instruction + 1 >= useSiteOffsets_.size()) return result;
  for (std::uint32_t s = useSiteOffsets_[instruction]; s < useSiteOffsets_[instruction + 1]; ++s) {
    if (useSites_[s].reg != reg) continue;
    for (std::uint32_t d : reaching_[s])
      if (d != kNone) result.push_back(defSites_[d].instruction);
  }
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

std::vector<std::uint32_t> DefUseChains::reachedUses(std::uint32_t instruction, std::uint32_t reg) const {
  std::vector<std::uint32_t> result;
  for (std::uint32_t s = 0; s < useSites_.size(); ++s) {
    if (useSites_[s].reg != reg) continue;
    for (std::uint32_t d : reaching_[s]) {
      if (d != kNone && defSites_[d].instruction == instruction) {
        result.push_back(useSites_[s].instruction);
        break;
      }
    }
  }
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

std::vector<std::uint32_t> DefUseChains::possiblyUndefinedRegisters() const {
  std::vector<std::uint32_t> result;
  for (std::uint32_t s = 0; s < useSites_.size(); ++s)
    for (std::uint32_t d : reaching_[s])
      if (d == kNone) result.push_back(useSites_[s].reg);
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

}  // namespace teg::ptx
