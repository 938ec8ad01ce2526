// A launch's kernel as teg reads it: a .ptx file parsed directly, or a .cu compiled by nvcc for
// the GPU's architecture with ptxas's resources. GPUs nvcc 13 no longer targets get its sm_75 PTX;
// Volta's is then assembled for the GPU by CUDA 11.8's ptxas (toolchain/volta_sass.cpp), so
// `arch` and the cubin are sm_70's unless that ptxas refuses the PTX (the note says why).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "teg/device/device.hpp"
#include "teg/emu/launch.hpp"
#include "teg/ptx/ir.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::analysis {

struct KernelSource {
  ptx::Module module;
  std::string arch;                                     // "" for a .ptx source
  std::optional<toolchain::KernelResources> resources;  // ptxas's figures for the launch's kernel
  std::string note;                                     // e.g. why another arch was used
  std::string cubin;                                    // what ptxas made of it (a .cu only), for its SASS
};

// Throws teg::Error for a missing file, a compile error (nvcc's message verbatim) or bad PTX.
// A .cu is compiled with the launch's include_dirs, defines and nvcc_args, then those of
// `compile` (the command line's -I, -D, --nvcc-arg; its useCache and timeout apply; its arch is
// replaced by the GPU's).
KernelSource loadKernelSource(const emu::LaunchDescription& launch, const device::Device& gpu,
                              const toolchain::CompileOptions& compile = {});

}  // namespace teg::analysis
