// A compact binary trace file, so that a kernel is emulated once and its trace replayed into the
// timing engine as often as wanted (what-if runs, other GPUs of the same generation).
//
// Layout: "TEGTRACE" + u32 version, then the KernelInfo as length-prefixed JSON, then a stream of
// tagged records with LEB128 varints: block begin/end, and per warp instruction the warp, pc,
// active mask and, for memory instructions, the first active lane's address followed by
// zig-zag deltas between consecutive active lanes (coalesced accesses cost ~1 byte per lane).
#pragma once

#include <string>

#include "teg/support/output_file.hpp"
#include "teg/trace/trace.hpp"

namespace teg::trace {

// A listener that writes what it hears to a file, whole or not at all: the file appears when
// endKernel has written everything (a run that fails or is interrupted leaves none).
class TraceFileWriter final : public TraceListener {
 public:
  explicit TraceFileWriter(const std::string& path);  // throws teg::Error if it cannot open
  ~TraceFileWriter() override;  // never throws; without endKernel, the file is not created
  TraceFileWriter(const TraceFileWriter&) = delete;
  TraceFileWriter& operator=(const TraceFileWriter&) = delete;

  void beginKernel(const KernelInfo& kernel) override;
  void beginBlock(std::uint32_t block) override;
  void instruction(const WarpInstruction& record) override;
  void endBlock(std::uint32_t block) override;
  void endKernel() override;

  [[nodiscard]] std::uint64_t bytesWritten() const { return bytes_; }

 private:
  void flush();
  OutputFile file_;
  std::string buffer_;
  std::uint64_t bytes_ = 0;
  const KernelInfo* kernel_ = nullptr;
};

// Replays a trace file into a listener. Throws teg::Error naming the file and byte offset on a
// truncated or corrupt file.
void replayTraceFile(const std::string& path, TraceListener& listener);

}  // namespace teg::trace
