#include "teg/analysis/ryoo_configs.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "teg/support/error.hpp"

namespace teg::analysis {

namespace {

// Ryoo's blocking events: a block barrier, or a load that may go to DRAM (global, local).
bool blocks(const trace::StaticInstruction& s) {
  if (s.kind == trace::InstrKind::Barrier) return true;
  return s.kind == trace::InstrKind::Load &&
         (s.space == trace::MemorySpace::Global || s.space == trace::MemorySpace::Local);
}

}  // namespace

models::RyooConfig ryooConfigOf(const Prediction& p, std::string name) {
  const auto& r = p.result;
  const double warps = static_cast<double>(r.blocksSimulated) * p.kernel.warpsPerBlock();
  if (!(warps > 0)) throw Error(fmt::format("Ryoo: configuration '{}' simulated no warp", name));
  double executed = 0, blocking = 0;
  for (std::size_t pc = 0; pc < p.kernel.instructions.size() && pc < r.perInstruction.size(); ++pc) {
    const double n = static_cast<double>(r.perInstruction[pc].executions);
    executed += n;
    if (blocks(p.kernel.instructions[pc])) blocking += n;
  }
  models::RyooConfig c;
  c.name = std::move(name);
  c.instructions = executed / warps;
  c.threads = static_cast<double>(p.kernel.grid.count() * p.kernel.block.count());
  c.regions = 1 + blocking / warps;
  c.warpsPerBlock = p.kernel.warpsPerBlock();
  c.blocksPerSm = std::max(1, r.residentBlocks);
  return c;
}

}  // namespace teg::analysis
