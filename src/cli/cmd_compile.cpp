// teg compile kernel.cu [--arch sm_80] [--kernel NAME] [--json] [--ptx-out FILE] [--cubin-out FILE]
//   [--sass-out FILE] [-- nvcc-args...]
// Runs nvcc once and shows what ptxas reported for each function (the resources occupancy and the
// models start from), or for the one kernel --kernel names, optionally saving the PTX, the cubin
// and its disassembly (nvdisasm -hex -gi -c, what `teg sass` reads).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "command.hpp"
#include "compile_flags.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"
#include "teg/support/kernel_name.hpp"
#include "teg/support/output_file.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::cli {

namespace {

struct CompileArgs {
  std::string file;
  std::string arch = "sm_80";
  std::string ptxOut;
  std::string cubinOut;
  std::string sassOut;
  std::string kernel;  // show only this kernel (any name support/kernel_name.hpp accepts)
  bool json = false;
  std::vector<std::string> nvccArgs;   // after `--`
  toolchain::CompileOptions compile;   // -I, -D, --nvcc-arg, --no-cache
};

nlohmann::json toJson(const toolchain::KernelResources& k) {
  return {{"name", k.name},
          {"mangled", k.mangledName},       // as in every report
          {"mangled_name", k.mangledName},  // the same; kept for existing readers
          {"arch", k.arch},
          {"entry", k.isEntry},
          {"registers", k.registers},
          {"static_smem_bytes", k.staticSharedBytes},
          {"cmem_bytes", k.constantBytes},
          {"param_bytes", k.parameterBytes},
          {"gmem_bytes", k.globalBytes},
          {"lmem_bytes", k.localBytes},
          {"stack_frame_bytes", k.stackFrameBytes},
          {"cumulative_stack_bytes", k.cumulativeStackBytes},
          {"spill_store_bytes", k.spillStoreBytes},
          {"spill_load_bytes", k.spillLoadBytes},
          {"barriers", k.barriers},
          {"has_usage_line", k.hasUsageLine}};
}

// The name without its parameter list, unless two functions would then look the same
// (overloads, template instances): the full signature is in --json either way.
std::string shortName(const toolchain::KernelResources& k,
                      const std::vector<toolchain::KernelResources>& all) {
  const auto base = [](const std::string& n) { return n.substr(0, n.find('(')); };
  for (const auto& other : all)
    if (other.mangledName != k.mangledName && base(other.name) == base(k.name)) return k.name;
  return base(k.name);
}

std::string table(const std::vector<toolchain::KernelResources>& kernels) {
  report::Table t({"function", "kind", "arch", "regs", "smem B", "cmem B", "param B", "lmem B",
                   "stack B", "spill st B", "spill ld B", "barriers"});
  for (const auto& k : kernels) {
    // A device function compiled into its caller has no "Used" line: its registers are the caller's.
    const auto regs = k.hasUsageLine ? std::to_string(k.registers) : std::string("-");
    t.addRow({shortName(k, kernels), k.isEntry ? "kernel" : "device fn", k.arch, regs,
              std::to_string(k.staticSharedBytes), std::to_string(k.constantBytes),
              std::to_string(k.parameterBytes), std::to_string(k.localBytes),
              std::to_string(k.stackFrameBytes), std::to_string(k.spillStoreBytes),
              std::to_string(k.spillLoadBytes), std::to_string(k.barriers)});
  }
  return t.render();
}

// nvcc's own warnings (everything that is not a ptxas resource line), for stderr.
std::string warningsOnly(const std::string& log) {
  std::istringstream in(log);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("ptxas info", 0) == 0) continue;
    if (line.find("bytes stack frame") != std::string::npos) continue;
    if (line.empty()) continue;
    out += line + "\n";
  }
  return out;
}

void run(const CompileArgs& a) {
  toolchain::CompileOptions options = a.compile;
  options.arch = a.arch;
  options.extraArgs.insert(options.extraArgs.end(), a.nvccArgs.begin(), a.nvccArgs.end());
  auto result = toolchain::compileCuda(a.file, options);
  if (!a.kernel.empty()) {
    std::vector<std::string> symbols;
    std::vector<std::size_t> entries;
    for (std::size_t i = 0; i < result.kernels.size(); ++i)
      if (result.kernels[i].isEntry) {
        symbols.push_back(result.kernels[i].mangledName);
        entries.push_back(i);
      }
    const toolchain::KernelResources chosen = result.kernels[entries[resolveKernelName(symbols, a.kernel, a.file)]];
    result.kernels = {chosen};
  }

  if (!a.ptxOut.empty()) {
    writeOutputFile(a.ptxOut, result.ptx);
  }
  if (!a.cubinOut.empty()) writeOutputFile(a.cubinOut, result.cubin);
  if (!a.sassOut.empty()) writeOutputFile(a.sassOut, toolchain::disassembleCubin(result.cubin));
  if (a.json) {
    nlohmann::json j{{"source", a.file}, {"arch", a.arch}, {"command", result.command},
                     {"kernels", nlohmann::json::array()}, {"log", result.log},
                     {"from_cache", result.fromCache}, {"notes", result.notes}};
    for (const auto& k : result.kernels) j["kernels"].push_back(toJson(k));
    if (!a.ptxOut.empty()) j["ptx_out"] = a.ptxOut;
    if (!a.cubinOut.empty()) j["cubin_out"] = a.cubinOut;
    if (!a.sassOut.empty()) j["sass_out"] = a.sassOut;
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cerr << warningsOnly(result.log);
  for (const auto& n : result.notes) std::cerr << "teg: note: " << n << "\n";
  std::cout << fmt::format("{} on {} ({} function{})\n", a.file, a.arch, result.kernels.size(),
                           result.kernels.size() == 1 ? "" : "s");
  std::cout << table(result.kernels);
  if (!a.ptxOut.empty()) std::cout << fmt::format("PTX written to {}\n", a.ptxOut);
  if (!a.cubinOut.empty()) std::cout << fmt::format("cubin written to {}\n", a.cubinOut);
  if (!a.sassOut.empty()) std::cout << fmt::format("SASS (nvdisasm -hex -gi -c) written to {}\n", a.sassOut);
}

}  // namespace

void registerCompileCommand(CLI::App& app, Context&) {
  auto args = std::make_shared<CompileArgs>();
  app.add_option("file", args->file, "The CUDA source (.cu) to compile")->required();
  app.add_option("--arch", args->arch, "Target architecture (sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, ...; sm_70 and sm_72 through CUDA 11.8's ptxas)")
      ->capture_default_str();
  app.add_option("--kernel", args->kernel,
                 "Show only this kernel: its plain name when unique (\"scale\"), with template arguments "
                 "(\"scale<float>\"), its signature or its mangled name");
  app.add_flag("--json", args->json, "Print JSON instead of a table");
  app.add_option("--ptx-out", args->ptxOut, "Write the module's PTX to this file");
  app.add_option("--cubin-out", args->cubinOut, "Write the cubin ptxas made of it to this file");
  app.add_option("--sass-out", args->sassOut,
                 "Write the cubin's disassembly (nvdisasm -hex -gi -c, what `teg sass` reads) to this file");
  addCompileFlags(app, args->compile);
  app.add_option("nvcc-args", args->nvccArgs,
                 "Extra nvcc arguments, after `--` (e.g. -- -maxrregcount=32 -DN=1024)");
  app.footer("Example: teg compile examples/kernels/vector_add.cu --arch sm_86 -- -maxrregcount=32\n");
  app.callback([args] { run(*args); });
}

}  // namespace teg::cli
