#include "load_hoisting.hpp"

#include <algorithm>

namespace teg::timing::detail {

namespace {

bool isLongLoad(const trace::StaticInstruction& s) {
  return s.kind == trace::InstrKind::Load &&
         (s.space == trace::MemorySpace::Global || s.space == trace::MemorySpace::Local ||
          s.space == trace::MemorySpace::Texture);
}

bool isSharedAccess(const trace::StaticInstruction& s) {
  return (s.kind == trace::InstrKind::Load || s.kind == trace::InstrKind::Store) && s.space == trace::MemorySpace::Shared;
}

bool isSharedLoad(const trace::StaticInstruction& s) {
  return s.kind == trace::InstrKind::Load && s.space == trace::MemorySpace::Shared;
}

bool intersects(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  for (auto x : a)
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  return false;
}

}  // namespace

// Each load of the pass's kind moves up its straight-line run together with the arithmetic that
// computes its address (ptxas schedules the address computations of a group of loads first, then
// the loads: with only the load moving, an unrolled loop `x ^= B[f(k)]` kept one load in flight
// per warp, each waiting behind the previous iteration's use). Walking up from the load, an
// instruction that produces an operand of the moving group joins it (if it is arithmetic); one
// that conflicts with it otherwise (writes what it writes, or reads what it writes) stops it, as
// does anything but arithmetic and, for a global load, shared-memory accesses (a shared load stops
// at any memory access: a shared store may alias it). The group keeps its order and lands where it
// stopped; the instructions it passed follow it, in their order.
void hoistLoads(const trace::KernelInfo& kernel, std::vector<WarpOp>& ops, HoistedLoads which) {
  std::size_t runStart = 0;
  std::vector<std::size_t> group, passed;
  std::vector<WarpOp> reordered;
  const bool global = which == HoistedLoads::Global;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto& s = kernel.instructions[ops[i].pc];
    // A run of straight-line code: consecutive pcs of plain arithmetic since the last boundary.
    const bool contiguous = i == 0 || ops[i].pc == ops[i - 1].pc + 1;
    if (!contiguous) runStart = i;
    if (global ? !isLongLoad(s) : !isSharedLoad(s)) {
      if (s.kind != trace::InstrKind::Alu && !isSharedAccess(s)) runStart = i + 1;  // barrier, branch, global store...
      continue;
    }
    group.assign(1, i);  // positions, bottom-up
    passed.clear();
    std::size_t top = i;
    for (std::size_t j = i; j > runStart; --j) {
      const auto& before = kernel.instructions[ops[j - 1].pc];
      // Shared memory cannot alias global memory, so a global load may pass shared accesses.
      if (before.kind != trace::InstrKind::Alu && !(global && isSharedAccess(before))) break;
      bool produces = false, conflicts = false;
      for (const std::size_t g : group) {
        const auto& member = kernel.instructions[ops[g].pc];
        produces = produces || intersects(before.defs, member.uses);
        conflicts = conflicts || intersects(before.defs, member.defs) || intersects(before.uses, member.defs);
      }
      if (conflicts || (produces && before.kind != trace::InstrKind::Alu)) break;
      (produces ? group : passed).push_back(j - 1);
      top = j - 1;
    }
    if (!passed.empty()) {
      // [top, i] becomes the group then the passed instructions, each in program order.
      reordered.clear();
      for (auto g = group.rbegin(); g != group.rend(); ++g) reordered.push_back(ops[*g]);
      for (auto p = passed.rbegin(); p != passed.rend(); ++p) reordered.push_back(ops[*p]);
      std::copy(reordered.begin(), reordered.end(), ops.begin() + static_cast<std::ptrdiff_t>(top));
    } else {
      top = i + 1 - group.size();  // nothing passed: the group (if any) is already in place
    }
    runStart = top + group.size();  // loads keep their order: the next one stops below this one
  }
}

}  // namespace teg::timing::detail
