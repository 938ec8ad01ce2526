// ptxas schedules the code a GPU runs; teg replays nvcc's PTX, whose order is the source's: a
// load sits right before the arithmetic that uses it. ptxas moves long-latency loads up, so that
// their latencies overlap (seed 000 §3.3 took the real SASS order from the assembly; teg has only
// PTX for most GPUs). This pass approximates that: in each warp's executed stream, a global or
// local load moves above the arithmetic before it in the same straight-line run, as long as that
// arithmetic does not produce its address and does not read or write its destination. It may
// pass shared-memory accesses (another state space: no aliasing) but never another global or
// local access, a barrier, a branch or a warp-synchronising instruction. Shared loads move the
// same way where the GPU loads shared memory into registers with an instruction of its own (LDS,
// cc 2.0 and later: ptxas issues them ahead of their FFMAs, as the SASS of the example kernels
// shows), passing arithmetic only, in a second pass (so global loads move exactly as without
// it). Register pressure is not modelled (ptxas may hoist less when registers are short).
#pragma once

#include "block_trace.hpp"
#include "teg/trace/trace.hpp"

namespace teg::timing::detail {

enum class HoistedLoads { Global, Shared };

// One pass: moves the loads of one kind (global/local/texture, or shared).
void hoistLoads(const trace::KernelInfo& kernel, std::vector<WarpOp>& ops, HoistedLoads which);

}  // namespace teg::timing::detail
