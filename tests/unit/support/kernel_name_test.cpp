// Kernel names: what a user may write for a mangled kernel, and the refusal of an ambiguous name.
// The mangled symbols are nvcc's (CUDA 13) for the kernels in the comments.
#include "teg/support/kernel_name.hpp"

#include <gtest/gtest.h>

#include "teg/support/error.hpp"

namespace teg {
namespace {

// template <typename T> __global__ void scale(T* x, int n);  scale<float>, scale<double>
constexpr const char* kScaleFloat = "_Z5scaleIfEvPT_i";
constexpr const char* kScaleDouble = "_Z5scaleIdEvPT_i";
// namespace ns { template <typename T, int N> __global__ void tile(const T*, T*); }  tile<float, 4>
constexpr const char* kNsTile = "_ZN2ns4tileIfLi4EEEvPKT_PS1_";
// __global__ void saxpy(int, float, const float*, float*);
constexpr const char* kSaxpy = "_Z5saxpyifPKfPf";

TEST(KernelName, DemanglesWithTheCxxAbi) {
  EXPECT_EQ(demangle(kScaleFloat), "void scale<float>(float*, int)");
  EXPECT_EQ(demangle(kSaxpy), "saxpy(int, float, float const*, float*)");
  EXPECT_EQ(demangle("vecAdd"), "vecAdd");        // extern "C"
  EXPECT_EQ(demangle("_Zjunk"), "_Zjunk");        // not a valid symbol: unchanged
  EXPECT_EQ(demangle("_Z6helperf$3"), "helper(float)$3");  // ptxas clone suffix kept
}

TEST(KernelName, FormsGoFromTheSymbolToThePlainName) {
  EXPECT_EQ(kernelNameForms(kNsTile),
            (std::vector<std::string>{kNsTile, "void ns::tile<float, 4>(float const*, float*)", "ns::tile<float, 4>",
                                      "ns::tile", "tile"}));
  EXPECT_EQ(kernelNameForms("vecAdd"), std::vector<std::string>{"vecAdd"});
  EXPECT_EQ(qualifiedKernelName(kNsTile), "ns::tile");
  EXPECT_EQ(qualifiedKernelName("_ZN2ns3fooEv"), "ns::foo");  // no template: forms coincide
  EXPECT_EQ(qualifiedKernelName(kSaxpy), "saxpy");
  EXPECT_EQ(qualifiedKernelName("vecAdd"), "vecAdd");
}

TEST(KernelName, PlainQualifiedTemplatedAndSignatureNamesMatch) {
  for (const char* name : {"tile", "ns::tile", "ns::tile<float, 4>", "ns::tile<float,4>",
                           "void ns::tile<float, 4>(float const*, float*)", kNsTile})
    EXPECT_TRUE(kernelNameMatches(kNsTile, name)) << name;
  for (const char* name : {"til", "s::tile", "tile<double, 4>", "", "ns::tile<float>"})
    EXPECT_FALSE(kernelNameMatches(kNsTile, name)) << name;
}

TEST(KernelName, AUniquePlainNameResolves) {
  const std::vector<std::string> kernels{kSaxpy, kScaleFloat, kNsTile};
  EXPECT_EQ(resolveKernelName(kernels, "scale", "k.cu"), 1u);
  EXPECT_EQ(resolveKernelName(kernels, "tile", "k.cu"), 2u);
  EXPECT_EQ(resolveKernelName(kernels, "saxpy", "k.cu"), 0u);
}

TEST(KernelName, AnAmbiguousNameListsTheCandidates) {
  const std::vector<std::string> kernels{kScaleFloat, kScaleDouble};
  EXPECT_EQ(resolveKernelName(kernels, "scale<double>", "k.cu"), 1u);
  EXPECT_EQ(resolveKernelName(kernels, kScaleFloat, "k.cu"), 0u);
  try {
    resolveKernelName(kernels, "scale", "k.cu");
    FAIL() << "an ambiguous name was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'scale' is ambiguous in k.cu"), std::string::npos) << what;
    EXPECT_NE(what.find("void scale<float>(float*, int) (_Z5scaleIfEvPT_i)"), std::string::npos) << what;
    EXPECT_NE(what.find("void scale<double>(double*, int) (_Z5scaleIdEvPT_i)"), std::string::npos) << what;
    EXPECT_NE(what.find("'scale<float>'"), std::string::npos) << what;
  }
}

// #include <cstdint>; template <typename T> __global__ void fill(T* x);  instantiated, as nvcc 13.0
// mangles them on x86-64 Linux, for int32_t, uint32_t, int64_t, std::size_t, int8_t, uint16_t.
constexpr const char* kFillInt32 = "_Z4fillIiEvPT_";
constexpr const char* kFillUint32 = "_Z4fillIjEvPT_";
constexpr const char* kFillInt64 = "_Z4fillIlEvPT_";
constexpr const char* kFillSizeT = "_Z4fillImEvPT_";
constexpr const char* kFillInt8 = "_Z4fillIaEvPT_";
constexpr const char* kFillUint16 = "_Z4fillItEvPT_";

TEST(KernelName, TemplateArgumentsMayBeWrittenWithTheStandardTypedefs) {
  // The mangled name holds the type the typedef names; the source says int32_t
  // (accel-sim's GPU_Microbenchmark atomic_add_bw launches max_flops<int32_t>).
  EXPECT_TRUE(kernelNameMatches(kFillInt32, "fill<int32_t>"));
  EXPECT_TRUE(kernelNameMatches(kFillInt32, "fill<std::int32_t>"));
  EXPECT_TRUE(kernelNameMatches(kFillUint32, "fill<uint32_t>"));
  EXPECT_TRUE(kernelNameMatches(kFillInt64, "fill<int64_t>"));
  EXPECT_TRUE(kernelNameMatches(kFillSizeT, "fill<size_t>"));
  EXPECT_TRUE(kernelNameMatches(kFillSizeT, "fill<uint64_t>"));
  EXPECT_TRUE(kernelNameMatches(kFillInt8, "fill< int8_t >"));
  EXPECT_TRUE(kernelNameMatches(kFillUint16, "fill<uint16_t>"));
  // A typedef of another width or signedness is another kernel.
  EXPECT_FALSE(kernelNameMatches(kFillInt32, "fill<uint32_t>"));
  EXPECT_FALSE(kernelNameMatches(kFillInt32, "fill<int64_t>"));
  EXPECT_FALSE(kernelNameMatches(kFillUint32, "fill<int32_t>"));
  // Only whole words are typedefs: a user's my_int32_t, or an int32_t in another namespace, is not.
  EXPECT_FALSE(kernelNameMatches(kFillInt32, "fill<my_int32_t>"));
  EXPECT_FALSE(kernelNameMatches(kFillInt32, "fill<mystd::int32_t>"));
  // resolveKernelName picks the one the typedef names among all six.
  const std::vector<std::string> all{kFillInt32, kFillUint32, kFillInt64, kFillSizeT, kFillInt8, kFillUint16};
  EXPECT_EQ(resolveKernelName(all, "fill<uint32_t>", "k.cu"), 1u);
  EXPECT_EQ(resolveKernelName(all, "fill<int8_t>", "k.cu"), 4u);
  EXPECT_EQ(resolveKernelName(all, "fill<uint16_t>", "k.cu"), 5u);
}

// #include <cuda_fp16.h>; template <typename T> __global__ void hmax(T const*, T const*, T*, size_t)
// as nvcc 13.0 mangles hmax<half2> and hmax<half> (HeCBench f16max/main.cu).
constexpr const char* kHmaxHalf2 = "_Z4hmaxI7__half2EvPKT_S3_PS1_m";
constexpr const char* kHmaxHalf = "_Z4hmaxI6__halfEvPKT_S3_PS1_m";

TEST(KernelName, TemplateArgumentsMayBeWrittenWithCudaHalfTypedefs) {
  // cuda_fp16.h: typedef __half half; typedef __half2 half2. The source launches hmax<half2>.
  EXPECT_TRUE(kernelNameMatches(kHmaxHalf2, "hmax<half2>"));
  EXPECT_TRUE(kernelNameMatches(kHmaxHalf2, "hmax<__half2>"));
  EXPECT_TRUE(kernelNameMatches(kHmaxHalf, "hmax<half>"));
  EXPECT_FALSE(kernelNameMatches(kHmaxHalf, "hmax<half2>"));
  EXPECT_FALSE(kernelNameMatches(kHmaxHalf2, "hmax<half>"));
  // Whole, unqualified words only: a user's my::half or halfway is not cuda_fp16.h's half.
  EXPECT_FALSE(kernelNameMatches(kHmaxHalf, "hmax<my::half>"));
  EXPECT_FALSE(kernelNameMatches(kHmaxHalf, "hmax<halfway>"));
  // A kernel named half is no type: the name stays as written (void half(float*): _Z4halfPf).
  EXPECT_TRUE(kernelNameMatches("_Z4halfPf", "half"));
  const std::vector<std::string> both{kHmaxHalf2, kHmaxHalf};
  EXPECT_EQ(resolveKernelName(both, "hmax<half>", "main.cu"), 1u);
  EXPECT_EQ(resolveKernelName(both, "hmax<half2>", "main.cu"), 0u);
}

TEST(KernelName, AnUnknownNameListsTheKernels) {
  try {
    resolveKernelName({kSaxpy, "vecAdd"}, "scale", "k.cu");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "no kernel 'scale' in k.cu; its kernels are: saxpy(int, float, float const*, float*) "
                           "(_Z5saxpyifPKfPf); vecAdd");
  }
  EXPECT_THROW(resolveKernelName({}, "scale", "k.cu"), Error);
}

}  // namespace
}  // namespace teg
