// compileCuda with the real nvcc (each test skips, saying so, when there is none).
#include <gtest/gtest.h>

#include "nvcc_available.hpp"
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace fs = std::filesystem;
using namespace teg::toolchain;

namespace {


class CompileCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("teg-compile-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

// 64 floats of shared memory = 256 bytes; one __syncthreads.
const char* kScale = R"(
__global__ void scale(float* x, float a, int n) {
  __shared__ float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x % 64] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) x[i] = a * s[threadIdx.x % 64];
}
)";

TEST_F(CompileCuda, FileNameWithSpacesAndQuotes) {
  REQUIRE_NVCC();
  const auto path = write("my 'odd' kernel; (v2) & more.cu", kScale);
  CompileOptions options;
  options.arch = "sm_86";
  const auto r = compileCuda(path, options);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].name, "scale(float*, float, int)");
  EXPECT_EQ(r.kernels[0].arch, "sm_86");
  EXPECT_EQ(r.kernels[0].staticSharedBytes, 64 * 4);
  EXPECT_EQ(r.kernels[0].barriers, 1);
  EXPECT_GT(r.kernels[0].registers, 0);
  EXPECT_NE(r.ptx.find(".target sm_86"), std::string::npos);
  EXPECT_NE(r.ptx.find(".entry _Z5scalePffi"), std::string::npos);
  EXPECT_NE(r.ptx.find(".loc"), std::string::npos);  // -lineinfo
  EXPECT_EQ(r.command.back(), path);                    // one argument, passed as it is
}

TEST_F(CompileCuda, RefusesNamesNvccsShellWouldInterpret) {
  // nvcc hands file names to a shell inside double quotes: `$(...)` or backquotes would run.
  for (const char* name : {"a$(touch pwned).cu", "a`touch pwned`.cu", "a\"b.cu"}) {
    const auto path = write(name, kScale);
    try {
      compileCuda(path, {});
      ADD_FAILURE() << "accepted " << name;
    } catch (const teg::Error& e) {
      EXPECT_NE(std::string(e.what()).find("rename it"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(fs::exists("pwned"));
}

TEST_F(CompileCuda, NvccErrorsReachTheUserVerbatim) {
  REQUIRE_NVCC();
  const auto path = write("broken.cu", "__global__ void f() { int x = ; }\n");
  try {
    compileCuda(path, {});
    FAIL() << "expected teg::Error";
  } catch (const teg::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("nvcc failed"), std::string::npos) << m;
    EXPECT_NE(m.find("error: expected an expression"), std::string::npos) << m;  // nvcc's words
    EXPECT_NE(m.find("broken.cu(1)"), std::string::npos) << m;
  }
}

TEST_F(CompileCuda, ExtraArgumentsReachNvcc) {
  REQUIRE_NVCC();
  // -DN=... decides the shared array's size: 100 floats = 400 bytes.
  const auto path = write("sized.cu",
                          "__global__ void k(float* x) { __shared__ float s[N]; "
                          "s[threadIdx.x % N] = x[threadIdx.x]; __syncthreads(); "
                          "x[threadIdx.x] = s[(threadIdx.x + 1) % N]; }\n");
  CompileOptions options;
  options.extraArgs = {"-DN=100"};
  const auto r = compileCuda(path, options);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].staticSharedBytes, 400);
}

TEST_F(CompileCuda, MaxrregcountForcesSpills) {
  REQUIRE_NVCC();
  CompileOptions options;
  options.extraArgs = {"-maxrregcount=16"};
  const auto r =
      compileCuda(std::string(TEG_SOURCE_DIR) + "/examples/kernels/sgemm_register_blocked.cu", options);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_LE(r.kernels[0].registers, 32);  // ptxas may raise 16 to its floor (24 on sm_80)
  EXPECT_GT(r.kernels[0].spillStoreBytes, 0);
  EXPECT_GT(r.kernels[0].spillLoadBytes, 0);
  EXPECT_NE(r.log.find("ptxas"), std::string::npos);
}

TEST_F(CompileCuda, BadInputIsRejectedBeforeNvccRuns) {
  EXPECT_THROW(compileCuda((dir_ / "missing.cu").string(), {}), teg::Error);
  const auto path = write("ok.cu", kScale);
  for (const char* bad : {"sm80", "compute_80", "sm_8", "sm_80 -o /tmp/x", ""}) {
    CompileOptions options;
    options.arch = bad;
    EXPECT_THROW(compileCuda(path, options), teg::Error) << bad;
  }
}

}  // namespace

// Rodinia-era host code (gaussian.cu, srad.cu, backprop_cuda.cu): CUDA 13 removed what it calls.
// The kernels must compile all the same; teg says it declared the removed API.
namespace {
const char* kLegacyHost = R"(
#include <cstdio>
__global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }
int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  struct cudaDeviceProp other;
  printf("%d %d %d\n", prop.clockRate, prop.deviceOverlap, other.memoryClockRate);
  twice<<<1, 32>>>(nullptr);
  cudaThreadSynchronize();
  return 0;
}
)";
}  // namespace

// Compiles `path`, whose only kernel is twice(float*), for sm_80 without the cache, and checks that
// the kernel came out (the caller checks the note the removed-API retry leaves).
static CompileResult compileTwiceWithOneNote(const std::string& path) {
  CompileOptions options;
  options.arch = "sm_80";
  options.useCache = false;
  CompileResult r = compileCuda(path, options);
  EXPECT_EQ(r.kernels.size(), 1u);
  if (!r.kernels.empty()) EXPECT_EQ(r.kernels[0].name, "twice(float*)");
  EXPECT_NE(r.ptx.find(".entry _Z5twicePf"), std::string::npos);
  return r;
}

TEST_F(CompileCuda, HostCodeUsingApiThatCuda13RemovedStillGivesTheKernels) {
  REQUIRE_NVCC();
  const auto path = write("legacy_host.cu", kLegacyHost);
  const auto r = compileTwiceWithOneNote(path);
  ASSERT_EQ(r.notes.size(), 1u);
  for (const char* name : {"cudaThreadSynchronize", "cudaDeviceProp::clockRate", "cudaDeviceProp::deviceOverlap",
                           "cudaDeviceProp::memoryClockRate"})
    EXPECT_NE(r.notes[0].find(name), std::string::npos) << name << " not in: " << r.notes[0];
  // The command that is reported (and would be cached) is the one that succeeded.
  EXPECT_NE(std::find_if(r.command.begin(), r.command.end(),
                         [](const std::string& a) { return a.rfind("--pre-include=", 0) == 0; }),
            r.command.end());
  EXPECT_EQ(r.command.back(), path);
}

// Parboil-era files (spmv's spmv_jds.h, sad's main.cu) declare texture references, which CUDA 12
// removed, and bind them in main(). A kernel that does not read one compiles; one that does is
// told apart from other errors.
TEST_F(CompileCuda, TextureReferencesNoKernelReadsStillGiveTheKernels) {
  REQUIRE_NVCC();
  const auto path = write("texref_host.cu", R"(
texture<float, 1> tex_x_float;
texture<unsigned short, 2, cudaReadModeElementType> ref(0, cudaFilterModeLinear);
__global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }
int main() {
  float* d = nullptr;
  cudaBindTexture(0, tex_x_float, d, 64 * sizeof(float));
  ref.normalized = 1;
  cudaChannelFormatDesc desc = ref.channelDesc;
  cudaBindTextureToArray(ref, (cudaArray_t) nullptr, desc);
  twice<<<1, 32>>>(d);
  cudaUnbindTexture(ref);
  cudaThreadSynchronize();
  return 0;
}
)");
  const auto r = compileTwiceWithOneNote(path);
  ASSERT_EQ(r.notes.size(), 1u);
  for (const char* name : {"texture<> (texture reference)", "cudaBindTexture", "cudaBindTextureToArray",
                           "cudaUnbindTexture", "cudaThreadSynchronize", "CUDA 12 and 13", "texture objects"})
    EXPECT_NE(r.notes[0].find(name), std::string::npos) << name << " not in: " << r.notes[0];
}

TEST_F(CompileCuda, AKernelThatReadsATextureReferenceIsAnErrorThatSaysSo) {
  REQUIRE_NVCC();
  const auto path = write("texref_kernel.cu", "texture<float, 1> tref;\n"
                                              "__global__ void k(float* x) { x[threadIdx.x] = tex1Dfetch(tref, threadIdx.x); }\n");
  CompileOptions options;
  options.useCache = false;
  try {
    compileCuda(path, options);
    FAIL() << "a kernel that reads a texture reference cannot compile with CUDA 12 or later";
  } catch (const teg::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("a kernel reads a texture reference"), std::string::npos) << what;
    EXPECT_NE(what.find("does not emulate"), std::string::npos) << what;
    EXPECT_NE(what.find("\"tex1Dfetch\""), std::string::npos) << what;  // nvcc's own words follow
  }
}

TEST_F(CompileCuda, AFileThatCompilesAsItIsGetsNoDeclarationsAndNoNote) {
  REQUIRE_NVCC();
  // A program that ported itself with its own macro: no retry, no note, no clash with teg's header.
  const auto path = write("ported.cu", std::string("#define cudaThreadSynchronize cudaDeviceSynchronize\n") +
                                           "__global__ void k(int* x) { *x = 1; }\n"
                                           "int main() { k<<<1, 1>>>(nullptr); cudaThreadSynchronize(); }\n");
  CompileOptions options;
  options.useCache = false;
  const auto r = compileCuda(path, options);
  EXPECT_TRUE(r.notes.empty());
  for (const auto& a : r.command) EXPECT_EQ(a.rfind("--pre-include=", 0), std::string::npos) << a;
}

TEST_F(CompileCuda, OtherHostErrorsAreNotRetriedAndKeepNvccsMessage) {
  REQUIRE_NVCC();
  const auto path = write("broken_host.cu", "__global__ void k() {}\nint main() { cudaNoSuchCall(); }\n");
  CompileOptions options;
  options.useCache = false;
  try {
    compileCuda(path, options);
    FAIL() << "an undefined identifier that CUDA never had must stay an error";
  } catch (const teg::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("identifier \"cudaNoSuchCall\" is undefined"), std::string::npos) << what;
    EXPECT_EQ(what.find("pre-include"), std::string::npos) << what;
  }
}

