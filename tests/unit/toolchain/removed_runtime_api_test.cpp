// Which nvcc failures compileCuda retries with the removed-API header (src/toolchain/removed_runtime_api.hpp).
#include <gtest/gtest.h>

#include <filesystem>

#include "removed_runtime_api.hpp"

using teg::toolchain::detail::removedRuntimeApiErrors;
using teg::toolchain::detail::removedRuntimeApiHeader;

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
