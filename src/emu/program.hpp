// Decoded program: each PTX function's instructions turned once into what the interpreter needs
// per execution (register slots, immediates already converted to the instruction's type,
// symbols resolved to their space and offset, reconvergence pcs), so the hot loop never looks
// at names, qualifier lists or the CFG again.
#pragma once

#include <cstdint>
#include <string>
#include <cstddef>
#include <utility>
#include <vector>

#include "teg/ptx/ir.hpp"

namespace teg::emu {

// Where an address or a symbol lives at run time.
enum class Space : std::uint8_t {
  Generic,  // resolved from the address value (windows in emulator.hpp)
  Global,
  Shared,
  Local,    // per thread; symbols are relative to the current frame
  Const,
  KernelParam,
};

enum class SrcKind : std::uint8_t { None, Reg, Imm, Special, Vector, Symbol, Sink };

struct Src {
  SrcKind kind = SrcKind::None;
  bool negated = false;              // !%p
  std::uint8_t component = 0;        // special registers: 0..2 = x/y/z
  Space symbolSpace = Space::Global; // Symbol: its space (Local: frame relative)
  std::uint32_t slot = 0;            // Reg: register slot; Special: SpecialRegister; Vector: first child
  std::uint32_t count = 0;           // Vector: number of children (in Code::vectorChildren)
  std::uint64_t imm = 0;             // Imm: bits; Symbol: address in its space
  std::uint32_t regBits = 64;        // Reg: declared width of the register (1 for .pred)
};

struct Addr {
  enum class Base : std::uint8_t { None, Reg, Symbol, Imm };
  Base base = Base::None;
  Space space = Space::Generic;  // after resolving symbols
  bool frameRelative = false;    // a Local symbol: add the frame's local base
  bool reg32 = false;            // register base is 32 bits wide
  std::uint32_t slot = 0;
  std::int64_t offset = 0;       // symbol address + displacement, or the displacement
};

struct Decoded {
  const ptx::Instruction* ir = nullptr;
  ptx::Opcode op = ptx::Opcode::Unknown;
  ptx::Type type = ptx::Type::None;
  ptx::Type type2 = ptx::Type::None;
  std::uint8_t numSrc = 0;
  bool hasDst = false;
  bool hasDst2 = false;                // setp's |q, ... second destination
  std::uint32_t guard = ptx::kNone;    // predicate register slot
  bool guardNegated = false;
  Src dst, dst2;
  Src src[4];
  Addr addr;                           // memory operand (ld/st/atom/red/prefetch/cvta of symbol)
  Addr addr2, addr3;                   // cp.async's source, cp.async.bulk's mbarrier (exec_async.cpp)
  Space space = Space::Generic;        // the instruction's state space (ld/st/atom/cvta)
  std::uint32_t target = 0;            // bra: target pc; call: callee function index
  std::uint32_t reconverge = 0;        // bra: reconvergence pc (kNoReconverge = at exit)
  std::uint32_t qual = 0;              // operation qualifier (atom.add, shfl.up, vote.any, ...)
  std::uint32_t qual2 = 0;             // second operation (setp .and/.or/.xor, bar.red .popc)
  std::uint32_t flags = 0;             // Decoded flags below
  std::uint32_t callArgs = 0, callArgCount = 0;   // call: indexes into Code::vectorChildren
  std::uint32_t callRets = 0, callRetCount = 0;
};

namespace dflag {
inline constexpr std::uint32_t kUnsupported = 1;  // executing it is an error
inline constexpr std::uint32_t kUni = 2;
inline constexpr std::uint32_t kArrive = 4;       // bar.arrive
inline constexpr std::uint32_t kWarpBar = 8;      // bar.warp.sync
inline constexpr std::uint32_t kRedBar = 16;      // bar.red
inline constexpr std::uint32_t kClamp = 32;       // shf.clamp
inline constexpr std::uint32_t kShfRight = 64;    // shf.r
inline constexpr std::uint32_t kNoFtz = 128;
inline constexpr std::uint32_t kPrintf = 256;     // call of the runtime's vprintf (device_printf.hpp)
inline constexpr std::uint32_t kAsyncForm = 512;  // cp/mbarrier: `qual` holds its AsyncForm (exec_async.cpp)
}  // namespace dflag

inline constexpr std::uint32_t kNoReconverge = 0xffffffffu;

struct Code {
  const ptx::Function* function = nullptr;
  std::uint32_t index = 0;                 // in Module::functions
  std::uint32_t pcBase = 0;                // trace pc of its first instruction (kernel: 0)
  std::vector<Decoded> instrs;
  std::vector<Src> vectorChildren;         // children of Vector operands, call lists
  std::uint32_t slotCount = 0;             // register slots (vector registers take several)
  std::vector<std::uint32_t> slotBits;     // declared width of each slot
  std::uint32_t localFrameBytes = 0;       // .local + .param (params, returns, call arguments)
  std::vector<std::uint32_t> paramOffsets;   // .func: frame offsets of its parameters
  std::vector<std::uint32_t> returnOffsets;  // .func: frame offsets of its return values
  std::vector<std::uint32_t> paramSizes, returnSizes;
  std::uint32_t staticSharedBytes = 0;     // the function's own .shared variables (kernel only)
};

// Module-wide memory layout decided once: shared variables' offsets, the const bank, module
// .global variables (placed in global memory by the emulator).
struct ModuleLayout {
  std::uint32_t sharedBytes = 0;                       // static shared (module + kernel)
  std::uint32_t dynamicSharedOffset = 0;               // where extern .shared arrays start
  std::vector<std::uint64_t> globalAddress;            // per Module::globals (Global/Shared/Const)
  std::vector<std::byte> constBank;
  std::vector<std::pair<std::uint32_t, std::vector<std::byte>>> globalInits;  // .global initializers
  std::vector<std::uint32_t> kernelParamOffsets;
  std::vector<std::uint32_t> kernelParamSizes;
  std::uint32_t kernelParamBytes = 0;
  bool usesReservedShared = false;                     // reads a %reserved_smem_offset_* register
  bool readsGridWorkspace = false;                     // reads %envreg1/2: cooperative groups' grid_group
};

// The reserved region as the emulator lays it out. The CUDA driver reserves 1 KiB of shared memory
// per block from cc 8.0 on (CUDA C++ Programming Guide, "Compute capabilities" table:
// "reserved shared memory per block"; data/devices/generic/sm_80.json
// reserved_shared_memory_per_block). Where it lies and what the registers read is what an RTX 3060
// reports for kernels with 16 to 8192 static and 0 to 4096 dynamic bytes: begin = _0 = _1 = the
// block's own shared memory rounded up to 128 bytes, end = begin + 288 (the scratch cooperative
// groups may use, cooperative_groups/details/memory.h), cap = begin + 1024.
struct ReservedShared {
  static constexpr std::uint32_t kAlign = 128;
  static constexpr std::uint32_t kBytes = 1024;
  static constexpr std::uint32_t kEnd = 288;
};

struct Program {
  const ptx::Module* module = nullptr;
  std::uint32_t kernelIndex = 0;
  ModuleLayout layout;
  std::vector<Code> codes;                              // per Module::functions (empty if no body)
};

// Decodes every function with a body. `globalAddress` gives the device address already chosen
// for each module .global variable (0 for other spaces).
Program buildProgram(const ptx::Module& module, std::uint32_t kernelIndex,
                     const std::vector<std::uint64_t>& globalAddress);

std::uint32_t alignUp(std::uint32_t value, std::uint32_t align);
std::uint32_t naturalAlign(const ptx::Variable& v);

}  // namespace teg::emu
