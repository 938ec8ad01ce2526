#include "teg/analysis/kernel_source.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "teg/emu/emulator.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/support/error.hpp"

namespace teg::analysis {

namespace {
// The oldest architecture nvcc 13 compiles for.
constexpr int kOldestNvccTarget = 75;
}  // namespace

KernelSource loadKernelSource(const emu::LaunchDescription& launch, const device::Device& gpu,
                              const std::vector<std::string>& nvccArgs) {
  KernelSource s;
  const auto ext = std::filesystem::path(launch.source).extension().string();
  if (ext == ".ptx") {
    s.module = ptx::parseFile(launch.source);
    return s;
  }
  if (ext != ".cu")
    throw Error(fmt::format("{}: source '{}' must be a .cu or .ptx file", launch.file, launch.source));
  toolchain::CompileOptions options;
  options.arch = gpu.cc.smName();
  if (gpu.cc.code() < kOldestNvccTarget) {
    options.arch = fmt::format("sm_{}", kOldestNvccTarget);
    s.note = fmt::format("nvcc 13 cannot target {} ({}); its {} PTX stands in for the kernel's code",
                         gpu.cc.smName(), gpu.name, options.arch);
  }
  options.extraArgs = nvccArgs;
  const toolchain::CompileResult compiled = toolchain::compileCuda(launch.source, options);
  s.arch = options.arch;
  s.module = ptx::parseModule(compiled.ptx, launch.source + " (PTX from nvcc)");
  const std::string mangled = emu::findKernel(s.module, launch.kernel).name;
  for (const auto& k : compiled.kernels)
    if (k.mangledName == mangled && k.isEntry) s.resources = k;
  return s;
}

}  // namespace teg::analysis
