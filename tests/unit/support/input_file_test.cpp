// readInputFile / checkInputFile: what is not a regular file is refused at once with what it is
// (a FIFO used to block forever, a directory was "no such file"), other failures name errno.
#include "teg/support/input_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace fs = std::filesystem;

namespace {

class InputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("teg-input-file-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

std::string errorOf(void (*read)(const std::string&), const std::string& path) {
  try {
    read(path);
  } catch (const teg::Error& e) {
    return e.what();
  }
  return "(no error)";
}

void readIt(const std::string& p) { teg::readInputFile(p); }
void checkIt(const std::string& p) { teg::checkInputFile(p); }
void readJson(const std::string& p) { teg::readJsonFile(p); }

TEST_F(InputFile, ReadsARegularFileWhole) {
  std::string text(200000, 'x');
  text += "\nend";
  std::ofstream(path("a.txt"), std::ios::binary) << text;
  EXPECT_EQ(teg::readInputFile(path("a.txt")), text);
  EXPECT_NO_THROW(teg::checkInputFile(path("a.txt")));
  std::ofstream(path("empty.txt"), std::ios::binary);
  EXPECT_EQ(teg::readInputFile(path("empty.txt")), "");
}

TEST_F(InputFile, ADirectoryIsADirectoryNotMissing) {
  fs::create_directories(path("d.json"));
  for (auto* f : {readIt, checkIt, readJson}) EXPECT_EQ(errorOf(f, path("d.json")), path("d.json") + ": is a directory");
}

TEST_F(InputFile, AFifoIsRefusedWithoutWaitingForAWriter) {
  // Opening a FIFO for reading blocks until a writer comes; none ever does here, so before the
  // fix this test hung.
  ASSERT_EQ(mkfifo(path("pipe.cu").c_str(), 0600), 0);
  for (auto* f : {readIt, checkIt, readJson})
    EXPECT_EQ(errorOf(f, path("pipe.cu")), path("pipe.cu") + ": is not a regular file (a FIFO)");
}

TEST_F(InputFile, ADeviceIsRefused) {
  EXPECT_EQ(errorOf(readIt, "/dev/zero"), "/dev/zero: is not a regular file (a character device)");
}

TEST_F(InputFile, OtherFailuresNameTheRealErrno) {
  EXPECT_EQ(errorOf(readIt, path("missing.json")), path("missing.json") + ": cannot open: No such file or directory");
  std::ofstream(path("f"), std::ios::binary) << "x";
  EXPECT_EQ(errorOf(readIt, path("f") + "/below"), path("f") + "/below: cannot open: Not a directory");
  if (geteuid() != 0) {  // root reads anything
    ASSERT_EQ(chmod(path("f").c_str(), 0), 0);
    EXPECT_EQ(errorOf(readIt, path("f")), path("f") + ": cannot open: Permission denied");
  }
}

}  // namespace
