// `teg ptx`: read PTX. `stats` prints each kernel's static instruction mix by timing class,
// basic blocks, loops, registers (declared in the PTX; allocated by ptxas when the input is a
// .cu) and static shared memory; `check` only parses; `print` writes the module back (the
// round trip the parser is tested on). A .cu input is compiled with nvcc first.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "command.hpp"
#include "teg/emu/emulator.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/ptx/printer.hpp"
#include "teg/ptx/stats.hpp"
#include "teg/report/table.hpp"
#include "teg/support/kernel_name.hpp"
#include "teg/toolchain/compiler.hpp"
#include "compile_flags.hpp"

namespace teg::cli {
namespace {

using nlohmann::json;

bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct Input {
  ptx::Module module;
  std::vector<toolchain::KernelResources> resources;  // empty for a .ptx input
  bool compiled = false;
};

Input readInput(const std::string& path, const std::string& arch, const toolchain::CompileOptions& compile) {
  Input input;
  if (endsWith(path, ".cu")) {
    toolchain::CompileOptions options = compile;
    options.arch = arch;
    toolchain::CompileResult result = toolchain::compileCuda(path, options);
    for (const auto& n : result.notes) std::cerr << "teg: note: " << n << "\n";
    input.module = ptx::parseModule(result.ptx, path + " (ptx)");
    input.resources = std::move(result.kernels);
    input.compiled = true;
  } else {
    input.module = ptx::parseFile(path);
  }
  return input;
}

void printWarnings(const ptx::Module& m) {
  for (const auto& w : m.warnings) std::cerr << fmt::format("{}: warning: {}\n", w.where.str(), w.message);
}

std::optional<int> allocatedRegisters(const Input& input, const std::string& name) {
  for (const auto& r : input.resources)
    if (r.mangledName == name) return r.registers;
  return std::nullopt;
}

std::string mixSummary(const ptx::FunctionStats& s) {
  std::vector<std::pair<std::uint32_t, int>> order;
  for (int c = 0; c < static_cast<int>(ptx::InstrClass::Count); ++c)
    if (s.mix[c] != 0) order.push_back({s.mix[c], c});
  std::sort(order.begin(), order.end(), [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::string out;
  for (const auto& [count, c] : order) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {} ({:.0f}%)", ptx::instrClassName(static_cast<ptx::InstrClass>(c)), count,
                       100.0 * count / std::max<std::uint32_t>(1, s.instructions));
  }
  return out;
}

void runStats(const std::string& path, const std::string& arch, bool asJson, bool allFunctions,
              const std::string& kernel, const toolchain::CompileOptions& compile) {
  const Input input = readInput(path, arch, compile);
  const ptx::Module& m = input.module;
  std::vector<ptx::FunctionStats> stats;
  if (!kernel.empty()) {
    stats.push_back(ptx::computeStats(m, emu::findKernel(m, kernel)));
  } else {
    for (const auto& f : m.functions)
      if (f.hasBody && (f.isEntry || allFunctions)) stats.push_back(ptx::computeStats(m, f));
  }
  if (asJson) {
    json kernels = json::array();
    for (const auto& s : stats) {
      json mix = json::object();
      for (int c = 0; c < static_cast<int>(ptx::InstrClass::Count); ++c)
        if (s.mix[c] != 0) mix[std::string(ptx::instrClassName(static_cast<ptx::InstrClass>(c)))] = s.mix[c];
      const auto allocated = allocatedRegisters(input, s.name);
      kernels.push_back({{"name", demangle(s.name)},
                         {"mangled", s.name},
                         {"entry", s.isEntry},
                         {"instructions", s.instructions},
                         {"basic_blocks", s.basicBlocks},
                         {"loops", s.loops},
                         {"max_loop_depth", s.maxLoopDepth},
                         {"mix", mix},
                         {"unmodelled", s.unmodelled},
                         {"registers_declared", s.registersDeclared},
                         {"predicates_declared", s.predicatesDeclared},
                         {"registers_allocated", allocated ? json(*allocated) : json(nullptr)},
                         {"shared_bytes", s.sharedBytes},
                         {"dynamic_shared", s.usesDynamicShared},
                         {"local_bytes", s.localBytes}});
    }
    json warnings = json::array();
    for (const auto& w : m.warnings) warnings.push_back(fmt::format("{}: {}", w.where.str(), w.message));
    json out = {{"file", path}, {"ptx_version", m.version}, {"target", m.target},
                {"kernels", kernels}, {"warnings", warnings}};
    std::cout << out.dump(2) << "\n";
    return;
  }
  printWarnings(m);
  report::Table table({"kernel", "instrs", "blocks", "loops", "regs decl", "regs alloc", "shared B", "unmodelled"});
  for (const auto& s : stats) {
    const auto allocated = allocatedRegisters(input, s.name);
    table.addRow({demangle(s.name), fmt::format("{}", s.instructions), fmt::format("{}", s.basicBlocks),
                  fmt::format("{}", s.loops), fmt::format("{}", s.registersDeclared),
                  allocated ? fmt::format("{}", *allocated) : "n/a",
                  fmt::format("{}{}", s.sharedBytes, s.usesDynamicShared ? "+dyn" : ""),
                  fmt::format("{}", s.unmodelled)});
  }
  std::cout << fmt::format("{}: PTX {} for {}\n\n", path, m.version.empty() ? "?" : m.version,
                           m.target.empty() ? "?" : m.target.front());
  std::cout << table.render();
  std::cout << "\ninstruction mix (static):\n";
  for (const auto& s : stats) std::cout << fmt::format("  {}: {}\n", demangle(s.name), mixSummary(s));
  if (!input.compiled)
    std::cout << "\nregs alloc is n/a for a .ptx input: give the .cu to get ptxas's allocation.\n";
}

void runCheck(const std::string& path, const std::string& arch, bool asJson, const toolchain::CompileOptions& compile) {
  const Input input = readInput(path, arch, compile);
  const ptx::Module& m = input.module;
  std::size_t instructions = 0, functions = 0;
  for (const auto& f : m.functions) {
    instructions += f.instructions.size();
    functions += f.hasBody ? 1 : 0;
  }
  if (asJson) {
    json warnings = json::array();
    for (const auto& w : m.warnings) warnings.push_back(fmt::format("{}: {}", w.where.str(), w.message));
    std::cout << json{{"file", path}, {"ok", true}, {"functions", functions}, {"instructions", instructions},
                      {"warnings", warnings}}.dump(2)
              << "\n";
    return;
  }
  printWarnings(m);
  std::cout << fmt::format("{}: ok ({} functions, {} instructions, {} warnings)\n", path, functions, instructions,
                           m.warnings.size());
}

}  // namespace

void registerPtxCommand(CLI::App& app, Context&) {
  app.require_subcommand(1);
  struct Options {
    std::string file;
    std::string arch = "sm_80";
    bool json = false;
    bool allFunctions = false;
    std::string kernel;
    toolchain::CompileOptions compile;
  };
  auto options = std::make_shared<Options>();

  CLI::App* stats = app.add_subcommand("stats", "Per kernel: instruction mix, blocks, loops, registers, shared memory");
  stats->add_option("file", options->file, "A .ptx file, or a .cu file (compiled with nvcc)")->required()->check(CLI::ExistingFile);
  stats->add_option("--arch", options->arch, "Target for a .cu input (sm_70 ... sm_120; sm_70 and sm_72 through CUDA 11.8's ptxas)")->capture_default_str();
  stats->add_flag("--json", options->json, "Machine-readable output");
  stats->add_flag("--functions", options->allFunctions, "Include non-inlined device functions (.func)");
  stats->add_option("--kernel", options->kernel,
                    "Only this kernel: its plain name when unique, with template arguments, its signature or "
                    "its mangled name");
  addCompileFlags(*stats, options->compile);
  stats->callback([options] {
    runStats(options->file, options->arch, options->json, options->allFunctions, options->kernel, options->compile);
  });

  CLI::App* check = app.add_subcommand("check", "Parse only: report the first error as file:line:col");
  check->add_option("file", options->file, "A .ptx or .cu file")->required()->check(CLI::ExistingFile);
  check->add_option("--arch", options->arch, "Target for a .cu input")->capture_default_str();
  check->add_flag("--json", options->json, "Machine-readable output");
  addCompileFlags(*check, options->compile);
  check->callback([options] { runCheck(options->file, options->arch, options->json, options->compile); });

  CLI::App* print = app.add_subcommand("print", "Parse and write the module back as PTX (round trip)");
  print->add_option("file", options->file, "A .ptx or .cu file")->required()->check(CLI::ExistingFile);
  print->add_option("--arch", options->arch, "Target for a .cu input")->capture_default_str();
  addCompileFlags(*print, options->compile);
  print->callback([options] { std::cout << ptx::printModule(readInput(options->file, options->arch, options->compile).module); });
}

}  // namespace teg::cli
