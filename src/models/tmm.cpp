// TMM bound (Ma et al. eq. 1) and the combined model (eqs. 6-7).
#include "teg/models/tmm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "teg/support/error.hpp"

namespace teg::models {

const char* tmmLimitName(TmmLimit limit) {
  switch (limit) {
    case TmmLimit::Compute: return "compute";
    case TmmLimit::Span: return "span";
    case TmmLimit::Memory: return "memory";
  }
  return "?";
}

namespace {

void requireFiniteNonNegative(double v, const char* what) {
  if (!std::isfinite(v) || v < 0)
    throw Error(fmt::format("{} must be a finite number >= 0 (got {})", what, v));
}

}  // namespace

TmmBound tmmBound(const TmmInputs& in) {
  requireFiniteNonNegative(in.work, "work T1");
  requireFiniteNonNegative(in.span, "span T_inf");
  requireFiniteNonNegative(in.transactions, "memory transactions M");
  requireFiniteNonNegative(in.latency, "latency L");
  requireFiniteNonNegative(in.threadsPerCore, "threads per core");
  if (!std::isfinite(in.cores) || in.cores <= 0)
    throw Error(fmt::format("cores P must be > 0 (got {})", in.cores));
  const bool memoryCounts = in.transactions > 0 && in.latency > 0;
  if (memoryCounts && in.threadsPerCore <= 0)
    throw Error("threads per core must be > 0 when there are memory transactions to overlap");

  TmmBound b;
  b.computeTerm = in.work / in.cores;  // T1/P
  b.spanTerm = in.span;                // T_inf
  // M·L/(𝒯·P): each of the M transactions takes L steps, P cores share them and 𝒯 threads per
  // core overlap them (seed 001 sect. II-A, the paragraph after eq. 1).
  b.memoryTerm = memoryCounts ? in.transactions * in.latency / (in.threadsPerCore * in.cores) : 0;

  b.time = b.computeTerm;
  b.limiter = TmmLimit::Compute;
  if (b.spanTerm > b.time) b.time = b.spanTerm, b.limiter = TmmLimit::Span;
  if (b.memoryTerm > b.time) b.time = b.memoryTerm, b.limiter = TmmLimit::Memory;

  if (in.work > 0) b.threadsPerCoreToHideLatency = in.transactions * in.latency / in.work;
  if (in.transactions > 0) b.latencyAtTransition = in.work * in.threadsPerCore / in.transactions;
  return b;
}

double transactionsFromAccesses(double accesses, double chunkSize) {
  requireFiniteNonNegative(accesses, "memory accesses");
  if (!std::isfinite(chunkSize) || chunkSize < 1)
    throw Error(fmt::format("chunk size C must be >= 1 (got {})", chunkSize));
  return accesses / chunkSize;
}

double threadsPerCoreOfLaunch(int activeBlocksPerSm, int threadsPerBlock, double coresPerSm) {
  if (activeBlocksPerSm < 1 || threadsPerBlock < 1 || !(coresPerSm > 0))
    throw Error("active blocks per SM, threads per block and cores per SM must be positive");
  return static_cast<double>(activeBlocksPerSm) * threadsPerBlock / coresPerSm;
}

CombinedEstimate combinedModel(const TmmInputs& in, std::int64_t requestedBlocks,
                               int activeBlocksPerSm, int smCount) {
  CombinedEstimate c;
  c.tmm = tmmBound(in);
  c.waves = scheduleWaves(requestedBlocks, activeBlocksPerSm, smCount);
  c.time = c.tmm.time * c.waves.fSched;  // seed 001 eq. 6
  return c;
}

}  // namespace teg::models
