// parsePtxasVerbose on real nvcc 13.0 logs (tests/unit/toolchain/data/README.md says how each was
// captured). The expected figures are read off the log text by eye, and where possible checked
// against the source: e.g. the SGEMM's shared tile is float bs[16][17] = 16 * 17 * 4 = 1088 bytes.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "teg/toolchain/compiler.hpp"

using teg::toolchain::KernelResources;
using teg::toolchain::parsePtxasVerbose;

namespace {

std::string capturedLog(const std::string& name) {
  std::ifstream in(std::string(TEG_SOURCE_DIR) + "/tests/unit/toolchain/data/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(PtxasLog, RegisterBlockedSgemmOnSm80) {
  const auto k = parsePtxasVerbose(capturedLog("sgemm_sm80.log"));
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].mangledName, "_Z20sgemmRegisterBlockediiifPKfiS0_ifPfi");
  EXPECT_EQ(k[0].name,
            "sgemmRegisterBlocked(int, int, int, float, float const*, int, float const*, int, float, "
            "float*, int)");
  EXPECT_EQ(k[0].arch, "sm_80");
  EXPECT_TRUE(k[0].isEntry);
  EXPECT_TRUE(k[0].hasUsageLine);
  EXPECT_EQ(k[0].registers, 106);
  EXPECT_EQ(k[0].barriers, 1);                 // __syncthreads uses barrier 0
  EXPECT_EQ(k[0].staticSharedBytes, 16 * 17 * 4);
  // Parameters: 3 ints (12) + float (4) = 16, pointer A at 16 (24), int lda (28), pointer B at
  // 32 (40), int ldb, float beta (48), pointer C at 48 (56), int ldc (60): 60 bytes of the 412
  // ptxas reports; sm_80 puts the parameters at offset 0x160 = 352 of cmem[0]: 352 + 60 = 412.
  EXPECT_EQ(k[0].parameterBytes, 352 + 60);
  EXPECT_EQ(k[0].constantBytes, 0);
  EXPECT_EQ(k[0].spillStoreBytes, 0);
  EXPECT_EQ(k[0].spillLoadBytes, 0);
  EXPECT_EQ(k[0].stackFrameBytes, 0);
}

TEST(PtxasLog, SpillsUnderMaxrregcount) {
  const auto k = parsePtxasVerbose(capturedLog("sgemm_sm80_maxrreg16.log"));
  ASSERT_EQ(k.size(), 1u);  // the "Overriding maximum register limit" line names no new function
  EXPECT_EQ(k[0].registers, 24);  // ptxas raised 16 to sm_80's lower bound, 24 (its warning says so)
  EXPECT_EQ(k[0].spillStoreBytes, 1356);
  EXPECT_EQ(k[0].spillLoadBytes, 1324);
  EXPECT_EQ(k[0].stackFrameBytes, 856);
  EXPECT_EQ(k[0].cumulativeStackBytes, 856);
  EXPECT_EQ(k[0].staticSharedBytes, 1088);  // unchanged by the register limit
  EXPECT_GT(k[0].spillStoreBytes, 0);
}

TEST(PtxasLog, DeviceFunctionsUnderRdc) {
  const auto k = parsePtxasVerbose(capturedLog("device_functions_rdc_sm80.log"));
  ASSERT_EQ(k.size(), 3u);
  // ptxas first reports a clone of helper ("$3"), before any "Compiling ... for 'sm_80'" line:
  // it still belongs to sm_80, the only architecture of the run.
  EXPECT_EQ(k[0].mangledName, "_Z6helperfPKf$3");
  EXPECT_EQ(k[0].name, "helper(float, float const*)$3");
  EXPECT_EQ(k[0].arch, "sm_80");
  EXPECT_FALSE(k[0].isEntry);
  EXPECT_FALSE(k[0].hasUsageLine);
  EXPECT_EQ(k[0].stackFrameBytes, 136);  // as logged; at least float loc[32] = 128 bytes
  EXPECT_GE(k[0].stackFrameBytes, 32 * 4);

  EXPECT_EQ(k[1].name, "k2(float const*, float*, int)");
  EXPECT_TRUE(k[1].isEntry);
  EXPECT_EQ(k[1].registers, 24);
  EXPECT_EQ(k[1].barriers, 0);           // "used 0 barriers": the kernel has no __syncthreads
  EXPECT_EQ(k[1].parameterBytes, 352 + 20);  // two pointers and an int: 8 + 8 + 4

  EXPECT_EQ(k[2].mangledName, "_Z6helperfPKf");
  EXPECT_FALSE(k[2].isEntry);
  EXPECT_EQ(k[2].stackFrameBytes, 136);
  EXPECT_EQ(k[2].registers, 0);          // no "Used" line for it
}

TEST(PtxasLog, TwoArchitecturesInOneRunAndModuleConstants) {
  const auto k = parsePtxasVerbose(capturedLog("convolution2d_sm75_sm90.log"));
  ASSERT_EQ(k.size(), 2u);  // one kernel, twice
  EXPECT_EQ(k[0].arch, "sm_75");
  EXPECT_EQ(k[1].arch, "sm_90");
  EXPECT_EQ(k[0].mangledName, k[1].mangledName);
  EXPECT_EQ(k[0].registers, 26);
  EXPECT_EQ(k[1].registers, 24);
  // __constant__ float c_mask[25] = 100 bytes in cmem[3], reported on the module line of sm_75.
  EXPECT_EQ(k[0].constantBytes, 25 * 4);
  EXPECT_EQ(k[0].staticSharedBytes, 16 * 16 * 4);
  EXPECT_EQ(k[0].parameterBytes, 352 + 24);  // in, out (8 + 8), width, height (4 + 4)
  // For sm_90 this ptxas prints neither cmem[0] nor cmem[3]: nothing is invented.
  EXPECT_EQ(k[1].constantBytes, 0);
  EXPECT_EQ(k[1].parameterBytes, 0);
  EXPECT_EQ(k[1].staticSharedBytes, 1024);
}

TEST(PtxasLog, Sm120) {
  const auto k = parsePtxasVerbose(capturedLog("histogram_sm120.log"));
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].name, "histogram256(unsigned char const*, int, unsigned int*)");
  EXPECT_EQ(k[0].arch, "sm_120");
  EXPECT_EQ(k[0].registers, 20);
  EXPECT_EQ(k[0].staticSharedBytes, 256 * 4);  // unsigned int local[256]
  EXPECT_EQ(k[0].barriers, 1);
}

TEST(PtxasLog, OlderFormatWithLmemAndSplitSmem) {
  // CUDA <= 10 printed "A+B bytes smem" (static + reserved) and "N bytes lmem"; this line is typed
  // from that format (no such toolkit here to capture it), so the sum A+B is what we check.
  const auto k = parsePtxasVerbose(
      "ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_35'\n"
      "ptxas info    : Used 10 registers, 48 bytes lmem, 1024+16 bytes smem, 328 bytes cmem[0], "
      "8 bytes cmem[2]\n");
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].name, "foo(float*)");
  EXPECT_EQ(k[0].localBytes, 48);
  EXPECT_EQ(k[0].staticSharedBytes, 1040);
  EXPECT_EQ(k[0].parameterBytes, 328);
  EXPECT_EQ(k[0].constantBytes, 8);  // a per-function constant bank
}

TEST(PtxasLog, NothingToReadGivesNothing) {
  EXPECT_TRUE(parsePtxasVerbose("").empty());
  EXPECT_TRUE(parsePtxasVerbose("x.cu(3): warning #177-D: variable \"a\" was declared but never "
                                "referenced\n")
                  .empty());
  // A "Used" line with no function named before it is ignored rather than misattributed.
  EXPECT_TRUE(parsePtxasVerbose("ptxas info    : Used 8 registers\n").empty());
}

TEST(Demangle, CppNamesAndExternC) {
  using teg::toolchain::demangle;
  EXPECT_EQ(demangle("_Z9vectorAddPKfS0_Pfi"), "vectorAdd(float const*, float const*, float*, int)");
  EXPECT_EQ(demangle("vectorAdd"), "vectorAdd");          // extern "C"
  EXPECT_EQ(demangle("_Znotmangled!"), "_Znotmangled!");  // demangler refuses: unchanged
}

}  // namespace
