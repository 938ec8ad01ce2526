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

bool intersects(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  for (auto x : a)
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  return false;
}

}  // namespace

void hoistGlobalLoads(const trace::KernelInfo& kernel, std::vector<WarpOp>& ops) {
  std::size_t runStart = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto& s = kernel.instructions[ops[i].pc];
    // A run of straight-line code: consecutive pcs of plain arithmetic since the last boundary.
    const bool contiguous = i == 0 || ops[i].pc == ops[i - 1].pc + 1;
    if (!contiguous) runStart = i;
    if (!isLongLoad(s)) {
      if (s.kind != trace::InstrKind::Alu && !isSharedAccess(s)) runStart = i + 1;  // barrier, branch, global store...
      continue;
    }
    std::size_t j = i;
    while (j > runStart) {
      const auto& before = kernel.instructions[ops[j - 1].pc];
      // Shared memory cannot alias global memory, so a global load may pass shared accesses.
      if (before.kind != trace::InstrKind::Alu && !isSharedAccess(before)) break;
      if (intersects(before.defs, s.uses) || intersects(before.defs, s.defs) || intersects(before.uses, s.defs)) break;
      --j;
    }
    if (j < i) std::rotate(ops.begin() + static_cast<std::ptrdiff_t>(j), ops.begin() + static_cast<std::ptrdiff_t>(i),
                           ops.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    runStart = j + 1;  // loads keep their order: the next one stops below this one
  }
}

}  // namespace teg::timing::detail
