// The trace file is whole or absent: it appears when endKernel has written everything; a
// writer that goes away before (a failed run) leaves nothing; a full disk is an error from
// endKernel (before: the destructor flushed and threw, so unwinding ended in std::terminate).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "teg/support/error.hpp"
#include "teg/trace/trace_file.hpp"

namespace fs = std::filesystem;
using teg::trace::KernelInfo;
using teg::trace::TraceFileWriter;
using teg::trace::WarpInstruction;

namespace {

fs::path freshDir() {
  const auto dir = fs::temp_directory_path() / ("teg-trace-output-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void writeBlocks(TraceFileWriter& writer, const KernelInfo& kernel, int blocks) {
  writer.beginKernel(kernel);
  for (int b = 0; b < blocks; ++b) {
    writer.beginBlock(static_cast<std::uint32_t>(b));
    for (int i = 0; i < 1000; ++i) {
      WarpInstruction r;
      r.warp = static_cast<std::uint32_t>(i % 4);
      r.activeMask = 0xffffffffu;
      writer.instruction(r);
    }
    writer.endBlock(static_cast<std::uint32_t>(b));
  }
}

TEST(TraceFileOutput, UnfinishedTraceLeavesNoFile) {
  const auto dir = freshDir();
  const KernelInfo kernel;
  {
    TraceFileWriter writer((dir / "k.trace").string());
    writeBlocks(writer, kernel, 400);  // several MB: some of it was already written out
  }
  EXPECT_TRUE(fs::is_empty(dir));
  {
    TraceFileWriter writer((dir / "k.trace").string());
    writeBlocks(writer, kernel, 2);
    writer.endKernel();
  }
  EXPECT_TRUE(fs::exists(dir / "k.trace"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(TraceFileOutput, AFullDeviceIsAnErrorAndUnwindingIsSafe) {
  const KernelInfo kernel;
  try {
    TraceFileWriter writer("/dev/full");
    writeBlocks(writer, kernel, 400);
    writer.endKernel();
    FAIL() << "expected an error";
  } catch (const teg::Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write /dev/full: No space left on device");
  }
  // An exception from elsewhere while the writer holds unwritten bytes: no second throw.
  EXPECT_THROW(
      {
        TraceFileWriter writer("/dev/full");
        writeBlocks(writer, kernel, 1);
        throw std::runtime_error("the emulator failed");
      },
      std::runtime_error);
}

}  // namespace
