// Leaders, successors, dominators (the iterative algorithm of Cooper, Harvey & Kennedy, "A Simple,
// Fast Dominance Algorithm", 2001) and natural loops of one SASS function.
#include "teg/sass/cfg.hpp"

#include <algorithm>
#include <set>

namespace teg::sass {

namespace {

bool oneOf(const std::string& op, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), op) != names.end();
}

// A branch whose guard can be false falls through as well. BRA.U !UP0 carries its condition as
// an operand; @PT (and a BRA without one) always jumps.
bool alwaysTaken(const Instruction& ins) {
  if (ins.guard && !(ins.guard->index == kTruePredicate && !ins.guard->logicalNot)) return false;
  for (const auto& op : ins.operands)
    if ((op.kind == OperandKind::Predicate || op.kind == OperandKind::UniformPredicate) &&
        !(op.index == kTruePredicate && !op.logicalNot))
      return false;
  return true;
}

std::optional<std::string> labelTarget(const Instruction& ins) {
  for (const auto& op : ins.operands)
    if (op.kind == OperandKind::Label) return op.name;
  return std::nullopt;
}

}  // namespace

bool isBranch(const Instruction& ins) {
  return oneOf(ins.opcode, {"BRA", "BRX", "JMP", "JMX", "RET", "EXIT", "KILL", "BPT"});
}

ControlFlowGraph buildCfg(const Function& f) {
  ControlFlowGraph g;
  const std::size_t n = f.instructions.size();
  g.blockOf.assign(n, 0);
  if (n == 0) return g;

  std::vector<bool> leader(n, false);
  leader[0] = true;
  for (const auto& [name, index] : f.labels)
    if (index < n) leader[index] = true;
  for (std::size_t i = 0; i + 1 < n; ++i)
    if (isBranch(f.instructions[i])) leader[i + 1] = true;

  for (std::size_t i = 0; i < n; ++i) {
    if (leader[i]) g.blocks.push_back(BasicBlock{i, i, {}, false, 0});
    g.blockOf[i] = g.blocks.size() - 1;
    g.blocks.back().end = i + 1;
  }

  for (std::size_t b = 0; b < g.blocks.size(); ++b) {
    BasicBlock& block = g.blocks[b];
    const Instruction& last = f.instructions[block.end - 1];
    std::set<std::size_t> succ;
    bool fallsThrough = true;
    if (isBranch(last)) {
      const bool always = alwaysTaken(last);
      if (last.opcode == "BRA" || last.opcode == "JMP") {
        if (const auto target = labelTarget(last)) {
          const auto it = f.labels.find(*target);
          if (it != f.labels.end() && it->second < n) succ.insert(g.blockOf[it->second]);
        }
      } else if (last.opcode == "BRX" || last.opcode == "JMX") {
        block.indirectExit = true;
      }
      if (always) fallsThrough = false;
    }
    if (fallsThrough && block.end < n) succ.insert(g.blockOf[block.end]);
    block.successors.assign(succ.begin(), succ.end());
  }

  // Reverse post-order from the entry, then dominators.
  const std::size_t nb = g.blocks.size();
  std::vector<std::size_t> order;
  std::vector<int> state(nb, 0);
  std::vector<std::pair<std::size_t, std::size_t>> stack{{0, 0}};
  state[0] = 1;
  while (!stack.empty()) {
    auto& [b, k] = stack.back();
    if (k < g.blocks[b].successors.size()) {
      const std::size_t s = g.blocks[b].successors[k++];
      if (state[s] == 0) {
        state[s] = 1;
        stack.push_back({s, 0});
      }
    } else {
      order.push_back(b);
      stack.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());
  std::vector<std::size_t> rpo(nb, nb);
  for (std::size_t i = 0; i < order.size(); ++i) rpo[order[i]] = i;
  std::vector<std::vector<std::size_t>> preds(nb);
  for (std::size_t b = 0; b < nb; ++b)
    for (const std::size_t s : g.blocks[b].successors) preds[s].push_back(b);
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> idom(nb, kNone);
  idom[0] = 0;
  const auto intersect = [&](std::size_t a, std::size_t b) {
    while (a != b) {
      while (rpo[a] > rpo[b]) a = idom[a];
      while (rpo[b] > rpo[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 1; i < order.size(); ++i) {
      const std::size_t b = order[i];
      std::size_t next = kNone;
      for (const std::size_t p : preds[b]) {
        if (idom[p] == kNone) continue;
        next = next == kNone ? p : intersect(p, next);
      }
      if (next != kNone && idom[b] != next) {
        idom[b] = next;
        changed = true;
      }
    }
  }
  const auto dominates = [&](std::size_t a, std::size_t b) {
    if (idom[b] == kNone) return false;
    for (;;) {
      if (a == b) return true;
      if (b == 0) return false;
      b = idom[b];
    }
  };

  // Natural loops: one per header, the union of its back edges' bodies.
  std::vector<std::set<std::size_t>> bodies(nb);
  std::vector<bool> isHeader(nb, false);
  for (std::size_t b = 0; b < nb; ++b) {
    for (const std::size_t h : g.blocks[b].successors) {
      if (!dominates(h, b)) continue;
      isHeader[h] = true;
      auto& body = bodies[h];
      body.insert(h);
      std::vector<std::size_t> work{b};
      while (!work.empty()) {
        const std::size_t x = work.back();
        work.pop_back();
        if (!body.insert(x).second) continue;  // already in (the header stops the walk)
        for (const std::size_t p : preds[x])
          if (idom[p] != kNone) work.push_back(p);  // unreachable code is in no loop
      }
    }
  }
  for (std::size_t h = 0; h < nb; ++h)
    if (isHeader[h]) g.loops.push_back(Loop{h, std::vector<std::size_t>(bodies[h].begin(), bodies[h].end()), 1});
  for (auto& loop : g.loops) {
    for (const auto& other : g.loops)
      if (&other != &loop && other.blocks.size() > loop.blocks.size() &&
          std::binary_search(other.blocks.begin(), other.blocks.end(), loop.header))
        ++loop.depth;
  }
  for (const auto& loop : g.loops)
    for (const std::size_t b : loop.blocks) ++g.blocks[b].loopDepth;
  std::stable_sort(g.loops.begin(), g.loops.end(), [](const Loop& a, const Loop& b) { return a.depth < b.depth; });
  return g;
}

}  // namespace teg::sass
