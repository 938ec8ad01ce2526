// Cliffs and levers: for a launch, how far each knob the programmer holds (registers per thread,
// shared memory per block, threads per block) must come down to fit one more block per SM, and
// how close the next cliff is upward — "one more register here costs a block" (Verschelde,
// lecture 33, "a performance cliff": 21 -> 22 registers loses a block on a C2050).
//
// Found by bisection over computeOccupancy, which is monotone in each knob (more of a resource
// never fits more blocks), so every answer is exact for the device's allocation rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "teg/occupancy/occupancy.hpp"

namespace teg::occupancy {

enum class Knob : std::uint8_t { Registers, SharedMemory, Threads };

const char* knobName(Knob k);  // "registers", "shared_memory", "threads"

// `launch` with one knob set to `value`. Shared memory is the block's total (static + dynamic):
// the dynamic part varies, and values below the static size lower the static size.
Launch withKnob(const Launch& launch, Knob knob, long long value);

struct Lever {
  Knob knob{};
  long long current = 0;  // registers per thread, bytes per block (static + dynamic), threads

  // The largest value below `current` that fits more blocks, and what it gives; empty when
  // lowering this knob alone fits no more blocks (another resource binds at the same count).
  std::optional<long long> reduceTo;
  int blocksAfterReduce = 0;
  int warpsAfterReduce = 0;

  // The smallest value above `current` that fits fewer blocks (or cannot launch at all), and
  // the blocks left there; empty when nothing up to the per-block limit costs a block.
  std::optional<long long> cliffAt;
  int blocksAfterCliff = 0;
};

struct CliffReport {
  std::vector<Lever> levers;           // one per knob, in Knob order
  std::vector<std::string> sentences;  // the explanation in the user's terms
};

// `base` must be computeOccupancy(device, launch) and ok().
CliffReport findCliffs(const device::Device& device, const Launch& launch, const Occupancy& base);

}  // namespace teg::occupancy
