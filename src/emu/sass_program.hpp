// A kernel's SASS decoded once into what the SASS block runner executes: the functions of the
// kernel's section laid out entry first (pc i = i-th instruction, the numbering of
// sass::describeKernel), each instruction with its handler or control class and pre-resolved
// operands (register rows, immediates, constant offsets, branch targets as pcs). Nothing is looked
// up by name at run time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sass_exec.hpp"
#include "teg/sass/ir.hpp"

namespace teg::emu {

// Where the driver puts launch values in constant bank 0, and the shared-memory bytes reserved
// before the block's own (data/toolchain/sass_constant_bank.json).
struct SassConstantBankLayout {
  int smVersion = 0;
  std::uint32_t blockDim = 0;       // blockDim.x, .y, .z as three 32-bit words
  std::uint32_t gridDim = 0;        // gridDim.x, .y, .z
  std::uint32_t stackPointer = 0;   // the initial R1 (top of the thread's local stack)
  std::uint32_t params = 0;         // the kernel parameters
  std::uint32_t sharedReserved = 0; // shared addresses of the block start here
  std::string source;               // provenance, for messages
};

// The layout of one architecture (e.g. 86) from the data file; throws teg::Error naming the
// architectures it knows.
SassConstantBankLayout sassConstantBankLayout(int smVersion);

struct SassProgram {
  const sass::Module* module = nullptr;
  int smVersion = 0;
  std::string kernelName;
  std::vector<const sass::Function*> functions;   // of the kernel's section, entry first
  std::vector<std::uint32_t> functionStart;       // pc of each function's first instruction
  std::vector<SassInstr> instrs;
  std::vector<std::string> errors;                // messages of instructions that cannot run
  std::vector<std::int32_t> pcOfAddress;          // (address - base) / 16 -> pc, -1 = none
  std::uint32_t baseAddress = 0;                  // address of the entry's first instruction
  std::uint32_t localBytesPerThread = 0;          // stack frames of the kernel and its callees
  SassConstantBankLayout layout;
  // Operands `32@lo(sym)` / `32@hi(sym)`: a __device__ variable's address as two 32-bit
  // immediates that the driver's loader patches into the code (relocations of .text; ptxas 11.8
  // writes them for sm_70, later ones go through constant bank 4). Emulator::selectSass fills
  // each in with the address the emulator gave the variable.
  struct SymbolAddress {
    std::uint32_t pc = 0;
    std::uint8_t operand = 0;
    bool high = false;
    std::string symbol;
  };
  std::vector<SymbolAddress> symbolAddresses;

  // The pcs each BRX may branch to, from nvdisasm's (*"BRANCH_TARGETS .L_x_1,..."*) list: a BRX
  // instruction's `aux` is 1 + its index here (0: nvdisasm printed no list). A target outside
  // its list is an error, not a jump: a jump table read from the wrong bank (no cubin) would
  // otherwise send lanes to wherever its zeros point.
  std::vector<std::vector<std::uint32_t>> branchTargets;
  // pc of a byte address inside the section (a return address, a BRX target), or -1.
  [[nodiscard]] std::int64_t pcOf(std::uint64_t address) const {
    if (address < baseAddress || (address - baseAddress) % 16 != 0) return -1;
    const std::uint64_t i = (address - baseAddress) / 16;
    return i < pcOfAddress.size() ? pcOfAddress[i] : -1;
  }
  // "'LDG.E R2, [R4.64]' (pc 12 of _Z3fooPf) at foo.cu:17 on sm_86"
  [[nodiscard]] std::string describe(const SassInstr& in) const;
};

// Decodes the function named `kernel` (the mangled entry name) and the helper functions of its
// section. Throws teg::Error when the kernel is missing.
SassProgram buildSassProgram(const sass::Module& module, const std::string& kernel, int smVersion);

// The handler of an instruction that cannot run: stops with SassProgram::errors[in.aux] and the
// instruction's description (opcode, source line, architecture).
void sassUnsupportedInstruction(SassCtx& c);

}  // namespace teg::emu
