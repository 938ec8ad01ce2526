// What a device figure key means for display: the group `teg devices show` prints it under.
#pragma once

#include <string>
#include <vector>

namespace teg::device {

// "identity", "limits", "issue", "clocks", "memory", "throughput" or "measured" for a known
// figure key ("max_threads_per_sm", "clocks.core_mhz", "latency.dram"); "" for an unknown key.
std::string figureGroupOf(const std::string& key);

// The groups in display order.
const std::vector<std::string>& figureGroups();

}  // namespace teg::device
