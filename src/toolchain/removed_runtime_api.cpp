#include "removed_runtime_api.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <regex>
#include <string_view>

#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"

namespace teg::toolchain::detail {

namespace {

// What the header declares: the CUDA 12.x names that CUDA 13.0 dropped (release notes,
// "Deprecated or Dropped Features"). Only errors about these are retried.
constexpr std::array<std::string_view, 6> kRemovedFunctions = {
    "cudaThreadSynchronize", "cudaThreadExit", "cudaThreadSetLimit",
    "cudaThreadGetLimit", "cudaThreadGetCacheConfig", "cudaThreadSetCacheConfig"};
constexpr std::array<std::string_view, 8> kRemovedDevicePropFields = {
    "clockRate", "deviceOverlap", "kernelExecTimeoutEnabled", "computeMode",
    "maxTexture1DLinear", "memoryClockRate", "cooperativeMultiDeviceLaunch",
    "singleToDoublePrecisionPerfRatio"};

bool contains(const auto& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

std::vector<std::string> removedRuntimeApiErrors(const std::string& log) {
  // The EDG front end's wording, as nvcc 13 prints it.
  static const std::regex undefinedIdentifier(R"re(identifier "(\w+)" is undefined)re");
  static const std::regex missingMember(R"re(class "cudaDeviceProp" has no member "(\w+)")re");
  std::vector<std::string> names;
  const auto collect = [&](const std::regex& re, const auto& known, const std::string& prefix) {
    for (auto it = std::sregex_iterator(log.begin(), log.end(), re); it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[1].str();
      if (contains(known, name) && !contains(names, prefix + name)) names.push_back(prefix + name);
    }
  };
  collect(undefinedIdentifier, kRemovedFunctions, "");
  collect(missingMember, kRemovedDevicePropFields, "cudaDeviceProp::");
  return names;
}

std::string removedRuntimeApiHeader() {
  const std::filesystem::path header =
      std::filesystem::path(dataDirectory()) / "toolchain" / "cuda13_removed_runtime_api.h";
  if (!std::filesystem::is_regular_file(header))
    throw Error("teg's data file " + header.string() + " is missing (set TEG_DATA_DIR to the data directory)");
  return std::filesystem::absolute(header).lexically_normal().string();
}

}  // namespace teg::toolchain::detail
