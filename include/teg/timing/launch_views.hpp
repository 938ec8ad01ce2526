// Kernel launch overhead, reported apart from the kernel's time: a kernel of a few microseconds
// runs for less than it takes to launch it, so the time a program sees depends on how it launches
// (NVIDIA, "Getting Started with CUDA Graphs", 2019: a 2.9 us kernel on a V100 takes 3.8 us per
// kernel launched back to back in a stream, 3.4 us in a graph, 9.6 us synchronised after each).
#pragma once

#include "teg/timing/config.hpp"
#include "teg/timing/result.hpp"

namespace teg::timing {

// The kernel's time `kernelMs` in each launch view, with the device's overheads from `config`
// (a view whose overhead is not given is the kernel's time).
LaunchViews launchViews(double kernelMs, const TimingConfig& config);

}  // namespace teg::timing
