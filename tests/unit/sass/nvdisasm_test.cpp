// nvdisasm on the committed cubins of matmul_shared.cu for every architecture CUDA 13 compiles
// (skips without nvdisasm), and the search that finds it.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "teg/sass/parser.hpp"
#include "teg/sass/printer.hpp"
#include "teg/sass/stats.hpp"
#include "test_inputs.hpp"

namespace fs = std::filesystem;
using namespace teg::sass;

TEST(SassNvdisasm, EveryArchitectureParses) {
  REQUIRE_NVDISASM();
  for (const char* arch : test::kArchitectures) {
    SCOPED_TRACE(arch);
    const std::string name = std::string("matmul_shared.") + arch + ".cubin";
    const Module m = parseDisassembly(teg::toolchain::disassembleCubin(test::readInput(name)), name);
    EXPECT_EQ(m.target, arch);
    ASSERT_EQ(m.functions.size(), 1u);
    const Function& f = m.functions[0];
    EXPECT_TRUE(f.isEntry);
    EXPECT_EQ(f.name, "_Z12matmulSharedPKfS0_Pfiii");
    const FunctionStats s = computeStats(m, f);
    EXPECT_EQ(s.loops, 1u);  // the tile loop
    // Each multiply-add of the tile loop (sum += As[ty][k] * Bs[k][tx], TILE = 16) reads one
    // word of As and one of Bs from shared memory, however ptxas groups the loads (LDS.128 for
    // the As row) and however often it copies them (for sm_100 and sm_120 ptxas emits 48 FFMA).
    const std::uint32_t ffma = s.mix.count("FFMA") ? s.mix.at("FFMA") : 0;
    EXPECT_EQ(ffma % 16, 0u);
    EXPECT_GE(ffma, 16u);
    std::uint32_t sharedWords = 0;
    for (const auto& ins : f.instructions) {
      if (ins.opcode == "LDS") sharedWords += static_cast<std::uint32_t>(*accessBytes(ins) / 4);
    }
    EXPECT_EQ(sharedWords, 2 * ffma);
    EXPECT_GT(s.mix.count("LDS.128"), 0u);
    for (const auto& ins : f.instructions) {
      ASSERT_TRUE(ins.hasEncoding);
      EXPECT_GE(ins.source, 0);
      // A global load always sets a write barrier (its latency is unknown); shared loads need
      // not: they complete in order, so ptxas may let a consumer wait on a later load's barrier.
      if (ins.opcode == "LDG") {
        EXPECT_GE(ins.control.writeBarrier, 0) << formatInstruction(ins);
      }
    }
  }
}

TEST(SassNvdisasm, NotACubinIsAnError) {
  REQUIRE_NVDISASM();
  EXPECT_THROW(teg::toolchain::disassembleCubin("this is not an ELF file"), teg::Error);
  EXPECT_THROW(teg::toolchain::disassembleCubin(""), teg::Error);
}

class FindCudaTool : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("teg-findtool-" + std::to_string(getpid()));
    fs::remove_all(root_);
    for (const char* d : {"path", "home/bin", "cuda", "tools/cuda/nvidia/cu13/bin"}) fs::create_directories(root_ / d);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string dir(const std::string& d) const { return (root_ / d).string(); }
  std::string make(const std::string& d, bool executable = true) const {
    const auto p = root_ / d / "nvdisasm";
    std::ofstream(p) << "#!/bin/sh\n";
    chmod(p.c_str(), executable ? 0755 : 0644);
    return p.string();
  }
  fs::path root_;
};

TEST_F(FindCudaTool, OrderIsOverridePathCudaHomeFallbacks) {
  using teg::toolchain::CudaToolSearch;
  using teg::toolchain::findCudaTool;
  const std::string wheel = make("tools/cuda/nvidia/cu13/bin");
  CudaToolSearch s{"", dir("path"), dir("home"), {dir("cuda"), dir("tools/cuda/nvidia/cu13/bin")}};
  EXPECT_EQ(findCudaTool("nvdisasm", s), wheel);  // only the project's tools dir has it
  const std::string cuda = make("cuda");
  EXPECT_EQ(findCudaTool("nvdisasm", s), cuda);
  const std::string home = make("home/bin");
  EXPECT_EQ(findCudaTool("nvdisasm", s), home);
  const std::string path = make("path");
  EXPECT_EQ(findCudaTool("nvdisasm", s), path);
  s.overridePath = wheel;
  EXPECT_EQ(findCudaTool("nvdisasm", s), wheel);  // the override wins
}

TEST_F(FindCudaTool, NotFoundAndBadOverride) {
  using teg::toolchain::CudaToolSearch;
  using teg::toolchain::findCudaTool;
  make("path", /*executable=*/false);
  CudaToolSearch s{"", dir("path"), "", {dir("cuda")}};
  EXPECT_EQ(findCudaTool("nvdisasm", s), std::nullopt);
  s.overridePath = dir("path") + "/nvdisasm";  // exists, not executable: the user's mistake, said
  EXPECT_THROW(findCudaTool("nvdisasm", s), teg::Error);
}
