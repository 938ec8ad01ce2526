// APSP instance of the combined model (Ma et al. sect. III, eqs. 9-14).
#include "teg/models/apsp.hpp"

#include <fmt/format.h>

#include <cmath>

#include "teg/support/error.hpp"

namespace teg::models {

ApspEstimate apspModel(const ApspInputs& in) {
  if (in.vertices < 2) throw Error(fmt::format("vertices n must be >= 2 (got {})", in.vertices));
  if (in.subBlock < 1 || in.vertices % in.subBlock != 0)
    throw Error(fmt::format("sub-block dimension S_D must divide n = {} (got {})", in.vertices,
                            in.subBlock));
  if (!(in.chunkSize >= 1)) throw Error("chunk size C must be >= 1");
  if (!(in.latency > 0)) throw Error("latency L must be > 0");
  if (!(in.threadsPerCore > 0)) throw Error("threads per core must be > 0");
  if (!(in.coresPerSm > 0)) throw Error("cores per SM must be > 0");

  ApspEstimate e;
  const double n = static_cast<double>(in.vertices);
  const double sd = static_cast<double>(in.subBlock);
  const double lgn = std::log2(n);  // lg n squarings (repeated squaring to A^(n-1))
  e.work = n * n * n * lgn;                                   // T1 = n³ lg n
  e.transactions = e.work / (sd * in.chunkSize);              // eq. 10
  const std::int64_t perSide = in.vertices / in.subBlock;
  if (__builtin_mul_overflow(perSide, perSide, &e.requestedBlocks))  // B_r = (n/S_D)²
    throw Error(fmt::format("n/S_D = {} gives (n/S_D)² thread blocks, more than 2^63-1: use a "
                            "larger sub-block or a smaller n", perSide));
  e.fitAbscissa = std::sqrt(static_cast<double>(e.requestedBlocks)) / in.threadsPerCore;

  TmmInputs tmm;
  tmm.work = e.work;
  tmm.transactions = e.transactions;
  tmm.latency = in.latency;
  tmm.threadsPerCore = in.threadsPerCore;
  tmm.cores = static_cast<double>(in.smCount) * in.coresPerSm;
  e.combined = combinedModel(tmm, e.requestedBlocks, in.activeBlocksPerSm, in.smCount);

  // Sect. III case 1: compute bound when 𝒯 > L/(S_D·C) (i.e. n > L√B_r/(C𝒯)).
  e.threadsPerCoreAtTransition = in.latency / (sd * in.chunkSize);
  e.subBlockAtTransition = in.latency / (in.chunkSize * in.threadsPerCore);
  const double side = n * in.chunkSize * in.threadsPerCore / in.latency;  // √B_r*
  e.blocksAtTransition = side * side;
  return e;
}

}  // namespace teg::models
