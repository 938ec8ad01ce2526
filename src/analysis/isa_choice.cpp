#include "teg/analysis/isa_choice.hpp"

#include <fmt/format.h>

#include "teg/support/error.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::analysis {

namespace {
// The oldest architecture CUDA 13's ptxas emits SASS for (CUDA 13 release notes: sm_75 and newer).
constexpr int kOldestSassTarget = 75;

// Why the SASS emulator cannot run the kernel, "" when it can. The SASS functional emulator
// (issue 26 point 3, Emulator::selectSass) is not part of this build yet: every kernel falls
// back to its PTX under `auto`, and `--isa sass` says why.
std::string sassEmulatorGap() { return "the SASS functional emulator is not part of this build yet (issue 26 point 3)"; }

}  // namespace

IsaFacts isaFactsFor(const device::Device& gpu, const KernelSource& source) {
  IsaFacts f;
  f.gpu = gpu.name;
  f.computeCapability = gpu.cc.code();
  f.ptxSource = source.arch.empty();
  f.compiledArch = source.arch;
  f.gpuArch = gpu.cc.smName();
  f.haveNvdisasm = toolchain::haveNvdisasm();
  f.sassEmulatorGap = sassEmulatorGap();
  return f;
}

IsaRequest parseIsaRequest(std::string_view text) {
  if (text == "auto") return IsaRequest::Auto;
  if (text == "ptx") return IsaRequest::Ptx;
  if (text == "sass") return IsaRequest::Sass;
  throw Error(fmt::format("--isa '{}': expected sass, ptx or auto", text));
}

const char* isaRequestName(IsaRequest request) {
  switch (request) {
    case IsaRequest::Auto: return "auto";
    case IsaRequest::Ptx: return "ptx";
    case IsaRequest::Sass: return "sass";
  }
  return "?";
}

std::string sassObstacle(const IsaFacts& f) {
  if (f.computeCapability < kOldestSassTarget)
    return fmt::format("{} is cc {}.{}: CUDA 13 compiles SASS for cc 7.5 and newer only", f.gpu, f.computeCapability / 10,
                       f.computeCapability % 10);
  if (f.ptxSource) return "the launch names a .ptx file: there is no cubin to disassemble";
  if (f.compiledArch != f.gpuArch)
    return fmt::format("the kernel was compiled for {}, not the GPU's {}", f.compiledArch, f.gpuArch);
  if (!f.haveNvdisasm)
    return "nvdisasm was not found (scripts/install-deps.sh installs it into build/tools; or set TEG_NVDISASM)";
  if (!f.sassEmulatorGap.empty()) return f.sassEmulatorGap;
  return "";
}

IsaChoice chooseIsa(IsaRequest request, const IsaFacts& facts) {
  if (request == IsaRequest::Ptx) return {trace::Isa::Ptx, "--isa ptx"};
  const std::string obstacle = sassObstacle(facts);
  if (request == IsaRequest::Sass) {
    if (!obstacle.empty()) throw Error(fmt::format("--isa sass: {}", obstacle));
    return {trace::Isa::Sass, "--isa sass"};
  }
  if (!obstacle.empty()) return {trace::Isa::Ptx, fmt::format("auto: PTX because {}", obstacle)};
  return {trace::Isa::Sass, fmt::format("auto: {} SASS (cc {}.{}, nvdisasm found, the SASS emulator runs every "
                                        "opcode of the kernel)",
                                        facts.gpuArch, facts.computeCapability / 10, facts.computeCapability % 10)};
}

}  // namespace teg::analysis
