// Register def-use information of one function: which instructions define and use each
// register (in program order), and, through a reaching-definitions data-flow over the CFG, the
// definitions that reach each use (use-def chains) and the uses each definition reaches
// (def-use chains). Guards, address bases and vector elements count as uses; a guarded
// definition does not kill earlier ones (the guard may be false).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "teg/ptx/ir.hpp"

namespace teg::ptx {

// Calls visit(register, isDefinition) for every register the instruction reads or writes.
void forEachRegisterAccess(const Function& function, const Instruction& instruction,
                           const std::function<void(std::uint32_t, bool)>& visit);

struct RegisterSite {
  std::uint32_t instruction;
  std::uint32_t reg;
  bool operator==(const RegisterSite&) const = default;
};

class DefUseChains {
 public:
  explicit DefUseChains(const Function& function);

  [[nodiscard]] std::span<const std::uint32_t> definitionsOf(std::uint32_t reg) const;
  [[nodiscard]] std::span<const std::uint32_t> usesOf(std::uint32_t reg) const;
  // Definitions (instruction indices) of `reg` that reach its use in `instruction`.
  [[nodiscard]] std::vector<std::uint32_t> reachingDefinitions(std::uint32_t instruction,
                                                               std::uint32_t reg) const;
  // Uses (instruction indices) reached by the definition of `reg` in `instruction`.
  [[nodiscard]] std::vector<std::uint32_t> reachedUses(std::uint32_t instruction,
                                                       std::uint32_t reg) const;
  // Registers read somewhere with no definition reaching them on some path from the entry.
  [[nodiscard]] std::vector<std::uint32_t> possiblyUndefinedRegisters() const;

 private:
  std::vector<std::uint32_t> defOffsets_, defs_, useOffsets_, uses_;
  std::vector<RegisterSite> useSites_;            // every (instruction, reg) use, in order
  std::vector<std::uint32_t> useSiteOffsets_;      // per instruction, into useSites_
  std::vector<std::vector<std::uint32_t>> reaching_;  // per use site: def-site ids
  std::vector<RegisterSite> defSites_;             // def-site id -> (instruction, reg)
};

}  // namespace teg::ptx
