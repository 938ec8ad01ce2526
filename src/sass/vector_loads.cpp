#include "teg/sass/vector_loads.hpp"

#include <map>
#include <set>
#include <tuple>

#include "teg/sass/cfg.hpp"

namespace teg::sass {

namespace {

bool scalarLds(const Instruction& ins) {
  return ins.opcode == "LDS" && accessBytes(ins) == 4 && !ins.guard && ins.operands.size() >= 2 &&
         ins.operands[0].kind == OperandKind::Register && ins.operands[1].kind == OperandKind::Memory;
}

// The general register an instruction writes, when its first operand is one (ALU and load form;
// stores and atomics without a result write none). Enough to see a base register change.
int written(const Instruction& ins) {
  if (ins.operands.empty() || ins.operands[0].kind != OperandKind::Register) return -1;
  if (ins.opcode.rfind("ST", 0) == 0 || ins.opcode.rfind("RED", 0) == 0) return -1;
  return ins.operands[0].index;
}

bool feedsFfma(const Function& f, std::size_t load, std::size_t end) {
  const int r = f.instructions[load].operands[0].index;
  for (std::size_t i = load + 1; i < end; ++i) {
    const Instruction& ins = f.instructions[i];
    if (ins.opcode == "FFMA")
      for (std::size_t k = 1; k < ins.operands.size(); ++k)
        if (ins.operands[k].kind == OperandKind::Register && ins.operands[k].index == r) return true;
    if (written(ins) == r) return false;
  }
  return false;
}

}  // namespace

std::vector<VectorLoadGroup> vectorisableSharedLoads(const Function& f) {
  std::vector<VectorLoadGroup> groups;
  const ControlFlowGraph cfg = buildCfg(f);
  for (const BasicBlock& block : cfg.blocks) {
    // Runs of loads with one base (base register, uniform register) between writes of the base.
    using Base = std::pair<int, int>;
    std::map<Base, std::map<std::int64_t, std::size_t>> open;  // base -> offset -> load
    std::vector<std::map<std::int64_t, std::size_t>> runs;
    for (std::size_t i = block.first; i < block.end; ++i) {
      const Instruction& ins = f.instructions[i];
      if (scalarLds(ins) && feedsFfma(f, i, block.end)) {
        const Address& a = ins.operands[1].address;
        open[{a.baseRegister, a.uniformRegister}].emplace(a.offset, i);
      }
      if (const int w = written(ins); w >= 0) {
        // A write to a base register ends the runs addressed through it.
        for (auto it = open.begin(); it != open.end();) {
          if (it->first.first == w) {
            runs.push_back(std::move(it->second));
            it = open.erase(it);
          } else {
            ++it;
          }
        }
      }
    }
    for (auto& [base, run] : open) runs.push_back(std::move(run));
    for (auto& run : runs) {
      std::set<std::int64_t> used;
      for (const int bytes : {16, 8}) {
        for (const auto& [offset, load] : run) {
          if (offset % bytes != 0 || used.count(offset)) continue;
          VectorLoadGroup g{{}, bytes};
          for (std::int64_t o = offset; o < offset + bytes; o += 4) {
            const auto it = run.find(o);
            if (it == run.end() || used.count(o)) break;
            g.loads.push_back(it->second);
          }
          if (g.loads.size() * 4 != static_cast<std::size_t>(bytes)) continue;
          for (std::int64_t o = offset; o < offset + bytes; o += 4) used.insert(o);
          groups.push_back(std::move(g));
        }
      }
    }
  }
  return groups;
}

}  // namespace teg::sass
