#include "teg/trace/trace_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "teg/support/error.hpp"

using namespace teg::trace;

namespace {

// Records every event so that two streams can be compared.
struct Recorder final : TraceListener {
  KernelInfo kernel;
  std::vector<std::string> events;
  std::vector<WarpInstruction> records;
  void beginKernel(const KernelInfo& k) override { kernel = k; }
  void beginBlock(std::uint32_t b) override { events.push_back("begin " + std::to_string(b)); }
  void instruction(const WarpInstruction& r) override {
    events.push_back("insn");
    records.push_back(r);
  }
  void endBlock(std::uint32_t b) override { events.push_back("end " + std::to_string(b)); }
  void endKernel() override { events.push_back("kernel end"); }
};

KernelInfo sampleKernel() {
  KernelInfo k;
  k.name = "saxpy";
  k.grid = {4, 1, 1};
  k.block = {64, 1, 1};
  k.registersPerThread = 12;
  k.sourceFiles = {"saxpy.cu"};
  StaticInstruction add;
  add.kind = InstrKind::Alu;
  add.defs = {3};
  add.uses = {1, 2};
  add.text = "add.s32 %r3, %r1, %r2;";
  add.sourceFile = 0;
  add.sourceLine = 7;
  StaticInstruction load;
  load.pc = 1;
  load.kind = InstrKind::Load;
  load.unit = teg::device::InstructionClass::LoadStore;
  load.space = MemorySpace::Global;
  load.accessBytes = 4;
  load.defs = {4};
  load.uses = {3};
  load.text = "ld.global.f32 %f1, [%rd3];";
  load.cache = CachePolicy::BypassL1;
  add.fusedInto = 1;  // not a real pairing; the header only has to carry the field
  k.instructions = {add, load};
  return k;
}

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / name).string();
}

void writeSample(const std::string& path, const KernelInfo& kernel, const std::vector<WarpInstruction>& records) {
  TraceFileWriter writer(path);
  writer.beginKernel(kernel);
  writer.beginBlock(0);
  for (const auto& r : records) writer.instruction(r);
  writer.endBlock(0);
  writer.endKernel();
}

std::vector<WarpInstruction> randomRecords(int n) {
  std::mt19937_64 rng(7);
  std::vector<WarpInstruction> records;
  for (int i = 0; i < n; ++i) {
    WarpInstruction r;
    r.warp = static_cast<std::uint32_t>(rng() % 2);
    r.pc = static_cast<std::uint32_t>(rng() % 2);
    r.activeMask = static_cast<std::uint32_t>(rng());
    if (r.pc == 1)  // scattered, descending and huge addresses for the active lanes
      for (int lane = 0; lane < kWarpLanes; ++lane)
        if (r.activeMask >> lane & 1u) r.addresses[lane] = rng();
    records.push_back(r);
  }
  return records;
}

TEST(TraceFile, RoundTripsEveryField) {
  const auto kernel = sampleKernel();
  const auto records = randomRecords(500);
  const auto path = tempPath("teg_trace_roundtrip.trace");
  writeSample(path, kernel, records);
  Recorder got;
  replayTraceFile(path, got);
  EXPECT_EQ(got.kernel.name, "saxpy");
  ASSERT_EQ(got.kernel.instructions.size(), 2u);
  EXPECT_EQ(got.kernel.instructions[1].kind, InstrKind::Load);
  EXPECT_EQ(got.kernel.instructions[1].uses, std::vector<std::uint32_t>{3});
  EXPECT_EQ(got.kernel.instructions[0].sourceLine, 7);
  EXPECT_EQ(got.kernel.instructions[1].cache, CachePolicy::BypassL1);
  EXPECT_EQ(got.kernel.instructions[0].cache, CachePolicy::Default);
  EXPECT_EQ(got.kernel.instructions[0].fusedInto, 1);
  EXPECT_EQ(got.kernel.instructions[1].fusedInto, -1);
  ASSERT_EQ(got.records.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(got.records[i].warp, records[i].warp);
    EXPECT_EQ(got.records[i].pc, records[i].pc);
    EXPECT_EQ(got.records[i].activeMask, records[i].activeMask);
    if (records[i].pc == 1)
      for (int lane = 0; lane < kWarpLanes; ++lane)
        if (records[i].activeMask >> lane & 1u) {
          ASSERT_EQ(got.records[i].addresses[lane], records[i].addresses[lane]);
        }
  }
  EXPECT_EQ(got.events.front(), "begin 0");
  EXPECT_EQ(got.events.back(), "kernel end");
}

TEST(TraceFile, ASassKernelKeepsItsIsaControlWordsAndOperandSlots) {
  auto kernel = sampleKernel();
  kernel.isa = Isa::Sass;
  kernel.instructions[1].control = ControlWord{3, true, 2, 1, 0b100001, 0b0101};
  kernel.instructions[1].sourceSlots = {2, -1, 7, -1};
  kernel.instructions[1].control.groupWaitBarrier = 0;  // DEPBAR.LE SB0, 0x2
  kernel.instructions[1].control.groupWaitKeep = 2;
  kernel.instructions[0].control.commitGroup = true;    // LDGDEPBAR
  const auto path = tempPath("teg_trace_sass.bin");
  writeSample(path, kernel, randomRecords(10));
  Recorder got;
  replayTraceFile(path, got);
  EXPECT_EQ(got.kernel.isa, Isa::Sass);
  EXPECT_EQ(got.kernel.instructions[1].control, kernel.instructions[1].control);
  EXPECT_EQ(got.kernel.instructions[1].sourceSlots, kernel.instructions[1].sourceSlots);
  EXPECT_EQ(got.kernel.instructions[0].control, kernel.instructions[0].control);
  EXPECT_EQ(got.kernel.instructions[0].control.waitMask, 0);
  std::filesystem::remove(path);
}

TEST(TraceFile, APtxKernelReadsBackAsPtx) {
  const auto path = tempPath("teg_trace_ptx_isa.bin");
  writeSample(path, sampleKernel(), randomRecords(3));
  Recorder got;
  replayTraceFile(path, got);
  EXPECT_EQ(got.kernel.isa, Isa::Ptx);
  std::filesystem::remove(path);
}

TEST(TraceFile, CoalescedAccessesCostAboutOneBytePerLane) {
  const auto kernel = sampleKernel();
  WarpInstruction r;
  r.pc = 1;
  r.activeMask = 0xFFFFFFFFu;
  for (int lane = 0; lane < kWarpLanes; ++lane) r.addresses[lane] = 0x7f0000001000ull + 4u * lane;
  const auto path = tempPath("teg_trace_coalesced.trace");
  std::vector<WarpInstruction> records(1000, r);
  writeSample(path, kernel, records);
  const auto size = std::filesystem::file_size(path);
  // Per record: tag 1 + warp 1 + pc 1 + mask 5 + first address 7 + 31 one-byte deltas = 46 bytes.
  const auto headerAndFraming = size - 1000u * 46u;
  EXPECT_LT(headerAndFraming, 1000u) << size;
}

TEST(TraceFile, EveryTruncationIsAnErrorNotACrash) {
  const auto path = tempPath("teg_trace_truncate.trace");
  writeSample(path, sampleKernel(), randomRecords(20));
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto cut = tempPath("teg_trace_cut.trace");
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::ofstream(cut, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(n));
    Recorder sink;
    EXPECT_THROW(replayTraceFile(cut, sink), teg::Error) << "truncated at " << n;
  }
}

TEST(TraceFile, CorruptTagIsNamedWithItsOffset) {
  const auto path = tempPath("teg_trace_corrupt.trace");
  writeSample(path, sampleKernel(), {});
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Layout ends with: BeginBlock(1) 0, EndBlock(3) 0, EndKernel(4). Corrupt the EndBlock tag.
  bytes[bytes.size() - 3] = static_cast<char>(9);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  Recorder sink;
  try {
    replayTraceFile(path, sink);
    FAIL();
  } catch (const teg::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": corrupt trace at byte " + std::to_string(bytes.size() - 2) + ": unknown record tag 9");
  }
}

}  // namespace
