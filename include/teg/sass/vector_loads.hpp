// Scalar shared-memory loads a vector load could replace. ptxas fuses ld.shared.f32 of adjacent
// words into LDS.64/LDS.128 only when it can prove the alignment; where it cannot, the SASS keeps
// one LDS per word, and a kernel that loads the same words as float4 (or float2) issues a
// quarter (half) of them. Seed 000 ch. 4 (sect. 4.3.1, the GTX 680's 54.6 % -> 57.6 % SGEMM bound
// with LDS.64 -> LDS.128) is the effect. This finds, in each basic block, 32-bit LDS whose
// addresses share a base register and whose offsets fill an aligned 16-byte (else 8-byte) window,
// and whose loaded register an FFMA of the block reads (the loads feed the arithmetic).
#pragma once

#include <cstdint>
#include <vector>

#include "teg/sass/ir.hpp"

namespace teg::sass {

struct VectorLoadGroup {
  std::vector<std::size_t> loads;  // instruction indices of the scalar LDS, offset order
  int bytes = 16;                  // the vector load that would replace them: 16 (LDS.128) or 8
};

// Groups of scalar LDS in `function` that one vector load could replace: a window's words all
// loaded in one basic block from the same base register (not written between them), each
// feeding an FFMA later in the block. Each LDS is in at most one group; 16-byte windows first.
std::vector<VectorLoadGroup> vectorisableSharedLoads(const Function& function);

}  // namespace teg::sass
