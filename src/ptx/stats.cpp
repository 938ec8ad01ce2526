// Static kernel statistics from the IR and its CFG.
#include "teg/ptx/stats.hpp"

#include <algorithm>
#include <set>

namespace teg::ptx {

FunctionStats computeStats(const Module& module, const Function& f) {
  FunctionStats s;
  s.name = f.name;
  s.isEntry = f.isEntry;
  s.instructions = static_cast<std::uint32_t>(f.instructions.size());
  s.basicBlocks = static_cast<std::uint32_t>(f.cfg.blocks.size());
  s.loops = static_cast<std::uint32_t>(f.cfg.loops.size());
  for (const auto& b : f.cfg.blocks) s.maxLoopDepth = std::max(s.maxLoopDepth, b.loopDepth);
  for (const auto& in : f.instructions) {
    ++s.mix[static_cast<int>(in.instrClass)];
    if (in.unmodelled()) ++s.unmodelled;
  }
  s.registersDeclared = static_cast<std::uint32_t>(f.registers.size());
  for (const auto& r : f.registers)
    if (r.type == Type::Pred) ++s.predicatesDeclared;
  for (const auto& v : f.locals) {
    if (v.space == StateSpace::Shared || v.space == StateSpace::SharedCluster) s.sharedBytes += v.sizeBytes();
    if (v.space == StateSpace::Local) s.localBytes += v.sizeBytes();
  }
  // Module-level .shared variables count once each if the function names them.
  std::set<std::uint32_t> sharedGlobals;
  for (const auto& op : f.operands) {
    const bool symbol = op.kind == OperandKind::Symbol ||
                        (op.kind == OperandKind::Address && op.addressBase() == AddressBase::Symbol);
    if (!symbol || op.symbolKind() != SymbolKind::Global) continue;
    const Variable& v = module.globals[op.index];
    if (v.space != StateSpace::Shared && v.space != StateSpace::SharedCluster) continue;
    if (!v.dims.empty() && v.dims.back() == 0) {
      s.usesDynamicShared = true;
    } else {
      sharedGlobals.insert(op.index);
    }
  }
  for (std::uint32_t g : sharedGlobals) s.sharedBytes += module.globals[g].sizeBytes();
  std::set<std::uint32_t> files;
  for (const auto& l : f.sourceLines) files.insert(l.file);
  s.sourceFiles.assign(files.begin(), files.end());
  return s;
}

std::uint64_t irBytes(const Function& f) {
  std::uint64_t bytes = sizeof(Function);
  bytes += f.instructions.capacity() * sizeof(Instruction);
  bytes += f.operands.capacity() * sizeof(Operand);
  bytes += f.qualifiers.capacity() * sizeof(Qualifier);
  bytes += f.registers.capacity() * sizeof(Register);
  bytes += f.registerDecls.capacity() * sizeof(RegisterDecl);
  bytes += f.labels.capacity() * sizeof(Label);
  bytes += f.sourceLines.capacity() * sizeof(SourceLine);
  bytes += f.locals.capacity() * sizeof(Variable);
  for (const auto& l : f.labels) bytes += l.name.capacity() > 15 ? l.name.capacity() : 0;
  return bytes;
}

}  // namespace teg::ptx
