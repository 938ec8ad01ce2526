// Register-bank conflicts read from the SASS. The register file of an SM sub-partition is split
// into banks; an instruction whose source registers need more reads from one bank than the bank
// serves in a cycle waits for the extra reads. Jia et al. 2018 ("Dissecting the NVIDIA Volta GPU
// Architecture via Microbenchmarking", arXiv:1804.06826, the register-bank section) measured on
// Volta two 64-bit banks, bank = register index mod 2, with a conflict only when all three source
// registers of a 3-source instruction (FFMA) sit in the same bank: a bank serves two register
// reads a cycle. A source slot the previous instruction marked `.reuse` with the same register
// comes from the operand-reuse cache and reads no bank. On Turing a public microbenchmark
// (sjfeng1999/gpu-arch-microbenchmark, RTX 2070) shows the same rule: FFMA with three even
// source registers runs at 1.758 cycles per instruction, with two even and one odd at 1.484.
// The layout per architecture is data
// (data/sass/register_banks.json); an architecture without a published layout gets none and the
// callers say so rather than assume one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "teg/sass/ir.hpp"

namespace teg::sass {

struct RegisterBankLayout {
  std::string arch;          // "sm_70"
  int banks = 2;             // bank = register index mod banks
  int readsPerBank = 2;      // register reads one bank serves per cycle
  double penaltyCycles = 1;  // issue delay per extra read cycle (measured on Turing: 0.274)
  std::string source;        // where the layout was published ("Jia et al. 2018, arXiv:1804.06826")
};

// The published layout of `arch` ("sm_70") from data/sass/register_banks.json in the data
// directory, or nullopt when none is published (`whyNot` then says what the file records).
// Throws teg::Error when the file is missing or malformed.
std::optional<RegisterBankLayout> registerBankLayout(const std::string& arch, std::string* whyNot = nullptr);

// Extra register-read cycles of instruction `index` of `function`: max over banks of
// ceil(reads / readsPerBank) - 1, counting each distinct general register the instruction reads
// as a source once (RZ, uniform registers, constants and immediates read no bank), minus the
// slots the operand-reuse cache serves. Only instructions whose first operand is the register
// they write (ALU form) are read; 0 for the others.
int bankConflictCycles(const Function& function, std::size_t index, const RegisterBankLayout& layout);

}  // namespace teg::sass
