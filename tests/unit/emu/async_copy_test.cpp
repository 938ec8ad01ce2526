// cp.async and mbarrier on the PTX emulator (PTX ISA §9.7.9.25, §9.7.13.15): hand-written PTX
// whose results follow from the ISA's definitions, worked out in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "emu_test_util.hpp"
#include "teg/emu/emulator.hpp"

namespace teg::emu::test {
namespace {

// One thread on an mbarrier expecting 3 arrivals, then a phase with a transaction count.
//   arrive #1: state before = 3 pending; arrive #2: 2 pending, its phase (0) not complete;
//   arrive #3 completes phase 0: test_wait(state #3) and test_wait.parity(0) are true, parity(1)
//   is false. Phase 1: complete_tx 16 before expect_tx 16 (tx -16, then 0: the ISA allows the
//   count below zero), three arrivals complete it: parity(1) true.
const char* kOneThread = R"(
.visible .entry k(.param .u64 out) {
  .reg .b64 %rd<9>;
  .reg .b32 %r<20>;
  .reg .pred %p<8>;
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, bar;
  mbarrier.init.shared.b64 [%r1], 3;
  mbarrier.arrive.shared.b64 %rd2, [%r1];
  mbarrier.pending_count.b64 %r2, %rd2;
  mbarrier.arrive.shared.b64 %rd3, [%r1];
  mbarrier.pending_count.b64 %r3, %rd3;
  mbarrier.test_wait.shared.b64 %p1, [%r1], %rd3;
  selp.u32 %r4, 1, 0, %p1;
  mbarrier.arrive.shared.b64 %rd4, [%r1];
  mbarrier.test_wait.shared.b64 %p2, [%r1], %rd4;
  selp.u32 %r5, 1, 0, %p2;
  mov.u32 %r10, 0;
  mov.u32 %r11, 1;
  mbarrier.test_wait.parity.shared.b64 %p3, [%r1], %r10;
  selp.u32 %r6, 1, 0, %p3;
  mbarrier.test_wait.parity.shared.b64 %p4, [%r1], %r11;
  selp.u32 %r7, 1, 0, %p4;
  mbarrier.complete_tx.shared.b64 [%r1], 16;
  mbarrier.arrive.expect_tx.shared.b64 %rd5, [%r1], 16;
  mbarrier.arrive.shared.b64 %rd6, [%r1];
  mbarrier.try_wait.parity.shared.b64 %p5, [%r1], %r11;
  selp.u32 %r8, 1, 0, %p5;
  mbarrier.arrive.shared.b64 %rd7, [%r1];
  mbarrier.try_wait.parity.shared.b64 %p6, [%r1], %r11;
  selp.u32 %r9, 1, 0, %p6;
  st.global.u32 [%rd1], %r2;
  st.global.u32 [%rd1+4], %r3;
  st.global.u32 [%rd1+8], %r4;
  st.global.u32 [%rd1+12], %r5;
  st.global.u32 [%rd1+16], %r6;
  st.global.u32 [%rd1+20], %r7;
  st.global.u32 [%rd1+24], %r8;
  st.global.u32 [%rd1+28], %r9;
  ret;
}
)";

TEST(AsyncCopy, MbarrierPhasesArrivalsAndTransactionCountsOnOneThread) {
  const auto out = runOut<std::uint32_t>(kOneThread, 8);
  EXPECT_EQ(out, (std::vector<std::uint32_t>{3, 2, 0, 1, 1, 0, 0, 1}));
}

// 64 threads, each copies a 16-byte vector of `in` into shared memory with cp.async.ca (each
// thread with its own src-size: thread t copies min(t % 5 * 4, 16) bytes, the rest of its 16
// bytes zero-filled), commits, waits, synchronises and writes the vector of thread t ^ 1: so
// it reads another thread's copy, which must be complete after wait_group 0 + bar.sync.
const char* kCopyZeroFill = R"(
.visible .entry k(.param .u64 out, .param .u64 in) {
  .reg .b64 %rd<12>;
  .reg .b32 %r<20>;
  .shared .align 16 .b8 tile[1024];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, tile;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd2, %rd3;
  rem.u32 %r5, %r1, 5;
  shl.b32 %r5, %r5, 2;
  min.u32 %r5, %r5, 16;
  cp.async.ca.shared.global [%r4], [%rd4], 16, %r5;
  cp.async.commit_group;
  cp.async.wait_group 0;
  bar.sync 0;
  xor.b32 %r6, %r1, 1;
  shl.b32 %r7, %r6, 4;
  add.s32 %r8, %r2, %r7;
  ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r8];
  add.s64 %rd5, %rd1, %rd3;
  st.global.v4.u32 [%rd5], {%r10, %r11, %r12, %r13};
  ret;
}
)";

TEST(AsyncCopy, CopiesWithSourceSizeZeroFillTheRestAndAreVisibleAfterTheWait) {
  const ptx::Module m = parsePtx(kCopyZeroFill);
  const int threads = 64;
  std::vector<std::uint32_t> in(threads * 4);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = 1000 + static_cast<std::uint32_t>(i);
  Emulator emu(m, "k", Dim3{1, 1, 1}, Dim3{threads, 1, 1});
  emu.addBuffer("out", bytesOf(zeros<std::uint32_t>(in.size())));
  emu.addBuffer("in", bytesOf(in));
  emu.run();
  const auto out = readAs<std::uint32_t>(emu.buffer("out"));
  for (int t = 0; t < threads; ++t) {
    const int from = t ^ 1;
    const int words = std::min(from % 5 * 4, 16) / 4;  // whole 4-byte words copied by thread `from`
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(out[t * 4 + k], k < words ? in[from * 4 + k] : 0u) << "thread " << t << " word " << k;
  }
}

// The same mbarrier protocol cuda::barrier compiles to: thread 0 initialises it for the whole
// block, every thread arrives and spins on test_wait. The emulator must let the other warps run
// while one spins (256 threads: 8 warps).
const char* kBlockBarrier = R"(
.visible .entry k(.param .u64 out) {
  .reg .b64 %rd<8>;
  .reg .b32 %r<12>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 counter;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, bar;
  mov.u32 %r9, %ntid.x;
  add.s32 %r9, %r9, COUNT_EXTRA;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra SYNC;
  mbarrier.init.shared.b64 [%r2], %r9;
SYNC:
  bar.sync 0;
  mov.u32 %r3, counter;
  atom.shared.add.u32 %r4, [%r3], 1;
  mbarrier.arrive.shared.b64 %rd2, [%r2];
WAIT:
  mbarrier.test_wait.shared.b64 %p2, [%r2], %rd2;
  @!%p2 bra WAIT;
  ld.shared.u32 %r5, [%r3];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r5;
  ret;
}
)";

std::string withExtra(int extra) {
  std::string s = kBlockBarrier;
  s.replace(s.find("COUNT_EXTRA"), 11, std::to_string(extra));
  return s;
}

TEST(AsyncCopy, EveryThreadPassesTheMbarrierOnlyAfterAllHaveArrived) {
  // Each thread counted itself in before arriving, so after the wait every thread sees 256.
  const auto out = runOut<std::uint32_t>(withExtra(0), 256, Dim3{2, 1, 1}, Dim3{256, 1, 1});
  EXPECT_EQ(out, std::vector<std::uint32_t>(256, 256u));
}

TEST(AsyncCopy, AnMbarrierNobodyCanCompleteIsADeadlockNotAHang) {
  const std::string err = runError(withExtra(1), 1024, Dim3{1, 1, 1}, Dim3{256, 1, 1});
  EXPECT_NE(err.find("mbarrier deadlock"), std::string::npos) << err;
  EXPECT_NE(err.find("1 of 257 arrivals pending"), std::string::npos) << err;  // all 256 arrived
}

// Two waits that find the phase incomplete at two different places, each tried once (no loop),
// then the arrive and a spinning wait: the warps stop twice with nothing changed in between, but
// at different waits, so it is not a deadlock (only a stop at the same wait again is a spin).
TEST(AsyncCopy, IncompleteWaitsAtDifferentPlacesAreNotADeadlock) {
  const std::string body = R"(
.visible .entry k(.param .u64 out) {
  .reg .b64 %rd<8>;
  .reg .b32 %r<12>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, bar;
  mov.u32 %r9, %ntid.x;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra SYNC;
  mbarrier.init.shared.b64 [%r2], %r9;
SYNC:
  bar.sync 0;
  mov.u32 %r3, 0;
  mbarrier.test_wait.parity.shared.b64 %p2, [%r2], %r3;
  selp.u32 %r4, 1, 0, %p2;
  mbarrier.test_wait.parity.shared.b64 %p2, [%r2], %r3;
  selp.u32 %r5, 1, 0, %p2;
  mbarrier.arrive.shared.b64 %rd2, [%r2];
WAIT:
  mbarrier.test_wait.parity.shared.b64 %p2, [%r2], %r3;
  @!%p2 bra WAIT;
  mad.lo.u32 %r6, %r5, 10, %r4;
  add.u32 %r6, %r6, 100;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r6;
  ret;
}
)";
  // Both early waits see phase 0 incomplete (0, 0); every thread gets past the last one: 100.
  const auto out = runOut<std::uint32_t>(body, 64, Dim3{1, 1, 1}, Dim3{64, 1, 1});
  EXPECT_EQ(out, std::vector<std::uint32_t>(64, 100u));
}

TEST(AsyncCopy, MbarrierOutsideSharedMemoryOrMisalignedIsRefused) {
  const std::string misaligned = runError(R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>;
  .shared .align 8 .b8 bars[32];
  mov.u32 %r1, bars;
  add.s32 %r1, %r1, 4;
  mbarrier.init.shared.b64 [%r1], 1;
  ret;
}
)", 4, Dim3{1, 1, 1}, Dim3{1, 1, 1});
  EXPECT_NE(misaligned.find("misaligned shared"), std::string::npos) << misaligned;
  const std::string global = runError(R"(
.visible .entry k(.param .u64 out) {
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mbarrier.init.b64 [%rd1], 1;
  ret;
}
)", 8, Dim3{1, 1, 1}, Dim3{1, 1, 1});
  EXPECT_NE(global.find("not in shared memory"), std::string::npos) << global;
}

// What the timing engine is told: a copy is a 16-byte global load through L1 (.ca) that writes a
// register no PTX names; the wait reads it; mbarrier operations are 8-byte shared accesses.
TEST(AsyncCopy, TheTraceDescribesCopiesAsLoadsAndWaitsAsTheirConsumers) {
  const ptx::Module m = parsePtx(kCopyZeroFill);
  Emulator emu(m, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1});
  const trace::KernelInfo& k = emu.kernelInfo();
  const auto& copy = k.instructions.at(pcOf(k, "cp.async.ca.shared.global"));
  EXPECT_EQ(copy.kind, trace::InstrKind::Load);
  EXPECT_EQ(copy.space, trace::MemorySpace::Global);
  EXPECT_EQ(copy.accessBytes, 16);
  EXPECT_EQ(copy.cache, trace::CachePolicy::CacheL1);
  ASSERT_FALSE(copy.defs.empty());
  const auto& wait = k.instructions.at(pcOf(k, "cp.async.wait_group"));
  EXPECT_NE(std::find(wait.uses.begin(), wait.uses.end(), copy.defs.back()), wait.uses.end());
  // A bulk copy bypasses L1 (it is not a cache-operator load; the generic rule must not reset it).
  const ptx::Module bulk = parsePtx(R"(
.visible .entry k(.param .u64 out) {
  .reg .b64 %rd<4>;
  .reg .b32 %r<4>;
  .shared .align 16 .b8 tile[64];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, tile;
  mov.u32 %r2, bar;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16, [%r2];
  ret;
}
)");
  Emulator eBulk(bulk, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1});
  const auto& bulkCopy = eBulk.kernelInfo().instructions.at(pcOf(eBulk.kernelInfo(), "cp.async.bulk"));
  EXPECT_EQ(bulkCopy.kind, trace::InstrKind::Load);
  EXPECT_EQ(bulkCopy.cache, trace::CachePolicy::BypassL1);
  const ptx::Module b = parsePtx(withExtra(0));
  Emulator eb(b, "k", Dim3{1, 1, 1}, Dim3{32, 1, 1});
  const auto& arrive = eb.kernelInfo().instructions.at(pcOf(eb.kernelInfo(), "mbarrier.arrive"));
  EXPECT_EQ(arrive.kind, trace::InstrKind::Store);
  EXPECT_EQ(arrive.space, trace::MemorySpace::Shared);
  EXPECT_EQ(arrive.accessBytes, 8);
}

}  // namespace
}  // namespace teg::emu::test
