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

// Of `bufferBytes` a launch touched, the fraction the next launch of the same kernel finds still
// in an L2 of `l2Bytes` with `ways`-way sets of `lineBytes` lines (launch_views.cpp): the lines of
// a set given at most `ways` of them stay, those of a set given more are all lost.
double l2RetainedBetweenLaunches(std::uint64_t bufferBytes, std::uint64_t l2Bytes, int lineBytes, int ways);

}  // namespace teg::timing
