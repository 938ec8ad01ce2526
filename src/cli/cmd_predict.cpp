// teg predict --launch F --gpu NAME [--json] [--what-if X]... [--full | --sample-blocks N] [--loop-sample Q]
//             [--threads N] [--regs R] [--trace-out FILE] [--no-timeline]
//             [--kernel NAME] [--grid X[,Y,Z]] [--block X[,Y,Z]] [--dyn-smem B]  (replace the file's)
// teg predict --cu K.cu --kernel NAME --grid X[,Y,Z] --block X[,Y,Z]
//             [--arg NAME=TYPE:VALUE | --arg NAME=TYPE[COUNT]]... --gpu NAME ...
// Predicts the kernel's cycles and time on the GPU with the TEG timing engine and explains them.
#include <fmt/format.h>

#include <iostream>
#include <sstream>

#include "command.hpp"
#include "predict_options.hpp"
#include "compile_flags.hpp"
#include "emulator_limits.hpp"
#include "isa_option.hpp"
#include "teg/analysis/predict.hpp"
#include "teg/analysis/what_if.hpp"
#include "teg/report/achieved_view.hpp"
#include "teg/report/timing_view.hpp"
#include "teg/support/error.hpp"
#include "teg/support/progress.hpp"

namespace teg::cli {

namespace {


emu::Dim3 parseDim(const std::string& option, const std::string& text) {
  std::vector<std::uint32_t> values;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    try {
      std::size_t used = 0;
      const unsigned long v = std::stoul(part, &used);
      if (used != part.size() || v == 0 || v > 0xffffffffUL) throw std::invalid_argument(part);
      values.push_back(static_cast<std::uint32_t>(v));
    } catch (const std::exception&) {
      throw Error(fmt::format("{} '{}': expected 1 to 3 positive integers separated by commas", option, text));
    }
  }
  if (values.empty() || values.size() > 3)
    throw Error(fmt::format("{} '{}': expected 1 to 3 positive integers separated by commas", option, text));
  emu::Dim3 d;
  d.x = values[0];
  if (values.size() > 1) d.y = values[1];
  if (values.size() > 2) d.z = values[2];
  return d;
}

// "NAME=TYPE:X" -> (name, type, x)
std::tuple<std::string, emu::ScalarType, std::string> splitArg(const std::string& option, const std::string& text) {
  const auto eq = text.find('='), colon = text.find(':', eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || colon == std::string::npos)
    throw Error(fmt::format("{} '{}': expected NAME=TYPE:VALUE or NAME=TYPE[COUNT], e.g. n=i32:1024 or x=f32[4096]", option, text));
  const std::string type = text.substr(eq + 1, colon - eq - 1);
  const auto t = emu::scalarTypeFromName(type);
  if (!t) throw Error(fmt::format("{} '{}': unknown type '{}' (i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64 bool)", option, text, type));
  return {text.substr(0, eq), *t, text.substr(colon + 1)};
}

// The launch from --cu/--kernel/--grid/--block and the arguments, in the order given.
emu::LaunchDescription launchFromShortcuts(const PredictArgs& a) {
  if (a.kernel.empty() || a.grid.empty() || a.block.empty())
    throw Error("--cu needs --kernel, --grid and --block (and the kernel's arguments as --arg)");
  emu::LaunchDescription l;
  l.file = "(command line)";
  l.source = a.cu;
  l.kernel = a.kernel;
  l.grid = parseDim("--grid", a.grid);
  l.block = parseDim("--block", a.block);
  l.dynamicSmem = a.dynamicSmem;
  for (const auto& text : a.scalars) {
    // NAME=TYPE[COUNT] is a buffer, NAME=TYPE:VALUE a scalar.
    const auto bracket = text.find('[');
    const bool isBuffer = bracket != std::string::npos && !text.empty() && text.back() == ']';
    auto [name, type, value] =
        splitArg("--arg", isBuffer ? text.substr(0, bracket) + ":" + text.substr(bracket + 1, text.size() - bracket - 2) : text);
    emu::LaunchArg arg;
    arg.name = name;
    try {
      if (isBuffer) {
        emu::BufferArg b;
        b.type = type;
        b.count = std::stoull(value);
        b.init = emu::RandomInit{1, 0, 1};
        arg.value = b;
      } else {
        emu::ScalarArg sc;
        sc.type = type;
        if (type == emu::ScalarType::Bool && (value == "true" || value == "false")) sc.value = std::uint64_t{value == "true"};
        else if (emu::isFloatingPoint(type)) sc.value = std::stod(value);
        else if (emu::isSigned(type)) sc.value = static_cast<std::int64_t>(std::stoll(value));
        else sc.value = static_cast<std::uint64_t>(std::stoull(value));
        if (!emu::isFloatingPoint(type) && !emu::isSigned(type) && value.find('-') != std::string::npos)
          throw Error(fmt::format("--arg '{}': {} is unsigned; '{}' is negative", text, emu::scalarTypeName(type), value));
        emu::checkScalarFits(sc, fmt::format("--arg '{}'", text));
        arg.value = sc;
      }
    } catch (const Error&) {
      throw;
    } catch (const std::exception&) {
      throw Error(fmt::format("--arg '{}': '{}' is not a number (or out of the 64-bit range)", text, value));
    }
    for (const auto& other : l.args)
      if (other.name == arg.name) throw Error(fmt::format("--arg '{}': a second argument named '{}'", text, arg.name));
    l.args.push_back(std::move(arg));
  }
  return l;
}

// A launch file with --kernel/--grid/--block/--dyn-smem given beside it: those replace the file's
// (a sweep over block sizes keeps one file). Arguments stay the file's: a grid or block that does
// not fit them (buffer sizes, scalars) is the user's to change there, so --arg is refused.
emu::LaunchDescription launchFromFile(const PredictArgs& a, bool dynSmemGiven) {
  if (!a.scalars.empty())
    throw Error("--arg applies to --cu; with --launch, the arguments are the launch file's 'args'");
  emu::LaunchDescription l = emu::readLaunchFile(a.launch);
  if (!a.kernel.empty()) l.kernel = a.kernel;
  if (!a.grid.empty()) l.grid = parseDim("--grid", a.grid);
  if (!a.block.empty()) l.block = parseDim("--block", a.block);
  if (dynSmemGiven) l.dynamicSmem = a.dynamicSmem;
  return l;
}

}  // namespace

// The options `teg predict` and `teg bound` share: the launch, the GPU, sampling, limits.
CLI::Option* addPredictOptions(CLI::App& app, PredictArgs& a) {
  app.add_option("--launch", a.launch, "Launch description (JSON): source, kernel, grid, block, args")->check(CLI::ExistingFile);
  app.add_option("--gpu", a.gpu, "GPU to predict for (teg devices lists them)")->required();
  app.add_option("--cu", a.cu, "Shortcut: the .cu (or .ptx) source instead of --launch")->check(CLI::ExistingFile);
  app.add_option("--kernel", a.kernel, "Shortcut: kernel name (with --launch: replaces the file's)");
  app.add_option("--grid", a.grid, "Shortcut: grid, e.g. 1024 or 64,64 (with --launch: replaces the file's)");
  app.add_option("--block", a.block, "Shortcut: block, e.g. 256 or 16,16 (with --launch: replaces the file's)");
  auto* dynSmem = app.add_option("--dyn-smem", a.dynamicSmem,
                                 "Shortcut: dynamic shared memory per block, bytes (with --launch: replaces the file's)");
  app.add_option("--arg", a.scalars,
                 "Shortcut: the kernel's arguments in parameter order: NAME=TYPE:VALUE for a scalar, "
                 "NAME=TYPE[COUNT] for a buffer (random values in [0,1))");
  app.add_option("--what-if", a.whatIfs, "Re-run with one effect changed: " + analysis::whatIfHelp());
  app.add_flag("--full", a.full, "Simulate every block of the busiest SM (no sampling)");
  app.add_option("--sample-blocks", a.sampleBlocks, "Blocks of the busiest SM to simulate (default: 3 waves, at least 16 blocks)")
      ->check(nonNegativeCount());
  app.add_option("--peer-blocks", a.peerBlocks,
                 fmt::format("Blocks of other SMs to trace for the data they share through the L2 (default {}; 0: none)",
                             analysis::PredictRequest{}.peerBlocks))
      ->check(CLI::Range(0, 1024));
  app.add_option("--loop-sample", a.loopSample,
                 fmt::format("Iterations of a steady loop kept in the first of the three runs loop-iteration sampling "
                             "extrapolates from (default {}; 0: simulate every iteration; docs/timing.md)",
                             analysis::PredictRequest{}.loopSampleIterations))
      ->check(CLI::Range(0, 1 << 20));
  app.add_option("--threads", a.threads, "Emulator worker threads")->check(CLI::Range(1u, 256u));
  addEmulatorLimits(app, a.limits);
  app.add_option("--carveout", a.carveout, "Preferred shared-memory carve-out, percent (as cudaFuncAttributePreferredSharedMemoryCarveout)")
      ->check(CLI::Range(0, 100));
  app.add_option("--regs", a.regs, "Registers per thread (default: ptxas's figure)")->check(CLI::Range(0, 255));
  addCompileFlags(app, a.compile);
  addIsaOption(app, a.isa);
  app.add_flag("--json", a.json, "Print JSON");
  app.add_flag("--strict-bounds", a.strictBounds,
               "Stop with an error at the first access outside a buffer (the default maps 64 KiB beside each buffer, "
               "as a GPU maps the memory beside an allocation, times the kernel as it runs and reports the accesses)");
  return dynSmem;
}

analysis::PredictRequest predictRequestOf(const PredictArgs& a, bool dynSmemGiven, Context& context) {
  if (a.launch.empty() == a.cu.empty()) throw Error("give either --launch FILE or --cu FILE with --kernel/--grid/--block");
  analysis::PredictRequest request;
  request.launch = a.launch.empty() ? launchFromShortcuts(a) : launchFromFile(a, dynSmemGiven);
  if (a.carveout >= 0) request.launch.carveoutPercent = a.carveout;
  request.device = &context.devices().find(a.gpu);
  request.whatIfs = a.whatIfs;
  request.fullGrid = a.full;
  request.sampledBlocks = a.sampleBlocks;
  request.peerBlocks = a.peerBlocks;
  request.loopSampleIterations = a.loopSample;
  request.threads = a.threads;
  request.maxInstructions = a.limits.maxInstructions;
  request.maxBlockInstructions = a.limits.maxBlockInstructions;
  request.maxTraceRecords = a.limits.maxTraceRecords;
  request.compile = a.compile;
  if (a.regs >= 0) request.registersPerThread = a.regs;
  request.traceOut = a.traceOut;
  if (a.strictBounds) request.overrunSlackBytes = 0;
  request.isa = analysis::parseIsaRequest(a.isa);
  return request;
}

std::string overrunWarnings(const analysis::Prediction& p) {
  std::string out;
  for (const emu::BufferOverrun& o : p.overruns) {
    std::string where;
    if (o.bytesPastEnd > 0) where = fmt::format("up to {} bytes past its end", o.bytesPastEnd);
    if (o.bytesBeforeStart > 0)
      where += fmt::format("{}up to {} bytes before its start", where.empty() ? "" : " and ", o.bytesBeforeStart);
    out += fmt::format("warning:     the kernel accessed '{}' outside its bounds ({} lane accesses, {}); timed as a GPU "
                       "runs it, where the memory beside an allocation is mapped (the values read there and whatever "
                       "lies there on the GPU are not known); --strict-bounds stops at the first one\n",
                       o.buffer, o.accesses, where);
  }
  return out;
}

nlohmann::json overrunsJson(const analysis::Prediction& p) {
  nlohmann::json out = nlohmann::json::array();
  for (const emu::BufferOverrun& o : p.overruns)
    out.push_back({{"buffer", o.buffer}, {"accesses", o.accesses}, {"bytes_past_end", o.bytesPastEnd},
                   {"bytes_before_start", o.bytesBeforeStart}});
  return out;
}

void registerPredictCommand(CLI::App& app, Context& context) {
  auto a = std::make_shared<PredictArgs>();
  auto* dynSmem = addPredictOptions(app, *a);
  app.add_option("--trace-out", a->traceOut, "Also write the simulated SM's warp trace (binary) here");
  app.add_flag("--no-timeline", a->noTimeline, "Leave the per-warp timeline out of the text report");
  app.callback([a, dynSmem, &context] {
    analysis::PredictRequest request = predictRequestOf(*a, dynSmem->count() > 0, context);
    Progress progress(std::cerr, progressWanted(a->json));
    request.progress = [&progress](std::string_view stage, std::uint64_t done, std::uint64_t total) {
      progress.update(stage, done, total);
    };
    const analysis::Prediction p = analysis::predict(request);
    progress.finish();
    if (a->json) {
      auto j = report::timingJson(p.result, p.kernel, p.whatIfs);
      j["registers_per_thread"] = p.registersPerThread;
      j["occupancy"] = {{"blocks_per_sm", p.occupancy.blocksPerSm}, {"warps_per_sm", p.occupancy.warpsPerSm},
                        {"occupancy", p.occupancy.occupancy}};
      j.update(report::achievedJson(p.achieved));
      j["out_of_bounds"] = overrunsJson(p);
      // Numeric fields of the achieved sections end in _sm or _gpu themselves.
      j["scope"].update({{"registers_per_thread", "none"}, {"occupancy", "sm"}, {"out_of_bounds", "none"}, {"speed_of_light", "per_field"},
                         {"roofline", "per_field"}, {"tail", "per_field"}});
      std::cout << j.dump(2) << "\n";
      return;
    }
    report::TimingViewOptions view;
    view.showTimeline = !a->noTimeline;
    view.afterMemory = report::renderAchievedText(p.achieved);
    std::cout << fmt::format("occupancy:   {} blocks/SM, {} warps/SM ({:.0f} %), {} registers per thread ({})\n",
                             p.occupancy.blocksPerSm, p.occupancy.warpsPerSm, 100 * p.occupancy.occupancy,
                             p.registersPerThread, p.registersOrigin)
              << overrunWarnings(p) << report::renderTimingText(p.result, p.kernel, p.whatIfs, view);
  });
}

}  // namespace teg::cli
