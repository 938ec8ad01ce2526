// Basic blocks, edges, dominators (Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
// Algorithm", 2001), post-dominators (the same on the reversed graph with a virtual exit) and
// natural loops (back edges u->h where h dominates u).
#include <algorithm>
#include <span>

#include "teg/ptx/cfg.hpp"
#include "teg/ptx/ir.hpp"

namespace teg::ptx {
namespace {

bool endsBlock(Opcode op) {
  return op == Opcode::Bra || op == Opcode::Brx || op == Opcode::Ret || op == Opcode::Exit ||
         op == Opcode::Trap;
}

// A graph in compressed-row form: the edges of node u are targets[offsets[u] .. offsets[u+1]).
struct Csr {
  std::vector<std::uint32_t> offsets, targets;
  [[nodiscard]] std::span<const std::uint32_t> of(std::uint32_t u) const {
    return {targets.data() + offsets[u], offsets[u + 1] - offsets[u]};
  }
};

// Builds CSR from (from, to) edges over n nodes, keeping the input order per node.
Csr makeCsr(std::size_t n, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges) {
  Csr g;
  g.offsets.assign(n + 1, 0);
  for (const auto& e : edges) ++g.offsets[e.first + 1];
  for (std::size_t u = 0; u < n; ++u) g.offsets[u + 1] += g.offsets[u];
  g.targets.resize(edges.size());
  std::vector<std::uint32_t> fill(g.offsets.begin(), g.offsets.end() - 1);
  for (const auto& e : edges) g.targets[fill[e.first]++] = e.second;
  return g;
}

// Immediate dominators of a graph rooted at `root`; unreachable nodes get kNone.
std::vector<std::uint32_t> immediateDominators(const Csr& succ, const Csr& pred, std::uint32_t root) {
  const std::size_t n = succ.offsets.size() - 1;
  // Iterative depth-first post-order.
  std::vector<std::uint32_t> order;
  order.reserve(n);
  std::vector<std::uint32_t> postNumber(n, kNone);
  std::vector<char> visited(n, 0);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{root, 0}};
  visited[root] = 1;
  while (!stack.empty()) {
    const std::uint32_t node = stack.back().first;
    const auto edges = succ.of(node);
    if (stack.back().second < edges.size()) {
      const std::uint32_t v = edges[stack.back().second++];
      if (!visited[v]) {
        visited[v] = 1;
        stack.push_back({v, 0});
      }
    } else {
      postNumber[node] = static_cast<std::uint32_t>(order.size());
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::vector<std::uint32_t> idom(n, kNone);
  idom[root] = root;
  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (postNumber[a] < postNumber[b]) a = idom[a];
      while (postNumber[b] < postNumber[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {  // reverse post-order
      const std::uint32_t b = *it;
      if (b == root) continue;
      std::uint32_t newIdom = kNone;
      for (std::uint32_t p : pred.of(b)) {
        if (idom[p] == kNone) continue;
        newIdom = newIdom == kNone ? p : intersect(p, newIdom);
      }
      if (newIdom != kNone && idom[b] != newIdom) {
        idom[b] = newIdom;
        changed = true;
      }
    }
  }
  return idom;
}

std::uint32_t blockOfTarget(const ControlFlowGraph& cfg, std::int64_t instruction) {
  if (instruction < 0 || static_cast<std::size_t>(instruction) >= cfg.blockOfInstruction.size())
    return kExitBlock;  // a label at the very end: falling off the function
  return cfg.blockOfInstruction[static_cast<std::size_t>(instruction)];
}

}  // namespace

ControlFlowGraph buildControlFlowGraph(const Function& f) {
  ControlFlowGraph cfg;
  const auto n = static_cast<std::uint32_t>(f.instructions.size());
  if (n == 0) return cfg;
  std::vector<char> leader(n, 0);
  leader[0] = 1;
  for (const Label& l : f.labels)
    if (l.instruction < n) leader[l.instruction] = 1;
  for (std::uint32_t i = 0; i + 1 < n; ++i)
    if (endsBlock(f.instructions[i].opcode)) leader[i + 1] = 1;
  cfg.blockOfInstruction.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (leader[i]) {
      if (!cfg.blocks.empty()) cfg.blocks.back().end = i;
      cfg.blocks.emplace_back();
      cfg.blocks.back().first = i;
    }
    cfg.blockOfInstruction[i] = static_cast<std::uint32_t>(cfg.blocks.size() - 1);
  }
  cfg.blocks.back().end = n;
  const auto nb = static_cast<std::uint32_t>(cfg.blocks.size());

  // Edges.
  for (std::uint32_t b = 0; b < nb; ++b) {
    BasicBlock& block = cfg.blocks[b];
    const Instruction& last = f.instructions[block.end - 1];
    const std::uint32_t fallthrough = b + 1 < nb ? b + 1 : kExitBlock;
    auto& s = block.successors;
    switch (last.opcode) {
      case Opcode::Bra: {
        const auto ops = f.operandsOf(last);
        if (!ops.empty() && ops[0].kind == OperandKind::Label) {
          s.push_back(blockOfTarget(cfg, ops[0].value));
        } else {
          s.push_back(kExitBlock);
        }
        if (last.guarded()) s.push_back(fallthrough);
        break;
      }
      case Opcode::Brx: {
        for (const Operand& op : f.operandsOf(last)) {
          if (op.kind != OperandKind::Symbol || op.symbolKind() != SymbolKind::BranchTargets) continue;
          for (std::uint32_t label : f.branchTargets[op.index].labels)
            s.push_back(label < f.labels.size() ? blockOfTarget(cfg, f.labels[label].instruction) : kExitBlock);
        }
        if (s.empty() || last.guarded()) s.push_back(fallthrough);
        break;
      }
      case Opcode::Ret: case Opcode::Exit: case Opcode::Trap:
        s.push_back(kExitBlock);
        if (last.guarded()) s.push_back(fallthrough);
        break;
      default:
        s.push_back(fallthrough);
        break;
    }
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
  }
  for (std::uint32_t b = 0; b < nb; ++b)
    for (std::uint32_t s : cfg.blocks[b].successors)
      if (s != kExitBlock) cfg.blocks[s].predecessors.push_back(b);

  // Dominators on the forward graph (entry = 0); post-dominators on the reversed graph whose
  // node nb is the virtual exit.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges, reversed;
  for (std::uint32_t b = 0; b < nb; ++b) {
    for (std::uint32_t s : cfg.blocks[b].successors) {
      if (s != kExitBlock) edges.push_back({b, s});
      reversed.push_back({s == kExitBlock ? nb : s, b});
    }
  }
  const Csr forward = makeCsr(nb, edges);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> flipped;
  flipped.reserve(edges.size());
  for (const auto& [u, v] : edges) flipped.push_back({v, u});
  const Csr backward = makeCsr(nb, flipped);
  const auto idom = immediateDominators(forward, backward, 0);
  for (std::uint32_t b = 0; b < nb; ++b) {
    cfg.blocks[b].reachable = idom[b] != kNone;
    cfg.blocks[b].idom = idom[b] == kNone ? kExitBlock : idom[b];
  }
  const Csr reverseSucc = makeCsr(nb + 1, reversed);
  for (auto& e : reversed) std::swap(e.first, e.second);
  const Csr reversePred = makeCsr(nb + 1, reversed);
  const auto ipdom = immediateDominators(reverseSucc, reversePred, nb);
  for (std::uint32_t b = 0; b < nb; ++b)
    cfg.blocks[b].ipdom = (ipdom[b] == kNone || ipdom[b] == nb) ? kExitBlock : ipdom[b];

  // Natural loops.
  auto dominates = [&](std::uint32_t a, std::uint32_t b) {
    if (idom[b] == kNone) return false;
    while (true) {
      if (a == b) return true;
      if (b == 0) return false;
      b = idom[b];
    }
  };
  for (std::uint32_t u = 0; u < nb; ++u) {
    if (!cfg.blocks[u].reachable) continue;
    for (std::uint32_t h : forward.of(u)) {
      if (!dominates(h, u)) continue;
      auto loop = std::find_if(cfg.loops.begin(), cfg.loops.end(), [&](const Loop& l) { return l.header == h; });
      if (loop == cfg.loops.end()) {
        cfg.loops.push_back({h, {}, {h}});
        loop = cfg.loops.end() - 1;
      }
      loop->latches.push_back(u);
      std::vector<char> in(nb, 0);
      for (std::uint32_t b : loop->blocks) in[b] = 1;
      std::vector<std::uint32_t> work;
      if (!in[u]) {
        in[u] = 1;
        loop->blocks.push_back(u);
        work.push_back(u);
      }
      while (!work.empty()) {
        const std::uint32_t x = work.back();
        work.pop_back();
        for (std::uint32_t p : cfg.blocks[x].predecessors) {
          if (in[p] || !cfg.blocks[p].reachable) continue;
          in[p] = 1;
          loop->blocks.push_back(p);
          work.push_back(p);
        }
      }
    }
  }
  std::sort(cfg.loops.begin(), cfg.loops.end(), [](const Loop& a, const Loop& b) { return a.header < b.header; });
  for (Loop& l : cfg.loops) {
    std::sort(l.blocks.begin(), l.blocks.end());
    std::sort(l.latches.begin(), l.latches.end());
    for (std::uint32_t b : l.blocks) ++cfg.blocks[b].loopDepth;
  }
  return cfg;
}

}  // namespace teg::ptx
