#include "teg/sass/stats.hpp"

#include <algorithm>

namespace teg::sass {

std::string mixKey(const Instruction& ins) {
  const auto bytes = accessBytes(ins);
  if (bytes && *bytes > 4) return ins.opcode + "." + std::to_string(*bytes * 8);
  return ins.opcode;
}

FunctionStats computeStats(const Module& module, const Function& f) {
  (void)module;
  FunctionStats s;
  s.name = f.name;
  s.isEntry = f.isEntry;
  s.registersReported = f.registers;
  const ControlFlowGraph cfg = buildCfg(f);
  s.basicBlocks = cfg.blocks.size();
  s.loops = cfg.loops.size();
  for (const auto& b : cfg.blocks) s.maxLoopDepth = std::max(s.maxLoopDepth, b.loopDepth);

  for (std::size_t b = 0; b < cfg.blocks.size(); ++b) {
    const BasicBlock& block = cfg.blocks[b];
    BlockStats bs;
    bs.block = b;
    bs.firstAddress = f.instructions[block.first].address;
    bs.loopDepth = block.loopDepth;
    for (std::size_t i = block.first; i < block.end; ++i) {
      ++bs.instructions;
      ++bs.mix[mixKey(f.instructions[i])];
    }
    s.blocks.push_back(std::move(bs));
  }

  const auto registerIndex = [&](int index) {
    if (index >= 0 && index != kZeroRegister) s.registersUsed = std::max(s.registersUsed, index + 1);
  };
  for (const auto& ins : f.instructions) {
    const std::string key = mixKey(ins);
    ++s.instructions;
    ++s.mix[key];
    if (ins.opcode == "NOP") ++s.nops;
    // Wide loads of kernel parameters (ULDC.64, LDC.64) are not what the PTX hides; wide
    // global, shared and local accesses are.
    if (const auto bytes = accessBytes(ins); bytes && *bytes > 4 && memorySpace(ins) != "constant") ++s.vectorAccesses;
    if (ins.hasEncoding) s.stallCycles += static_cast<std::uint32_t>(ins.control.stall);
    for (const auto& op : ins.operands) {
      if (op.kind == OperandKind::Register) {
        // A 64-bit (.64) or wider operand names the first register of a pair or quad; the
        // width is in the opcode, which this count does not decode: the first is counted.
        registerIndex(op.index);
      } else if (op.kind == OperandKind::Memory || op.kind == OperandKind::ConstantBank) {
        registerIndex(op.address.baseRegister);
        if (op.address.base64 && op.address.baseRegister >= 0 && op.address.baseRegister != kZeroRegister)
          registerIndex(op.address.baseRegister + 1);
      }
    }
    auto line = std::find_if(s.lines.begin(), s.lines.end(), [&](const LineStats& l) { return l.source == ins.source; });
    if (line == s.lines.end()) {
      s.lines.push_back(LineStats{ins.source, 0, {}});
      line = s.lines.end() - 1;
    }
    ++line->instructions;
    ++line->mix[key];
  }
  return s;
}

}  // namespace teg::sass
