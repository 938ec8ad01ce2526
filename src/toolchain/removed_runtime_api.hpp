// Programs written before CUDA 13 call runtime functions and read cudaDeviceProp fields that CUDA
// 13 removed, or declare texture references, which CUDA 12 removed. They sit in host code, which teg never runs, yet nvcc's front end rejects the whole
// file. compileCuda recognises these errors and compiles once more with a header that declares
// what was removed (data/toolchain/cuda13_removed_runtime_api.h), saying so in a note.
#pragma once

#include <string>
#include <vector>

namespace teg::toolchain::detail {

// The removed names nvcc's errors in `log` complain about ("identifier \"cudaThreadSynchronize\"
// is undefined", "class \"cudaDeviceProp\" has no member \"clockRate\""), in order of first
// mention (fields as "cudaDeviceProp::clockRate"); empty when the failure has another cause (then a retry would not help).
// A file-scope texture reference (CUDA 12.0 removed them; "texture is not a template") is named
// kTextureTemplate, and the texture reference functions by their names.
std::vector<std::string> removedRuntimeApiErrors(const std::string& log);

inline constexpr const char* kTextureTemplate = "texture<> (texture reference)";

// Whether nvcc's errors, after the retry with the header, say a kernel reads a texture reference
// (the header declares them for host code only: teg does not emulate texture references).
bool readsTextureReference(const std::string& log);

// Absolute path of the header that declares them.
std::string removedRuntimeApiHeader();

}  // namespace teg::toolchain::detail
