// PTX instructions that are several SASS instructions: ptxas expands an IEEE division, a square
// root, an integer division, the approximate transcendentals' range checks and more into a
// software sequence. The engine replays such an instruction as its sequence's fast path (the
// SASS between the kernel's loads and store when no operand is special), one issue per SASS
// instruction, each on its own unit and waiting for the steps whose registers it reads.
// The shapes are data (data/ptx/sequences.json, measured with ptxas and nvdisasm by
// scripts/measure-ptx-sequences.py); analysis::loadSequenceTable reads them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "teg/device/device.hpp"

namespace teg::timing {

struct SequenceStep {
  device::InstructionClass unit = device::InstructionClass::Fp32Fma;  // the unit it issues to
  std::vector<int> after;       // earlier steps whose results it reads
  bool readsOperands = false;   // it reads the PTX instruction's source registers
};

struct SoftwareSequence {
  std::vector<SequenceStep> steps;  // in issue order
  int result = 0;                   // the step that writes the PTX instruction's destination
};

// By PTX mnemonic with its qualifiers ("div.rn.f32", trace::mnemonicOf).
using SequenceShapes = std::map<std::string, SoftwareSequence>;

}  // namespace teg::timing
