#include "teg/emu/emulator.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>

#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "block_runner.hpp"
#include "global_memory.hpp"
#include "program.hpp"
#include "teg/support/error.hpp"

namespace teg::emu {

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
  for (const LaunchArg& arg : launch.args) {
    if (const auto* b = std::get_if<BufferArg>(&arg.value)) {
      if (std::holds_alternative<ZerosInit>(b->init)) {
        // Zeros need no host copy: the allocation starts zeroed (and untouched pages stay unmapped).
        addZeroedBuffer(arg.name, b->count * static_cast<std::uint64_t>(scalarTypeSize(b->type)));
        continue;
      }
      const std::vector<std::byte> bytes = materializeBuffer(b->type, b->count, b->init, arg.name);
      addBuffer(arg.name, bytes);
    } else {
      addScalar(arg.name, scalarBytes(std::get<ScalarArg>(arg.value)));
    }
  }
  const auto& params = impl_->kernelFunction().params;
  if (launch.args.size() != params.size())
    throw Error(fmt::format("{}kernel '{}' takes {} parameters but the launch gives {} arguments",
                            launch.file.empty() ? "" : launch.file + ": ", demangledBaseName(impl_->kernelFunction().name),
                            params.size(), launch.args.size()));
}

Emulator::Emulator(const ptx::Module& module, std::string_view kernel, Dim3 grid, Dim3 block,
                   std::uint32_t dynamicSmemBytes)
    : impl_(std::make_unique<Impl>()) {
  impl_->setUp(module, kernel, grid, block, dynamicSmemBytes);
}

Emulator::~Emulator() = default;
Emulator::Emulator(Emulator&&) noexcept = default;
Emulator& Emulator::operator=(Emulator&&) noexcept = default;

std::uint64_t Emulator::addBuffer(const std::string& name, std::span<const std::byte> contents) {
  const std::uint64_t address = addZeroedBuffer(name, contents.size());
  Allocation* a = impl_->global.byName(name);
  if (!contents.empty()) std::memcpy(a->data.data(), contents.data(), contents.size());
  return address;
}

std::uint64_t Emulator::addZeroedBuffer(const std::string& name, std::uint64_t bytes) {
  const ptx::Variable& p = impl_->nextParam(name);
  if (p.sizeBytes() != 8)
    throw Error(fmt::format("argument '{}' is a buffer (a 64-bit pointer) but parameter {} ('{}') has {} bytes", name,
                            impl_->argNames.size(), p.name, p.sizeBytes()));
  const std::uint64_t address = impl_->global.allocate(name, bytes);
  const std::uint32_t offset = impl_->program.layout.kernelParamOffsets[impl_->argNames.size()];
  std::memcpy(impl_->params.data() + offset, &address, 8);
  impl_->argNames.push_back(name);
  impl_->buffers.emplace_back(name, address);
  return address;
}

void Emulator::addScalar(const std::string& name, std::span<const std::byte> bytes) {
  const ptx::Variable& p = impl_->nextParam(name);
  if (bytes.size() != p.sizeBytes())
    throw Error(fmt::format("argument '{}' has {} bytes but parameter {} ('{}') has {} bytes", name, bytes.size(),
                            impl_->argNames.size(), p.name, p.sizeBytes()));
  const std::uint32_t offset = impl_->program.layout.kernelParamOffsets[impl_->argNames.size()];
  std::memcpy(impl_->params.data() + offset, bytes.data(), bytes.size());
  impl_->argNames.push_back(name);
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
  ctx.instructionBudgetUsed = &used;
  ctx.sourceFiles = &im.info.sourceFiles;

  RunSummary summary;
  summary.blocksRun = selected;
  summary.partialGrid = selected != totalBlocks;
  trace::TraceListener* listener = options.listener;
  if (listener) listener->beginKernel(im.info);

  unsigned threads = options.threads == 0 ? static_cast<unsigned>(tbb::this_task_arena::max_concurrency())
                                          : options.threads;
  if (threads <= 1 || selected <= 1) {
    BlockRunner runner(ctx);
    for (std::uint64_t i = 0; i < selected; ++i) runner.run(blockAt(i), listener, nullptr);
    summary.warpInstructions = runner.warpInstructions;
    summary.threadInstructions = runner.threadInstructions;
  } else {
    // Blocks in parallel, in batches; with a listener each block's events are buffered and
    // delivered in block order after its batch, so the listener sees the same sequence as with
    // one thread.
    tbb::task_arena arena(static_cast<int>(threads));
    tbb::enumerable_thread_specific<std::optional<BlockRunner>> runners;
    const std::uint64_t batch = listener ? std::uint64_t{threads} * 4 : std::uint64_t{threads} * 64;
    std::vector<BlockEvents> events(listener ? batch : 0);
    // Indices i into the selection; the block is blockAt(i).
    for (std::uint64_t start = 0; start < selected; start += batch) {
      const std::uint64_t end = std::min(selected, start + batch);
      std::mutex errorMutex;
      std::optional<std::pair<std::uint64_t, std::string>> error;
      for (auto& e : events) e.records.clear();
      arena.execute([&] {
        tbb::parallel_for(start, end, [&](std::uint64_t i) {
          auto& slot = runners.local();
          if (!slot) slot.emplace(ctx);
          try {
            slot->run(blockAt(i), nullptr, listener ? &events[i - start] : nullptr);
          } catch (const std::exception& ex) {
            std::lock_guard lock(errorMutex);
            if (!error || i < error->first) error = std::make_pair(i, std::string(ex.what()));
          }
        });
      });
      if (listener) {
        const std::uint64_t upTo = error ? error->first : end;
        for (std::uint64_t i = start; i < upTo; ++i) {
          listener->beginBlock(static_cast<std::uint32_t>(blockAt(i)));
          for (const auto& r : events[i - start].records) listener->instruction(r);
          listener->endBlock(static_cast<std::uint32_t>(blockAt(i)));
        }
      }
      if (error) throw Error(error->second);
    }
    for (auto& slot : runners)
      if (slot) {
        summary.warpInstructions += slot->warpInstructions;
        summary.threadInstructions += slot->threadInstructions;
      }
  }
  if (listener) listener->endKernel();
  return summary;
}

std::span<const std::byte> Emulator::buffer(std::string_view name) const {
  const Allocation* a = impl_->global.byName(std::string(name));
  if (!a) throw Error(fmt::format("no buffer named '{}'", name));
  return a->data;
}

std::span<std::byte> Emulator::mutableBuffer(std::string_view name) {
  Allocation* a = impl_->global.byName(std::string(name));
  if (!a) throw Error(fmt::format("no buffer named '{}'", name));
  return a->data;
}

std::uint64_t Emulator::bufferAddress(std::string_view name) const {
  const Allocation* a = impl_->global.byName(std::string(name));
  if (!a) throw Error(fmt::format("no buffer named '{}'", name));
  return a->base;
}

std::vector<std::string> Emulator::bufferNames() const {
  std::vector<std::string> names;
  for (const auto& [n, a] : impl_->buffers) names.push_back(n);
  return names;
}

const trace::KernelInfo& Emulator::kernelInfo() const { return impl_->info; }
const ptx::Function& Emulator::kernel() const { return impl_->kernelFunction(); }

}  // namespace teg::emu
