// teg run --launch F [--gpu NAME] [--json] [--check] [--dump NAME=PATH]... [--blocks SPEC]
//         [--max-instructions N] [--threads N] [--trace-out FILE]
// Compiles the launch's .cu (or reads its .ptx), runs the kernel on the functional emulator and
// prints what every warp did: instruction mix, SIMD efficiency and divergence, global coalescing,
// shared-memory bank conflicts, per kernel and per source line. --check compares the buffers that
// have expected values; --dump writes buffers out; --trace-out saves the warp trace for replay.
#include <fmt/format.h>

#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "teg/analysis/block_progress.hpp"
#include "compile_flags.hpp"
#include "emulator_limits.hpp"
#include "teg/analysis/kernel_source.hpp"
#include "run_support.hpp"
#include "teg/emu/emulator.hpp"
#include "teg/emu/launch.hpp"
#include "teg/emu/statistics.hpp"
#include "teg/occupancy/occupancy.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"
#include "teg/support/progress.hpp"
#include "teg/analysis/isa_choice.hpp"
#include "isa_option.hpp"
#include "teg/support/kernel_name.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/trace/trace_file.hpp"

namespace teg::cli {

namespace {

struct RunArgs {
  std::string launch;
  std::string gpu = "sm_80";
  bool json = false;
  bool check = false;
  std::vector<std::string> dumps;
  std::string blocks;
  EmulatorLimits limits;
  unsigned threads = 1;
  std::string traceOut;
  toolchain::CompileOptions compile;  // -I, -D, --nvcc-arg, --no-cache
  std::string isa = "auto";           // --isa (isa_option.hpp)
};

using Program = analysis::KernelSource;

// The launch's resources per block as the occupancy calculator takes them.
occupancy::Launch occupancyLaunch(const Program& program, const emu::LaunchDescription& launch,
                                  const trace::KernelInfo& info) {
  occupancy::Launch l;
  l.threadsPerBlock = static_cast<long long>(launch.block.count());
  l.registersPerThread = program.resources ? program.resources->registers : info.registersPerThread;
  l.staticSharedBytes = program.resources ? program.resources->staticSharedBytes
                                          : static_cast<long long>(info.sharedBytesPerBlock) - launch.dynamicSmem;
  l.dynamicSharedBytes = launch.dynamicSmem;
  return l;
}

// Blocks of the first wave: resident blocks per SM (occupancy) x SMs.
std::optional<std::uint64_t> firstWave(const device::Device& gpu, const Program& program,
                                       const emu::LaunchDescription& launch, const trace::KernelInfo& info) {
  if (gpu.smCount <= 0) return std::nullopt;
  const occupancy::Occupancy occ = occupancy::computeOccupancyOrThrow(gpu, occupancyLaunch(program, launch, info));
  return static_cast<std::uint64_t>(occ.blocksPerSm) * static_cast<std::uint64_t>(gpu.smCount);
}

struct Dump {
  std::string name, path;
  const emu::BufferArg* buffer = nullptr;
  const emu::SymbolInit* symbol = nullptr;  // a __device__/__constant__ variable the launch fills
};

// Buffer arguments and buffer fields of struct arguments ("p.x").
const emu::BufferArg* findBuffer(const emu::LaunchDescription& launch, const std::string& name) {
  for (const auto& b : emu::launchBuffers(launch))
    if (b.name == name) return b.buffer;
  return nullptr;
}

std::vector<Dump> parseDumps(const std::vector<std::string>& specs, const emu::LaunchDescription& launch) {
  std::vector<Dump> dumps;
  for (const auto& spec : specs) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      throw Error(fmt::format("--dump '{}': expected NAME=PATH (e.g. --dump c=c.bin or c=c.npy)", spec));
    Dump d{spec.substr(0, eq), spec.substr(eq + 1), nullptr};
    d.buffer = findBuffer(launch, d.name);
    for (const auto& s : launch.symbols)
      if (s.name == d.name && !s.fields) d.symbol = &s;
    if (d.buffer == nullptr && d.symbol == nullptr) {
      std::string names;
      for (const auto& b : emu::launchBuffers(launch)) names += (names.empty() ? "" : ", ") + b.name;
      for (const auto& s : launch.symbols)
        if (!s.fields) names += (names.empty() ? "" : ", ") + s.name;
      throw Error(fmt::format("--dump '{}': '{}' is not a buffer argument or a symbol of {} (buffers: {})", spec, d.name,
                              launch.file, names));
    }
    dumps.push_back(d);
  }
  return dumps;
}

std::string dimText(const emu::Dim3& d) { return fmt::format("({}, {}, {})", d.x, d.y, d.z); }

void runCommand(const RunArgs& a, Context& context) {
  const emu::LaunchDescription launch = emu::readLaunchFile(a.launch);
  const device::Device& gpu = context.devices().find(a.gpu);
  const std::vector<Dump> dumps = parseDumps(a.dumps, launch);
  const emu::MemoryGeometry geometry = emu::MemoryGeometry::forDevice(gpu);

  const Program program = analysis::loadKernelSource(launch, gpu, a.compile);
  if (!program.note.empty() && !a.json) std::cerr << "teg run: note: " << program.note << "\n";
  const analysis::IsaPlan plan = analysis::planIsa(analysis::parseIsaRequest(a.isa), gpu, program, launch.kernel);
  const analysis::IsaChoice& isa = plan.choice;
  emu::Emulator emulator(program.module, launch);
  analysis::applyIsaPlan(plan, emulator);
  const trace::KernelInfo& info = emulator.kernelInfo();
  // A launch the GPU would refuse (more dynamic shared memory than a block may have, too many
  // threads or registers) is refused here too, naming the rule, rather than run as if it fitted.
  occupancy::computeOccupancyOrThrow(gpu, occupancyLaunch(program, launch, info));

  const std::uint64_t gridBlocks = launch.grid.count();
  std::vector<emu::BlockRange> ranges{emu::BlockRange{0, gridBlocks}};
  if (!a.blocks.empty()) {
    std::optional<std::uint64_t> wave;
    if (a.blocks == "first-wave") wave = firstWave(gpu, program, launch, info);
    ranges = parseBlockSpec(a.blocks, gridBlocks, wave);
  }
  const std::uint64_t emulatedBlocks = countBlocks(ranges);
  const bool partial = emulatedBlocks < gridBlocks;
  if (a.check && partial)
    throw Error(fmt::format("--check needs the whole grid: with --blocks {} only {} of {} blocks run, so the other "
                            "blocks' outputs are never computed (drop --blocks)",
                            a.blocks, emulatedBlocks, gridBlocks));

  emu::StatisticsCollector stats(geometry);
  trace::TraceFanout fanout;
  fanout.add(stats);
  std::unique_ptr<trace::TraceFileWriter> traceWriter;
  if (!a.traceOut.empty()) {
    traceWriter = std::make_unique<trace::TraceFileWriter>(a.traceOut);
    fanout.add(*traceWriter);
  }
  Progress progress(std::cerr, progressWanted(a.json));
  analysis::BlockProgress blockProgress(
      [&](std::uint64_t done) { progress.update("emulating blocks", done, emulatedBlocks); });
  fanout.add(blockProgress);
  KernelJoiner joiner(fanout);
  emu::RunOptions options;
  options.maxInstructions = a.limits.maxInstructions;
  options.maxBlockInstructions = a.limits.maxBlockInstructions;
  // Statistics keep a bounded summary; only a trace file grows with the run.
  options.maxTraceRecords = a.traceOut.empty() ? 0 : a.limits.maxTraceRecords;
  options.threads = a.threads;
  options.listener = &joiner;
  // The kernel's printf output, as the program would print it: on stdout, or on stderr beside
  // --json (whose stdout is the report). Blocks may run on several threads.
  std::mutex printfMutex;
  options.printfOutput = [&](const std::string& text) {
    std::lock_guard lock(printfMutex);
    (a.json ? std::cerr : std::cout) << text;
  };
  emu::RunSummary total;
  fanout.beginKernel(info);
  for (const auto& range : ranges) {
    options.blocks = range;
    const emu::RunSummary s = emulator.run(options);
    total.blocksRun += s.blocksRun;
    total.warpInstructions += s.warpInstructions;
    total.threadInstructions += s.threadInstructions;
    total.printfCalls += s.printfCalls;
  }
  fanout.endKernel();
  progress.finish();
  const emu::KernelStatistics& k = stats.kernels().at(0);

  // --check
  struct CheckRow {
    std::string name;
    double tolerance;
    BufferComparison result;
  };
  std::vector<CheckRow> checks;
  if (a.check) {
    for (const auto& [name, buffer] : emu::launchBuffers(launch)) {
      const auto& b = *buffer;
      if (!b.expect) continue;
      const auto expected =
          emu::materializeBuffer(b.type, b.count, b.expect->values, fmt::format("{}: {} expect", launch.file, name));
      checks.push_back({name, b.expect->tolerance,
                        compareBuffer(b.type, emulator.buffer(name), expected, b.expect->tolerance)});
    }
    if (checks.empty())
      throw Error(fmt::format("--check: no buffer of {} has expected values (add \"expect\": {{\"file\": ..., "
                              "\"tolerance\": ...}} to an output buffer)",
                              launch.file));
  }
  for (const auto& d : dumps)
    writeDump(d.path, d.buffer ? d.buffer->type : d.symbol->type,
              d.buffer ? emulator.buffer(d.name) : emulator.symbol(d.name));

  const std::string blocksText =
      partial ? fmt::format("{} of {} blocks emulated ({}){}", emulatedBlocks, gridBlocks, describeBlocks(ranges),
                            a.blocks == "first-wave" ? ", the first wave" : "")
              : fmt::format("all {} blocks emulated", gridBlocks);
  if (a.json) {
    nlohmann::json j;
    j["launch"] = launch.file;
    j["source"] = launch.source;
    // Every report names the kernel by its C++ signature, with the mangled symbol beside it.
    j["kernel"] = demangle(emulator.kernel().name);
    j["mangled"] = emulator.kernel().name;
    j["kernel_requested"] = launch.kernel;
    j["gpu"] = gpu.name;
    j["gpu_id"] = gpu.id;
    j["compute_capability"] = gpu.cc.str();
    j["arch"] = program.arch.empty() ? nlohmann::json(nullptr) : nlohmann::json(program.arch);
    j["isa"] = {{"used", trace::isaName(isa.isa)}, {"reason", isa.reason}};
    if (!program.note.empty()) j["note"] = program.note;
    j["grid"] = {launch.grid.x, launch.grid.y, launch.grid.z};
    j["block"] = {launch.block.x, launch.block.y, launch.block.z};
    j["dynamic_smem"] = launch.dynamicSmem;
    j["blocks"] = {{"grid", gridBlocks},
                   {"emulated", emulatedBlocks},
                   {"partial", partial},
                   {"ranges", describeBlocks(ranges)},
                   {"spec", a.blocks.empty() ? "all" : a.blocks}};
    j["run"] = {{"blocks_run", total.blocksRun},
                {"warp_instructions", total.warpInstructions},
                {"thread_instructions", total.threadInstructions},
                {"printf_calls", total.printfCalls}};
    j["statistics"] = statisticsJson(k, geometry);
    if (a.check) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& c : checks) {
        nlohmann::json row = {{"buffer", c.name},         {"elements", c.result.elements},
                              {"mismatches", c.result.mismatches}, {"tolerance", c.tolerance},
                              {"max_abs_difference", c.result.maxAbsDifference},
                              {"ok", c.result.mismatches == 0}};
        if (c.result.mismatches) {
          row["first_index"] = c.result.firstIndex;
          row["first_actual"] = c.result.firstActual;
          row["first_expected"] = c.result.firstExpected;
        }
        rows.push_back(row);
      }
      j["check"] = rows;
    }
    if (traceWriter) j["trace_out"] = {{"path", a.traceOut}, {"bytes", traceWriter->bytesWritten()}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("kernel {} ({}) from {}{}\n", demangle(emulator.kernel().name), emulator.kernel().name,
                             launch.source,
                             program.arch.empty() ? "" : ", compiled for " + program.arch);
    std::cout << fmt::format("launch: grid {} x block {}, dynamic shared memory {} B\n", dimText(launch.grid),
                             dimText(launch.block), launch.dynamicSmem);
    std::cout << fmt::format("GPU for the memory statistics: {}\n", gpu.name);
    std::cout << fmt::format("instruction set: {} ({})\n", isa.isa == trace::Isa::Sass ? "SASS" : "PTX", isa.reason);
    std::cout << "blocks: " << blocksText << "\n";
    if (partial) std::cout << "NOTE: only these blocks ran; the statistics below cover them only.\n";
    std::cout << "\n" << renderStatistics(k, geometry);
    if (a.check) {
      report::Table t({"buffer", "elements", "mismatches", "max |diff|", "tolerance", "result"});
      for (const auto& c : checks)
        t.addRow({c.name, std::to_string(c.result.elements), std::to_string(c.result.mismatches),
                  fmt::format("{:.3g}", c.result.maxAbsDifference), fmt::format("{:g}", c.tolerance),
                  c.result.mismatches ? "MISMATCH" : "ok"});
      std::cout << "\ncheck\n" << t.render();
    }
    for (const auto& d : dumps) std::cout << fmt::format("dumped {} to {}\n", d.name, d.path);
    if (traceWriter) std::cout << fmt::format("trace written to {} ({} bytes)\n", a.traceOut, traceWriter->bytesWritten());
  }
  for (const auto& c : checks)
    if (c.result.mismatches)
      throw Error(fmt::format("check failed: buffer '{}': {} of {} elements differ (tolerance {:g}); first at index "
                              "{}: got {}, expected {}",
                              c.name, c.result.mismatches, c.result.elements, c.tolerance, c.result.firstIndex,
                              c.result.firstActual, c.result.firstExpected));
}

}  // namespace

void registerRunCommand(CLI::App& app, Context& context) {
  auto args = std::make_shared<RunArgs>();
  app.add_option("--launch", args->launch, "Launch description (JSON: source, kernel, grid, block, args)")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--gpu", args->gpu,
                 "GPU whose compute capability picks the nvcc arch and whose banks/sectors the statistics use "
                 "(default sm_80)");
  app.add_flag("--json", args->json, "Machine-readable output");
  app.add_flag("--check", args->check, "Compare buffers with their expected values; exit 1 on a mismatch");
  app.add_option("--dump", args->dumps,
                 "Write a buffer's final contents: NAME=PATH (raw little-endian; NumPy when PATH ends in .npy); "
                 "repeatable");
  app.add_option("--blocks", args->blocks,
                 "Emulate only these blocks: first-wave, all, or indices and ranges like 0-15 or 0,5,9");
  addEmulatorLimits(app, args->limits);
  app.add_option("--threads", args->threads, "Worker threads running blocks in parallel (0 = all cores)");
  app.add_option("--trace-out", args->traceOut, "Write the binary warp trace to FILE (teg trace format)");
  addCompileFlags(app, args->compile);
  addIsaOption(app, args->isa);
  app.callback([args, &context] { runCommand(*args, context); });
}

}  // namespace teg::cli
