// findNvcc: the search order ($PATH, $CUDA_HOME/bin, fallbacks) on fake toolkits in a temp dir, and
// the message when there is none.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace fs = std::filesystem;
using teg::toolchain::findNvcc;
using teg::toolchain::NvccSearch;

namespace {

class FindNvcc : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("teg-findnvcc-" + std::to_string(getpid()));
    fs::remove_all(root_);
    for (const char* d : {"path1", "path2/bin", "home/bin", "fallback", "empty"})
      fs::create_directories(root_ / d);
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string dir(const std::string& d) const { return (root_ / d).string(); }
  void makeNvcc(const std::string& d, bool executable = true) const {
    const auto p = root_ / d / "nvcc";
    std::ofstream(p) << "#!/bin/sh\n";
    chmod(p.c_str(), executable ? 0755 : 0644);
  }

  fs::path root_;
};

TEST_F(FindNvcc, PathComesFirst) {
  makeNvcc("path2/bin");
  makeNvcc("home/bin");
  makeNvcc("fallback");
  NvccSearch s{dir("path1") + ":" + dir("path2/bin"), dir("home"), {dir("fallback")}};
  EXPECT_EQ(findNvcc(s), dir("path2/bin") + "/nvcc");
}

TEST_F(FindNvcc, ThenCudaHomeThenFallback) {
  makeNvcc("home/bin");
  makeNvcc("fallback");
  EXPECT_EQ(findNvcc(NvccSearch{dir("path1"), dir("home"), {dir("fallback")}}), dir("home/bin") + "/nvcc");
  EXPECT_EQ(findNvcc(NvccSearch{dir("path1"), "", {dir("fallback")}}), dir("fallback") + "/nvcc");
}

TEST_F(FindNvcc, SkipsFilesThatAreNotExecutable) {
  makeNvcc("path1", /*executable=*/false);
  makeNvcc("fallback");
  EXPECT_EQ(findNvcc(NvccSearch{dir("path1"), "", {dir("fallback")}}), dir("fallback") + "/nvcc");
}

TEST_F(FindNvcc, NoneFoundSaysWhereItLookedAndHowToInstall) {
  try {
    findNvcc(NvccSearch{dir("path1") + ":" + dir("empty"), dir("home"), {dir("fallback")}});
    FAIL() << "expected teg::Error";
  } catch (const teg::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("nvcc not found"), std::string::npos) << m;
    for (const auto& d : {dir("path1"), dir("empty"), dir("home/bin"), dir("fallback")})
      EXPECT_NE(m.find(d), std::string::npos) << d << " missing from: " << m;
    EXPECT_NE(m.find("install the CUDA toolkit"), std::string::npos) << m;
    EXPECT_NE(m.find("CUDA_HOME"), std::string::npos) << m;
  }
}

}  // namespace
