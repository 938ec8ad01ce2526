#include "teg/timing/launch_views.hpp"

#include <algorithm>
#include <cmath>

namespace teg::timing {

// The overheads add to the kernel's time: in a stream the next kernel starts one gap after the
// previous one ends (the blog's 3.8 us per 2.9 us kernel is 0.9 us per gap); a host timer around
// one launch also waits for the launch to reach the GPU and for the completion to come back.
LaunchViews launchViews(double kernelMs, const TimingConfig& config) {
  LaunchViews v;
  v.kernelMs = kernelMs;
  v.streamOverheadUs = config.launchStreamUs;
  v.graphOverheadUs = config.launchGraphUs;
  v.synchronousOverheadUs = config.launchSyncUs;
  v.streamMs = kernelMs + v.streamOverheadUs * 1e-3;
  v.graphMs = kernelMs + v.graphOverheadUs * 1e-3;
  v.synchronousMs = kernelMs + v.synchronousOverheadUs * 1e-3;
  return v;
}

// The L2's index is hashed (NVIDIA does not publish it; Accel-Sim's validated L2s hash theirs), so
// the previous launch's L lines fall into its S sets about at random: a set's load K is Poisson
// with mean lambda = L / S. With no other traffic an LRU set keeps all of up to `ways` lines; a
// set given more, swept again in the same order by the next launch, misses every one of them
// (cyclic reuse under LRU). The fraction of lines in sets that kept theirs is E[K; K <= W] /
// lambda = P(K <= W - 1), the Poisson distribution function at W - 1.
double l2RetainedBetweenLaunches(std::uint64_t bufferBytes, std::uint64_t l2Bytes, int lineBytes, int ways) {
  if (bufferBytes == 0 || l2Bytes == 0 || lineBytes <= 0 || ways <= 0) return 0;
  const double lines = std::ceil(static_cast<double>(bufferBytes) / lineBytes);
  const double sets = std::max(1.0, std::floor(static_cast<double>(l2Bytes) / lineBytes / ways));
  const double lambda = lines / sets;
  // P(K <= W - 1) = sum_k e^-lambda lambda^k / k!, the terms built in logs (lambda may be large).
  double sum = 0;
  for (int k = 0; k < ways; ++k) sum += std::exp(-lambda + k * std::log(lambda) - std::lgamma(k + 1.0));
  return std::min(1.0, sum);
}

}  // namespace teg::timing
