#include "sass_support.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "teg/ptx/parser.hpp"
#include "teg/sass/parser.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::emu::sasstest {

bool haveTools() {
  static const bool have = [] {
    try {
      toolchain::findNvcc();
    } catch (const Error&) {
      return false;
    }
    // Not CUDA 11.8's tools: without them only the sm_70 cases fail, each naming what is missing
    // (toolchain::assembleForVolta), rather than every architecture's case skipping.
    return toolchain::haveNvdisasm();
  }();
  return have;
}

const Compiled& compile(const std::string& cuPath, const std::string& arch, const std::vector<std::string>& defines,
                        const std::vector<std::string>& includeDirs) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Compiled>> cache;
  std::string key = cuPath + "|" + arch;
  for (const auto& d : defines) key += "|D" + d;
  for (const auto& d : includeDirs) key += "|I" + d;
  std::lock_guard lock(mutex);
  auto& slot = cache[key];
  if (!slot) {
    toolchain::CompileOptions options;
    options.arch = arch;  // sm_70: nvcc 13's compute_75 PTX, then CUDA 11.8's ptxas (compileCuda)
    options.defines = defines;
    options.includeDirs = includeDirs;
    const toolchain::CompileResult r = toolchain::compileCuda(cuPath, options);
    auto c = std::make_unique<Compiled>();
    const std::string stem = std::filesystem::path(cuPath).stem().string();
    c->ptx = ptx::parseModule(r.ptx, stem + "." + arch + ".ptx");
    c->sass = sass::parseDisassembly(toolchain::disassembleCubin(r.cubin), stem + "." + arch + ".sass");
    c->cubin = r.cubin;
    c->smVersion = std::stoi(arch.substr(3));
    slot = std::move(c);
  }
  return *slot;
}

const Compiled& compileSource(const std::string& name, const std::string& cudaSource, const std::string& arch) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "teg-sass-emu-tests";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / (name + ".cu");
  {
    std::ifstream in(file);
    const std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (old != cudaSource) std::ofstream(file) << cudaSource;
  }
  return compile(file.string(), arch);
}

long long firstDifference(std::span<const std::byte> a, std::span<const std::byte> b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return static_cast<long long>(i);
  return a.size() == b.size() ? -1 : static_cast<long long>(n);
}

}  // namespace teg::emu::sasstest
