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

// The texture reference API CUDA 12.0 removed (release notes; the runtime API's "Texture Reference
// Management [DEPRECATED]" section and the C++ template overloads): host functions that bind and
// unbind a `texture<T, dim, mode>` declared at file scope. A file that still declares one fails
// with "texture is not a template" even when no kernel reads it (Parboil's spmv).
constexpr std::array<std::string_view, 8> kRemovedTextureFunctions = {
    "cudaBindTexture", "cudaBindTexture2D", "cudaBindTextureToArray", "cudaBindTextureToMipmappedArray",
    "cudaUnbindTexture", "cudaGetTextureAlignmentOffset", "cudaGetTextureReference", "textureReference"};

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
  static const std::regex textureTemplate(R"re(error: texture is not a template)re");
  if (std::regex_search(log, textureTemplate)) names.push_back(std::string(kTextureTemplate));
  collect(undefinedIdentifier, kRemovedFunctions, "");
  collect(undefinedIdentifier, kRemovedTextureFunctions, "");
  collect(missingMember, kRemovedDevicePropFields, "cudaDeviceProp::");
  return names;
}

bool readsTextureReference(const std::string& log) {
  // With the header's stand-in texture<> a kernel that reads one no longer matches any overload
  // of the texture fetch functions: "no instance of overloaded function "tex1Dfetch" matches".
  static const std::regex fetch(R"re(no instance of overloaded function "(tex1Dfetch|tex1D|tex2D|tex3D|tex1DLayered|tex2DLayered|texCubemap|tex2Dgather)" matches)re");
  return std::regex_search(log, fetch);
}

std::string removedRuntimeApiHeader() {
  const std::filesystem::path header =
      std::filesystem::path(dataDirectory()) / "toolchain" / "cuda13_removed_runtime_api.h";
  if (!std::filesystem::is_regular_file(header))
    throw Error("teg's data file " + header.string() + " is missing (set TEG_DATA_DIR to the data directory)");
  return std::filesystem::absolute(header).lexically_normal().string();
}

}  // namespace teg::toolchain::detail
