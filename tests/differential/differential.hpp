// The differential test of teg's two functional emulators (issue 26 point 4): random kernels
// (kernel_generator.hpp) compiled once by nvcc, then run from the same launch on the PTX emulator
// (nvcc's PTX) and on the SASS emulator (the cubin ptxas made of that PTX, disassembled by
// nvdisasm), every buffer compared bit for bit, the .approx results within their documented
// bound. A difference is a bug in one of the emulators (or an input the kernel leaves undefined,
// which the generator is written never to produce).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel_generator.hpp"

namespace teg::differential {

struct RunConfig {
  std::string arch = "sm_80";
  // nvcc flags beyond the arch. -fmad=false: nvcc writes mul.rn/add.rn, which ptxas may not fuse;
  // without it a plain mul.f32 + add.f32 may become one FFMA (PTX ISA: "may be optimized
  // aggressively"), a legitimate difference between the PTX and what the GPU runs.
  std::vector<std::string> nvccFlags = {"-fmad=false"};
  bool useCompileCache = false;  // random kernels are compiled once; the cache would only grow
  std::string keepDirectory;     // when set: each batch's .cu, and for a difference its launch
  GeneratorOptions generator;
  // When set: compile this file instead of generating one (a reduced reproducer that keeps the
  // kernels' names k_<seed> and signature; inputs and launch shape still come from the seeds).
  std::string sourceFile;
};

struct Difference {
  std::uint64_t seed = 0;
  std::string arch;
  std::string what;  // "buffer fo[37]: ptx 0x7fffffff (nan) sass 0xffc00000 (nan)", or an error
};

struct Summary {
  std::uint64_t kernels = 0;           // generated
  std::uint64_t compared = 0;          // run on both emulators and compared
  std::uint64_t approxChecked = 0;     // .approx results checked against their bound
  std::uint64_t bitsCompared = 0;      // bytes compared bit for bit
  std::uint64_t nanPayloadsTolerated = 0;  // fo/dd NaNs whose sign or payload differ (which NaN
                                           // neg/abs/min/max give is unspecified: compareBuffers)
  std::vector<Difference> differences; // results that differ (or one emulator failed, not both)
  std::vector<Difference> bothFailed;  // both emulators stopped with an error (not a difference)
  // Known gaps of the SASS emulator, counted apart from differences: an opcode it does not run
  // yet ("unsupported SASS instruction"), and kernels whose SASS reads constant bank 2 (ptxas's
  // literal pool, .nv.constant2 in the cubin, which the disassembly teg reads does not carry).
  std::vector<Difference> waiting;
  double compileSeconds = 0, emulateSeconds = 0;
};

// Generates kernels firstSeed .. firstSeed + count - 1, compiles them `batch` per nvcc run for
// `config.arch`, runs and compares each. `progress` (may be empty) hears after each batch.
Summary runDifferential(std::uint64_t firstSeed, std::uint64_t count, std::uint64_t batch, const RunConfig& config,
                        const std::function<void(const Summary&)>& progress = {});

// The same kernels on several architectures at the cost of one cicc run: nvcc compiles each
// batch for `config.arch` (its PTX and cubin), the PTX emulator runs that PTX once, and ptxas
// assembles the same PTX for each of `moreArchs` (newer than config.arch: PTX is forward
// compatible, as the driver's JIT uses it), whose SASS is compared with that one PTX run. Cheaper
// than runDifferential per architecture (cicc and the PTX emulator are a third of the cost), but
// every architecture gets config.arch's PTX, not the PTX nvcc writes for it. One Summary per
// architecture, config.arch first; `progress` hears after each batch.
std::vector<Summary> runDifferentialOnePtx(std::uint64_t firstSeed, std::uint64_t count, std::uint64_t batch,
                                           const RunConfig& config, const std::vector<std::string>& moreArchs,
                                           const std::function<void(const std::vector<Summary>&)>& progress = {});

// The architecture number of "sm_86" (86).
int smVersion(const std::string& arch);

}  // namespace teg::differential
