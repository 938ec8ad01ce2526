// Statistics from synthetic warp records, checked against counts worked out by hand (comments).
// No emulator involved: each test describes a tiny kernel and feeds its trace to the listener.
#include "teg/emu/statistics.hpp"

#include <gtest/gtest.h>

#include "teg/device/database.hpp"
#include "teg/support/error.hpp"
#include "teg/trace/memory_access.hpp"

namespace teg::emu {
namespace {

using trace::InstrKind;
using trace::MemorySpace;

// An Ampere-like geometry: 32 banks of 4 bytes, 32-B sectors, 128-B lines (device files of
// cc >= 5.0: limits.shared_memory_banks = 32, shared_memory_bank_width = 4).
MemoryGeometry modern() { return MemoryGeometry{32, 4, false, 32, 128}; }
// cc 1.x: 16 banks of 4 bytes, half-warp requests.
MemoryGeometry tesla() { return MemoryGeometry{16, 4, true, 32, 128}; }

using Addresses = std::array<std::uint64_t, trace::kWarpLanes>;

Addresses strided(std::uint64_t base, std::uint64_t stride) {
  Addresses a{};
  for (int l = 0; l < trace::kWarpLanes; ++l) a[static_cast<std::size_t>(l)] = base + stride * static_cast<std::uint64_t>(l);
  return a;
}

constexpr std::uint32_t kAll = 0xffffffffu;

// The shared-memory count teg uses (trace/memory_access.hpp) for a geometry.
std::uint32_t wavefronts(const MemoryGeometry& g, std::uint32_t mask, const Addresses& a, unsigned bytes) {
  return trace::sharedWavefronts(a, mask, bytes, static_cast<unsigned>(g.sharedBanks),
                                 static_cast<unsigned>(g.sharedBankWidth), g.halfWarpShared);
}

// --- coalescing ---

TEST(Coalescing, ContiguousFloatLoadIsFourSectorsOneLine) {
  // 32 lanes x 4 B from an aligned base = 128 contiguous bytes = 4 sectors of 32 B, 1 line.
  const auto a = strided(4096, 4);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 4, 32, 128).sectors, 4u);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 4, 32, 128).lines, 1u);
}

TEST(Coalescing, StrideTwoDoublesTheSectors) {
  // Lane l reads 4 B at 8 l: the warp spans 256 B = 8 sectors, 2 lines; 128 B used of 256 moved.
  const auto a = strided(4096, 8);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 4, 32, 128).sectors, 8u);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 4, 32, 128).lines, 2u);
}

TEST(Coalescing, MisalignedContiguousLoadTouchesOneMoreSector) {
  // 128 B starting 4 B into a line: bytes 4..131 -> sectors 0..4 (5), lines 0..1 (2).
  const auto a = strided(4096 + 4, 4);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 4, 32, 128).sectors, 5u);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 4, 32, 128).lines, 2u);
}

TEST(Coalescing, ColumnAccessTouchesOneSectorPerLane) {
  // Lane l reads row l of a 1000-float-wide matrix: 4000 B apart, 32 sectors and 32 lines.
  const auto a = strided(0, 4000);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 4, 32, 128).sectors, 32u);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 4, 32, 128).lines, 32u);
}

TEST(Coalescing, InactiveLanesDoNotCount) {
  // Only lanes 0..7 active: 32 B contiguous = 1 sector.
  const auto a = strided(0, 4);
  EXPECT_EQ(trace::globalAccessShape(a, 0xffu, 4, 32, 128).sectors, 1u);
  EXPECT_EQ(trace::globalAccessShape(a, 0u, 4, 32, 128).sectors, 0u);
}

TEST(Coalescing, Float4LoadIsSixteenSectors) {
  // 32 lanes x 16 B contiguous = 512 B = 16 sectors, 4 lines.
  const auto a = strided(0, 16);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 16, 32, 128).sectors, 16u);
  EXPECT_EQ(trace::globalAccessShape(a, kAll, 16, 32, 128).lines, 4u);
}

// --- bank conflicts ---

TEST(BankConflicts, RowOfFloatsIsOneWavefront) {
  // tile[ty][tx] with tx = lane: consecutive words, one per bank.
  EXPECT_EQ(wavefronts(modern(), kAll, strided(0, 4), 4), 1u);
}

TEST(BankConflicts, ColumnOfA32x32FloatTileIs32Way) {
  // tile[lane][c]: word 32 lane + c, all in bank c: 32 distinct words in one bank.
  EXPECT_EQ(wavefronts(modern(), kAll, strided(8, 32 * 4), 4), 32u);
  EXPECT_EQ(sharedIdealWavefronts(modern(), kAll, 4), 1u);
}

TEST(BankConflicts, PaddedColumnIsConflictFree) {
  // tile[lane][c] with 33 columns: word 33 lane + c, bank (lane + c) mod 32: all different.
  EXPECT_EQ(wavefronts(modern(), kAll, strided(8, 33 * 4), 4), 1u);
}

TEST(BankConflicts, BroadcastIsFree) {
  // Every lane reads the same word.
  EXPECT_EQ(wavefronts(modern(), kAll, strided(64, 0), 4), 1u);
}

TEST(BankConflicts, SameWordDifferentBytesIsFree) {
  // u8 accesses: lanes 4w..4w+3 share word w; words 0..7 in banks 0..7.
  EXPECT_EQ(wavefronts(modern(), kAll, strided(0, 1), 1), 1u);
}

TEST(BankConflicts, StrideTwoWordsIsTwoWay) {
  // word 2 lane: banks 0,2,..,30 each hold two distinct words (lane and lane + 16).
  EXPECT_EQ(wavefronts(modern(), kAll, strided(0, 8), 4), 2u);
}

TEST(BankConflicts, ABtTileSixteenWordStrideIsSixteenWayOnTwoRows) {
  // matmul_abt_conflict: Bs[tx][k] (16 x 16 floats), a warp = two rows ty of 16 lanes tx.
  // word = 16 tx + k for both halves (same k, the warp's two ty read the same Bs words):
  // lanes tx and tx + 2 share a bank (16 tx mod 32 takes values 0 and 16) -> banks k and k + 16
  // each get 8 distinct words; the second half-warp reads the same words (broadcast) -> 8.
  Addresses a{};
  for (int l = 0; l < 32; ++l) a[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(16 * (l % 16) + 3) * 4;
  EXPECT_EQ(wavefronts(modern(), kAll, a, 4), 8u);
  // Padded to 17 columns: word 17 tx + k, tx = 0..15 -> 16 different banks -> 1.
  for (int l = 0; l < 32; ++l) a[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(17 * (l % 16) + 3) * 4;
  EXPECT_EQ(wavefronts(modern(), kAll, a, 4), 1u);
}

TEST(BankConflicts, DoublesAreTwoHalfWarpPhases) {
  // 32 lanes x 8 B contiguous (256 B): half-warp phases of 16 lanes x 8 B = 128 B each, each
  // conflict-free -> 2 wavefronts, and 2 is also the ideal (no conflict).
  EXPECT_EQ(wavefronts(modern(), kAll, strided(0, 8), 8), 2u);
  EXPECT_EQ(sharedIdealWavefronts(modern(), kAll, 8), 2u);
  // Only the first half-warp active: one phase.
  EXPECT_EQ(wavefronts(modern(), 0xffffu, strided(0, 8), 8), 1u);
  // Stride of 16 B (double2 array, .x only): within a half-warp words 4 l and 4 l + 1 -> banks
  // (4 l) mod 32 and (4 l + 1) mod 32: lanes l and l + 8 collide -> 2 per phase, 4 in all.
  EXPECT_EQ(wavefronts(modern(), kAll, strided(0, 16), 8), 4u);
}

TEST(BankConflicts, Float4IsFourQuarterWarpPhases) {
  // 32 lanes x 16 B contiguous: quarter-warp phases of 8 lanes x 16 B = 128 B -> 4.
  EXPECT_EQ(wavefronts(modern(), kAll, strided(0, 16), 16), 4u);
  EXPECT_EQ(sharedIdealWavefronts(modern(), kAll, 16), 4u);
}

TEST(BankConflicts, TeslaHalfWarpsAndSixteenBanks) {
  // cc 1.x, 16 banks: a contiguous float row is two conflict-free half-warp requests.
  EXPECT_EQ(wavefronts(tesla(), kAll, strided(0, 4), 4), 2u);
  // Column of a 16 x 16 float tile: word 16 l -> bank 0 for every lane: 16 per half-warp -> 32.
  EXPECT_EQ(wavefronts(tesla(), kAll, strided(0, 64), 4), 32u);
  // The ABt case of Lai §3.4.1 on 16 banks: word 16 tx + k: all 16 lanes of a half-warp in
  // bank k -> 16-way per half-warp, 32 passes for the warp.
  Addresses a{};
  for (int l = 0; l < 32; ++l) a[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(16 * (l % 16)) * 4;
  EXPECT_EQ(wavefronts(tesla(), kAll, a, 4), 32u);
  // Doubles on cc 1.x: a pass moves 16 banks x 4 B = 64 B = 8 lanes x 8 B; each 8-lane phase
  // asks 16 words of 16 banks (1 each) -> 4 phases. (Counted per half-warp: 16 lanes x 2 words
  // = 2 words per bank -> 2 per half-warp -> also 4, the guide's 2-way conflict for doubles.)
  EXPECT_EQ(wavefronts(tesla(), kAll, strided(0, 8), 8), 4u);
  EXPECT_EQ(sharedIdealWavefronts(tesla(), kAll, 8), 4u);
  EXPECT_EQ(sharedIdealWavefronts(tesla(), kAll, 4), 2u);
}

TEST(BankConflicts, EightByteBanksOfKepler) {
  // cc 3.x 64-bit bank mode: 32 banks of 8 B. Floats at stride 4 B: 2 floats per 8-B word,
  // 16 words in 16 banks -> 1. Doubles contiguous: 32 words in 32 banks, one phase -> 1.
  const MemoryGeometry kepler{32, 8, false, 32, 128};
  EXPECT_EQ(wavefronts(kepler, kAll, strided(0, 4), 4), 1u);
  EXPECT_EQ(wavefronts(kepler, kAll, strided(0, 8), 8), 1u);
}

// --- the listener ---

trace::StaticInstruction instr(std::uint32_t pc, InstrKind kind, MemorySpace space, std::uint8_t bytes, int line,
                               std::string text) {
  trace::StaticInstruction s;
  s.pc = pc;
  s.kind = kind;
  s.space = space;
  s.accessBytes = bytes;
  s.sourceFile = 0;
  s.sourceLine = line;
  s.text = std::move(text);
  if (kind == InstrKind::Alu) s.unit = device::InstructionClass::IntCompare;
  return s;
}

trace::WarpInstruction rec(std::uint32_t block, std::uint32_t warp, std::uint32_t pc, std::uint32_t mask,
                           const Addresses& a = {}) {
  trace::WarpInstruction r;
  r.block = block;
  r.warp = warp;
  r.pc = pc;
  r.activeMask = mask;
  r.addresses = a;
  return r;
}

// if (lane < 8) x = a[lane]; -- as nvcc writes it:
//   0: setp.ge.s32 %p1, %r1, 8;   (line 10)
//   1: @%p1 bra $L_end;           (line 10)
//   2: ld.global.f32 %f1, [%rd1]; (line 11)
//   3: ret;                       (line 12)
trace::KernelInfo branchKernel() {
  trace::KernelInfo k;
  k.name = "k";
  k.block = {64, 1, 1};
  k.sourceFiles = {"k.cu"};
  k.instructions = {instr(0, InstrKind::Alu, MemorySpace::None, 0, 10, "setp.ge.s32 %p1, %r1, 8;"),
                    instr(1, InstrKind::Branch, MemorySpace::None, 0, 10, "@%p1 bra $L_end;"),
                    instr(2, InstrKind::Load, MemorySpace::Global, 4, 11, "ld.global.f32 %f1, [%rd1];"),
                    instr(3, InstrKind::Exit, MemorySpace::None, 0, 12, "ret;")};
  return k;
}

TEST(StatisticsCollector, DivergenceOnAHandWrittenBranch) {
  StatisticsCollector stats(modern());
  stats.beginKernel(branchKernel());
  stats.beginBlock(0);
  // Warp 0 (lanes = threads 0..31): lanes 8..31 take the branch (p1 = lane >= 8) -> divergent;
  // lanes 0..7 load, then everyone reconverges at ret.
  stats.instruction(rec(0, 0, 0, kAll));
  stats.instruction(rec(0, 0, 1, 0xffffff00u));
  stats.instruction(rec(0, 0, 2, 0x000000ffu, strided(0, 4)));
  stats.instruction(rec(0, 0, 3, kAll));
  // Warp 1 (threads 32..63): every lane takes the branch -> not divergent.
  stats.instruction(rec(0, 1, 0, kAll));
  stats.instruction(rec(0, 1, 1, kAll));
  stats.instruction(rec(0, 1, 3, kAll));
  stats.endBlock(0);
  stats.endKernel();

  ASSERT_EQ(stats.kernels().size(), 1u);
  const auto& k = stats.kernels()[0];
  EXPECT_EQ(k.blocksObserved, 1u);
  const auto& t = k.total;
  // 7 warp instructions. Lanes on the path (SIMT mask): 32 everywhere except the load (8, the
  // others diverged away) -> active 32*6 + 8 = 200, idle 24. Executed (guard true): the branch of
  // warp 0 runs on 24 lanes (8 predicated off) -> 32+24+8+32 + 32+32+32 = 192.
  EXPECT_EQ(t.warpInstructions, 7u);
  EXPECT_EQ(t.activeLanes, 200u);
  EXPECT_EQ(t.threadInstructions, 192u);
  EXPECT_EQ(t.idleLanes, 24u);
  EXPECT_EQ(t.predicatedOffLanes, 8u);
  EXPECT_DOUBLE_EQ(t.simdEfficiency(), 200.0 / 224.0);
  EXPECT_DOUBLE_EQ(t.nonPredicatedEfficiency(), 192.0 / 224.0);
  EXPECT_EQ(t.branches, 2u);
  EXPECT_EQ(t.divergentBranches, 1u);
  EXPECT_EQ(t.byKind[static_cast<std::size_t>(InstrKind::Alu)], 2u);
  EXPECT_EQ(t.byKind[static_cast<std::size_t>(InstrKind::Load)], 1u);
  EXPECT_EQ(t.byKind[static_cast<std::size_t>(InstrKind::Exit)], 2u);
  EXPECT_EQ(t.aluByClass[static_cast<std::size_t>(device::InstructionClass::IntCompare)], 2u);
  // The load: 8 lanes x 4 B = 32 B in 1 sector -> 100 %.
  EXPECT_EQ(t.globalLoads.requests, 1u);
  EXPECT_EQ(t.globalLoads.threadAccesses, 8u);
  EXPECT_EQ(t.globalLoads.bytesRequested, 32u);
  EXPECT_EQ(t.globalLoads.sectors, 1u);
  EXPECT_EQ(t.globalLoads.lines, 1u);
  EXPECT_DOUBLE_EQ(t.globalLoads.efficiency(32), 1.0);

  // Per line: line 10 holds setp + bra of both warps (4 warp instructions, the divergent branch);
  // line 11 the load; line 12 the two rets.
  ASSERT_EQ(k.byLine.size(), 3u);
  const auto& l10 = k.byLine.at(SourceLineKey{0, 10});
  EXPECT_EQ(l10.warpInstructions, 4u);
  EXPECT_EQ(l10.divergentBranches, 1u);
  EXPECT_EQ(l10.idleLanes, 0u);           // every lane reached the branch
  EXPECT_EQ(l10.predicatedOffLanes, 8u);  // lanes 0..7 of warp 0 did not take it
  EXPECT_EQ(k.byLine.at(SourceLineKey{0, 11}).idleLanes, 24u);
  EXPECT_EQ(k.byLine.at(SourceLineKey{0, 11}).globalLoads.requests, 1u);
  EXPECT_EQ(k.byLine.at(SourceLineKey{0, 12}).warpInstructions, 2u);
}

TEST(StatisticsCollector, GuardedBranchOfAPartialWarpUsesItsLiveLanes) {
  // Block of 40 threads: warp 1 has 8 live lanes. A guarded branch taken by all 8 is uniform
  // even though lanes 8..31 are idle.
  auto k = branchKernel();
  k.block = {40, 1, 1};
  StatisticsCollector stats(modern());
  stats.beginKernel(k);
  stats.beginBlock(3);
  stats.instruction(rec(3, 1, 1, 0xffu));
  // The same branch taken by none of the 8 lanes: 8 predicated off, still 24 idle.
  stats.instruction(rec(3, 1, 1, 0u));
  stats.endBlock(3);
  stats.endKernel();
  EXPECT_EQ(stats.kernels()[0].total.divergentBranches, 0u);
  EXPECT_EQ(stats.kernels()[0].total.idleLanes, 48u);
  EXPECT_EQ(stats.kernels()[0].total.predicatedOffLanes, 8u);
}

TEST(StatisticsCollector, SharedStoresAndLoadsOfATransposeTile) {
  // transpose_shared: tile[ty][tx] = ... (row, 1 wavefront), then ... = tile[tx][ty] (column,
  // 32 wavefronts, ideal 1 -> 31 extra), for one warp.
  trace::KernelInfo k;
  k.name = "t";
  k.block = {32, 1, 1};
  k.instructions = {instr(0, InstrKind::Store, MemorySpace::Shared, 4, 5, "st.shared.f32 [%r1], %f1;"),
                    instr(1, InstrKind::Load, MemorySpace::Shared, 4, 7, "ld.shared.f32 %f2, [%r2];")};
  StatisticsCollector stats(modern());
  stats.beginKernel(k);
  stats.beginBlock(0);
  stats.instruction(rec(0, 0, 0, kAll, strided(0, 4)));
  stats.instruction(rec(0, 0, 1, kAll, strided(0, 128)));
  stats.endBlock(0);
  stats.endKernel();
  const auto& t = stats.kernels()[0].total;
  EXPECT_EQ(t.sharedStores.requests, 1u);
  EXPECT_EQ(t.sharedStores.wavefronts, 1u);
  EXPECT_EQ(t.sharedLoads.requests, 1u);
  EXPECT_EQ(t.sharedLoads.wavefronts, 32u);
  EXPECT_EQ(t.sharedLoads.idealWavefronts, 1u);
  EXPECT_EQ(t.sharedLoads.conflictWavefronts(), 31u);
  // Instructions without a source file are grouped under file -1 (here sourceFile = 0 is set).
  EXPECT_EQ(stats.kernels()[0].byLine.size(), 2u);
}

// A warp-wide broadcast float4 shared load (every lane at byte 0): four quarter-warp phases of
// one wavefront each without pairing; on Volta and later paired lanes share a phase slot, so two
// (trace::sharedLoadsPairLanes; the timing engine counts the same).
TEST(StatisticsCollector, ABroadcastFloat4LoadTakesTwoWavefrontsWherePairedLanesShare) {
  trace::KernelInfo k;
  k.name = "b";
  k.block = {32, 1, 1};
  k.instructions = {instr(0, InstrKind::Load, MemorySpace::Shared, 16, 3, "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r1];")};
  for (const bool paired : {false, true}) {
    MemoryGeometry g = modern();
    g.pairedSharedLoads = paired;
    StatisticsCollector stats(g);
    stats.beginKernel(k);
    stats.beginBlock(0);
    stats.instruction(rec(0, 0, 0, kAll, strided(0, 0)));
    stats.endBlock(0);
    stats.endKernel();
    EXPECT_EQ(stats.kernels()[0].total.sharedLoads.wavefronts, paired ? 2u : 4u) << "paired " << paired;
    // A broadcast has no bank conflict either way: the conflict-free count pairs lanes as well
    // (it did not, and the difference wrapped to 2^64 - 2 in `teg run`'s conflicts column).
    EXPECT_EQ(stats.kernels()[0].total.sharedLoads.conflictWavefronts(), 0u) << "paired " << paired;
  }
  EXPECT_EQ(sharedIdealWavefronts(modern(), kAll, 16, true), 2u);
  EXPECT_EQ(sharedIdealWavefronts(modern(), kAll, 8, true), 1u);
  EXPECT_TRUE(trace::sharedLoadsPairLanes(7));
  EXPECT_FALSE(trace::sharedLoadsPairLanes(6));
}

TEST(StatisticsCollector, ComputeCapability1xCountsSegmentTransactions) {
  // Floats from byte 4 on a GT200 (cc 1.3): 5 sectors touched, but the half-warps move 128 + 64 +
  // 32 bytes (guide, cc 1.x global memory), so coalescing efficiency is 128 / 224, not 128 / 160.
  trace::KernelInfo k;
  k.name = "g";
  k.block = {32, 1, 1};
  k.instructions = {instr(0, InstrKind::Load, MemorySpace::Global, 4, 3, "ld.global.f32 %f1, [%rd1];")};
  MemoryGeometry gt200 = tesla();
  gt200.coalescing = trace::Coalescing::Cc13Segments;
  for (const auto& geometry : {tesla(), gt200}) {
    StatisticsCollector stats(geometry);
    stats.beginKernel(k);
    stats.beginBlock(0);
    stats.instruction(rec(0, 0, 0, kAll, strided(4, 4)));
    stats.endBlock(0);
    stats.endKernel();
    const auto& g = stats.kernels()[0].total.globalLoads;
    EXPECT_EQ(g.sectors, 5u);
    const bool segments = geometry.coalescing != trace::Coalescing::Sectors;
    EXPECT_EQ(g.transactions, segments ? 3u : 0u);
    EXPECT_EQ(g.bytesMoved(32), segments ? 224u : 160u);
    EXPECT_DOUBLE_EQ(g.efficiency(32), segments ? 128.0 / 224.0 : 128.0 / 160.0);
  }
}

TEST(StatisticsCollector, AtomicsLocalAndConstant) {
  trace::KernelInfo k;
  k.name = "m";
  k.block = {32, 1, 1};
  k.instructions = {instr(0, InstrKind::Atomic, MemorySpace::Global, 4, 1, "atom.global.add.u32 %r1, [%rd1], 1;"),
                    instr(1, InstrKind::Atomic, MemorySpace::Shared, 4, 2, "atom.shared.add.u32 %r2, [%r3], 1;"),
                    instr(2, InstrKind::Store, MemorySpace::Local, 8, 3, "st.local.f64 [%rd2], %fd1;"),
                    instr(3, InstrKind::Load, MemorySpace::Constant, 4, 4, "ld.const.f32 %f1, [%rd3];")};
  StatisticsCollector stats(modern());
  stats.beginKernel(k);
  stats.beginBlock(0);
  // Every lane increments the same global counter: 1 sector, 128 B requested of 32 moved.
  stats.instruction(rec(0, 0, 0, kAll, strided(256, 0)));
  // Shared histogram bins: lane l -> bin (l % 4): 4 distinct words in 4 banks -> 1 wavefront.
  Addresses bins{};
  for (int l = 0; l < 32; ++l) bins[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(l % 4) * 4;
  stats.instruction(rec(0, 0, 1, kAll, bins));
  // Local spill of 16 lanes x 8 B.
  stats.instruction(rec(0, 0, 2, 0xffffu, strided(0, 0)));
  // Constant reads of 3 distinct addresses (lanes 0-9 -> 0, 10-19 -> 4, 20-31 -> 8).
  Addresses c{};
  for (int l = 0; l < 32; ++l) c[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(l / 10 > 2 ? 2 : l / 10) * 4;
  stats.instruction(rec(0, 0, 3, kAll, c));
  stats.endBlock(0);
  stats.endKernel();
  const auto& t = stats.kernels()[0].total;
  EXPECT_EQ(t.globalAtomics.requests, 1u);
  EXPECT_EQ(t.globalAtomics.threadAccesses, 32u);
  EXPECT_EQ(t.globalAtomics.sectors, 1u);
  EXPECT_DOUBLE_EQ(t.globalAtomics.efficiency(32), 4.0);
  EXPECT_EQ(t.sharedAtomics.requests, 1u);
  EXPECT_EQ(t.sharedAtomics.wavefronts, 1u);
  EXPECT_EQ(t.local.requests, 1u);
  EXPECT_EQ(t.local.threadAccesses, 16u);
  EXPECT_EQ(t.local.bytesRequested, 128u);
  EXPECT_EQ(t.constant.requests, 1u);
  EXPECT_EQ(t.constant.distinctAddresses, 3u);
  EXPECT_EQ(t.globalLoads.requests, 0u);
}

TEST(StatisticsCollector, FullyPredicatedOffInstructionCountsIdleButNoMemory) {
  auto k = branchKernel();
  StatisticsCollector stats(modern());
  stats.beginKernel(k);
  stats.beginBlock(0);
  stats.instruction(rec(0, 0, 2, 0u));
  stats.endBlock(0);
  stats.endKernel();
  EXPECT_EQ(stats.kernels()[0].total.idleLanes, 32u);
  EXPECT_EQ(stats.kernels()[0].total.globalLoads.requests, 0u);
}

TEST(StatisticsCollector, RejectsAPcOutsideTheKernel) {
  StatisticsCollector stats(modern());
  stats.beginKernel(branchKernel());
  stats.beginBlock(0);
  EXPECT_THROW(stats.instruction(rec(0, 0, 99, kAll)), teg::Error);
}

TEST(StatisticsCollector, RejectsAnIncompleteGeometry) {
  EXPECT_THROW(StatisticsCollector(MemoryGeometry{0, 4, false, 32, 128}), teg::Error);
  EXPECT_THROW(StatisticsCollector(MemoryGeometry{32, 4, false, 0, 128}), teg::Error);
}

}  // namespace
}  // namespace teg::emu

namespace teg::emu {
namespace {

TEST(MemoryGeometry, FromTheDeviceDatabase) {
  const auto db = device::DeviceDatabase::loadDefault();
  // Guide, shared memory of cc 1.x: 16 banks, requests per half-warp; cc >= 5.0: 32 banks of 4 B.
  const auto tesla = MemoryGeometry::forDevice(db.find("sm_13"));
  EXPECT_EQ(tesla.sharedBanks, 16);
  EXPECT_TRUE(tesla.halfWarpShared);
  const auto ampere = MemoryGeometry::forDevice(db.find("A100"));
  EXPECT_EQ(ampere.sharedBanks, 32);
  EXPECT_EQ(ampere.sharedBankWidth, 4);
  EXPECT_FALSE(ampere.halfWarpShared);
  EXPECT_EQ(ampere.sectorBytes, 32);
  EXPECT_EQ(ampere.lineBytes, 128);
}

}  // namespace
}  // namespace teg::emu
