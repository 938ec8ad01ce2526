// PTX instructions that are software sequences on the GPU: ptxas expands an IEEE division, square
// root or reciprocal, an integer division or remainder, a 64-bit multiply-high and several
// approximate functions into several SASS instructions (data/ptx/sequences.json, measured with
// ptxas and nvdisasm by scripts/measure-ptx-sequences.py). The timing engine issues one warp
// instruction per PTX instruction, so a prediction lists the kernel's sequences and their length
// among its assumptions: how far it may be short where such instructions matter.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"
#include "teg/trace/trace.hpp"

namespace teg::analysis {

// SASS instructions on the fast path of each listed PTX instruction, per target architecture.
struct SequenceTable {
  std::string source;  // the toolkit that measured it, and when
  std::map<int, std::map<std::string, int>> byArchitecture;  // sm number (80) -> "div.rn.f32" -> 10
};

// Reads a table in the format scripts/measure-ptx-sequences.py writes; throws teg::Error naming
// the file (and line and column for bad syntax, the field for a wrong one).
SequenceTable loadSequenceTable(const std::string& path);
// data/ptx/sequences.json in the data directory.
SequenceTable loadDefaultSequenceTable();

// The instruction's PTX mnemonic with its qualifiers ("div.rn.f32"), without a guard predicate.
std::string mnemonicOf(const std::string& instructionText);

struct SequenceUse {
  std::string instruction;          // "div.rn.f32"
  int sassInstructions = 0;         // on the architecture chosen
  std::uint64_t warpInstructions = 0;  // of this kind among the simulated warp instructions
};

struct SequenceReport {
  int architecture = 0;  // the sm number whose counts were used (0: none measured)
  std::vector<SequenceUse> uses;  // by warp instructions, most first
};

// The kernel's instructions that are sequences on `architecture` (sm number; the nearest
// measured one at or below it, else the lowest measured), with how often the simulated blocks
// issued them (`result.perInstruction`).
SequenceReport softwareSequencesOf(const trace::KernelInfo& kernel, const timing::TimingResult& result,
                                   const SequenceTable& table, int architecture);

// The assumption row a prediction shows; empty `parameter` when the kernel has no sequence.
timing::Provenance describeSequences(const SequenceReport& report, const SequenceTable& table, int requested);

}  // namespace teg::analysis
