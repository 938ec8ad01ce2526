#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"

namespace teg::timing {

const char* schedulerPolicyName(SchedulerPolicy p) {
  switch (p) {
    case SchedulerPolicy::LooseRoundRobin: return "loose-round-robin";
    case SchedulerPolicy::GreedyThenOldest: return "greedy-then-oldest";
    case SchedulerPolicy::OldestFirst: return "oldest-first";
    case SchedulerPolicy::GreedyThenYoungest: return "greedy-then-youngest";
  }
  return "?";
}

const char* stallReasonName(StallReason r) {
  switch (r) {
    case StallReason::Selected: return "selected";
    case StallReason::NotSelected: return "not_selected";
    case StallReason::Wait: return "wait";
    case StallReason::ShortScoreboard: return "short_scoreboard";
    case StallReason::LongScoreboard: return "long_scoreboard";
    case StallReason::MathPipeThrottle: return "math_pipe_throttle";
    case StallReason::MioThrottle: return "mio_throttle";
    case StallReason::LgThrottle: return "lg_throttle";
    case StallReason::Barrier: return "barrier";
    case StallReason::Count_: break;
  }
  return "?";
}

const char* stallReasonDescription(StallReason r) {
  switch (r) {
    case StallReason::Selected: return "issued an instruction";
    case StallReason::NotSelected: return "ready, but the scheduler issued another warp";
    case StallReason::Wait: return "fixed-latency dependency or same-warp issue interval";
    case StallReason::ShortScoreboard: return "waiting for a shared-memory, special-function or shuffle result";
    case StallReason::LongScoreboard: return "waiting for a global or local memory result";
    case StallReason::MathPipeThrottle: return "its functional unit is busy";
    case StallReason::MioThrottle: return "the shared-memory pipeline is busy (bank-conflict replays)";
    case StallReason::LgThrottle: return "the global-memory pipeline or its request queue is full";
    case StallReason::Barrier: return "waiting at a barrier for the rest of the block";
    case StallReason::Count_: break;
  }
  return "?";
}

}  // namespace teg::timing
