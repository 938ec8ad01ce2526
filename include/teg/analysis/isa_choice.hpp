// Which instruction stream a prediction times (issue 26 point 5, `--isa sass|ptx|auto`): the SASS
// the GPU runs, with ptxas's own schedule in its control words, or nvcc's PTX, which the timing
// engine turns into an approximation of ptxas's code (load hoisting, FMA contraction, software
// sequences). SASS needs a GPU whose SASS teg reads (cc >= 7.5 from CUDA 13; cc 7.0 and 7.2
// through CUDA 11.8's ptxas and nvdisasm), a .cu compiled for that GPU's architecture, nvdisasm, and a SASS emulator that runs every opcode of the kernel; `auto` takes
// SASS where all hold and PTX otherwise, naming what stood in the way.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "teg/analysis/kernel_source.hpp"
#include "teg/device/device.hpp"
#include "teg/emu/emulator.hpp"
#include "teg/sass/ir.hpp"
#include "teg/trace/trace.hpp"

namespace teg::analysis {

enum class IsaRequest : std::uint8_t { Auto, Ptx, Sass };

// "auto", "ptx" or "sass"; throws teg::Error naming the accepted values otherwise.
IsaRequest parseIsaRequest(std::string_view text);
const char* isaRequestName(IsaRequest request);

// What the choice depends on, gathered by the caller (predict.cpp), so the rule is testable
// without a toolkit.
struct IsaFacts {
  std::string gpu;               // "RTX 4060", for the reasons
  int computeCapability = 0;     // the GPU's, e.g. 89
  bool ptxSource = false;        // the launch names a .ptx file: there is no cubin
  std::string compiledArch;      // the architecture nvcc compiled for, e.g. "sm_89"
  std::string gpuArch;           // the GPU's, e.g. "sm_89"
  bool haveNvdisasm = false;
  bool haveVoltaToolchain = false;  // CUDA 11.8's ptxas and nvdisasm (Volta's SASS)
  // Why the SASS emulator cannot run this kernel ("" = it can): an opcode it does not run yet,
  // the emulator missing from the build...
  std::string sassEmulatorGap;
};

// The facts for a kernel loaded for `gpu` without looking at its SASS: sassEmulatorGap is left
// empty (planIsa fills it).
IsaFacts isaFactsFor(const device::Device& gpu, const KernelSource& source);

struct IsaChoice {
  trace::Isa isa = trace::Isa::Ptx;
  std::string reason;  // one sentence: the request, or what made `auto` fall back to PTX
};

// The first obstacle to SASS among the facts, "" when there is none.
std::string sassObstacle(const IsaFacts& facts);

// "" when teg gets SASS for `gpu` (cc >= 7.5, or Volta with CUDA 11.8's tools found), else why
// not: the first of sassObstacle's
// rules, the one that holds for every kernel on that GPU (teg validate's --isa sass runs a suite
// of such a GPU on PTX with this reason instead of refusing the whole run).
std::string sassArchitectureObstacle(const device::Device& gpu);

// --isa ptx: PTX. --isa sass: SASS, or teg::Error with the obstacle. --isa auto: SASS where
// there is no obstacle, else PTX with the obstacle as the reason.
IsaChoice chooseIsa(IsaRequest request, const IsaFacts& facts);

// The choice for the launch's kernel (`kernel`: the launch's name, mangled or not) and, when it
// is SASS, the disassembly the emulator runs. Where nothing else rules SASS out, the cubin is
// disassembled (nvdisasm) and every instruction of the kernel's section is checked against the
// SASS emulator (emu::sassUnsupportedInstructions): the first it cannot run is `auto`'s reason
// for PTX. An nvdisasm failure is such a reason too.
struct IsaPlan {
  IsaChoice choice;
  std::shared_ptr<const sass::Module> sass;  // set when choice.isa is Sass
  // The cubin the SASS came from: its .nv.constant2.<kernel> is constant bank 2 (ptxas's folded
  // constants, e.g. an unrolled loop's address offset), its relocations fill bank 4.
  std::shared_ptr<const std::string> cubin;
  int smVersion = 0;
};
IsaPlan planIsa(IsaRequest request, const device::Device& gpu, const KernelSource& source, const std::string& kernel);

// Makes the emulator run the plan's SASS (nothing for PTX); the plan must outlive the emulator.
void applyIsaPlan(const IsaPlan& plan, emu::Emulator& emulator);

}  // namespace teg::analysis
