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
