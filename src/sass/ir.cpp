#include "teg/sass/ir.hpp"

#include <algorithm>
#include <array>

namespace teg::sass {

std::string Instruction::mnemonic() const {
  std::string out = opcode;
  for (const auto& m : modifiers) out += "." + m;
  return out;
}

bool Instruction::hasModifier(std::string_view m) const {
  return std::find(modifiers.begin(), modifiers.end(), m) != modifiers.end();
}

const Function* Module::findFunction(std::string_view name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

namespace {

struct MemoryOpcode {
  std::string_view opcode;
  std::string_view space;
};

// The opcodes that move data per thread, by space (names as nvdisasm prints them for sm_75 to
// sm_120). LDSM/UTMA* and the tensor-memory instructions move tiles, not a per-thread
// vector, and are left out here.
constexpr std::array kMemoryOpcodes{
    MemoryOpcode{"LDG", "global"},  MemoryOpcode{"STG", "global"},  MemoryOpcode{"ATOMG", "global"},
    MemoryOpcode{"REDG", "global"}, MemoryOpcode{"RED", "global"},  MemoryOpcode{"LDS", "shared"},
    MemoryOpcode{"STS", "shared"},  MemoryOpcode{"ATOMS", "shared"}, MemoryOpcode{"LDL", "local"},
    MemoryOpcode{"STL", "local"},   MemoryOpcode{"LDC", "constant"}, MemoryOpcode{"ULDC", "constant"},
    MemoryOpcode{"LDCU", "constant"}, MemoryOpcode{"LD", "generic"},  MemoryOpcode{"ST", "generic"},
    MemoryOpcode{"ATOM", "generic"}, MemoryOpcode{"TEX", "texture"}, MemoryOpcode{"TLD", "texture"},
    // cp.async (sm_80+): a per-thread global read into shared memory, traced at its global
    // address as the PTX path traces cp.async; its mbarrier arrive is an 8-byte shared access.
    MemoryOpcode{"LDGSTS", "global"}, MemoryOpcode{"ARRIVES", "shared"},
    // sm_90+: the mbarrier operations (8-byte shared accesses) and cp.async.bulk (traced, as the
    // PTX path traces it, as a 16-byte global read by the lane that issues it).
    MemoryOpcode{"SYNCS", "shared"}, MemoryOpcode{"UBLKCP", "global"},
};

const MemoryOpcode* findMemoryOpcode(const std::string& opcode) {
  for (const auto& m : kMemoryOpcodes)
    if (m.opcode == opcode) return &m;
  return nullptr;
}

}  // namespace

std::optional<std::string> memorySpace(const Instruction& instruction) {
  if (const auto* m = findMemoryOpcode(instruction.opcode)) return std::string(m->space);
  return std::nullopt;
}

std::optional<int> accessBytes(const Instruction& instruction) {
  if (!findMemoryOpcode(instruction.opcode)) return std::nullopt;
  if (instruction.opcode == "SYNCS") return 8;
  if (instruction.opcode == "UBLKCP") return 16;
  // The width modifier names bits (".64", ".128") or a sub-word type (".U8", ".S16"); no
  // modifier is one 32-bit word.
  for (const auto& m : instruction.modifiers) {
    if (m == "128") return 16;
    if (m == "64" || m == "U64" || m == "S64" || m == "F64") return 8;
    if (m == "U8" || m == "S8") return 1;
    if (m == "U16" || m == "S16") return 2;
  }
  return 4;
}

}  // namespace teg::sass
