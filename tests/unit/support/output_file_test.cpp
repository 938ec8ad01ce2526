// OutputFile: an output is whole or absent — never half-written, never a leftover temporary file,
// whether the writer fails, throws, or the process is killed; write errors are reported.
#include "teg/support/output_file.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "teg/support/cleanup.hpp"
#include "teg/support/error.hpp"

namespace fs = std::filesystem;

namespace {

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("teg-output-file-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  static std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  fs::path dir_;
};

TEST_F(OutputFileTest, CommitPutsTheWholeFileInPlaceAndNothingElse) {
  const std::string big(3 << 20, 'a');  // more than one buffer
  {
    teg::OutputFile out(path("o.bin"));
    out.write(big);
    out.write("tail");
    // Until the commit the target does not exist: only a hidden temporary beside it.
    EXPECT_FALSE(fs::exists(path("o.bin")));
    EXPECT_EQ(entries().size(), 1u);
    out.commit();
    EXPECT_EQ(out.bytesWritten(), big.size() + 4);
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"o.bin"});
  EXPECT_EQ(slurp(path("o.bin")), big + "tail");
}

TEST_F(OutputFileTest, ANewFileGetsTheUsualPermissions) {
  teg::writeOutputFile(path("p.txt"), "x");
  const mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(fs::status(path("p.txt")).permissions(), static_cast<fs::perms>(0666 & ~mask));
}

TEST_F(OutputFileTest, WithoutCommitNothingIsLeftAndAnOldFileIsUntouched) {
  std::ofstream(path("old.txt")) << "previous run";
  try {
    teg::OutputFile out(path("old.txt"));
    out.write("half of the new ");
    throw std::runtime_error("the run failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"old.txt"});
  EXPECT_EQ(slurp(path("old.txt")), "previous run");
}

TEST_F(OutputFileTest, ASymbolicLinkStaysALinkAndItsTargetIsReplaced) {
  std::ofstream(path("real.txt")) << "old";
  fs::create_symlink(path("real.txt"), path("link.txt"));
  teg::writeOutputFile(path("link.txt"), "new");
  EXPECT_TRUE(fs::is_symlink(path("link.txt")));
  EXPECT_EQ(slurp(path("real.txt")), "new");
}

TEST_F(OutputFileTest, AFullDeviceIsAnErrorNamingTheFileAndTheCause) {
  // /dev/full cannot be renamed into: it is written directly, and ENOSPC must surface.
  try {
    teg::writeOutputFile("/dev/full", "bytes");
    FAIL() << "expected an error";
  } catch (const teg::Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write /dev/full: No space left on device");
  }
}

TEST_F(OutputFileTest, ASpecialFileIsWrittenInPlace) {
  EXPECT_NO_THROW(teg::writeOutputFile("/dev/null", "discarded"));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST_F(OutputFileTest, AMissingDirectoryIsAnError) {
  try {
    teg::writeOutputFile(path("no/such/dir/x.bin"), "x");
    FAIL() << "expected an error";
  } catch (const teg::Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + path("no/such/dir/x.bin") + ": No such file or directory");
  }
}

TEST_F(OutputFileTest, ADirectoryAsTargetIsAnError) {
  fs::create_directories(path("d"));
  EXPECT_THROW(teg::writeOutputFile(path("d"), "x"), teg::Error);
  EXPECT_EQ(entries(), std::vector<std::string>{"d"});
}

TEST_F(OutputFileTest, ASignalMidWriteLeavesNoFileBehind) {
  // The child is killed by SIGTERM while its output is half written; the handler removes the
  // temporary file, and the child still dies of the signal (so its parent knows).
  const std::string target = path("interrupted.trace");
  EXPECT_EXIT(
      {
        teg::installCleanupHandlers();
        teg::OutputFile out(target);
        out.write(std::string(3 << 20, 'z'));
        raise(SIGTERM);
        out.commit();
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_EQ(entries(), std::vector<std::string>{});
}

TEST_F(OutputFileTest, AnExitWithoutCommitLeavesNoFileBehind) {
  const std::string target = path("exited.trace");
  EXPECT_EXIT(
      {
        teg::installCleanupHandlers();
        static auto* out = new teg::OutputFile(target);  // never destroyed: only the exit hook cleans
        out->write("partial");
        std::exit(3);
      },
      ::testing::ExitedWithCode(3), "");
  EXPECT_EQ(entries(), std::vector<std::string>{});
}

}  // namespace
