// PTX instructions that are software sequences on the GPU: ptxas expands an IEEE division, square
// root or reciprocal, an integer division or remainder, a 64-bit multiply-high and several
// approximate functions into several SASS instructions (data/ptx/sequences.json, measured with
// ptxas and nvdisasm by scripts/measure-ptx-sequences.py). The timing engine issues each SASS
// instruction of such a sequence (timing/software_sequence.hpp) where the GPU's architecture or an
// older one was measured; a prediction lists the kernel's sequences among its assumptions.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"
#include "teg/timing/software_sequence.hpp"
#include "teg/trace/trace.hpp"

namespace teg::analysis {

// The fast path of each listed PTX instruction, per target architecture.
struct SequenceTable {
  std::string source;  // the toolkit that measured it, and when
  std::map<int, timing::SequenceShapes> byArchitecture;  // sm number (80) -> "div.rn.f32" -> its 10 steps
};

// Reads a table in the format scripts/measure-ptx-sequences.py writes; throws teg::Error naming
// the file (and line and column for bad syntax, the field for a wrong one).
SequenceTable loadSequenceTable(const std::string& path);
// data/ptx/sequences.json in the data directory.
SequenceTable loadDefaultSequenceTable();

// The architecture whose sequences stand for `architecture` (sm number): the nearest measured at
// or below it, else the lowest measured (0 for an empty table).
int sequenceArchitectureFor(const SequenceTable& table, int architecture);
// The shapes the timing engine replays on `architecture`: the nearest measured at or below it;
// none for an architecture older than every measured one (sm_50, with CUDA 11.8's ptxas; CUDA 13
// targets sm_75 and newer), whose sequences then count as one instruction each.
timing::SequenceShapes sequencesToTime(const SequenceTable& table, int architecture);

struct SequenceUse {
  std::string instruction;          // "div.rn.f32"
  int sassInstructions = 0;         // on the architecture chosen
  std::uint64_t warpInstructions = 0;  // times the simulated warps executed one (its PTX instruction)
};

struct SequenceReport {
  int architecture = 0;  // the sm number whose counts were used (0: none measured)
  std::vector<SequenceUse> uses;  // by warp instructions, most first
};

// The kernel's instructions that are sequences on `architecture` (sm number;
// sequenceArchitectureFor), with how often the simulated blocks executed them
// (`result.perInstruction`).
SequenceReport softwareSequencesOf(const trace::KernelInfo& kernel, const timing::TimingResult& result,
                                   const SequenceTable& table, int architecture);

// The assumption row a prediction shows; empty `parameter` when the kernel has no sequence.
// `timed`: the engine replayed them (sequencesToTime was not empty).
timing::Provenance describeSequences(const SequenceReport& report, const SequenceTable& table, int requested,
                                     bool timed);

}  // namespace teg::analysis
