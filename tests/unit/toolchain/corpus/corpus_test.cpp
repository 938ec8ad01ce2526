// The kernel corpus (examples/kernels): for every <name>.cu
//  - its launch sidecar <name>.launch.json reads as a launch description (teg::emu), names this
//    source and a kernel of it, and gives one argument per kernel parameter, buffers for pointers
//    and scalars of the parameter's type;
//  - nvcc compiles it for each architecture teg supports (sm_75 ... sm_120): the PTX targets that
//    architecture and holds the kernel's entry, ptxas reports the kernel with its static shared
//    memory equal to what the source declares (hand-counted below) and no spills;
//  - teg's PTX parser (teg::ptx) reads each of those PTX modules without a warning, and finds the
//    kernel as an entry with a body and one .param per launch argument.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "teg/emu/launch.hpp"
#include "teg/ptx/compare.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/ptx/printer.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"
#include "teg/toolchain/compiler.hpp"

namespace fs = std::filesystem;
using namespace teg;

namespace {

const char* const kArchs[] = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"};

fs::path corpusDir() { return fs::path(TEG_SOURCE_DIR) / "examples" / "kernels"; }

// Static shared memory each kernel declares, counted from its source by hand (4-byte elements).
const std::map<std::string, int> kStaticSmem = {
    {"vector_add", 0},
    {"saxpy", 0},
    {"reduce_interleaved", 256 * 4},        // int sdata[256]
    {"reduce_sequential", 256 * 4},
    {"reduce_unrolled", 256 * 4},
    {"reduce_warp_shuffle", 32 * 4},        // int warpSums[32]
    {"inclusive_scan", 2 * 512 * 4},        // int buf[2][512]
    {"transpose_naive", 0},
    {"transpose_shared", 32 * 32 * 4},      // float tile[32][32]
    {"transpose_padded", 32 * 33 * 4},      // float tile[32][33]
    {"matmul_naive", 0},
    {"matmul_shared", 2 * 16 * 16 * 4},     // As, Bs [16][16]
    {"matmul_abt_conflict", 2 * 16 * 16 * 4},
    {"matmul_abt_padded", 16 * 16 * 4 + 16 * 17 * 4},  // As[16][16], Bs[16][17]
    {"sgemm_register_blocked", 16 * 17 * 4},           // bs[16][17]
    {"stencil2d", 0},
    {"stencil3d", 0},
    {"histogram", 256 * 4},                 // unsigned local[256]
    {"softmax", 256 * 4},                   // float scratch[256]
    {"spmv_csr", 0},
    {"bitonic_sort", 1024 * 4},             // unsigned s[1024]
    {"nbody", 0},                           // the tile is dynamic shared memory
    {"black_scholes", 0},
    {"apsp_minplus", 2 * 16 * 16 * 4},      // rowTile, colTile [16][16]
    {"floyd_warshall", 0},
    {"convolution2d", 16 * 16 * 4},         // float tile[16][16]
};

std::vector<std::string> corpusNames() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(corpusDir()))
    if (e.path().extension() == ".cu") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool haveNvcc() {
  try {
    toolchain::findNvcc();
    return true;
  } catch (const Error&) {
    return false;
  }
}

// The parameter types of a demangled signature: "f(float const*, int)" -> {"float const*", "int"}.
std::vector<std::string> parameterTypes(const std::string& demangled) {
  const auto open = demangled.find('('), close = demangled.rfind(')');
  std::vector<std::string> types;
  if (open == std::string::npos || close == std::string::npos || close == open + 1) return types;
  std::string cur;
  int depth = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    const char c = demangled[i];
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      types.push_back(cur);
      cur.clear();
    } else if (!(c == ' ' && cur.empty())) {
      cur += c;
    }
  }
  types.push_back(cur);
  return types;
}

// The launch type a C++ parameter type takes ("float const*" -> "f32"), float4 as f32 elements.
std::string launchTypeOf(std::string cxx) {
  for (const char* strip : {" const", "*"})
    for (auto p = cxx.find(strip); p != std::string::npos; p = cxx.find(strip)) cxx.erase(p, std::strlen(strip));
  static const std::map<std::string, std::string> map = {
      {"float", "f32"}, {"float4", "f32"},        {"double", "f64"},
      {"int", "i32"},   {"unsigned int", "u32"},  {"unsigned char", "u8"},
      {"long", "i64"},  {"unsigned long", "u64"}};
  const auto it = map.find(cxx);
  return it == map.end() ? "?" + cxx : it->second;
}

class Corpus : public ::testing::TestWithParam<std::string> {};

TEST_P(Corpus, CompilesEverywhereWithTheResourcesItDeclares) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc not found (install the CUDA toolkit to run the corpus test)";
  const std::string name = GetParam();
  const auto cu = corpusDir() / (name + ".cu");
  const auto sidecar = corpusDir() / (name + ".launch.json");
  ASSERT_TRUE(fs::exists(sidecar)) << sidecar;
  ASSERT_TRUE(kStaticSmem.count(name)) << name << " is missing from kStaticSmem";

  // The sidecar, through the launch-description reader step 3 uses.
  const emu::LaunchDescription launch = emu::readLaunchFile(sidecar.string());
  EXPECT_EQ(fs::path(launch.source).filename(), cu.filename());
  EXPECT_LE(launch.block.count(), 1024u);
  EXPECT_LE(kStaticSmem.at(name) + static_cast<int>(launch.dynamicSmem), 48 * 1024);
  // The sidecar's extra fields follow the draft: a description for people.
  const auto json = readJsonFile(sidecar.string());
  EXPECT_TRUE(json.contains("description")) << sidecar;

  for (const char* arch : kArchs) {
    SCOPED_TRACE(arch);
    toolchain::CompileOptions options;
    options.arch = arch;
    const toolchain::CompileResult r = toolchain::compileCuda(cu.string(), options);
    EXPECT_NE(r.ptx.find(std::string(".target ") + arch), std::string::npos);

    const auto k = std::find_if(r.kernels.begin(), r.kernels.end(), [&](const auto& f) {
      return f.isEntry && f.name.substr(0, f.name.find('(')) == launch.kernel;
    });
    ASSERT_NE(k, r.kernels.end()) << launch.kernel << " not among the kernels ptxas reported";
    EXPECT_EQ(k->arch, arch);
    EXPECT_NE(r.ptx.find(".entry " + k->mangledName), std::string::npos);
    EXPECT_GT(k->registers, 0);
    EXPECT_LE(k->registers, 255);
    EXPECT_EQ(k->staticSharedBytes, kStaticSmem.at(name));
    EXPECT_EQ(k->spillStoreBytes, 0);
    EXPECT_EQ(k->spillLoadBytes, 0);

    const ptx::Module module = ptx::parseModule(r.ptx, name + "." + arch + ".ptx");
    // Round trip: parse -> print -> parse gives the same IR.
    const ptx::Module again = ptx::parseModule(ptx::printModule(module), name + "." + arch + ".printed.ptx");
    const auto difference = ptx::firstDifference(module, again);
    EXPECT_FALSE(difference.has_value()) << name << " " << arch << ": " << difference.value_or("");
    for (const auto& w : module.warnings) ADD_FAILURE() << w.where.str() << ": " << w.message;
    ASSERT_FALSE(module.target.empty());
    EXPECT_EQ(module.target.front(), arch);
    const ptx::Function* entry = module.findFunction(k->mangledName);
    ASSERT_NE(entry, nullptr) << k->mangledName << " not in the parsed module";
    EXPECT_TRUE(entry->isEntry);
    EXPECT_TRUE(entry->hasBody);
    EXPECT_FALSE(entry->instructions.empty());
    EXPECT_EQ(entry->params.size(), launch.args.size());

    if (std::string(arch) == "sm_80") {  // the signature is the same on every architecture
      const auto params = parameterTypes(k->name);
      ASSERT_EQ(params.size(), launch.args.size()) << k->name;
      for (std::size_t i = 0; i < params.size(); ++i) {
        SCOPED_TRACE(launch.args[i].name);
        const bool pointer = params[i].find('*') != std::string::npos;
        EXPECT_EQ(launch.args[i].isBuffer(), pointer) << params[i];
        const auto type = launch.args[i].isBuffer()
                              ? std::get<emu::BufferArg>(launch.args[i].value).type
                              : std::get<emu::ScalarArg>(launch.args[i].value).type;
        EXPECT_EQ(emu::scalarTypeName(type), launchTypeOf(params[i])) << params[i];
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, Corpus, ::testing::ValuesIn(corpusNames()),
                         [](const auto& info) { return info.param; });

TEST(CorpusIndex, EveryKernelHasASidecarAndAnExpectation) {
  const auto names = corpusNames();
  EXPECT_GE(names.size(), 26u);
  for (const auto& n : names) {
    EXPECT_TRUE(fs::exists(corpusDir() / (n + ".launch.json"))) << n;
    EXPECT_TRUE(kStaticSmem.count(n)) << n;
  }
}

}  // namespace
