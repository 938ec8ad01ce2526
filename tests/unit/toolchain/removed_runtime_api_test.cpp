// Which nvcc failures compileCuda retries with the removed-API header (src/toolchain/removed_runtime_api.hpp).
#include <gtest/gtest.h>

#include <filesystem>

#include "removed_runtime_api.hpp"

using teg::toolchain::detail::removedRuntimeApiErrors;
using teg::toolchain::detail::removedRuntimeApiHeader;
using teg::toolchain::detail::kTextureTemplate;
using teg::toolchain::detail::readsTextureReference;

// nvcc 13.0's output for Rodinia's gaussian.cu (yuhc/gpu-rodinia cuda/gaussian), as it printed it.
const char* kGaussianLog = R"(gaussian/gaussian.cu(244): error: class "cudaDeviceProp" has no member "clockRate"
         printf( "\nClock rate \t\t\t\t - %d KHz", deviceProp.clockRate );
                                                              ^

gaussian/gaussian.cu(246): error: class "cudaDeviceProp" has no member "deviceOverlap"
         printf( "\nDevice Overlap \t\t\t\t - %s", deviceProp. deviceOverlap?"Allowed":"Not Allowed" );
                                                               ^

gaussian/gaussian.cu(390): error: identifier "cudaThreadSynchronize" is undefined
    cudaThreadSynchronize();
    ^

3 errors detected in the compilation of "gaussian/gaussian.cu".
)";

TEST(RemovedRuntimeApi, NamesWhatCuda13RemovedInOrderOfFirstMention) {
  EXPECT_EQ(removedRuntimeApiErrors(kGaussianLog),
            (std::vector<std::string>{"cudaThreadSynchronize", "cudaDeviceProp::clockRate", "cudaDeviceProp::deviceOverlap"}));
}

TEST(RemovedRuntimeApi, OtherErrorsAreNotItsBusiness) {
  EXPECT_TRUE(removedRuntimeApiErrors("k.cu(3): error: identifier \"cudaNoSuchCall\" is undefined\n").empty());
  EXPECT_TRUE(removedRuntimeApiErrors("k.cu(3): error: class \"cudaDeviceProp\" has no member \"flopsPerCycle\"\n").empty());
  // A user struct's missing member with a removed field's name is not the runtime's.
  EXPECT_TRUE(removedRuntimeApiErrors("k.cu(3): error: class \"Options\" has no member \"clockRate\"\n").empty());
  EXPECT_TRUE(removedRuntimeApiErrors("").empty());
  // Each name once, however often nvcc repeats it.
  EXPECT_EQ(removedRuntimeApiErrors("error: identifier \"cudaThreadExit\" is undefined\n"
                                    "error: identifier \"cudaThreadExit\" is undefined\n")
                .size(),
            1u);
}

TEST(RemovedRuntimeApi, TheHeaderIsInTheDataDirectory) {
  const std::string header = removedRuntimeApiHeader();
  EXPECT_TRUE(std::filesystem::path(header).is_absolute());
  EXPECT_TRUE(std::filesystem::is_regular_file(header));
}

// nvcc 13.0's output for Parboil's spmv (accel-sim/gpu-app-collection, src/cuda/parboil/benchmarks/spmv/src/cuda):
// its header declares a texture reference no kernel reads.
const char* kSpmvLog = R"(../spmv/src/cuda/spmv_jds.h(13): error: texture is not a template
  texture<float,1> tex_x_float;
  ^

1 error detected in the compilation of "../spmv/src/cuda/main.cu".
)";

// ... and for Parboil's sad, whose main() binds one to a cudaArray (its kernel reads it with tex2D).
const char* kSadLog = R"(../sad/src/cuda/sad4.h(51): error: texture is not a template
  texture<unsigned short, 2, cudaReadModeElementType> &get_ref(void);
  ^

../sad/src/cuda/main.cu(318): error: identifier "cudaBindTextureToArray" is undefined
      cudaBindTextureToArray(get_ref(), ref_ary);
      ^

../sad/src/cuda/main.cu(368): error: identifier "cudaUnbindTexture" is undefined
      cudaUnbindTexture(get_ref());
      ^

3 errors detected in the compilation of "../sad/src/cuda/main.cu".
)";

TEST(RemovedRuntimeApi, TextureReferencesCuda12RemovedAreNamed) {
  EXPECT_EQ(removedRuntimeApiErrors(kSpmvLog), (std::vector<std::string>{kTextureTemplate}));
  EXPECT_EQ(removedRuntimeApiErrors(kSadLog),
            (std::vector<std::string>{kTextureTemplate, "cudaBindTextureToArray", "cudaUnbindTexture"}));
  // "is not a template" about a user's own name is not the runtime's.
  EXPECT_TRUE(removedRuntimeApiErrors("k.cu(1): error: mytexture is not a template\n").empty());
  EXPECT_TRUE(removedRuntimeApiErrors("k.cu(1): error: identifier \"cudaBindSomething\" is undefined\n").empty());
}

TEST(RemovedRuntimeApi, AKernelThatReadsATextureReferenceIsToldApart) {
  // nvcc 13.0 on a kernel `x[i] = tex1Dfetch(tref, i)` of a `texture<float, 1> tref`, with the header pre-included.
  EXPECT_TRUE(readsTextureReference(
      "t2.cu(2): error: no instance of overloaded function \"tex1Dfetch\" matches the argument list\n"));
  EXPECT_TRUE(readsTextureReference(
      "sad4.cu(140): error: no instance of overloaded function \"tex2D\" matches the argument list\n"));
  EXPECT_FALSE(readsTextureReference(kSpmvLog));
  EXPECT_FALSE(readsTextureReference("k.cu(2): error: no instance of overloaded function \"atomicAdd\" matches the argument list\n"));
}
