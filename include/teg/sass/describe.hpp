// A SASS kernel as the timing engine sees it: one trace::StaticInstruction per SASS instruction
// (kind, throughput class, memory space, vector width, registers written and read, source line,
// text), so that a trace the SASS emulator produces fits the same contract as a PTX one
// (include/teg/trace/trace.hpp). Lai's TEG took its static instruction information from the
// real assembly the same way (seed 000 §3.3).
//
// The program counter space is the kernel's whole code section: the entry function first, then
// the other functions nvdisasm prints in the same section (CUDA's internal subroutines such as a
// division's slow path, reached by CALL.REL), in module order. A trace record's pc is an index
// into that layout.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "teg/sass/ir.hpp"
#include "teg/trace/trace.hpp"

namespace teg::sass {

// The functions of an entry's code section and where each starts in the pc space.
struct SectionLayout {
  std::vector<const Function*> functions;  // entry first
  std::vector<std::uint32_t> firstPc;      // functions[i] starts at pc firstPc[i]
  std::uint32_t instructionCount = 0;

  // pc of a function's first instruction by name; nullopt when it is not in the section.
  [[nodiscard]] std::optional<std::uint32_t> entryPcOf(std::string_view functionName) const;
  // The instruction at pc (must be < instructionCount).
  [[nodiscard]] const Instruction& at(std::uint32_t pc) const;
};

SectionLayout layoutSection(const Module& module, const Function& entry);

// Dense register numbers in StaticInstruction::defs/uses: general registers R0..R254 are
// 0..254, uniform registers UR0..UR254 start at kUniformRegisterBase, predicates P0..P6 at
// kPredicateBase, uniform predicates UP0..UP6 at kUniformPredicateBase. RZ, URZ, PT and UPT are
// constants and never appear.
inline constexpr std::uint32_t kUniformRegisterBase = 256;
inline constexpr std::uint32_t kPredicateBase = 512;
inline constexpr std::uint32_t kUniformPredicateBase = 520;

// The static description of one SASS instruction (pc left 0; describeKernel numbers them).
trace::StaticInstruction describeInstruction(const Module& module, const Instruction& instruction);

// The whole section of `entry`: pc i is layoutSection(module, entry) instruction i. grid/block
// are left for the caller (the emulator knows the launch); registersPerThread is the entry's
// SHI_REGISTERS when nvdisasm printed it, else 0.
trace::KernelInfo describeKernel(const Module& module, const Function& entry);

}  // namespace teg::sass
