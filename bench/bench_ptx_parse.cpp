// PTX front-end throughput: parse (lexer, parser, CFG) over the committed real nvcc 13 output
// (tests/unit/ptx/inputs/nvcc13_*.ptx, sm_80..sm_120, -lineinfo and -G), reported as bytes/s,
// plus the IR's memory per instruction. Aim (issue 3): >= 50 MB/s on one core.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "teg/ptx/def_use.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/ptx/printer.hpp"
#include "teg/ptx/stats.hpp"

namespace {

struct Input {
  std::string name;
  std::string text;
};

std::vector<Input> loadInputs(bool debugOnly) {
  std::vector<Input> inputs;
  const std::string dir = std::string(TEG_SOURCE_DIR) + "/tests/unit/ptx/inputs";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".ptx" || name.rfind("nvcc13_", 0) != 0) continue;
    if (debugOnly != (name.find("debug") != std::string::npos)) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    inputs.push_back({name, s.str()});
  }
  std::sort(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) { return a.name < b.name; });
  return inputs;
}

void parseAll(benchmark::State& state, bool debugOnly) {
  const auto inputs = loadInputs(debugOnly);
  std::size_t bytes = 0;
  for (const auto& i : inputs) bytes += i.text.size();
  std::size_t instructions = 0, irBytes = 0;
  for (const auto& i : inputs) {
    const auto m = teg::ptx::parseModule(i.text, i.name);
    for (const auto& f : m.functions) {
      instructions += f.instructions.size();
      irBytes += teg::ptx::irBytes(f);
    }
  }
  for (auto _ : state) {
    for (const auto& i : inputs) benchmark::DoNotOptimize(teg::ptx::parseModule(i.text, i.name));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["files"] = static_cast<double>(inputs.size());
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["ir_bytes_per_instr"] = static_cast<double>(irBytes) / static_cast<double>(std::max<std::size_t>(1, instructions));
  state.counters["instr_per_s"] = benchmark::Counter(static_cast<double>(instructions) * static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate);
}

// A large kernel as nvcc emits for heavy unrolling: the optimised inputs' function bodies
// repeated (renamed) into one module of several MB.
std::string bigModule() {
  std::string out = ".version 9.0\n.target sm_80\n.address_size 64\n";
  const auto inputs = loadInputs(false);
  for (int copy = 0; copy < 40; ++copy) {
    for (const auto& i : inputs) {
      if (i.name.find("sm80") == std::string::npos) continue;
      const auto m = teg::ptx::parseModule(i.text, i.name);
      std::string text = teg::ptx::printModule(m);
      text = text.substr(text.find("\n\n") + 2);  // drop the module directives
      // Rename every global symbol by suffixing the copy number to names starting with _Z/$str/__.
      std::string renamed;
      renamed.reserve(text.size() + text.size() / 8);
      for (std::size_t p = 0; p < text.size();) {
        const bool start = (p == 0 || !(std::isalnum(static_cast<unsigned char>(text[p - 1])) || text[p - 1] == '_' || text[p - 1] == '$'));
        if (start && (text.compare(p, 2, "_Z") == 0 || text.compare(p, 4, "$str") == 0 || text.compare(p, 2, "__") == 0 ||
                      text.compare(p, 6, "coeffs") == 0 || text.compare(p, 7, "counter") == 0 || text.compare(p, 3, "dyn") == 0 ||
                      text.compare(p, 7, "vprintf") == 0)) {
          std::size_t q = p;
          while (q < text.size() && (std::isalnum(static_cast<unsigned char>(text[q])) || text[q] == '_' || text[q] == '$')) ++q;
          renamed.append(text, p, q - p);
          renamed += "_c" + std::to_string(copy);
          p = q;
        } else {
          renamed += text[p++];
        }
      }
      out += renamed;
    }
  }
  return out;
}

void BM_ParseRealNvccOutput(benchmark::State& state) { parseAll(state, false); }
void BM_ParseDebugNvccOutput(benchmark::State& state) { parseAll(state, true); }

void BM_ParseLargeModule(benchmark::State& state) {
  const std::string text = bigModule();
  const auto m = teg::ptx::parseModule(text, "big.ptx");
  std::size_t instructions = 0, irBytes = 0;
  for (const auto& f : m.functions) {
    instructions += f.instructions.size();
    irBytes += teg::ptx::irBytes(f);
  }
  for (auto _ : state) benchmark::DoNotOptimize(teg::ptx::parseModule(text, "big.ptx"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["ir_bytes_per_instr"] = static_cast<double>(irBytes) / static_cast<double>(std::max<std::size_t>(1, instructions));
}

void BM_DefUseChains(benchmark::State& state) {
  const auto inputs = loadInputs(false);
  std::vector<teg::ptx::Module> modules;
  std::size_t instructions = 0;
  for (const auto& i : inputs) {
    modules.push_back(teg::ptx::parseModule(i.text, i.name));
    for (const auto& f : modules.back().functions) instructions += f.instructions.size();
  }
  for (auto _ : state)
    for (const auto& m : modules)
      for (const auto& f : m.functions)
        if (f.hasBody) benchmark::DoNotOptimize(teg::ptx::DefUseChains(f));
  state.counters["instr_per_s"] = benchmark::Counter(static_cast<double>(instructions) * static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate);
}

// Issue 24: straight-line code redefining a few registers (an unrolled accumulation), 50k
// instructions in one block: quadratic in the block's length before the program-order walk.
void BM_DefUseStraightLine(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  std::string text = ".version 9.0\n.target sm_80\n.entry k()\n{\n\t.reg .f32 %f<5>;\n"
                     "\tmov.f32 %f1, 0f3F800000;\n\tmov.f32 %f2, 0f40000000;\n";
  for (int i = 0; i < n; ++i)
    text += "\tfma.rn.f32 %f" + std::to_string(3 + i % 2) + ", %f" + std::to_string(i == 0 ? 1 : 3 + (i + 1) % 2) +
            ", %f2, %f1;\n";
  text += "\tret;\n}\n";
  const auto m = teg::ptx::parseModule(text, "straight.ptx");
  for (auto _ : state) benchmark::DoNotOptimize(teg::ptx::DefUseChains(m.functions[0]));
  state.counters["instr_per_s"] =
      benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_ParseRealNvccOutput)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseDebugNvccOutput)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseLargeModule)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DefUseChains)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DefUseStraightLine)->Arg(5000)->Arg(50000)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
