// The functional emulator: runs one kernel of a parsed PTX module on the CPU, thread by thread
// in SIMT warps of 32 lanes, and streams every executed warp instruction to a trace listener
// (seed 000 §1.3.5: what TEG took from Barra). It knows nothing about time.
//
// Typical use:
//
//   ptx::Module module = ptx::parseFile("saxpy.ptx");
//   emu::LaunchDescription launch = emu::readLaunchFile("saxpy.launch.json");
//   emu::Emulator emulator(module, launch);          // allocates and fills the buffers
//   emu::RunOptions options;
//   options.listener = &myListener;                   // optional
//   emu::RunSummary summary = emulator.run(options);  // throws teg::Error on a kernel fault
//   std::span<const std::byte> y = emulator.buffer("y");
//
// Memory: global memory is a sparse set of device allocations (one per buffer argument or struct
// field, one per texture, one per module `.global` variable), each at its own 512-byte-aligned
// address with an unmapped gap after it; any access outside an allocation is an error. Shared,
// local, const and kernel-parameter memory live in generic-address windows (see kSharedWindow...),
// so cvta and generic loads and stores resolve to the right space. Errors name block, thread,
// instruction (with its .loc source line) and address, like compute-sanitizer.
//
// Listener ordering: the listener hears beginKernel, then each emulated block whole (beginBlock,
// its warps' instructions interleaved as they ran, endBlock) in increasing linear block order,
// then endKernel — whatever the number of worker threads. With more than one thread, blocks run in
// parallel (TBB) in batches and each block's events are buffered until every earlier block has
// been delivered, so the listener is only ever called from one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "teg/emu/launch.hpp"
#include "teg/ptx/ir.hpp"
#include "teg/sass/ir.hpp"
#include "teg/support/error.hpp"
#include "teg/trace/trace.hpp"

namespace teg::emu {

// Generic-address windows (64-bit generic addressing). Global allocations start at kGlobalBase.
inline constexpr std::uint64_t kGlobalBase = 0x00007f0000000000ull;
inline constexpr std::uint64_t kSharedWindow = 0x00007e0000000000ull;  // + offset in the block
inline constexpr std::uint64_t kLocalWindow = 0x00007d0000000000ull;   // + offset in the thread
inline constexpr std::uint64_t kConstWindow = 0x00007c0000000000ull;   // + offset in the bank
inline constexpr std::uint64_t kParamWindow = 0x00007b0000000000ull;   // + offset in the params
inline constexpr std::uint64_t kWindowSize = 0x0000010000000000ull;

// Which blocks to emulate: linear block indices first, first + stride, ... (count of them, clipped
// to the grid), x fastest. stride > 1 selects one SM's share of a round-robin distribution.
struct BlockRange {
  std::uint64_t first = 0;
  std::uint64_t count = ~std::uint64_t{0};  // clipped to the grid
  std::uint64_t stride = 1;
};

// The default per-block limit of RunOptions::maxBlockInstructions: 2^28 warp instructions.
inline constexpr std::uint64_t kDefaultMaxBlockInstructions = std::uint64_t{1} << 28;
// The default of RunOptions::maxTraceRecords: 2^26 records, 6 times what a sampled 4096^3 SGEMM
// prediction traces (bench/sgemm_4096 on an A100: 24 blocks of the simulated SM and 8 peer
// blocks, 354 k warp instructions each, 11.3 M). The timing engine keeps every record it is given
// (loop-iteration sampling shortens what it simulates, not what it stores), so the limit still
// bounds its memory: a worklog SGEMM block of 128x128 tiles is 3.3 M records, and the default
// 16 blocks plus 8 peers of a GPU with few SMs exceed it.
inline constexpr std::uint64_t kDefaultMaxTraceRecords = std::uint64_t{1} << 26;

// Thrown by run() when a traced run would deliver more than RunOptions::maxTraceRecords records: a
// caller that chose the blocks itself (teg predict's default sample) can trace fewer and retry.
class TraceLimitExceeded : public Error {
 public:
  using Error::Error;
};

struct RunOptions {
  // Stop with an error after this many warp instructions in total (0 = no limit).
  std::uint64_t maxInstructions = 0;
  // Stop with an error when one block executes more warp instructions than this (0 = no limit).
  // The default stops an endless kernel within seconds. It is about 100 times what one block of a
  // 4096^3 SGEMM executes (2-3 M), so real kernels stay far below it.
  std::uint64_t maxBlockInstructions = kDefaultMaxBlockInstructions;
  // Stop with an error when a run with a listener would deliver more trace records (warp
  // instructions) than this (0 = no limit): a listener keeps what it is given (the timing engine
  // about 12 bytes a record and more for memory requests), so an unbounded trace ends in an
  // out-of-memory failure instead of an error that says what to do.
  std::uint64_t maxTraceRecords = kDefaultMaxTraceRecords;
  // Emulate only these blocks (e.g. the first wave); all blocks when empty.
  std::optional<BlockRange> blocks;
  // Emulate exactly these blocks (linear indices, in this order) instead; takes precedence over
  // `blocks` when not empty. An index outside the grid is an error.
  std::vector<std::uint64_t> blockList;
  // Worker threads for blocks in parallel (TBB); 0 = all hardware threads, 1 = this thread only.
  unsigned threads = 1;
  // Receives the trace; may be null.
  trace::TraceListener* listener = nullptr;
  // Nesting limit of `call` (recursion); deeper is an error.
  std::uint32_t maxCallDepth = 64;
  // Receives each line a thread's printf prints (PTX path; formatted on the host, one call per
  // thread and printf). May be called from several worker threads at once. Null: printf prints
  // nothing (RunSummary::printfCalls still counts the calls).
  std::function<void(const std::string& text)> printfOutput;
};

// A buffer that a kernel read or wrote outside of, within the overrun slack
// (Emulator::setOverrunSlack, LaunchDescription::overrunSlackBytes).
struct BufferOverrun {
  std::string buffer;
  std::uint64_t accesses = 0;          // lane accesses that reached outside it
  std::uint64_t bytesPastEnd = 0;      // how far past its end the farthest one reached (0: none did)
  std::uint64_t bytesBeforeStart = 0;  // how far before its start (0: none did)
};

struct RunSummary {
  std::uint64_t blocksRun = 0;
  std::uint64_t warpInstructions = 0;    // executed warp instructions (guard-false ones included)
  std::uint64_t threadInstructions = 0;  // sum of active lanes over them (after the guard)
  bool partialGrid = false;              // only a subset of blocks was emulated
  std::uint64_t printfCalls = 0;         // threads' printf calls (RunOptions::printfOutput)
};

class Emulator {
 public:
  // Finds `launch.kernel` in the module (exact name, or the name a C++ mangled entry demangles
  // to, e.g. "saxpy" for "_Z5saxpyifPKfPf"), materialises every buffer argument into its own
  // allocation and packs the arguments into the kernel's parameters. Throws teg::Error when the
  // kernel is missing, the arguments do not match the parameters, or the launch is impossible.
  Emulator(const ptx::Module& module, const LaunchDescription& launch);

  // Lower level: no arguments yet; add them in parameter order with addBuffer/addScalar.
  Emulator(const ptx::Module& module, std::string_view kernel, Dim3 grid, Dim3 block,
           std::uint32_t dynamicSmemBytes = 0);

  ~Emulator();
  Emulator(Emulator&&) noexcept;
  Emulator& operator=(Emulator&&) noexcept;
  Emulator(const Emulator&) = delete;
  Emulator& operator=(const Emulator&) = delete;

  // Buffers added from now on get `bytes` of mapped slack before and after them (beyond their
  // margin): an access there completes instead of faulting and is reported by overruns().
  // GlobalMemory::setOverrunSlack says why a prediction wants this.
  void setOverrunSlack(std::uint64_t bytes);
  // The buffers accessed in their slack so far, in allocation order.
  [[nodiscard]] std::vector<BufferOverrun> overruns() const;

  // Appends a pointer parameter pointing to a new allocation holding `contents`; returns its
  // device address. `marginBytes` of zeros are mapped before and after it (BufferArg::marginBytes).
  std::uint64_t addBuffer(const std::string& name, std::span<const std::byte> contents, std::uint64_t marginBytes = 0);
  // A zero-filled buffer argument of `bytes` bytes (no host copy is made).
  std::uint64_t addZeroedBuffer(const std::string& name, std::uint64_t bytes, std::uint64_t marginBytes = 0);
  // Appends a by-value parameter (its bytes, little-endian, of the parameter's size).
  void addScalar(const std::string& name, std::span<const std::byte> bytes);
  // Appends a struct parameter: its buffer fields get allocations named "<name>.<field>", its
  // texture fields texture objects; the packed size must be the parameter's.
  void addStruct(const std::string& name, const StructArg& value);
  // Appends a texture-object parameter (cudaTextureObject_t, 64 bits): its texels get an
  // allocation named `name`. Returns the handle the kernel receives.
  std::uint64_t addTexture(const std::string& name, const TextureArg& texture);
  // Fills a module `__constant__` or `__device__` variable (by its name in the source or in the
  // PTX), as cudaMemcpyToSymbol would: the variable's declared size fixes the element count.
  // `where` prefixes error messages (e.g. "launch.json: symbols.coeffs").
  void setSymbol(const std::string& name, ScalarType type, const BufferInit& init, const std::string& where = "");
  // Fills a struct variable (`__constant__ Params c;`) with `fields` packed as a struct argument;
  // buffer fields get allocations named "<name>.<field>".
  void setSymbol(const std::string& name, const StructArg& fields, const std::string& where = "");

  // Runs the kernel's SASS instead of its PTX from now on: `sass` is the disassembly of the cubin
  // ptxas made from this module (toolchain::compileCuda's cubin, toolchain::disassembleCubin)
  // for sm_<smVersion> (75, 80, 86, 89, 90, 100, 120), and the kernel is its function whose name
  // is the PTX entry's (mangled) name, with the helper functions of its section for CALL.
  // Buffers, parameters, symbols, textures and RunOptions stay as they are; kernelInfo()
  // becomes sass::describeKernel's (pc = index in the kernel's code section). Throws teg::Error
  // when the SASS has no such kernel or the architecture is unknown; an instruction the SASS
  // emulator cannot run stops run() with an error naming it, its source line and the
  // architecture. `sass` must outlive the emulator. `cubin` (the ELF the SASS was disassembled
  // from) supplies the compiler's constant bank c[0x2] (".nv.constant2.<kernel>", used on
  // sm_75..sm_89 for constants ptxas folds out of the code); without it that bank reads zeros.
  void selectSass(const sass::Module& sass, int smVersion, std::string_view cubin = {});
  // The architecture selectSass chose (e.g. 86), 0 while the PTX runs.
  [[nodiscard]] int sassVersion() const;

  // Runs the kernel (all its blocks, or options.blocks). May be called again; memory keeps the
  // state the previous run left.
  RunSummary run(const RunOptions& options = {});

  // Contents of a buffer argument (by argument name) or of a module `.global` variable.
  [[nodiscard]] std::span<const std::byte> buffer(std::string_view name) const;
  [[nodiscard]] std::span<std::byte> mutableBuffer(std::string_view name);
  [[nodiscard]] std::uint64_t bufferAddress(std::string_view name) const;
  // Contents of a module `__constant__` or `__device__` variable, by its source or PTX name.
  [[nodiscard]] std::span<const std::byte> symbol(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> bufferNames() const;

  // The kernel's static description (one StaticInstruction per pc), as the listener receives it.
  [[nodiscard]] const trace::KernelInfo& kernelInfo() const;
  [[nodiscard]] const ptx::Function& kernel() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One message per instruction of `kernel`'s SASS (its mangled name, with the helper functions of
// its section) that the SASS emulator cannot run on sm_<smVersion>, naming the opcode, its source
// line and the architecture; empty when it runs them all (the check `--isa auto` makes before
// choosing SASS, analysis/isa_choice.hpp). Throws teg::Error when the SASS has no such kernel or
// the architecture is unknown, as selectSass does.
std::vector<std::string> sassUnsupportedInstructions(const sass::Module& sass, const std::string& kernel, int smVersion);

// The entry function named `name` (exact, or demangled from an Itanium `_Z` name); throws
// teg::Error listing the module's entries when there is none.
const ptx::Function& findKernel(const ptx::Module& module, std::string_view name);

// The unqualified function name of an Itanium-mangled symbol ("_Z5saxpyifPKfPf" -> "saxpy",
// "_ZN2ns3fooEv" -> "ns::foo"); the input unchanged when it is not mangled.
std::string demangledBaseName(std::string_view symbol);

// The static description of one function as the timing engine sees it (kinds, unit classes,
// spaces, access sizes, defs/uses, source lines, text).
trace::KernelInfo describeKernel(const ptx::Module& module, const ptx::Function& function);

}  // namespace teg::emu
