#include "teg/sass/lines.hpp"

#include <algorithm>
#include <tuple>

namespace teg::sass {

std::vector<SourceLineView> sourceLineViews(const Module& module, const Function& function) {
  // Key: (no line?, file, line): the instructions without a line sort last.
  std::map<std::tuple<bool, std::string, int>, SourceLineView> views;
  for (std::size_t i = 0; i < function.instructions.size(); ++i) {
    const Instruction& ins = function.instructions[i];
    const bool known = ins.source >= 0 && static_cast<std::size_t>(ins.source) < module.sources.size();
    const SourcePosition* p = known ? &module.sources[static_cast<std::size_t>(ins.source)] : nullptr;
    const auto key = std::make_tuple(!known, p ? p->file : std::string(), p ? p->line : 0);
    SourceLineView& v = views[key];
    if (v.instructions.empty() && p) v.file = p->file, v.line = p->line;
    v.instructions.push_back(i);
    ++v.mix[mixKey(ins)];
    if (ins.hasEncoding) v.stallCycles += static_cast<std::uint32_t>(ins.control.stall);
    const auto bytes = accessBytes(ins);
    if (bytes && ins.opcode == "LDS") ++v.sharedLoads[*bytes];
    if (bytes && ins.opcode == "LDG") ++v.globalLoads[*bytes];
  }
  std::vector<SourceLineView> out;
  out.reserve(views.size());
  for (auto& [key, v] : views) out.push_back(std::move(v));
  return out;
}

}  // namespace teg::sass
