// Lai's SGEMM upper bound (seed 000 ch. 4): eqs. 4.1-4.11 as pure arithmetic.
#include "teg/models/sgemm_bound.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "teg/support/error.hpp"

namespace teg::models {

namespace {

int exactSquareRoot(int n) {
  const int r = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
  return r * r == n ? r : -1;
}

void checkParameters(const SgemmBoundParameters& p) {
  if (p.maxRegistersPerThread <= 0) throw Error("sgemm bound: R_Max (max registers per thread) must be > 0");
  if (p.registersPerSm <= 0) throw Error("sgemm bound: R_SM (registers per SM) must be > 0");
  if (p.sharedBytesPerSm <= 0) throw Error("sgemm bound: Sh_SM (shared memory per SM) must be > 0");
  if (p.threadsPerBlock <= 0) throw Error("sgemm bound: T_B (threads per block) must be > 0");
  if (p.strideStep <= 0) throw Error("sgemm bound: the stride step of L must be > 0");
  if (p.indexRegisters < 0) throw Error("sgemm bound: R_index must be >= 0");
  if (p.ldsWidthBits != 32 && p.ldsWidthBits != 64 && p.ldsWidthBits != 128)
    throw Error(fmt::format("sgemm bound: LDS width {} is not 32, 64 or 128", p.ldsWidthBits));
  if (!(p.peakGflops > 0) || !(p.spThroughput > 0) || !(p.issueThroughput > 0) || !(p.ldsBytesPerClock > 0))
    throw Error("sgemm bound: P_theoretical, #SP_TP, #Issue_TP and #LDS_TP must be > 0");
  if (p.bandwidthGBs < 0) throw Error("sgemm bound: the global memory bandwidth must be >= 0");
}

}  // namespace

RegisterBlocking maxRegisterBlocking(const SgemmBoundParameters& p) {
  checkParameters(p);
  const int rootTb = exactSquareRoot(p.threadsPerBlock);
  // Eq. 4.7 B_Sh = sqrt(T_B·B_R²): the block's C tile is square, so T_B must be a square.
  if (rootTb < 0)
    throw Error(fmt::format("sgemm bound: T_B = {} threads per block is not a square (B_Sh = B_R x sqrt(T_B), eq. 4.7)",
                            p.threadsPerBlock));
  RegisterBlocking best;
  // Eq. 4.3 (loose): B_R² + B_R + 1 < R_Max.
  for (int b = 1; b * b + b + 1 < p.maxRegistersPerThread; ++b) best.looseBlocking = b;
  const int rowRegisters = p.ldsWidthBits / 32;  // one LDS.X of a row of B fills X/32 registers (§4.4.2)
  for (int b = 1; b * b <= p.maxRegistersPerThread; ++b) {
    RegisterBlocking r;
    r.blocking = b;
    r.sharedBlocking = b * rootTb;
    // Eq. 4.4 as repaired: each thread loads the same share of the B_Sh × L sub-matrices of A and
    // B, (B_Sh·L) mod T_B = 0; L is a multiple of the stride step (§4.3.5 "L could be 8, 16, 24").
    r.stride = 0;
    for (int l = p.strideStep; l <= p.strideStep * p.threadsPerBlock; l += p.strideStep)
      if ((static_cast<long long>(r.sharedBlocking) * l) % p.threadsPerBlock == 0) {
        r.stride = l;
        break;
      }
    if (r.stride == 0) continue;
    r.prefetchRegisters = static_cast<int>(2LL * r.sharedBlocking * r.stride / p.threadsPerBlock);
    // Eq. 4.5: C tile + prefetch + a column of A + a row of B + indices/addresses.
    r.registersPerThread = b * b + r.prefetchRegisters + b + rowRegisters + p.indexRegisters;
    if (r.registersPerThread > p.maxRegistersPerThread) continue;                               // eq. 4.1
    const long long regsPerBlock = static_cast<long long>(p.threadsPerBlock) * r.registersPerThread;
    const long long smemPerBlock = 2LL * r.sharedBlocking * r.stride * 4;                       // eq. 4.6, 4 B floats
    if (regsPerBlock > p.registersPerSm || smemPerBlock > p.sharedBytesPerSm) continue;         // eqs. 4.2, 4.6
    long long blocks = std::min<long long>(p.registersPerSm / regsPerBlock, p.sharedBytesPerSm / smemPerBlock);
    if (p.maxThreadsPerSm > 0) blocks = std::min<long long>(blocks, p.maxThreadsPerSm / p.threadsPerBlock);
    r.activeBlocks = static_cast<int>(blocks);
    r.activeThreads = r.activeBlocks * p.threadsPerBlock;
    r.looseBlocking = best.looseBlocking;
    best = r;
  }
  if (best.blocking == 0)
    throw Error(fmt::format("sgemm bound: no register blocking factor fits {} registers per thread with {} threads per block",
                            p.maxRegistersPerThread, p.threadsPerBlock));
  return best;
}

double derivedThroughputFactor(const SgemmBoundParameters& p, int blocking, std::string* limiter) {
  checkParameters(p);
  const double ffma = static_cast<double>(blocking) * blocking;
  const double lds = 2.0 * blocking * (32.0 / p.ldsWidthBits);
  // Clocks per SM for one main-loop step of one thread (thread instructions / rate). An LDS.X of a
  // warp moves 32·X/8 bytes; it takes at least one shared-memory cycle even when the data path
  // could carry more (Kepler: "the 32bit LDS operation actually decreases the data throughput in
  // half", §4.3.1), which the per-thread byte rate below already gives for every seed GPU.
  const double issue = (ffma + lds) / p.issueThroughput;
  const double fp32 = ffma / p.spThroughput;
  const double shared = lds * (p.ldsWidthBits / 8.0) / p.ldsBytesPerClock;
  const double cycles = std::max({issue, fp32, shared});
  if (limiter != nullptr) *limiter = cycles == fp32 ? "FP32 units" : cycles == issue ? "issue" : "LDS";
  return (ffma + lds) / cycles / p.spThroughput;
}

SgemmBound sgemmBound(const SgemmBoundParameters& p) {
  SgemmBound s;
  s.blocking = maxRegisterBlocking(p);
  const double br = s.blocking.blocking;
  s.instructionFactor = 32.0 / p.ldsWidthBits;                          // F_I (§4.3.5: LDS.64 → 0.5)
  s.ffmaShare = br * br / (br * br + br * 2 * s.instructionFactor);     // eq. 4.10's first factor
  s.derivedThroughputFactor = derivedThroughputFactor(p, s.blocking.blocking, &s.derivedLimiter);
  if (p.measuredMixThroughput && p.measuredAtBlocking == s.blocking.blocking) {
    s.throughputFactor = *p.measuredMixThroughput / p.spThroughput;
    s.throughputOrigin = fmt::format("measured: {:g} thread instructions per clock per SM of {:g} (seed 000 Fig. 4.2/4.4, "
                                     "B_R = {})",
                                     *p.measuredMixThroughput, p.spThroughput, p.measuredAtBlocking);
  } else {
    s.throughputFactor = s.derivedThroughputFactor;
    s.throughputOrigin = fmt::format("derived: the mix of {:g} FFMA and {:g} LDS.{} per step at the slowest of issue "
                                     "({:g}), FP32 ({:g}) and LDS ({:g} B) per clock per SM: {}-bound",
                                     br * br, 2 * br * s.instructionFactor, p.ldsWidthBits, p.issueThroughput,
                                     p.spThroughput, p.ldsBytesPerClock, s.derivedLimiter);
  }
  s.smBoundGflops = s.ffmaShare * s.throughputFactor * p.peakGflops;     // eq. 4.10
  // Eq. 4.8: a B_Sh × B_Sh tile of C takes 2·B_Sh² flops per 2·B_Sh·4 bytes of A and B per k.
  s.memBoundGflops = static_cast<double>(s.blocking.sharedBlocking) / 4.0 * p.bandwidthGBs;
  s.potentialGflops = p.bandwidthGBs > 0 ? std::min(s.smBoundGflops, s.memBoundGflops) : s.smBoundGflops;  // eq. 4.11
  s.binding = s.potentialGflops < s.smBoundGflops ? "global memory bandwidth" : "SM throughput";
  s.boundFraction = s.potentialGflops / p.peakGflops;
  return s;
}

int keplerRegisterBank(int index) {
  if (index < 0) throw Error(fmt::format("register index {} is negative", index));
  const bool even = index % 2 == 0;
  const bool high = index % 8 >= 4;
  return (even ? 0 : 2) + (high ? 1 : 0);  // even 0, even 1, odd 0, odd 1
}

int keplerBankConflictDegree(const std::vector<int>& sourceRegisters) {
  const std::set<int> distinct(sourceRegisters.begin(), sourceRegisters.end());
  int perBank[4] = {0, 0, 0, 0};
  int worst = distinct.empty() ? 0 : 1;
  for (const int r : distinct) worst = std::max(worst, ++perBank[keplerRegisterBank(r)]);
  return worst;
}

}  // namespace teg::models
