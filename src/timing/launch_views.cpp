#include "teg/timing/launch_views.hpp"

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

}  // namespace teg::timing
