#include "teg/analysis/isa_choice.hpp"

#include <fmt/format.h>

#include <map>
#include <mutex>

#include "teg/support/error.hpp"
#include "teg/sass/parser.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::analysis {

namespace {
// The oldest architecture CUDA 13's ptxas emits SASS for (CUDA 13 release notes: sm_75 and newer);
// Volta's comes from CUDA 11.8 (architectureObstacle).
constexpr int kOldestSassTarget = 75;

// nvdisasm takes a while and a sweep (teg validate) predicts the same cubin many times: each
// distinct cubin is disassembled and parsed once per process.
std::shared_ptr<const sass::Module> disassembleOnce(const KernelSource& source) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const sass::Module>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(source.cubin);
  if (it == cache.end())
    it = cache.emplace(source.cubin, std::make_shared<const sass::Module>(sass::parseDisassembly(
                                         toolchain::disassembleCubin(source.cubin),
                                         source.arch + " cubin of " + source.module.fileName)))
             .first;
  return it->second;
}

// Whether `kernel` or a function it calls calls the CUDA runtime's printf (vprintf): the PTX
// emulator formats it; ptxas makes it a CALL.ABS through a relocated address the SASS emulator
// cannot resolve (an assert's __assertfail looks the same there, but runs only when it fails).
bool callsPrintf(const ptx::Module& module, const ptx::Function& kernel) {
  std::vector<bool> seen(module.functions.size(), false);
  std::vector<const ptx::Function*> work{&kernel};
  while (!work.empty()) {
    const ptx::Function* f = work.back();
    work.pop_back();
    for (const ptx::Instruction& in : f->instructions) {
      if (in.opcode != ptx::Opcode::Call) continue;
      for (const ptx::Operand& op : f->operandsOf(in)) {
        if (op.kind != ptx::OperandKind::Symbol || op.symbolKind() != ptx::SymbolKind::Function) continue;
        if (op.index >= module.functions.size() || seen[op.index]) continue;
        seen[op.index] = true;
        const ptx::Function& callee = module.functions[op.index];
        if (!callee.hasBody && callee.name == "vprintf") return true;
        if (callee.hasBody) work.push_back(&callee);
      }
    }
  }
  return false;
}

// Whether `kernel` or a function it calls (with a body) has an operand for which `match` holds.
template <class Match>
bool reachesOperand(const ptx::Module& module, const ptx::Function& kernel, Match match) {
  std::vector<bool> seen(module.functions.size(), false);
  std::vector<const ptx::Function*> work{&kernel};
  while (!work.empty()) {
    const ptx::Function* f = work.back();
    work.pop_back();
    for (const ptx::Operand& op : f->operands) {
      if (match(op)) return true;
      if (op.kind == ptx::OperandKind::Symbol && op.symbolKind() == ptx::SymbolKind::Function &&
          op.index < module.functions.size() && !seen[op.index] && module.functions[op.index].hasBody) {
        seen[op.index] = true;
        work.push_back(&module.functions[op.index]);
      }
    }
  }
  return false;
}

// A %reserved_smem_offset_* register: cooperative groups finds the block's reserved shared memory
// that way for tiles wider than a warp (sm_80+). The PTX emulator lays that region out
// (emu/program.hpp, ReservedShared); in the SASS the offset is a driver constant (c[0x0][0x124]
// on sm_80) the SASS emulator does not fill, so the SASS would put the tile's barriers over the
// kernel's own shared memory.
bool usesReservedSharedMemory(const ptx::Module& module, const ptx::Function& kernel) {
  return reachesOperand(module, kernel, [](const ptx::Operand& op) {
    return op.kind == ptx::OperandKind::Special &&
           ptx::isReservedSharedRegister(static_cast<ptx::SpecialRegister>(op.index));
  });
}

}  // namespace

IsaFacts isaFactsFor(const device::Device& gpu, const KernelSource& source) {
  IsaFacts f;
  f.gpu = gpu.name;
  f.computeCapability = gpu.cc.code();
  f.ptxSource = source.arch.empty();
  f.compiledArch = source.arch;
  f.gpuArch = gpu.cc.smName();
  f.haveNvdisasm = toolchain::haveNvdisasm();
  f.haveVoltaToolchain = toolchain::haveVoltaToolchain();
  return f;
}

IsaPlan planIsa(IsaRequest request, const device::Device& gpu, const KernelSource& source, const std::string& kernel) {
  IsaFacts facts = isaFactsFor(gpu, source);
  IsaPlan plan;
  plan.smVersion = gpu.cc.code();
  if (request != IsaRequest::Ptx && sassObstacle(facts).empty()) {
    try {
      auto module = disassembleOnce(source);
      const ptx::Function& entry = emu::findKernel(source.module, kernel);
      const std::string mangled = entry.name;
      const auto unsupported = emu::sassUnsupportedInstructions(*module, mangled, plan.smVersion);
      if (callsPrintf(source.module, entry))
        facts.sassEmulatorGap = "the kernel calls printf, which the SASS emulator does not run (the PTX emulator does)";
      else if (usesReservedSharedMemory(source.module, entry))
        facts.sassEmulatorGap = "the kernel uses the block's reserved shared memory (a cooperative-groups tile wider "
                                "than a warp), which the SASS emulator does not lay out (the PTX emulator does)";
      else if (!unsupported.empty())
        facts.sassEmulatorGap = fmt::format("the SASS emulator does not run {}{}", unsupported.front(),
                                            unsupported.size() > 1 ? fmt::format(" (and {} more)", unsupported.size() - 1) : "");
      else {
        plan.sass = std::move(module);
        plan.cubin = std::make_shared<const std::string>(source.cubin);
      }
    } catch (const Error& e) {
      facts.sassEmulatorGap = fmt::format("its SASS could not be read: {}", e.what());
    }
  }
  plan.choice = chooseIsa(request, facts);
  if (plan.choice.isa != trace::Isa::Sass) {
    plan.sass.reset();
    plan.cubin.reset();
  }
  return plan;
}

void applyIsaPlan(const IsaPlan& plan, emu::Emulator& emulator) {
  // Without the cubin, bank 2 would read zeros: spmv_csr's unrolled loop then read 8 bytes before
  // colIdx (its base offset c[0x2][0x0] = 8 came out 0).
  if (plan.choice.isa == trace::Isa::Sass && plan.sass)
    emulator.selectSass(*plan.sass, plan.smVersion, plan.cubin ? std::string_view(*plan.cubin) : std::string_view());
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

namespace {

std::string architectureObstacle(const std::string& gpu, int computeCapability, bool haveVoltaToolchain) {
  if (computeCapability >= kOldestSassTarget) return "";
  // Volta: CUDA 11.8's ptxas assembles nvcc 13's PTX and its nvdisasm reads the cubin
  // (toolchain/volta_sass.cpp); the SASS emulator reads Volta's encoding, Turing's without the
  // uniform datapath. Pascal and older SASS is another encoding.
  if (computeCapability == 70 || computeCapability == 72) {
    if (haveVoltaToolchain) return "";
    return fmt::format("{} is cc {}.{}: CUDA 13 compiles no SASS for it and CUDA 11.8's ptxas and nvdisasm were not "
                       "found (scripts/install-deps.sh unpacks them into build/tools/cuda11; or set TEG_CUDA11_BIN)",
                       gpu, computeCapability / 10, computeCapability % 10);
  }
  return fmt::format("{} is cc {}.{}: teg reads the SASS of cc 7.0 and newer only", gpu, computeCapability / 10,
                     computeCapability % 10);
}

}  // namespace

std::string sassArchitectureObstacle(const device::Device& gpu) {
  return architectureObstacle(gpu.name, gpu.cc.code(), toolchain::haveVoltaToolchain());
}

std::string sassObstacle(const IsaFacts& f) {
  if (auto cc = architectureObstacle(f.gpu, f.computeCapability, f.haveVoltaToolchain); !cc.empty()) return cc;
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
