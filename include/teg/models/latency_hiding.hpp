// Latency hiding by multithreading (Little's law) and the roofline bound.
//
// Little's law: to keep an issue port busy, the warps in flight must cover the latency —
// warps needed = ⌈latency / issue interval⌉, where the issue interval is the cycles the port
// spends per warp instruction (the inverse of its throughput). With w warps issuing round-robin,
// one round of one instruction per warp takes max(latency, w × interval) cycles (Chien 2010 —
// seed 002 sect. 1.1.2: "Six active warps per SM are required to hide pipeline latency of MAD
// dest, [smem], src2, src3 under throughput is 6 cycle/warp", and Table 2's fourth row
// max(34.6, 6w)).
//
// Roofline (Williams et al. 2009; seed 000 ch. 1): attainable = min(peak, intensity × bandwidth),
// ridge point = peak / bandwidth (flop/byte).
#pragma once

namespace teg::models {

struct LatencyHiding {
  double latency = 0;        // cycles
  double issueInterval = 0;  // cycles per warp instruction
  int warpsNeeded = 0;       // ⌈latency / issueInterval⌉
};

// Throws teg::Error unless latency > 0 and issueInterval > 0.
LatencyHiding warpsToHideLatency(double latency, double issueInterval);

struct RoundTime {
  int warps = 0;
  double cycles = 0;       // max(latency, warps × interval): one instruction of every warp
  double cyclesPerWarp = 0;// cycles / warps
  double utilization = 0;  // warps × interval / cycles: share of the round the port issues
  bool latencyBound = false;  // cycles == latency (too few warps to cover it)
};

// Round-robin issue of one dependent instruction per warp (seed 002 Table 2, fourth row).
// Throws unless warps >= 1, latency > 0, interval > 0.
RoundTime roundTime(int warps, double latency, double issueInterval);

struct Roofline {
  double peak = 0;        // e.g. GFLOP/s
  double bandwidth = 0;   // e.g. GB/s
  double intensity = 0;   // flop/byte
  double attainable = 0;  // min(peak, intensity × bandwidth)
  double ridge = 0;       // peak / bandwidth: intensity where the bound turns flat
  bool memoryBound = false;  // intensity < ridge
};

// Throws unless peak > 0, bandwidth > 0, intensity >= 0.
Roofline roofline(double peak, double bandwidth, double intensity);

// Peak arithmetic rate in GFLOP/s from per-SM throughput: SMs × results per clock per SM ×
// flops per result (2 for a fused multiply-add) × clock (MHz) / 1000. Throws on non-positive
// inputs.
double peakGflops(int smCount, double resultsPerClockPerSm, double flopsPerResult, double clockMhz);

}  // namespace teg::models
