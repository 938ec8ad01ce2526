// The compile cache: a repeated compile of the same files with the same flags skips nvcc; a
// changed source, header, macro or include directory misses; a corrupt entry is rebuilt.
// Include directories and macros reach nvcc (a samples-style kernel with its helper header in
// another directory). The nvcc tests skip, saying so, without the CUDA toolkit.
#include "compile_cache.hpp"

#include <gtest/gtest.h>

#include "nvcc_available.hpp"
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace fs = std::filesystem;
using namespace teg::toolchain;

namespace {

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(DependencyFile, ListsThePrerequisitesOfTheFirstRule) {
  const std::string text =
      "module.cubin : k.cu \\\n    /usr/local/cuda/include/cuda_runtime.h \\\n    inc/my\\ helper.h\n"
      "inc/my\\ helper.h:\n";
  EXPECT_EQ(parseDependencyFile(text),
            (std::vector<std::string>{"k.cu", "/usr/local/cuda/include/cuda_runtime.h", "inc/my helper.h"}));
  EXPECT_TRUE(parseDependencyFile("").empty());
}


class CompileCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("teg-compile-cache-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "common" / "inc");
    if (const char* old = std::getenv("TEG_CACHE_DIR")) oldCacheDir_ = old;
    setenv("TEG_CACHE_DIR", (dir_ / "cache").c_str(), 1);
    unsetenv("TEG_NO_CACHE");
    // In the style of the CUDA samples: the kernel includes a helper header that lives in a
    // shared directory and only compiles with -I pointing there.
    write("common/inc/helper_scale.h", "#pragma once\n#define SCALE_FACTOR 3.0f\n");
    write("kernel.cu",
          "#include <helper_scale.h>\n"
          "#ifndef OFFSET\n#define OFFSET 0.0f\n#endif\n"
          "__global__ void scale(float* x) { x[threadIdx.x] = x[threadIdx.x] * SCALE_FACTOR + OFFSET; }\n");
  }
  void TearDown() override {
    if (oldCacheDir_.empty()) unsetenv("TEG_CACHE_DIR");
    else setenv("TEG_CACHE_DIR", oldCacheDir_.c_str(), 1);
    fs::remove_all(dir_);
  }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir_ / name) << text; }
  CompileOptions options() const {
    CompileOptions o;
    o.includeDirs = {(dir_ / "common" / "inc").string()};
    return o;
  }
  CompileResult compile(const CompileOptions& o) const { return compileCuda((dir_ / "kernel.cu").string(), o); }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(dir_ / "cache"))
      if (e.is_regular_file()) files.push_back(e.path());
    return files;
  }

  fs::path dir_;
  std::string oldCacheDir_;
};

// The PTX holds SCALE_FACTOR and OFFSET as float immediates (0f40400000 is 3.0f).
bool hasImmediate(const CompileResult& r, const std::string& hex) { return r.ptx.find(hex) != std::string::npos; }

TEST_F(CompileCacheTest, AHelperHeaderFromAnotherDirectoryCompilesWithAnIncludeDirectory) {
  REQUIRE_NVCC();
  CompileOptions without;
  without.useCache = false;
  try {
    compile(without);
    FAIL() << "compiled without the include directory";
  } catch (const teg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("helper_scale.h"), std::string::npos) << e.what();
  }
  const CompileResult r = compile(options());
  EXPECT_TRUE(hasImmediate(r, "0f40400000"));
  ASSERT_EQ(r.kernels.size(), 1u);
}

TEST_F(CompileCacheTest, ASecondCompileComesFromTheCache) {
  REQUIRE_NVCC();
  const CompileResult first = compile(options());
  EXPECT_FALSE(first.fromCache);
  ASSERT_EQ(entries().size(), 1u);
  const CompileResult second = compile(options());
  EXPECT_TRUE(second.fromCache);
  EXPECT_EQ(second.ptx, first.ptx);
  // The cubin is kept too (an ELF file: "\x7fELF"), for nvdisasm.
  ASSERT_GE(first.cubin.size(), 4u);
  EXPECT_EQ(first.cubin.substr(0, 4), "\x7f" "ELF");
  EXPECT_EQ(second.cubin, first.cubin);
  EXPECT_EQ(second.log, first.log);
  EXPECT_EQ(second.command, first.command);
  ASSERT_EQ(second.kernels.size(), 1u);
  EXPECT_EQ(second.kernels[0].registers, first.kernels[0].registers);
}

TEST_F(CompileCacheTest, AChangedHeaderMisses) {
  REQUIRE_NVCC();
  EXPECT_TRUE(hasImmediate(compile(options()), "0f40400000"));
  write("common/inc/helper_scale.h", "#pragma once\n#define SCALE_FACTOR 5.0f\n");
  const CompileResult r = compile(options());
  EXPECT_FALSE(r.fromCache);
  EXPECT_TRUE(hasImmediate(r, "0f40A00000")) << "the PTX of the old header came back";
}

TEST_F(CompileCacheTest, AChangedSourceMacroOrIncludeDirectoryMisses) {
  REQUIRE_NVCC();
  compile(options());
  CompileOptions defined = options();
  defined.defines = {"OFFSET=2.0f"};
  const CompileResult withMacro = compile(defined);
  EXPECT_FALSE(withMacro.fromCache);
  EXPECT_TRUE(hasImmediate(withMacro, "0f40000000"));
  EXPECT_TRUE(compile(defined).fromCache);

  fs::create_directories(dir_ / "other");
  write("other/helper_scale.h", "#pragma once\n#define SCALE_FACTOR 7.0f\n");
  CompileOptions other = options();
  other.includeDirs = {(dir_ / "other").string()};
  EXPECT_TRUE(hasImmediate(compile(other), "0f40E00000"));

  write("kernel.cu", "#include <helper_scale.h>\n__global__ void scale(float* x) { x[threadIdx.x] += SCALE_FACTOR; }\n");
  EXPECT_FALSE(compile(options()).fromCache);
}

TEST_F(CompileCacheTest, ACorruptEntryIsIgnoredAndRebuilt) {
  REQUIRE_NVCC();
  const CompileResult first = compile(options());
  ASSERT_EQ(entries().size(), 1u);
  const fs::path entry = entries().front();
  for (const std::string& garbage : {std::string(""), std::string("\xff\x00garbage", 9)}) {
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << garbage;
    const CompileResult again = compile(options());
    EXPECT_FALSE(again.fromCache);
    EXPECT_EQ(again.ptx, first.ptx);
    EXPECT_TRUE(compile(options()).fromCache) << "the rebuilt entry is used";
  }
  // A flipped byte inside the PTX keeps the entry readable; its checksum catches it.
  std::string bytes;
  {
    std::ifstream in(entry, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto at = bytes.find(".entry");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 1] = 'E';
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_FALSE(compile(options()).fromCache);
}

TEST_F(CompileCacheTest, OffWhenAskedTo) {
  REQUIRE_NVCC();
  CompileOptions o = options();
  o.useCache = false;
  compile(o);
  EXPECT_FALSE(compile(o).fromCache);
  EXPECT_FALSE(fs::exists(dir_ / "cache"));
  setenv("TEG_NO_CACHE", "1", 1);
  compile(options());
  EXPECT_FALSE(compile(options()).fromCache);
  unsetenv("TEG_NO_CACHE");
  EXPECT_FALSE(fs::exists(dir_ / "cache"));
}

TEST_F(CompileCacheTest, TheUsersOwnDependencyFlagsWinAndSkipTheCache) {
  REQUIRE_NVCC();
  CompileOptions o = options();
  o.extraArgs = {"-MD", "-MF", (dir_ / "user.d").string()};
  EXPECT_FALSE(compile(o).fromCache);
  EXPECT_FALSE(compile(o).fromCache);
  std::ifstream in(dir_ / "user.d");
  const std::string deps((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_FALSE(parseDependencyFile(deps).empty()) << "the user's -MF file was not written";
}

TEST(CompileCacheDirectory, FromTheEnvironmentInOrder) {
  const auto keep = [](const char* n) { const char* v = std::getenv(n); return v ? std::optional<std::string>(v) : std::nullopt; };
  const auto oldCache = keep("TEG_CACHE_DIR"), oldXdg = keep("XDG_CACHE_HOME"), oldHome = keep("HOME"), oldOff = keep("TEG_NO_CACHE");
  unsetenv("TEG_NO_CACHE");
  setenv("TEG_CACHE_DIR", "/c", 1);
  setenv("XDG_CACHE_HOME", "/x", 1);
  setenv("HOME", "/h", 1);
  EXPECT_EQ(compileCacheDirectory(), fs::path("/c"));
  unsetenv("TEG_CACHE_DIR");
  EXPECT_EQ(compileCacheDirectory(), fs::path("/x/teg"));
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(compileCacheDirectory(), fs::path("/h/.cache/teg"));
  setenv("TEG_NO_CACHE", "1", 1);
  EXPECT_EQ(compileCacheDirectory(), std::nullopt);
  const auto restore = [](const char* n, const std::optional<std::string>& v) {
    if (v) setenv(n, v->c_str(), 1);
    else unsetenv(n);
  };
  restore("TEG_CACHE_DIR", oldCache);
  restore("XDG_CACHE_HOME", oldXdg);
  restore("HOME", oldHome);
  restore("TEG_NO_CACHE", oldOff);
}

}  // namespace
