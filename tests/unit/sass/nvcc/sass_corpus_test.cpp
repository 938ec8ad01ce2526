// Every example kernel (examples/kernels/*.cu) compiled for every architecture CUDA 13 targets
// (sm_75 ... sm_120), its cubin disassembled by nvdisasm and read by teg::sass. Checked against
// what does not come from the SASS parser: ptxas's own report (-Xptxas -v: the kernels and their
// register counts) and the source file (line numbers inside it), plus the consistency of the
// control words with nvdisasm's text. One ctest case per kernel; label `nvcc`; skips without
// nvcc or nvdisasm.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "teg/sass/describe.hpp"
#include "teg/sass/parser.hpp"
#include "teg/sass/printer.hpp"
#include "teg/sass/stats.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace fs = std::filesystem;
using namespace teg;

namespace {

const char* const kArchs[] = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};

fs::path corpusDir() { return fs::path(TEG_SOURCE_DIR) / "examples" / "kernels"; }

std::vector<std::string> corpusNames() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(corpusDir()))
    if (e.path().extension() == ".cu") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool haveTools() {
  try {
    toolchain::findNvcc();
  } catch (const Error&) {
    return false;
  }
  return toolchain::haveNvdisasm();
}

int lineCount(const fs::path& p) {
  std::ifstream in(p);
  int n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

class SassCorpus : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(SassCorpus, EveryArchitectureDisassemblesAndParses) {
  if (!haveTools()) GTEST_SKIP() << "nvcc or nvdisasm not found (CUDA toolkit; scripts/install-deps.sh for nvdisasm)";
  const fs::path source = corpusDir() / (GetParam() + ".cu");
  const int lines = lineCount(source);
  for (const char* arch : kArchs) {
    SCOPED_TRACE(arch);
    toolchain::CompileOptions options;
    options.arch = arch;
    const toolchain::CompileResult compiled = toolchain::compileCuda(source.string(), options);
    ASSERT_FALSE(compiled.cubin.empty());
    const sass::Module m = sass::parseDisassembly(toolchain::disassembleCubin(compiled.cubin), GetParam() + ".sass");
    EXPECT_EQ(m.target, arch);

    // Each kernel ptxas reported is an entry function of the SASS, with ptxas's register count
    // when nvdisasm prints one.
    for (const auto& k : compiled.kernels) {
      if (!k.isEntry) continue;
      const sass::Function* f = m.findFunction(k.mangledName);
      ASSERT_NE(f, nullptr) << k.mangledName;
      EXPECT_TRUE(f->isEntry);
      if (f->registers >= 0) {
        EXPECT_EQ(f->registers, k.registers) << k.mangledName;
      }
      const sass::FunctionStats s = sass::computeStats(m, *f);
      EXPECT_GT(s.instructions, 0u);
      EXPECT_LE(s.registersUsed, k.registers) << k.mangledName;  // named registers fit the allocation
      // Every instruction has a trace description (no tensor-core code in the corpus), and the
      // registers it writes, 64-bit pairs and vector loads expanded, fit ptxas's allocation.
      const trace::KernelInfo info = sass::describeKernel(m, *f);
      for (const auto& si : info.instructions) {
        EXPECT_NE(si.kind, trace::InstrKind::Unmodelled) << si.text;
        for (std::uint32_t r : si.defs) {
          if (r < sass::kUniformRegisterBase) {
            EXPECT_LT(r, static_cast<std::uint32_t>(k.registers)) << si.text;
          }
        }
      }
    }
    for (const auto& f : m.functions) {
      std::uint8_t barriersSet = 0;
      for (const auto& ins : f.instructions) {
        if (ins.control.writeBarrier >= 0) barriersSet |= static_cast<std::uint8_t>(1u << ins.control.writeBarrier);
        if (ins.control.readBarrier >= 0) barriersSet |= static_cast<std::uint8_t>(1u << ins.control.readBarrier);
      }
      for (const auto& ins : f.instructions) {
        ASSERT_TRUE(ins.hasEncoding) << sass::formatInstruction(ins);
        const bool marked = std::any_of(ins.operands.begin(), ins.operands.end(), [](const sass::Operand& o) { return o.reuse; });
        EXPECT_EQ(marked, ins.control.reuse != 0) << sass::formatInstruction(ins);
        EXPECT_EQ(ins.control.waitMask & ~barriersSet, 0) << sass::formatInstruction(ins);
        if (ins.source < 0) continue;
        const auto& p = m.sources[static_cast<std::size_t>(ins.source)];
        // A line of the kernel's own file lies inside it (headers' lines are not checked).
        if (fs::path(p.file).filename() == source.filename()) {
          EXPECT_GE(p.line, 1);
          EXPECT_LE(p.line, lines);
        }
      }
    }
    const sass::Module again = sass::parseDisassembly(sass::printModule(m), "printed.sass");
    const auto difference = sass::firstDifference(m, again);
    EXPECT_FALSE(difference.has_value()) << *difference;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, SassCorpus, ::testing::ValuesIn(corpusNames()),
                         [](const auto& info) { return info.param; });
