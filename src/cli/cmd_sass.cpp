// `teg sass`: read the SASS the GPU runs. `print` lists each kernel's instructions with the
// decoded control word (stall, yield, barriers, wait mask, reuse) and the source line beside
// each; `stats` gives the instruction mix per kernel, basic block and source line. The input is
// a .cu (compiled with nvcc, its cubin disassembled with nvdisasm), a .cubin (disassembled), or
// nvdisasm's text itself (any other name). `lines` is the source view: each CUDA line's text,
// then the SASS attributed to it, with the line's mix, loads by width and stall cycles.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "compile_flags.hpp"
#include "teg/report/table.hpp"
#include "teg/sass/cfg.hpp"
#include "teg/sass/lines.hpp"
#include "teg/sass/parser.hpp"
#include "teg/sass/printer.hpp"
#include "teg/sass/stats.hpp"
#include "teg/support/input_file.hpp"
#include "teg/support/kernel_name.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::cli {
namespace {

using nlohmann::json;

bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct Options {
  std::string file;
  std::string arch = "sm_80";
  std::string kernel;
  bool json = false;
  bool allFunctions = false;
  std::string sourceDir;  // lines: where to find sources whose printed path does not exist here
  toolchain::CompileOptions compile;
};

sass::Module readModule(const Options& o) {
  if (endsWith(o.file, ".cu")) {
    toolchain::CompileOptions options = o.compile;
    options.arch = o.arch;
    const toolchain::CompileResult result = toolchain::compileCuda(o.file, options);
    return sass::parseDisassembly(toolchain::disassembleCubin(result.cubin), o.file + " (nvdisasm)");
  }
  if (endsWith(o.file, ".cubin"))
    return sass::parseDisassembly(toolchain::disassembleCubin(readInputFile(o.file)), o.file + " (nvdisasm)");
  return sass::parseDisassemblyFile(o.file);
}

// The functions to show: the one --kernel names, else the kernels (and with --functions the
// subroutines ptxas kept beside them).
std::vector<const sass::Function*> selected(const sass::Module& m, const Options& o) {
  std::vector<const sass::Function*> out;
  if (!o.kernel.empty()) {
    std::vector<std::string> names;
    for (const auto& f : m.functions) names.push_back(f.name);
    out.push_back(&m.functions[resolveKernelName(names, o.kernel, o.file)]);
    return out;
  }
  for (const auto& f : m.functions)
    if (f.isEntry || o.allFunctions) out.push_back(&f);
  return out;
}

std::string sourceText(const sass::Module& m, int index, bool fullPaths) {
  if (index < 0) return "";
  const auto& p = m.sources[static_cast<std::size_t>(index)];
  const auto name = [&](const std::string& f) { return fullPaths ? f : std::filesystem::path(f).filename().string(); };
  std::string out = fmt::format("{}:{}", name(p.file), p.line);
  for (const auto& [file, line] : p.inlinedAt) out += fmt::format(" < {}:{}", name(file), line);
  return out;
}

json sourceJson(const sass::Module& m, int index) {
  if (index < 0) return nullptr;
  const auto& p = m.sources[static_cast<std::size_t>(index)];
  json inlined = json::array();
  for (const auto& [file, line] : p.inlinedAt) inlined.push_back({{"file", file}, {"line", line}});
  return {{"file", p.file}, {"line", p.line}, {"inlined_at", inlined}};
}

const char* kindName(sass::OperandKind k) {
  switch (k) {
    case sass::OperandKind::Register: return "register";
    case sass::OperandKind::UniformRegister: return "uniform_register";
    case sass::OperandKind::Predicate: return "predicate";
    case sass::OperandKind::UniformPredicate: return "uniform_predicate";
    case sass::OperandKind::SpecialRegister: return "special_register";
    case sass::OperandKind::ConvergenceBarrier: return "convergence_barrier";
    case sass::OperandKind::ConstantBank: return "constant_bank";
    case sass::OperandKind::Memory: return "memory";
    case sass::OperandKind::Immediate: return "immediate";
    case sass::OperandKind::FloatImmediate: return "float_immediate";
    case sass::OperandKind::Label: return "label";
    case sass::OperandKind::Other: return "other";
  }
  return "other";
}

json controlJson(const sass::Control& c) {
  json wait = json::array();
  for (int i = 0; i < 6; ++i)
    if ((c.waitMask >> i) & 1) wait.push_back(i);
  json reuse = json::array();
  for (int i = 0; i < 4; ++i)
    if ((c.reuse >> i) & 1) reuse.push_back(std::string(1, static_cast<char>('a' + i)));
  return {{"stall", c.stall},
          {"yield", c.yield},
          {"write_barrier", c.writeBarrier < 0 ? json(nullptr) : json(c.writeBarrier)},
          {"read_barrier", c.readBarrier < 0 ? json(nullptr) : json(c.readBarrier)},
          {"wait", wait},
          {"reuse", reuse},
          {"text", sass::formatControl(c)}};
}

json instructionJson(const sass::Module& m, const sass::Instruction& ins, std::size_t block) {
  json operands = json::array();
  for (const auto& op : ins.operands) operands.push_back({{"text", op.text}, {"kind", kindName(op.kind)}});
  json j = {{"address", ins.address},
            {"text", sass::formatInstruction(ins)},
            {"opcode", ins.opcode},
            {"modifiers", ins.modifiers},
            {"guard", ins.guard ? json(ins.guard->text) : json(nullptr)},
            {"operands", operands},
            {"block", block},
            {"source", sourceJson(m, ins.source)}};
  if (const auto bytes = sass::accessBytes(ins)) {
    j["access_bytes"] = *bytes;
    j["memory_space"] = *sass::memorySpace(ins);
  }
  if (ins.hasEncoding) {
    j["encoding"] = fmt::format("0x{:016x}{:016x}", ins.high, ins.low);
    j["control"] = controlJson(ins.control);
  }
  return j;
}

void runPrint(const Options& o) {
  const sass::Module m = readModule(o);
  const auto functions = selected(m, o);
  if (o.json) {
    json out = {{"file", o.file}, {"target", m.target}, {"functions", json::array()}};
    for (const auto* f : functions) {
      const sass::ControlFlowGraph cfg = sass::buildCfg(*f);
      json instructions = json::array();
      for (std::size_t i = 0; i < f->instructions.size(); ++i)
        instructions.push_back(instructionJson(m, f->instructions[i], cfg.blockOf[i]));
      out["functions"].push_back({{"name", demangle(f->name)},
                                  {"mangled", f->name},
                                  {"entry", f->isEntry},
                                  {"registers", f->registers < 0 ? json(nullptr) : json(f->registers)},
                                  {"instructions", instructions}});
    }
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << fmt::format("{}: SASS for {}\n", o.file, m.target.empty() ? "?" : m.target);
  std::cout << "control: reuse(abcd):B wait mask:R read barrier:W write barrier:Y yield:S stall cycles\n";
  for (const auto* f : functions) {
    const sass::ControlFlowGraph cfg = sass::buildCfg(*f);
    std::cout << fmt::format("\n{} {}{}\n", f->isEntry ? "kernel" : "function", demangle(f->name),
                             f->registers >= 0 ? fmt::format(" ({} registers)", f->registers) : "");
    std::size_t block = static_cast<std::size_t>(-1);
    for (std::size_t i = 0; i < f->instructions.size(); ++i) {
      const sass::Instruction& ins = f->instructions[i];
      for (const auto& [name, at] : f->labels)
        if (at == i) std::cout << name << ":\n";
      if (cfg.blockOf[i] != block) {
        block = cfg.blockOf[i];
        const auto& b = cfg.blocks[block];
        std::string succ;
        for (const auto s : b.successors) succ += (succ.empty() ? "" : ", ") + std::to_string(s);
        std::cout << fmt::format("  // block {}{} -> {}\n", block,
                                 b.loopDepth > 0 ? fmt::format(" (loop depth {})", b.loopDepth) : "",
                                 succ.empty() ? (b.indirectExit ? "indirect" : "end") : succ);
      }
      std::cout << fmt::format("  /*{:04x}*/ {:<48} {:<24} {}\n", ins.address, sass::formatInstruction(ins) + " ;",
                               ins.hasEncoding ? sass::formatControl(ins.control) : "",
                               sourceText(m, ins.source, false));
    }
  }
}

std::string mixText(const sass::OpcodeMix& mix) {
  std::vector<std::pair<std::string, std::uint32_t>> order(mix.begin(), mix.end());
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (const auto& [key, count] : order) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", key, count);
  return out;
}

void runStats(const Options& o) {
  const sass::Module m = readModule(o);
  std::vector<sass::FunctionStats> stats;
  for (const auto* f : selected(m, o)) stats.push_back(sass::computeStats(m, *f));
  if (o.json) {
    json kernels = json::array();
    for (const auto& s : stats) {
      json blocks = json::array();
      for (const auto& b : s.blocks)
        blocks.push_back({{"block", b.block}, {"address", b.firstAddress}, {"instructions", b.instructions},
                          {"loop_depth", b.loopDepth}, {"mix", b.mix}});
      json lines = json::array();
      for (const auto& l : s.lines)
        lines.push_back({{"source", sourceJson(m, l.source)}, {"instructions", l.instructions}, {"mix", l.mix}});
      kernels.push_back({{"name", demangle(s.name)},
                         {"mangled", s.name},
                         {"entry", s.isEntry},
                         {"instructions", s.instructions},
                         {"nops", s.nops},
                         {"basic_blocks", s.basicBlocks},
                         {"loops", s.loops},
                         {"max_loop_depth", s.maxLoopDepth},
                         {"registers", s.registersReported < 0 ? json(nullptr) : json(s.registersReported)},
                         {"registers_named", s.registersUsed},
                         {"vector_accesses", s.vectorAccesses},
                         {"stall_cycles", s.stallCycles},
                         {"mix", s.mix},
                         {"blocks", blocks},
                         {"lines", lines}});
    }
    std::cout << json{{"file", o.file}, {"target", m.target}, {"kernels", kernels}}.dump(2) << "\n";
    return;
  }
  report::Table table({"kernel", "instrs", "nops", "blocks", "loops", "depth", "regs", "vector mem", "stall cycles"});
  for (const auto& s : stats)
    table.addRow({demangle(s.name), std::to_string(s.instructions), std::to_string(s.nops), std::to_string(s.basicBlocks),
                  std::to_string(s.loops), std::to_string(s.maxLoopDepth),
                  s.registersReported >= 0 ? std::to_string(s.registersReported) : fmt::format(">={}", s.registersUsed),
                  std::to_string(s.vectorAccesses), std::to_string(s.stallCycles)});
  std::cout << fmt::format("{}: SASS for {}\n\n", o.file, m.target.empty() ? "?" : m.target);
  std::cout << table.render();
  for (const auto& s : stats) {
    std::cout << fmt::format("\n{}\n  mix: {}\n  per basic block:\n", demangle(s.name), mixText(s.mix));
    for (const auto& b : s.blocks)
      std::cout << fmt::format("    {:>3} /*{:04x}*/ {:>4} instrs{}: {}\n", b.block, b.firstAddress, b.instructions,
                               b.loopDepth > 0 ? fmt::format(" loop depth {}", b.loopDepth) : "", mixText(b.mix));
    std::cout << "  per source line:\n";
    for (const auto& l : s.lines)
      std::cout << fmt::format("    {:<28} {:>4} instrs: {}\n", l.source < 0 ? std::string("(no line)") : sourceText(m, l.source, false),
                               l.instructions, mixText(l.mix));
  }
}

// The text of source lines, read once per file. nvdisasm prints the path nvcc was given; when
// that path does not exist here (a cubin from elsewhere), the file of that name in --source-dir,
// else beside the input.
class SourceTexts {
 public:
  SourceTexts(std::string input, std::string sourceDir) : input_(std::move(input)), sourceDir_(std::move(sourceDir)) {}
  std::string line(const std::string& file, int line) {
    auto it = files_.find(file);
    if (it == files_.end()) it = files_.emplace(file, load(file)).first;
    const auto& lines = it->second;
    if (line < 1 || static_cast<std::size_t>(line) > lines.size()) return "";
    return lines[static_cast<std::size_t>(line - 1)];
  }

 private:
  std::vector<std::string> load(const std::string& file) const {
    namespace fs = std::filesystem;
    fs::path path = file;
    if (!fs::exists(path) && !sourceDir_.empty()) path = fs::path(sourceDir_) / fs::path(file).filename();
    if (!fs::exists(path)) path = fs::path(input_).parent_path() / fs::path(file).filename();
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }
  std::string input_, sourceDir_;
  std::map<std::string, std::vector<std::string>> files_;
};

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::string loadsText(const char* opcode, const std::map<int, std::uint32_t>& loads) {
  std::string out;
  for (const auto& [bytes, n] : loads)
    out += fmt::format("{}{}{} x{}", out.empty() ? "" : ", ", opcode, bytes > 4 ? fmt::format(".{}", bytes * 8) : "", n);
  return out;
}

json loadsJson(const std::map<int, std::uint32_t>& loads) {
  json j = json::object();
  for (const auto& [bytes, n] : loads) j[std::to_string(bytes * 8)] = n;
  return j;
}

std::string inlinedText(const sass::Module& m, int source) {
  if (source < 0) return "";
  std::string out;
  for (const auto& [file, line] : m.sources[static_cast<std::size_t>(source)].inlinedAt)
    out += fmt::format(" < {}:{}", std::filesystem::path(file).filename().string(), line);
  return out.empty() ? "" : "inlined at" + out.substr(2);
}

void runLines(const Options& o) {
  const sass::Module m = readModule(o);
  SourceTexts texts(o.file, o.sourceDir);
  if (o.json) {
    json kernels = json::array();
    for (const auto* f : selected(m, o)) {
      json lines = json::array();
      for (const auto& v : sass::sourceLineViews(m, *f)) {
        json sassRows = json::array();
        for (const std::size_t i : v.instructions) {
          const sass::Instruction& ins = f->instructions[i];
          json row = {{"address", ins.address}, {"text", sass::formatInstruction(ins)}};
          json inlined = json::array();
          if (ins.source >= 0)
            for (const auto& [file, line] : m.sources[static_cast<std::size_t>(ins.source)].inlinedAt)
              inlined.push_back({{"file", file}, {"line", line}});
          row["inlined_at"] = inlined;
          if (ins.hasEncoding) row["control"] = sass::formatControl(ins.control), row["stall"] = ins.control.stall;
          sassRows.push_back(row);
        }
        lines.push_back({{"file", v.file.empty() ? json(nullptr) : json(v.file)},
                         {"line", v.line == 0 ? json(nullptr) : json(v.line)},
                         {"text", v.file.empty() ? json(nullptr) : json(texts.line(v.file, v.line))},
                         {"instructions", v.instructions.size()},
                         {"mix", v.mix},
                         {"shared_loads", loadsJson(v.sharedLoads)},
                         {"global_loads", loadsJson(v.globalLoads)},
                         {"stall_cycles", v.stallCycles},
                         {"sass", sassRows}});
      }
      kernels.push_back({{"name", demangle(f->name)}, {"mangled", f->name}, {"lines", lines}});
    }
    std::cout << json{{"file", o.file}, {"target", m.target}, {"kernels", kernels}}.dump(2) << "\n";
    return;
  }
  std::cout << fmt::format("{}: CUDA source lines with their SASS for {}\n", o.file, m.target.empty() ? "?" : m.target);
  std::cout << "per line: instructions, stall cycles (sum of the control words' counts), mix, loads by width\n";
  for (const auto* f : selected(m, o)) {
    std::cout << fmt::format("\n{} {}\n", f->isEntry ? "kernel" : "function", demangle(f->name));
    for (const auto& v : sass::sourceLineViews(m, *f)) {
      const std::string where = v.file.empty() ? std::string("(no line)")
                                               : fmt::format("{}:{}", std::filesystem::path(v.file).filename().string(), v.line);
      std::cout << fmt::format("\n{:<22} {}\n", where, v.file.empty() ? "" : trimmed(texts.line(v.file, v.line)));
      std::string loads = loadsText("LDS", v.sharedLoads);
      const std::string global = loadsText("LDG", v.globalLoads);
      if (!global.empty()) loads += (loads.empty() ? "" : ", ") + global;
      std::cout << fmt::format("  {} instrs, {} stall cycles; {}{}\n", v.instructions.size(), v.stallCycles, mixText(v.mix),
                               loads.empty() ? "" : "; loads: " + loads);
      for (const std::size_t i : v.instructions) {
        const sass::Instruction& ins = f->instructions[i];
        std::cout << fmt::format("    /*{:04x}*/ {:<48} {:<24} {}\n", ins.address, sass::formatInstruction(ins) + " ;",
                                 ins.hasEncoding ? sass::formatControl(ins.control) : "", inlinedText(m, ins.source));
      }
    }
  }
}

}  // namespace

void registerSassCommand(CLI::App& app, Context&) {
  app.require_subcommand(1);
  auto options = std::make_shared<Options>();
  const auto common = [&](CLI::App* sub) {
    sub->add_option("file", options->file,
                    "A .cu (compiled, then disassembled), a .cubin (disassembled) or nvdisasm's text")
        ->required()
        ->check(CLI::ExistingFile);
    sub->add_option("--arch", options->arch, "Target for a .cu input (sm_70 ... sm_120; sm_70 and sm_72 through CUDA 11.8's ptxas)")->capture_default_str();
    sub->add_option("--kernel", options->kernel,
                    "Only this kernel: its plain name when unique, with template arguments, its signature or its "
                    "mangled name");
    sub->add_flag("--json", options->json, "Machine-readable output");
    sub->add_flag("--functions", options->allFunctions, "Include the subroutines beside the kernels");
    addCompileFlags(*sub, options->compile);
  };
  CLI::App* print = app.add_subcommand("print", "Each instruction with its decoded control word and source line");
  common(print);
  print->callback([options] { runPrint(*options); });
  CLI::App* stats = app.add_subcommand("stats", "Instruction mix per kernel, basic block and source line");
  common(stats);
  stats->callback([options] { runStats(*options); });
  CLI::App* lines = app.add_subcommand(
      "lines", "Each CUDA source line with its SASS (as Nsight Compute's source view), its mix, loads and stall cycles");
  common(lines);
  lines->add_option("--source-dir", options->sourceDir,
                    "Where to find the source files when the paths nvdisasm prints do not exist here (by file name)")
      ->check(CLI::ExistingDirectory);
  lines->callback([options] { runLines(*options); });
  app.footer("nvdisasm comes from the CUDA toolkit or PyPI (scripts/install-deps.sh puts it in build/tools/cuda;\n"
             "TEG_NVDISASM=/path/to/nvdisasm overrides the search).\n");
}

}  // namespace teg::cli
