// Kernels in the style of public CUDA code (issue 24): warpSize and cooperative groups, compiled by
// nvcc from tests/unit/emu/kernels/cooperative_groups.cu and checked against a CPU reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "corpus_support.hpp"

namespace teg::emu::corpus {
namespace {

constexpr const char* kSource = "tests/unit/emu/kernels/cooperative_groups";

// nvcc writes warpSize as PTX's WARP_SZ constant (32).
TEST(CooperativeGroups, WarpSizeIs32) {
  TEG_CORPUS_MODULE(m, kSource);
  const auto l = launch("warpSizeLanes", dim(2), dim(96), {buffer("out", ScalarType::I32, 192)});
  const Emulator e = runLaunch(*m, l);
  std::vector<std::int32_t> expected(192);
  for (int i = 0; i < 192; ++i) expected[i] = 32000 + (i % 96) % 32;
  expectExact(contents<std::int32_t>(e, "out"), expected);
}

// cg::reduce over a 32-thread tile, one atomicAdd per warp; a ragged last block (n = 1000).
TEST(CooperativeGroups, TileReduceSum) {
  TEG_CORPUS_MODULE(m, kSource);
  const int n = 1000;
  const auto l = launch("tileReduceSum", dim(4), dim(256),
                        {buffer("in", ScalarType::F32, n, random(3, -1, 1)), buffer("out", ScalarType::F32, 1),
                         i32("n", n)});
  const Emulator e = runLaunch(*m, l);
  double sum = 0;
  for (const float v : initial<float>(l, "in")) sum += v;
  // 32 warp sums of 32 terms each, each rounding in float: |error| <= 1000 * 2^-24 * 1000 terms.
  expectNear(contents<float>(e, "out"), {static_cast<float>(sum)}, 1e-3);
}

// Static 4-thread tiles (shfl_down), a dynamic 8-thread partition's size, an 8-thread cg::reduce.
TEST(CooperativeGroups, SmallStaticAndDynamicTiles) {
  TEG_CORPUS_MODULE(m, kSource);
  const auto l = launch("smallTiles", dim(1), dim(64),
                        {buffer("in", ScalarType::I32, 64, random(5, 0, 99)), buffer("out", ScalarType::I32, 16)});
  const Emulator e = runLaunch(*m, l);
  const auto in = initial<std::int32_t>(l, "in");
  std::vector<std::int32_t> expected(16);
  for (int g = 0; g < 16; ++g) {
    const int sum4 = in[4 * g] + in[4 * g + 1] + in[4 * g + 2] + in[4 * g + 3];
    const int base8 = (4 * g) / 8 * 8;
    const int max8 = *std::max_element(in.begin() + base8, in.begin() + base8 + 8);
    expected[g] = sum4 + 8 * 1000 + max8 * 100000;
  }
  expectExact(contents<std::int32_t>(e, "out"), expected);
}

// A 64-thread tile (two warps) reduced through the block's reserved shared memory, as cuda-samples'
// reduction kernel 9 does: before, the module did not even parse (%reserved_smem_offset_1), which
// also stopped every other kernel of the file.
TEST(CooperativeGroups, MultiWarpTileReducesInReservedSharedMemory) {
  TEG_CORPUS_MODULE(m, kSource);
  const auto l = launch("multiWarpTileSum", dim(1), dim(256),
                        {buffer("in", ScalarType::I32, 256, random(7, 0, 99)), buffer("out", ScalarType::I32, 4)});
  const Emulator e = runLaunch(*m, l);
  const auto in = initial<std::int32_t>(l, "in");
  std::vector<std::int32_t> expected(4);
  for (int t = 0; t < 4; ++t) {
    int s = t * 10;
    for (int i = 0; i < 64; ++i) s += in[64 * t + i];
    expected[t] = s;
  }
  expectExact(contents<std::int32_t>(e, "out"), expected);
}

// Where the reserved region lies: what an RTX 3060 reports (16 static bytes; 0 or 256 dynamic):
// begin = _0 = _1 = own shared memory rounded up to 128, end = begin + 288, cap = begin + 1024.
TEST(CooperativeGroups, ReservedSharedRegistersFollowTheBlocksOwnSharedMemory) {
  TEG_CORPUS_MODULE(m, kSource);
  for (const auto& [dynamic, begin] : {std::pair{0u, 128u}, std::pair{256u, 384u}}) {
    const auto l = launch("reservedSharedOffsets", dim(1), dim(32),
                          {buffer("out", ScalarType::U32, 5), i32("dynamic", static_cast<std::int32_t>(dynamic))},
                          dynamic);
    const Emulator e = runLaunch(*m, l);
    expectExact(contents<std::uint32_t>(e, "out"), {begin, begin + 288, begin + 1024, begin, begin});
  }
}

// grid.sync() without a cooperative launch traps, on the GPU and in teg; the error says why
// (before: a bare "trap" at cooperative_groups.h:180).
TEST(CooperativeGroups, GridSyncWithoutACooperativeLaunchSaysWhyItTraps) {
  TEG_CORPUS_MODULE(m, kSource);
  const auto l = launch("gridSync", dim(2), dim(64), {buffer("out", ScalarType::I32, 128)});
  try {
    (void)runLaunch(*m, l);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("trap (the kernel reads the cooperative-launch grid workspace"), std::string::npos) << what;
    EXPECT_NE(what.find("cudaLaunchCooperativeKernel"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace teg::emu::corpus
