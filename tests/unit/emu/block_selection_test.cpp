// Emulating a strided subset of the grid: the blocks one SM runs under a round-robin
// distribution (what the timing engine asks for).
#include <gtest/gtest.h>

#include <cstring>

#include "teg/emu/emulator.hpp"
#include "teg/ptx/parser.hpp"

namespace {

constexpr const char* kMarkBlocks = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry mark(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %ctaid.x;
  add.s32 %r2, %r1, 1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

struct BlockIds final : teg::trace::TraceListener {
  std::vector<std::uint32_t> blocks;
  void beginBlock(std::uint32_t b) override { blocks.push_back(b); }
  void instruction(const teg::trace::WarpInstruction&) override {}
};

std::vector<std::uint32_t> run(unsigned threads, std::vector<std::uint32_t>& seen,
                               std::vector<std::uint64_t> blockList = {}) {
  const auto module = teg::ptx::parseModule(kMarkBlocks, "mark.ptx");
  teg::emu::Emulator emulator(module, "mark", {10, 1, 1}, {1, 1, 1});
  const std::vector<std::byte> zeros(40);
  emulator.addBuffer("out", zeros);
  BlockIds ids;
  teg::emu::RunOptions options;
  options.blocks = teg::emu::BlockRange{0, 3, 4};  // blocks 0, 4, 8
  options.blockList = std::move(blockList);  // when given, instead of the range
  options.threads = threads;
  options.listener = &ids;
  const auto summary = emulator.run(options);
  EXPECT_EQ(summary.blocksRun, options.blockList.empty() ? 3u : options.blockList.size());
  EXPECT_TRUE(summary.partialGrid);
  seen = ids.blocks;
  std::vector<std::uint32_t> out(10);
  std::memcpy(out.data(), emulator.buffer("out").data(), 40);
  return out;
}

TEST(BlockSelection, StrideSelectsEverySthBlockInOrder) {
  for (unsigned threads : {1u, 2u}) {
    std::vector<std::uint32_t> seen;
    const auto out = run(threads, seen);
    EXPECT_EQ(seen, (std::vector<std::uint32_t>{0, 4, 8})) << threads << " threads";
    EXPECT_EQ(out, (std::vector<std::uint32_t>{1, 0, 0, 0, 5, 0, 0, 0, 9, 0})) << threads << " threads";
  }
}

TEST(BlockSelection, AListSelectsThoseBlocksInItsOrder) {
  // The timing engine's own blocks, then its peers (out of order with them).
  for (unsigned threads : {1u, 2u}) {
    std::vector<std::uint32_t> seen;
    const auto out = run(threads, seen, {0, 4, 2, 7});
    EXPECT_EQ(seen, (std::vector<std::uint32_t>{0, 4, 2, 7})) << threads << " threads";
    EXPECT_EQ(out, (std::vector<std::uint32_t>{1, 0, 3, 0, 5, 0, 0, 8, 0, 0})) << threads << " threads";
  }
}

TEST(BlockSelection, AListedBlockOutsideTheGridIsAnError) {
  std::vector<std::uint32_t> seen;
  try {
    run(1, seen, {0, 10});
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("block 10 is not in the grid of 10 blocks"), std::string::npos) << e.what();
  }
}

}  // namespace
