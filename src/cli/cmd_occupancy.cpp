// `teg occupancy`: blocks, warps and occupancy per SM of a launch, what limits it, how far each
// knob is from the next block and from the next cliff; the calculator's sweeps (--sweep), the
// block size of highest occupancy (--suggest), JSON lines in bulk (--batch), and a kernel's own
// registers and shared memory straight from ptxas (--cu/--kernel).
#include <fmt/format.h>

#include <sstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "command.hpp"
#include "compile_flags.hpp"
#include "teg/occupancy/batch.hpp"
#include "teg/occupancy/cliffs.hpp"
#include "teg/occupancy/occupancy.hpp"
#include "teg/occupancy/sweep.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"
#include "teg/support/kernel_name.hpp"
#include "teg/support/input_file.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::cli {

namespace {

using device::Device;
using json = nlohmann::ordered_json;
using namespace teg::occupancy;

struct Options {
  std::string gpu;
  std::optional<long long> threads;
  std::optional<long long> regs;
  long long smem = 0;
  long long dynSmem = 0;
  std::optional<int> carveout;
  int barriers = 1;
  bool asJson = false;
  std::string sweepKnob;
  bool suggest = false;
  std::string batchFile;
  std::string cuFile;
  std::string kernel;
  toolchain::CompileOptions compile;  // -I, -D, --nvcc-arg, --no-cache (with --cu)
};

std::string gpuLabel(const Device& d) {
  return d.generic ? fmt::format("{} (cc {})", d.id, d.cc.str())
                   : fmt::format("{} ({}, cc {})", d.name, d.id, d.cc.str());
}

std::string limitText(int v) { return v == kUnlimited ? "-" : fmt::format("{}", v); }

json limitJson(int v) { return v == kUnlimited ? json(nullptr) : json(v); }

std::string percent(double x) { return fmt::format("{:.1f} %", 100.0 * x); }

std::string limitersText(const Occupancy& r) {
  std::string s;
  for (Resource res : kAllResources)
    if (r.limitedBy(res)) s += (s.empty() ? "" : ", ") + std::string(resourceLabel(res));
  return s;
}

json limitersJson(const Occupancy& r) {
  json a = json::array();
  for (Resource res : kAllResources)
    if (r.limitedBy(res)) a.push_back(resourceName(res));
  return a;
}

json resultJson(const Occupancy& r) {
  json limits = json::object();
  for (Resource res : kAllResources) limits[resourceName(res)] = limitJson(r.limit(res));
  return {{"blocks_per_sm", r.blocksPerSm},
          {"warps_per_sm", r.warpsPerSm},
          {"threads_per_sm", r.threadsPerSm},
          {"occupancy", r.occupancy},
          {"max_warps_per_sm", r.maxWarpsPerSm},
          {"limiters", limitersJson(r)},
          {"block_limits", limits},
          {"warps_per_block", r.warpsPerBlock},
          {"registers_per_block", r.registersPerBlock},
          {"shared_memory_per_block", r.sharedMemoryPerBlock},
          {"shared_memory_per_sm", r.sharedMemoryPerSm}};
}

json launchJson(const Launch& l) {
  json j = {{"threads", l.threadsPerBlock},
            {"regs", l.registersPerThread},
            {"smem", l.staticSharedBytes},
            {"dyn_smem", l.dynamicSharedBytes},
            {"barriers", l.barriersPerBlock}};
  j["carveout"] = l.carveoutPercent >= 0 ? json(l.carveoutPercent) : json(nullptr);
  return j;
}

json gpuJson(const Device& d) {
  return {{"id", d.id}, {"name", d.name}, {"compute_capability", d.cc.str()}, {"sm_count", d.smCount}};
}

json leverJson(const Lever& lever) {
  json j = {{"knob", knobName(lever.knob)}, {"current", lever.current}};
  j["reduce_to"] = lever.reduceTo ? json(*lever.reduceTo) : json(nullptr);
  j["blocks_after_reduce"] = lever.reduceTo ? json(lever.blocksAfterReduce) : json(nullptr);
  j["warps_after_reduce"] = lever.reduceTo ? json(lever.warpsAfterReduce) : json(nullptr);
  j["cliff_at"] = lever.cliffAt ? json(*lever.cliffAt) : json(nullptr);
  j["blocks_after_cliff"] = lever.cliffAt ? json(lever.blocksAfterCliff) : json(nullptr);
  return j;
}

Launch launchOf(const Options& o) {
  Launch l;
  l.threadsPerBlock = o.threads.value_or(0);
  l.registersPerThread = o.regs.value_or(0);
  l.staticSharedBytes = o.smem;
  l.dynamicSharedBytes = o.dynSmem;
  l.carveoutPercent = o.carveout.value_or(-1);
  l.barriersPerBlock = o.barriers;
  return l;
}

void showOne(const Device& d, const Launch& launch, bool asJson, const json& kernelInfo) {
  const Occupancy r = computeOccupancyOrThrow(d, launch);
  const CliffReport cliffs = findCliffs(d, launch, r);
  if (asJson) {
    json j = {{"gpu", gpuJson(d)}, {"launch", launchJson(launch)}};
    if (!kernelInfo.is_null()) j["kernel"] = kernelInfo;
    j.update(resultJson(r));
    json levers = json::array();
    for (const Lever& lever : cliffs.levers) levers.push_back(leverJson(lever));
    j["levers"] = levers;
    j["explanation"] = cliffs.sentences;
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::vector<std::pair<std::string, std::string>> kv = {{"GPU", gpuLabel(d)}};
  if (!kernelInfo.is_null())
    kv.emplace_back("kernel", fmt::format("{} ({}: {} registers, {} B static shared memory)",
                                          kernelInfo["name"].get<std::string>(),
                                          kernelInfo["arch"].get<std::string>(),
                                          kernelInfo["registers"].get<int>(),
                                          kernelInfo["static_shared_bytes"].get<int>()));
  kv.emplace_back("launch", fmt::format("{} threads/block, {} registers/thread, {} B static + {} B "
                                        "dynamic shared memory{}",
                                        launch.threadsPerBlock, launch.registersPerThread,
                                        launch.staticSharedBytes, launch.dynamicSharedBytes,
                                        launch.carveoutPercent >= 0
                                            ? fmt::format(", carve-out {} %", launch.carveoutPercent)
                                            : std::string()));
  kv.emplace_back("blocks/SM", fmt::format("{}", r.blocksPerSm));
  kv.emplace_back("warps/SM", fmt::format("{} of {}", r.warpsPerSm, r.maxWarpsPerSm));
  kv.emplace_back("threads/SM", fmt::format("{}", r.threadsPerSm));
  kv.emplace_back("occupancy", percent(r.occupancy));
  kv.emplace_back("limited by", limitersText(r));
  std::cout << report::renderKeyValues(kv);

  const auto& l = d.limits;
  using report::Align;
  report::Table t({"resource", "per block", "per SM", "blocks/SM", ""},
                  {Align::Left, Align::Right, Align::Right, Align::Right, Align::Left});
  auto mark = [&](Resource res) { return r.limitedBy(res) ? std::string("<- limit") : std::string(); };
  t.addRow({"warps", fmt::format("{}", r.warpsPerBlock), fmt::format("{}", r.maxWarpsPerSm),
            limitText(r.limit(Resource::Warps)), mark(Resource::Warps)});
  t.addRow({"registers", fmt::format("{}", r.registersPerBlock), fmt::format("{}", l.registersPerSm),
            limitText(r.limit(Resource::Registers)), mark(Resource::Registers)});
  t.addRow({"shared memory (B)", fmt::format("{}", r.sharedMemoryPerBlock),
            fmt::format("{}", r.sharedMemoryPerSm), limitText(r.limit(Resource::SharedMemory)),
            mark(Resource::SharedMemory)});
  t.addRow({"blocks", "1", fmt::format("{}", l.maxBlocksPerSm), limitText(r.limit(Resource::Blocks)),
            mark(Resource::Blocks)});
  if (l.barriersPerSm > 0)
    t.addRow({"barriers", fmt::format("{}", launch.barriersPerBlock), fmt::format("{}", l.barriersPerSm),
              limitText(r.limit(Resource::Barriers)), mark(Resource::Barriers)});
  std::cout << "\n" << t.render() << "\n";
  for (const auto& s : cliffs.sentences) std::cout << "- " << s << "\n";
}

Knob knobOf(const std::string& s) {
  if (s == "threads") return Knob::Threads;
  if (s == "regs" || s == "registers") return Knob::Registers;
  if (s == "smem" || s == "shared") return Knob::SharedMemory;
  throw Error(fmt::format("--sweep: expected threads, regs or smem (got '{}')", s));
}

void showSweep(const Device& d, const Launch& launch, Knob knob, bool asJson) {
  const auto points = sweep(d, launch, knob);
  if (asJson) {
    json pts = json::array();
    json cliffs = json::array();
    for (const auto& p : points) {
      json j = {{"value", p.value},         {"blocks_per_sm", p.result.blocksPerSm},
                {"warps_per_sm", p.result.warpsPerSm}, {"occupancy", p.result.occupancy},
                {"limiters", limitersJson(p.result)}, {"cliff", p.cliff}};
      if (!p.result.ok()) j["error"] = violationMessage(d, withKnob(launch, knob, p.value), p.result);
      pts.push_back(j);
      if (p.cliff) cliffs.push_back(p.value);
    }
    json out = {{"gpu", gpuJson(d)}, {"launch", launchJson(launch)}, {"sweep", knobName(knob)},
                {"points", pts}, {"cliffs", cliffs}};
    std::cout << out.dump(2) << "\n";
    return;
  }
  const char* unit = knob == Knob::Threads ? "threads/block" : knob == Knob::Registers ? "registers/thread" : "shared B/block";
  std::cout << fmt::format("{}: occupancy against {} (other knobs as given); rows with equal "
                           "results are merged, '<- cliff' marks where a block is lost\n\n",
                           gpuLabel(d), unit);
  using report::Align;
  report::Table t({unit, "blocks/SM", "warps/SM", "occupancy", "limited by", ""},
                  {Align::Right, Align::Right, Align::Right, Align::Right, Align::Left, Align::Left});
  std::size_t i = 0;
  while (i < points.size()) {
    std::size_t j = i;
    while (j + 1 < points.size() && points[j + 1].result.blocksPerSm == points[i].result.blocksPerSm &&
           points[j + 1].result.warpsPerSm == points[i].result.warpsPerSm &&
           points[j + 1].result.limiters == points[i].result.limiters &&
           points[j + 1].result.ok() == points[i].result.ok())
      ++j;
    const auto& p = points[i];
    const std::string range = i == j ? fmt::format("{}", p.value) : fmt::format("{}-{}", p.value, points[j].value);
    t.addRow({range, fmt::format("{}", p.result.blocksPerSm), fmt::format("{}", p.result.warpsPerSm),
              percent(p.result.occupancy), p.result.ok() ? limitersText(p.result) : "cannot launch",
              p.cliff ? "<- cliff" : ""});
    i = j + 1;
  }
  std::cout << t.render();
}

void showSuggestion(const Device& d, const Launch& launch, bool asJson) {
  const Suggestion s = suggestBlockSize(d, launch);
  if (s.blockSize == 0)
    throw Error(fmt::format("no block size can run on {} with {} registers and {} B shared memory",
                            gpuLabel(d), launch.registersPerThread,
                            launch.staticSharedBytes + launch.dynamicSharedBytes));
  if (asJson) {
    json j = {{"gpu", gpuJson(d)},          {"launch", launchJson(launch)},
              {"block_size", s.blockSize},   {"blocks_per_sm", s.blocksPerSm},
              {"occupancy", s.occupancy}};
    j["launch"].erase("threads");
    j["min_grid_size"] = d.smCount > 0 ? json(s.minGridSize) : json(nullptr);
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << report::renderKeyValues(
      {{"GPU", gpuLabel(d)},
       {"block size", fmt::format("{} threads (highest occupancy; the largest such size)", s.blockSize)},
       {"blocks/SM", fmt::format("{}", s.blocksPerSm)},
       {"occupancy", percent(s.occupancy)},
       {"min grid size", d.smCount > 0 ? fmt::format("{} blocks ({} SMs x {})", s.minGridSize, d.smCount, s.blocksPerSm)
                                       : std::string("- (a generic entry has no SM count; pick a product)")}});
}

void runBatchFile(Context& context, const std::string& file) {
  const auto& db = context.devices();
  DeviceResolver resolve = [&db](const std::string& name) -> const Device& { return db.find(name); };
  if (file == "-") {
    runBatch(std::cin, std::cout, resolve);
    return;
  }
  std::istringstream in(readInputFile(file));
  runBatch(in, std::cout, resolve);
}

json kernelResources(const Device& d, const Options& o, Launch& launch) {
  toolchain::CompileOptions options = o.compile;
  options.arch = d.cc.smName();
  toolchain::CompileResult compiled;
  try {
    compiled = toolchain::compileCuda(o.cuFile, options);
    for (const auto& n : compiled.notes) std::cerr << "teg: note: " << n << "\n";
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.find("Unsupported gpu architecture") != std::string::npos)
      throw Error(fmt::format("{}: the installed nvcc cannot compile for {} ({}); pick a newer GPU "
                              "or install a CUDA toolkit that still supports it",
                              o.cuFile, options.arch, d.name));
    throw;
  }
  std::vector<const toolchain::KernelResources*> entries;
  std::vector<std::string> symbols;
  for (const auto& k : compiled.kernels) {
    if (!k.isEntry) continue;
    entries.push_back(&k);
    symbols.push_back(k.mangledName);
  }
  const toolchain::KernelResources* found = entries[resolveKernelName(symbols, o.kernel, o.cuFile)];
  launch.registersPerThread = found->registers;
  launch.staticSharedBytes = found->staticSharedBytes;
  if (found->barriers > 1) launch.barriersPerBlock = found->barriers;
  return {{"name", found->name},           {"mangled", found->mangledName},
          {"mangled_name", found->mangledName},  // the same; kept for existing readers
          {"arch", found->arch},           {"registers", found->registers},
          {"static_shared_bytes", found->staticSharedBytes}, {"barriers", found->barriers},
          {"spill_store_bytes", found->spillStoreBytes}, {"local_bytes", found->localBytes}};
}

void run(Context& context, const Options& o) {
  if (!o.batchFile.empty()) {
    if (!o.gpu.empty() || o.threads || o.regs || o.suggest || !o.sweepKnob.empty() || !o.cuFile.empty())
      throw Error("--batch takes every launch from its input; it cannot be combined with --gpu, "
                  "--threads, --regs, --sweep, --suggest or --cu");
    runBatchFile(context, o.batchFile);
    return;
  }
  if (o.gpu.empty()) throw Error("--gpu is required (e.g. --gpu a100; `teg devices` lists them)");
  const Device& d = context.devices().find(o.gpu);
  Launch launch = launchOf(o);
  json kernelInfo;
  if (!o.cuFile.empty() || !o.kernel.empty()) {
    if (o.cuFile.empty() || o.kernel.empty()) throw Error("--cu and --kernel go together");
    if (o.regs) throw Error("--regs cannot be combined with --cu: ptxas says how many registers the kernel uses");
    kernelInfo = kernelResources(d, o, launch);
  }
  if (o.suggest) {
    if (o.threads) throw Error("--suggest chooses the block size; leave out --threads");
    if (!o.regs && o.cuFile.empty()) throw Error("--suggest needs --regs (registers per thread)");
    if (!o.sweepKnob.empty()) throw Error("--suggest and --sweep are separate questions; ask one");
    showSuggestion(d, launch, o.asJson);
    return;
  }
  if (!o.threads) throw Error("--threads is required (threads per block)");
  if (!o.regs && o.cuFile.empty()) throw Error("--regs is required (registers per thread, from ptxas -v)");
  if (!o.sweepKnob.empty()) {
    // The launch itself must be valid: the sweep varies one knob around it.
    computeOccupancyOrThrow(d, launch);
    showSweep(d, launch, knobOf(o.sweepKnob), o.asJson);
    return;
  }
  showOne(d, launch, o.asJson, kernelInfo);
}

}  // namespace

void registerOccupancyCommand(CLI::App& app, Context& context) {
  auto o = std::make_shared<Options>();
  app.add_option("--gpu", o->gpu, "GPU name, alias or sm_XY (see `teg devices`)");
  app.add_option("--threads", o->threads, "Threads per block");
  app.add_option("--regs", o->regs, "Registers per thread (ptxas -v)");
  app.add_option("--smem", o->smem, "Static shared memory per block, bytes");
  app.add_option("--dyn-smem", o->dynSmem, "Dynamic shared memory per block, bytes");
  app.add_option("--carveout", o->carveout, "Preferred shared-memory carve-out, percent 0..100");
  app.add_option("--barriers", o->barriers, "Hardware barriers per block (default 1)");
  app.add_flag("--json", o->asJson, "Machine-readable output");
  app.add_option("--sweep", o->sweepKnob, "Occupancy curve over threads, regs or smem (cliffs marked)");
  app.add_flag("--suggest", o->suggest, "Block size of highest occupancy and the minimum grid for it");
  app.add_option("--batch", o->batchFile,
                 "JSON lines in (gpu, threads, regs, smem, dyn_smem[, carveout]), one result line out "
                 "each; '-' reads stdin");
  app.add_option("--cu", o->cuFile, "A .cu file: compile it for --gpu and take the kernel's registers "
                                    "and static shared memory from ptxas");
  app.add_option("--kernel", o->kernel, "Kernel name in --cu (plain or mangled)");
  addCompileFlags(app, o->compile);
  app.callback([o, &context] { run(context, *o); });
}

}  // namespace teg::cli
