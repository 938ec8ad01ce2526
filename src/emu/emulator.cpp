#include "teg/emu/emulator.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "block_runner.hpp"
#include "global_memory.hpp"
#include "program.hpp"
#include "sass_block_runner.hpp"
#include "sass_program.hpp"
#include "teg/sass/cubin.hpp"
#include "teg/sass/describe.hpp"
#include "struct_packing.hpp"
#include "symbol_init.hpp"
#include "teg/support/error.hpp"
#include "texture_binding.hpp"

namespace teg::emu {

namespace {
// printf runs on the PTX path only (the SASS runner has no counter).
template <class Runner>
std::uint64_t printfCallsOf(const Runner& runner) {
  if constexpr (requires { runner.printfCalls; }) return runner.printfCalls;
  else return 0;
}
}  // namespace

struct Emulator::Impl {
  const ptx::Module* module = nullptr;
  std::uint32_t kernelIndex = 0;
  Dim3 grid, block;
  std::uint32_t dynamicSmem = 0;
  GlobalMemory global;
  Program program;
  trace::KernelInfo info;
  std::vector<std::byte> params;
  std::vector<std::string> argNames;
  std::vector<std::pair<std::string, std::uint64_t>> buffers;  // name -> address
  std::vector<TextureBinding> textures;                        // handle h -> textures[h - 1]
  // selectSass: the SASS program and its static description.
  std::unique_ptr<SassProgram> sass;
  trace::KernelInfo sassInfo;
  std::vector<std::byte> compilerConstants;  // the cubin's .nv.constant2.<kernel>: bank 2
  // Bank 4: the cubin's .nv.constant4 with the addresses of the module's __device__ variables
  // written in where its relocations say (the driver's job when it loads the module).
  std::vector<std::byte> driverConstants;

  const ptx::Function& kernelFunction() const { return module->functions[kernelIndex]; }

  void setUp(const ptx::Module& m, std::string_view kernelName, Dim3 g, Dim3 b, std::uint32_t dyn) {
    module = &m;
    const ptx::Function& k = findKernel(m, kernelName);
    kernelIndex = static_cast<std::uint32_t>(&k - m.functions.data());
    grid = g;
    block = b;
    dynamicSmem = dyn;
    // Launch rules (CUDA C++ Programming Guide, Table 21 "Technical Specifications").
    const std::string name = demangledBaseName(k.name);
    if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
      throw Error(fmt::format("launch of '{}': grid and block dimensions must be at least 1", name));
    if (b.count() > 1024)
      throw Error(fmt::format("launch of '{}': {} threads per block exceed the limit of 1024", name, b.count()));
    if (b.z > 64) throw Error(fmt::format("launch of '{}': block z = {} exceeds 64", name, b.z));
    if (g.y > 65535 || g.z > 65535)
      throw Error(fmt::format("launch of '{}': grid y and z are limited to 65535", name));
    if (g.x > 2147483647u)
      throw Error(fmt::format("launch of '{}': grid x = {} exceeds 2^31-1", name, g.x));
    // Blocks are numbered with 32 bits in traces and reports (trace::TraceListener::beginBlock):
    // a larger grid would wrap those numbers (and could not be emulated in any useful time).
    if (g.count() > 0xffffffffull)
      throw Error(fmt::format("launch of '{}': a grid of {} x {} x {} = {} blocks is more than teg numbers (2^32-1)",
                              name, g.x, g.y, g.z, g.count()));
    // Module .global variables get their own allocations.
    std::vector<std::uint64_t> addresses(m.globals.size(), 0);
    for (std::size_t i = 0; i < m.globals.size(); ++i) {
      const ptx::Variable& v = m.globals[i];
      if (v.space != ptx::StateSpace::Global) continue;
      addresses[i] = global.allocate(v.name, std::max<std::uint64_t>(v.sizeBytes(), 1));
      buffers.emplace_back(v.name, addresses[i]);
    }
    program = buildProgram(m, kernelIndex, addresses);
    for (const auto& [index, bytes] : program.layout.globalInits) {
      Allocation* a = global.byName(m.globals[index].name);
      std::memcpy(a->data.data(), bytes.data(), std::min<std::size_t>(bytes.size(), a->data.size()));
    }
    params.assign(program.layout.kernelParamBytes, std::byte{0});
    info = describeKernel(m, k);
    info.grid = g;
    info.block = b;
    info.sharedBytesPerBlock = program.layout.sharedBytes + dyn;
    if (dyn > 0 && program.layout.dynamicSharedOffset + dyn > info.sharedBytesPerBlock)
      info.sharedBytesPerBlock = program.layout.dynamicSharedOffset + dyn;
  }

  // Constant banks for the SASS: bank 0 holds the launch (blockDim, gridDim, the stack pointer,
  // the parameters) where data/toolchain/sass_constant_bank.json says, bank 3 the module's
  // __constant__ variables in the PTX layout's order (ptxas places them in declaration order with
  // natural alignment, as the PTX emulator does). Built per run: symbols may have changed.
  std::vector<std::vector<std::uint32_t>> bankStorage;
  std::vector<const std::uint32_t*> sassBanks() {
    const SassConstantBankLayout& L = sass->layout;
    bankStorage.assign(kSassBanks, {});
    for (auto& b : bankStorage) b.assign(kSassBankWords, 0);
    auto put = [&](std::uint32_t bank, std::uint32_t offset, const void* bytes, std::size_t n) {
      if (offset + n > kSassBankBytes)
        throw Error(fmt::format("{} bytes at c[0x{:x}][0x{:x}] do not fit the 64 KiB constant bank", n, bank, offset));
      std::memcpy(reinterpret_cast<std::byte*>(bankStorage[bank].data()) + offset, bytes, n);
    };
    const std::uint32_t dims[6] = {block.x, block.y, block.z, grid.x, grid.y, grid.z};
    put(0, L.blockDim, dims, 12);
    put(0, L.gridDim, dims + 3, 12);
    const std::uint32_t stack = std::max<std::uint32_t>(16, sass->localBytesPerThread);
    put(0, L.stackPointer, &stack, 4);
    if (!params.empty()) put(0, L.params, params.data(), params.size());
    if (!compilerConstants.empty()) put(2, 0, compilerConstants.data(), compilerConstants.size());
    if (!driverConstants.empty()) put(4, 0, driverConstants.data(), driverConstants.size());
    const std::vector<std::byte>& constants = program.layout.constBank;
    if (!constants.empty()) put(3, 0, constants.data(), constants.size());
    std::vector<const std::uint32_t*> out;
    for (const auto& b : bankStorage) out.push_back(b.data());
    return out;
  }
  // The block's shared window as the SASS addresses it: the reserved bytes, then the static
  // shared variables (the PTX layout's size, 16-byte aligned), then the dynamic ones.
  std::uint32_t sassSharedBytes() const {
    const ModuleLayout& L = program.layout;
    std::uint32_t bytes = alignUp(std::max(L.sharedBytes, L.dynamicSharedOffset), 16) + dynamicSmem;
    return sass->layout.sharedReserved + std::max<std::uint32_t>(bytes, 16);
  }

  // A buffer that is not a parameter of its own (a struct's field): its allocation and address.
  std::uint64_t allocateBuffer(const std::string& name, const BufferArg& b) {
    const std::uint64_t bytes = b.count * static_cast<std::uint64_t>(scalarTypeSize(b.type));
    const std::uint64_t address = global.allocate(name, bytes, b.marginBytes);
    if (!std::holds_alternative<ZerosInit>(b.init)) {
      const std::vector<std::byte> contents = materializeBuffer(b.type, b.count, b.init, name);
      std::memcpy(global.byName(name)->user().data(), contents.data(), contents.size());
    }
    buffers.emplace_back(name, address);
    return address;
  }

  // Uploads a texture's texels and returns its handle. Its fetches are traced as loads of one
  // texel per lane, so the tex instructions' access size becomes the widest texel bound.
  std::uint64_t createTexture(const std::string& name, const TextureArg& t) {
    TextureBinding binding;
    binding.name = name;
    binding.texture = t;
    binding.texture.init = ZerosInit{};
    BufferArg texels;
    texels.type = t.type;
    texels.count = t.elementCount();
    texels.init = t.init;
    binding.base = allocateBuffer(name, texels);
    textures.push_back(std::move(binding));
    std::uint32_t widest = 0;
    for (const TextureBinding& tb : textures) widest = std::max(widest, tb.texture.texelBytes());
    for (trace::StaticInstruction& s : info.instructions)
      if (s.kind == trace::InstrKind::Load && s.space == trace::MemorySpace::Texture)
        s.accessBytes = static_cast<std::uint8_t>(widest);
    return textures.size();
  }

  // A struct's bytes; its buffer and texture fields get allocations named "<name>.<field>".
  PackedStruct pack(const std::string& name, const StructArg& value) {
    return packStruct(value, name, [&](const std::string& path, const LaunchArg& field) {
      if (const auto* b = std::get_if<BufferArg>(&field.value)) return allocateBuffer(path, *b);
      return createTexture(path, std::get<TextureArg>(field.value));
    });
  }

  // Appends parameter bytes for argument `argName`, checked against the parameter's size.
  void appendParam(const std::string& argName, std::span<const std::byte> bytes, const std::string& what) {
    const ptx::Variable& p = nextParam(argName);
    if (bytes.size() != p.sizeBytes())
      throw Error(fmt::format("argument '{}' has {} bytes{} but parameter {} ('{}') has {} bytes", argName, bytes.size(),
                              what, argNames.size(), p.name, p.sizeBytes()));
    const std::uint32_t offset = program.layout.kernelParamOffsets[argNames.size()];
    std::memcpy(params.data() + offset, bytes.data(), bytes.size());
    argNames.push_back(argName);
  }

  const ptx::Variable& nextParam(const std::string& argName) {
    const ptx::Function& k = kernelFunction();
    if (argNames.size() >= k.params.size())
      throw Error(fmt::format("argument '{}' is one too many: kernel '{}' takes {} parameters", argName,
                              demangledBaseName(k.name), k.params.size()));
    return k.params[argNames.size()];
  }
};

Emulator::Emulator(const ptx::Module& module, const LaunchDescription& launch) : impl_(std::make_unique<Impl>()) {
  impl_->setUp(module, launch.kernel, launch.grid, launch.block, launch.dynamicSmem);
  setOverrunSlack(launch.overrunSlackBytes);
  for (const LaunchArg& arg : launch.args) {
    if (const auto* b = std::get_if<BufferArg>(&arg.value)) {
      if (const auto* cycle = std::get_if<PointerCycleInit>(&b->init)) {
        if (b->type != ScalarType::U64 && b->type != ScalarType::I64)
          throw Error(fmt::format("argument '{}': a pointer_cycle needs a u64 or i64 buffer (it holds addresses)", arg.name));
        const std::uint64_t bytes = b->count * 8;
        const std::uint64_t address = addZeroedBuffer(arg.name, bytes, b->marginBytes);
        const std::vector<std::byte> contents = pointerCycle(bytes, address, *cycle);
        std::memcpy(impl_->global.byName(arg.name)->user().data(), contents.data(), contents.size());
        continue;
      }
      if (std::holds_alternative<ZerosInit>(b->init)) {
        // Zeros need no host copy: the allocation starts zeroed (and untouched pages stay unmapped).
        addZeroedBuffer(arg.name, b->count * static_cast<std::uint64_t>(scalarTypeSize(b->type)), b->marginBytes);
        continue;
      }
      const std::vector<std::byte> bytes = materializeBuffer(b->type, b->count, b->init, arg.name);
      addBuffer(arg.name, bytes, b->marginBytes);
    } else if (const auto* s = std::get_if<StructArg>(&arg.value)) {
      addStruct(arg.name, *s);
    } else if (const auto* t = std::get_if<TextureArg>(&arg.value)) {
      addTexture(arg.name, *t);
    } else {
      addScalar(arg.name, scalarBytes(std::get<ScalarArg>(arg.value)));
    }
  }
  const auto& params = impl_->kernelFunction().params;
  if (launch.args.size() != params.size())
    throw Error(fmt::format("{}kernel '{}' takes {} parameters but the launch gives {} arguments",
                            launch.file.empty() ? "" : launch.file + ": ", demangledBaseName(impl_->kernelFunction().name),
                            params.size(), launch.args.size()));
  for (const SymbolInit& symbol : launch.symbols) {
    const std::string where = fmt::format("{}symbols.{}", launch.file.empty() ? "" : launch.file + ": ", symbol.name);
    if (symbol.fields) setSymbol(symbol.name, *symbol.fields, where);
    else setSymbol(symbol.name, symbol.type, symbol.init, where);
  }
}

Emulator::Emulator(const ptx::Module& module, std::string_view kernel, Dim3 grid, Dim3 block,
                   std::uint32_t dynamicSmemBytes)
    : impl_(std::make_unique<Impl>()) {
  impl_->setUp(module, kernel, grid, block, dynamicSmemBytes);
}

Emulator::~Emulator() = default;
Emulator::Emulator(Emulator&&) noexcept = default;
Emulator& Emulator::operator=(Emulator&&) noexcept = default;

std::uint64_t Emulator::addBuffer(const std::string& name, std::span<const std::byte> contents,
                                  std::uint64_t marginBytes) {
  const std::uint64_t address = addZeroedBuffer(name, contents.size(), marginBytes);
  Allocation* a = impl_->global.byName(name);
  if (!contents.empty()) std::memcpy(a->user().data(), contents.data(), contents.size());
  return address;
}

std::uint64_t Emulator::addZeroedBuffer(const std::string& name, std::uint64_t bytes, std::uint64_t marginBytes) {
  const ptx::Variable& p = impl_->nextParam(name);
  if (p.sizeBytes() != 8)
    throw Error(fmt::format("argument '{}' is a buffer (a 64-bit pointer) but parameter {} ('{}') has {} bytes", name,
                            impl_->argNames.size(), p.name, p.sizeBytes()));
  const std::uint64_t address = impl_->global.allocate(name, bytes, marginBytes);
  const std::uint32_t offset = impl_->program.layout.kernelParamOffsets[impl_->argNames.size()];
  std::memcpy(impl_->params.data() + offset, &address, 8);
  impl_->argNames.push_back(name);
  impl_->buffers.emplace_back(name, address);
  return address;
}

void Emulator::addScalar(const std::string& name, std::span<const std::byte> bytes) {
  impl_->appendParam(name, bytes, "");
}

void Emulator::addStruct(const std::string& name, const StructArg& value) {
  (void)impl_->nextParam(name);  // a missing parameter is reported before any allocation
  const PackedStruct packed = impl_->pack(name, value);
  impl_->appendParam(name, packed.bytes, fmt::format(" as a struct ({})", packed.layout));
}

std::uint64_t Emulator::addTexture(const std::string& name, const TextureArg& texture) {
  const ptx::Variable& p = impl_->nextParam(name);
  if (p.sizeBytes() != 8)
    throw Error(fmt::format("argument '{}' is a texture object (64 bits) but parameter {} ('{}') has {} bytes", name,
                            impl_->argNames.size(), p.name, p.sizeBytes()));
  const std::uint64_t handle = impl_->createTexture(name, texture);
  std::byte bytes[8];
  std::memcpy(bytes, &handle, 8);
  impl_->appendParam(name, bytes, "");
  return handle;
}

void Emulator::setSymbol(const std::string& name, ScalarType type, const BufferInit& init, const std::string& where) {
  fillSymbol(*impl_->module, impl_->program.layout, impl_->global, name, type, init,
             where.empty() ? fmt::format("symbol '{}'", name) : where);
}

void Emulator::setSymbol(const std::string& name, const StructArg& fields, const std::string& where) {
  const PackedStruct packed = impl_->pack(name, fields);
  fillSymbolBytes(*impl_->module, impl_->program.layout, impl_->global, name, packed.bytes,
                  fmt::format("a struct: {}", packed.layout), where.empty() ? fmt::format("symbol '{}'", name) : where);
}

RunSummary Emulator::run(const RunOptions& options) {
  Impl& im = *impl_;
  const auto& kparams = im.kernelFunction().params;
  if (im.argNames.size() != kparams.size())
    throw Error(fmt::format("kernel '{}' takes {} parameters but {} arguments were given",
                            demangledBaseName(im.kernelFunction().name), kparams.size(), im.argNames.size()));
  const std::uint64_t totalBlocks = im.grid.count();
  // The selected blocks are first + i·stride for i in [0, selected).
  std::uint64_t first = 0, stride = 1, selected = totalBlocks;
  if (options.blocks) {
    first = std::min(options.blocks->first, totalBlocks);
    stride = std::max<std::uint64_t>(1, options.blocks->stride);
    const std::uint64_t available = (totalBlocks - first + stride - 1) / stride;
    selected = std::min(options.blocks->count, available);
  }
  if (!options.blockList.empty()) {
    for (const std::uint64_t b : options.blockList)
      if (b >= totalBlocks)
        throw Error(fmt::format("block {} is not in the grid of {} blocks", b, totalBlocks));
    selected = options.blockList.size();
  }
  auto blockAt = [&](std::uint64_t i) { return options.blockList.empty() ? first + i * stride : options.blockList[i]; };
  std::uint64_t used = 0;
  LaunchContext ctx;
  ctx.program = &im.program;
  ctx.global = &im.global;
  ctx.kernelParams = &im.params;
  ctx.grid = im.grid;
  ctx.block = im.block;
  ctx.dynamicSmem = im.dynamicSmem;
  ctx.maxCallDepth = options.maxCallDepth;
  ctx.maxInstructions = options.maxInstructions;
  ctx.maxBlockInstructions = options.maxBlockInstructions;
  ctx.maxTraceRecords = options.maxTraceRecords;
  ctx.instructionBudgetUsed = &used;
  ctx.sourceFiles = &im.info.sourceFiles;
  ctx.printfOutput = &options.printfOutput;
  ctx.textures = &im.textures;

  RunSummary summary;
  summary.blocksRun = selected;
  summary.partialGrid = selected != totalBlocks;
  trace::TraceListener* listener = options.listener;
  if (listener) listener->beginKernel(im.sass ? im.sassInfo : im.info);

  // The blocks of the selection, in order on this thread or in parallel batches (TBB); with a
  // listener each block's events are delivered in block order.
  auto runAll = [&]<class Runner, class Context>(const Context& context) {
    unsigned threads = options.threads == 0 ? static_cast<unsigned>(tbb::this_task_arena::max_concurrency())
                                            : options.threads;
    if (threads <= 1 || selected <= 1) {
      Runner runner(context);
      for (std::uint64_t i = 0; i < selected; ++i) runner.run(blockAt(i), listener, nullptr);
      summary.warpInstructions = runner.warpInstructions;
      summary.printfCalls = printfCallsOf(runner);
      summary.threadInstructions = runner.threadInstructions;
    } else {
      // Blocks in parallel, in batches; with a listener each block's events are buffered and
      // delivered in block order after its batch, so the listener sees the same sequence as with
      // one thread.
      tbb::task_arena arena(static_cast<int>(threads));
      tbb::enumerable_thread_specific<std::optional<Runner>> runners;
      const std::uint64_t batch = listener ? std::uint64_t{threads} * 4 : std::uint64_t{threads} * 64;
      std::vector<BlockEvents> events(listener ? batch : 0);
      // Indices i into the selection; the block is blockAt(i).
      for (std::uint64_t start = 0; start < selected; start += batch) {
        const std::uint64_t end = std::min(selected, start + batch);
        std::mutex errorMutex;
        // The first failing block's exception as thrown (its type tells a caller what happened).
        std::optional<std::pair<std::uint64_t, std::exception_ptr>> error;
        for (auto& e : events) e.clear();
        arena.execute([&] {
          tbb::parallel_for(start, end, [&](std::uint64_t i) {
            auto& slot = runners.local();
            if (!slot) slot.emplace(context);
            try {
              slot->run(blockAt(i), nullptr, listener ? &events[i - start] : nullptr);
            } catch (const std::exception&) {
              std::lock_guard lock(errorMutex);
              if (!error || i < error->first) error = std::make_pair(i, std::current_exception());
            }
          });
        });
        if (listener) {
          const std::uint64_t upTo = error ? error->first : end;
          for (std::uint64_t i = start; i < upTo; ++i) {
            listener->beginBlock(static_cast<std::uint32_t>(blockAt(i)));
            events[i - start].deliver(static_cast<std::uint32_t>(blockAt(i)), *listener);
            listener->endBlock(static_cast<std::uint32_t>(blockAt(i)));
          }
        }
        if (error) std::rethrow_exception(error->second);
      }
      for (auto& slot : runners)
        if (slot) {
          summary.warpInstructions += slot->warpInstructions;
          summary.printfCalls += printfCallsOf(*slot);
          summary.threadInstructions += slot->threadInstructions;
        }
    }
  };
  if (im.sass) {
    SassLaunchContext sctx;
    sctx.program = im.sass.get();
    sctx.global = &im.global;
    const std::vector<const std::uint32_t*> banks = im.sassBanks();
    sctx.banks = banks.data();
    sctx.grid = im.grid;
    sctx.block = im.block;
    sctx.sharedBytes = im.sassSharedBytes();
    sctx.dynamicSmem = im.dynamicSmem;
    sctx.maxCallDepth = options.maxCallDepth;
    sctx.maxInstructions = options.maxInstructions;
    sctx.maxBlockInstructions = options.maxBlockInstructions;
    sctx.maxTraceRecords = options.maxTraceRecords;
    sctx.instructionBudgetUsed = &used;
    runAll.template operator()<SassBlockRunner>(sctx);
  } else {
    runAll.template operator()<BlockRunner>(ctx);
  }
  if (listener) listener->endKernel();
  return summary;
}

std::span<const std::byte> Emulator::buffer(std::string_view name) const {
  const Allocation* a = impl_->global.byName(std::string(name));
  if (!a) throw Error(fmt::format("no buffer named '{}'", name));
  return a->user();
}

std::span<std::byte> Emulator::mutableBuffer(std::string_view name) {
  Allocation* a = impl_->global.byName(std::string(name));
  if (!a) throw Error(fmt::format("no buffer named '{}'", name));
  return a->user();
}

void Emulator::setOverrunSlack(std::uint64_t bytes) { impl_->global.setOverrunSlack(bytes); }

std::vector<BufferOverrun> Emulator::overruns() const {
  std::vector<BufferOverrun> out;
  for (const Allocation& a : impl_->global.allocations()) {
    if (!a.overruns || a.overruns->accesses.load() == 0) continue;
    out.push_back({a.name, a.overruns->accesses.load(), a.overruns->bytesPastEnd.load(), a.overruns->bytesBeforeStart.load()});
  }
  return out;
}

std::uint64_t Emulator::bufferAddress(std::string_view name) const {
  const Allocation* a = impl_->global.byName(std::string(name));
  if (!a) throw Error(fmt::format("no buffer named '{}'", name));
  return a->userBase();
}

std::span<const std::byte> Emulator::symbol(const std::string& name) const {
  return symbolBytes(*impl_->module, impl_->program.layout, impl_->global, name, fmt::format("symbol '{}'", name));
}

std::vector<std::string> Emulator::bufferNames() const {
  std::vector<std::string> names;
  for (const auto& [n, a] : impl_->buffers) names.push_back(n);
  return names;
}

namespace {

// The cubin's constant bank 4 as the driver fills it: each R_CUDA_64 relocation of .nv.constant4
// gets the address the emulator gave the __device__ variable it names (plus the addend, REL's
// being the 64-bit value already there). Each global variable has its own allocation
// (GlobalMemory), so the SASS's `atomicInc(&counter, ...)` reaches the PTX path's bytes.
std::vector<std::byte> relocatedDeviceAddresses(std::string_view cubin, const GlobalMemory& global,
                                                const std::string& kernel) {
  std::vector<std::byte> bank = sass::cubinSection(cubin, ".nv.constant4");
  if (bank.size() > kSassBankBytes)
    throw Error(fmt::format("SASS of '{}': its constant bank 4 has {} bytes, more than 64 KiB", kernel, bank.size()));
  for (const sass::CubinRelocation& r : sass::cubinRelocations(cubin, ".nv.constant4")) {
    // Functions the SASS calls through the bank (CALL.ABS of vprintf, __assertfail) have no
    // allocation: their slots stay as they are (the SASS emulator does not make those calls; a
    // kernel that does stops there with an error naming the instruction).
    const Allocation* a = global.byName(r.symbol);
    if (!a) continue;
    constexpr std::uint32_t kRCuda64 = 2;
    if (r.type != kRCuda64 || r.offset > bank.size() || bank.size() - r.offset < 8)
      throw Error(fmt::format("SASS of '{}': relocation type {} at .nv.constant4+0x{:x} ({}) is not modelled", kernel,
                              r.type, r.offset, r.symbol));
    std::int64_t addend = r.addend;
    if (!r.explicitAddend) std::memcpy(&addend, bank.data() + r.offset, 8);
    const std::uint64_t address = a->userBase() + static_cast<std::uint64_t>(addend);
    std::memcpy(bank.data() + r.offset, &address, 8);
  }
  return bank;
}

}  // namespace

void Emulator::selectSass(const sass::Module& sassModule, int smVersion, std::string_view cubin) {
  Impl& im = *impl_;
  const std::string& name = im.kernelFunction().name;
  im.compilerConstants.clear();
  if (!cubin.empty()) im.compilerConstants = sass::cubinSection(cubin, ".nv.constant2." + name);
  if (im.compilerConstants.size() > kSassBankBytes)
    throw Error(fmt::format("SASS of '{}': its constant bank 2 has {} bytes, more than 64 KiB", name,
                            im.compilerConstants.size()));
  im.driverConstants.clear();
  if (!cubin.empty()) im.driverConstants = relocatedDeviceAddresses(cubin, im.global, name);
  auto program = std::make_unique<SassProgram>(buildSassProgram(sassModule, name, smVersion));
  for (const SassProgram::SymbolAddress& ref : program->symbolAddresses) {
    const Allocation* a = im.global.byName(ref.symbol);
    if (!a)
      throw Error(fmt::format("SASS of '{}': {} takes the address of '{}', which is no __device__ variable of the module",
                              name, program->describe(program->instrs[ref.pc]), ref.symbol));
    Opnd& o = program->instrs[ref.pc].op[ref.operand];
    const std::uint64_t address = a->userBase();
    o.imm = static_cast<std::uint32_t>(ref.high ? address >> 32 : address);
    o.imm64 = static_cast<std::int64_t>(o.imm);
  }
  const sass::Function* entry = sassModule.findFunction(name);
  trace::KernelInfo info = sass::describeKernel(sassModule, *entry);
  info.grid = im.grid;
  info.block = im.block;
  info.sharedBytesPerBlock = im.info.sharedBytesPerBlock;
  if (program->instrs.size() != info.instructions.size())
    throw Error(fmt::format("SASS of '{}': the emulator laid out {} instructions, describeKernel {}", name,
                            program->instrs.size(), info.instructions.size()));
  im.sass = std::move(program);
  im.sassInfo = std::move(info);
}

std::vector<std::string> sassUnsupportedInstructions(const sass::Module& sass, const std::string& kernel, int smVersion) {
  return buildSassProgram(sass, kernel, smVersion).errors;
}

int Emulator::sassVersion() const { return impl_->sass ? impl_->sass->smVersion : 0; }

const trace::KernelInfo& Emulator::kernelInfo() const { return impl_->sass ? impl_->sassInfo : impl_->info; }
const ptx::Function& Emulator::kernel() const { return impl_->kernelFunction(); }

}  // namespace teg::emu
