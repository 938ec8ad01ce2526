#include "teg/trace/trace.hpp"

namespace teg::trace {

const char* isaName(Isa isa) { return isa == Isa::Sass ? "sass" : "ptx"; }

const char* memorySpaceName(MemorySpace space) {
  switch (space) {
    case MemorySpace::None: return "none";
    case MemorySpace::Global: return "global";
    case MemorySpace::Shared: return "shared";
    case MemorySpace::Local: return "local";
    case MemorySpace::Constant: return "const";
    case MemorySpace::Param: return "param";
    case MemorySpace::Texture: return "texture";
  }
  return "?";
}

std::string mnemonicOf(const std::string& text) {
  std::size_t start = text.find_first_not_of(" \t");
  if (start == std::string::npos) return {};
  if (text[start] == '@') {  // a guard: "@%p1 " or "@!%p1 "
    start = text.find_first_of(" \t", start);
    if (start == std::string::npos) return {};
    start = text.find_first_not_of(" \t", start);
    if (start == std::string::npos) return {};
  }
  const std::size_t end = text.find_first_of(" \t;", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

const char* instrKindName(InstrKind kind) {
  switch (kind) {
    case InstrKind::Alu: return "alu";
    case InstrKind::Load: return "load";
    case InstrKind::Store: return "store";
    case InstrKind::Atomic: return "atomic";
    case InstrKind::Branch: return "branch";
    case InstrKind::Barrier: return "barrier";
    case InstrKind::WarpSync: return "warpsync";
    case InstrKind::Exit: return "exit";
    case InstrKind::Unmodelled: return "unmodelled";
  }
  return "?";
}

void TraceFanout::beginKernel(const KernelInfo& kernel) {
  for (auto* l : listeners_) l->beginKernel(kernel);
}
void TraceFanout::beginBlock(std::uint32_t block) {
  for (auto* l : listeners_) l->beginBlock(block);
}
void TraceFanout::instruction(const WarpInstruction& record) {
  for (auto* l : listeners_) l->instruction(record);
}
void TraceFanout::endBlock(std::uint32_t block) {
  for (auto* l : listeners_) l->endBlock(block);
}
void TraceFanout::endKernel() {
  for (auto* l : listeners_) l->endKernel();
}

}  // namespace teg::trace
