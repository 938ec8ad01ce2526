#include "teg/analysis/kernel_source.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <utility>
#include <variant>

#include "teg/emu/emulator.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::analysis {

namespace {
// The oldest architecture nvcc 13 compiles for.
constexpr int kOldestNvccTarget = 75;

// nvcc takes seconds; a sweep (teg validate, a block-size series) compiles the same file for the
// same architecture many times. Keyed by path, modification time, arch and arguments.
const toolchain::CompileResult& compileOnce(const std::string& source, const toolchain::CompileOptions& options) {
  static std::mutex mutex;
  static std::map<std::string, toolchain::CompileResult> cache;
  std::error_code ec;
  const auto stamp = std::filesystem::last_write_time(source, ec);
  std::string key = fmt::format("{}|{}|{}|{}", std::filesystem::absolute(source).string(),
                                ec ? 0 : stamp.time_since_epoch().count(), options.arch, options.useCache);
  for (const auto& a : options.includeDirs) key += "|-I" + a;
  for (const auto& a : options.defines) key += "|-D" + a;
  for (const auto& a : options.extraArgs) key += "|" + a;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  return cache.emplace(key, toolchain::compileCuda(source, options)).first->second;
}

// Volta's SASS comes from CUDA 11.8's ptxas (the only older toolchain teg installs; Pascal and
// earlier have another SASS encoding the emulator does not read).
bool isVolta(int computeCapability) { return computeCapability == 70 || computeCapability == 72; }

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// ptxas for Volta, once per compiled module and architecture (a sweep predicts the same kernel
// many times). An error is remembered too: the same PTX fails the same way.
const toolchain::CompileResult& assembleOnceForVolta(const toolchain::CompileResult& compiled, const std::string& arch,
                                                     const toolchain::CompileOptions& options) {
  static std::mutex mutex;
  static std::map<std::pair<const toolchain::CompileResult*, std::string>, std::variant<toolchain::CompileResult, std::string>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find({&compiled, arch});
  if (it == cache.end()) {
    std::variant<toolchain::CompileResult, std::string> entry;
    try {
      entry = toolchain::assembleForVolta(compiled.ptx, arch, toolchain::nvccTimeout(options));
    } catch (const Error& e) {
      entry = std::string(e.what());
    }
    it = cache.emplace(std::make_pair(&compiled, arch), std::move(entry)).first;
  }
  if (const auto* failed = std::get_if<std::string>(&it->second)) throw Error(*failed);
  return std::get<toolchain::CompileResult>(it->second);
}

}  // namespace

KernelSource loadKernelSource(const emu::LaunchDescription& launch, const device::Device& gpu,
                              const toolchain::CompileOptions& compile) {
  KernelSource s;
  const auto ext = std::filesystem::path(launch.source).extension().string();
  if (ext == ".ptx") {
    s.module = ptx::parseFile(launch.source);
    return s;
  }
  if (ext != ".cu")
    throw Error(fmt::format("{}: source '{}' must be a .cu or .ptx file", launch.file, launch.source));
  toolchain::CompileOptions options = compile;
  const auto prepend = [](std::vector<std::string>& to, const std::vector<std::string>& first) {
    to.insert(to.begin(), first.begin(), first.end());
  };
  prepend(options.includeDirs, launch.includeDirs);
  prepend(options.defines, launch.defines);
  prepend(options.extraArgs, launch.nvccArgs);
  options.arch = gpu.cc.smName();
  if (gpu.cc.code() < kOldestNvccTarget) options.arch = fmt::format("sm_{}", kOldestNvccTarget);
  const toolchain::CompileResult& nvcc = compileOnce(launch.source, options);
  const toolchain::CompileResult* compiled = &nvcc;
  s.arch = options.arch;
  if (gpu.cc.code() < kOldestNvccTarget) {
    // Volta: CUDA 11.8's ptxas assembles nvcc 13's PTX for the GPU itself (toolchain/volta_sass.cpp).
    std::string why;
    if (isVolta(gpu.cc.code()) && toolchain::haveVoltaToolchain()) {
      try {
        compiled = &assembleOnceForVolta(*compiled, gpu.cc.smName(), options);
        s.arch = gpu.cc.smName();
        s.note = fmt::format("nvcc 13 cannot target {} ({}): its {} PTX, assembled for {} by CUDA 11.8's ptxas",
                             gpu.cc.smName(), gpu.name, options.arch, gpu.cc.smName());
      } catch (const Error& e) {
        why = fmt::format(" (CUDA 11.8's ptxas refused it: {})", firstLine(e.what()));
      }
    }
    if (s.arch != gpu.cc.smName())
      s.note = fmt::format("nvcc 13 cannot target {} ({}); its {} PTX stands in for the kernel's code{}", gpu.cc.smName(),
                           gpu.name, options.arch, why);
  }
  s.cubin = compiled->cubin;
  for (const auto& n : nvcc.notes) s.note += (s.note.empty() ? "" : "; ") + n;  // nvcc's (Volta's ptxas adds none)
  // nvcc compiles every kernel of the file: one that teg cannot read must not block the others.
  s.module = ptx::parseModule(compiled->ptx, launch.source + " (PTX from nvcc)", {.deferFunctionErrors = true});
  const std::string mangled = emu::findKernel(s.module, launch.kernel).name;
  for (const auto& k : compiled->kernels)
    if (k.mangledName == mangled && k.isEntry) s.resources = k;
  return s;
}

}  // namespace teg::analysis
