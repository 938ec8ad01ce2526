// Pieces of `teg run` that are not option parsing: which blocks to emulate (--blocks), comparing
// buffers with expected values (--check), writing them out (--dump), and rendering statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "teg/emu/emulator.hpp"
#include "teg/emu/launch.hpp"
#include "teg/emu/statistics.hpp"
#include "teg/trace/trace.hpp"

namespace teg::cli {

// --blocks SPEC: "all", "first-wave", or a comma-separated list of block indices and inclusive
// ranges ("0-15", "0,5,9", "0-3,100"). Linear block indices (x fastest). `firstWave` is the
// number of blocks the first wave holds (SMs x blocks per SM); only used for "first-wave".
// Returns sorted, merged ranges; throws teg::Error naming the spec on bad syntax or a block
// outside the grid.
std::vector<emu::BlockRange> parseBlockSpec(const std::string& spec, std::uint64_t gridBlocks,
                                            std::optional<std::uint64_t> firstWave);
// "0-15, 32" style description of ranges.
std::string describeBlocks(const std::vector<emu::BlockRange>& ranges);
std::uint64_t countBlocks(const std::vector<emu::BlockRange>& ranges);

// Result of comparing a buffer with its expected values.
struct BufferComparison {
  std::uint64_t elements = 0;
  std::uint64_t mismatches = 0;
  std::uint64_t firstIndex = 0;     // valid when mismatches > 0
  std::string firstActual, firstExpected;
  double maxAbsDifference = 0;      // over finite pairs
};

// Element-wise: |actual - expected| <= tolerance (integers compared exactly when tolerance is
// 0; floats: NaN matches NaN, infinities must match exactly). Sizes must agree.
BufferComparison compareBuffer(emu::ScalarType type, std::span<const std::byte> actual,
                               std::span<const std::byte> expected, double tolerance);
std::string formatElement(emu::ScalarType type, std::span<const std::byte> bytes, std::uint64_t index);

// --dump: raw little-endian bytes, or NumPy .npy when the path ends in ".npy".
void writeDump(const std::string& path, emu::ScalarType type, std::span<const std::byte> bytes);

// Forwards a trace to `target` but drops beginKernel/endKernel, so that several runs over
// block ranges reach the target as one kernel (the caller sends those two itself).
class KernelJoiner final : public trace::TraceListener {
 public:
  explicit KernelJoiner(trace::TraceListener& target) : target_(target) {}
  void beginKernel(const trace::KernelInfo&) override {}
  void beginBlock(std::uint32_t block) override { target_.beginBlock(block); }
  void instruction(const trace::WarpInstruction& record) override { target_.instruction(record); }
  void endBlock(std::uint32_t block) override { target_.endBlock(block); }
  void endKernel() override {}

 private:
  trace::TraceListener& target_;
};

// Text tables for one kernel's statistics: summary, instruction mix, per source line (with the
// source text when the file can be read).
std::string renderStatistics(const emu::KernelStatistics& stats, const emu::MemoryGeometry& geometry);
// JSON of one kernel's statistics (totals and per line).
nlohmann::json statisticsJson(const emu::KernelStatistics& stats, const emu::MemoryGeometry& geometry);

}  // namespace teg::cli
