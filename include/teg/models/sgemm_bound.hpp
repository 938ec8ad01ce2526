// Lai's performance upper bound of SGEMM (seed 000 ch. 4, Table 4.2, eqs. 4.1-4.11).
//
// The bound assumes the best case (no shared-memory bank conflict, coalesced global accesses, no
// auxiliary instructions) and keeps only what the architecture and the instruction set impose:
//   - the register blocking factor B_R is the largest whose registers fit R_Max (eq. 4.5);
//   - the main loop is B_R² FFMA and 2·B_R·F_I LDS.X per step (F_I = 32/X: one LDS.X loads X/32
//     elements), so the FFMA share is B_R² / (B_R² + 2·B_R·F_I)                 (eq. 4.10);
//   - the mix runs at F_T × #SP_TP thread instructions per clock, F_T measured (Figs. 4.2, 4.4)
//     or, for a GPU the seed did not measure, the slowest of issue, FP32 units and LDS (eq. 4.9);
//   - P_SMBound = share × F_T × P_theoretical (eq. 4.10), P_MemBound = B_Sh/4 × bandwidth
//     (eq. 4.8), P_potential = min of the two (eq. 4.11).
// Reproduces 82.5 % (GTX 580, LDS.64), 54.6 % (GTX 680, LDS.64), 57.6 % (GTX 680, LDS.128).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "teg/device/device.hpp"

namespace teg::models {

// Table 4.2's parameters, each with where it came from.
struct SgemmBoundParameters {
  // Hardware (data/devices/).
  int maxRegistersPerThread = 0;  // R_Max
  int registersPerSm = 0;         // R_SM
  int sharedBytesPerSm = 0;       // Sh_SM
  int maxThreadsPerSm = 0;
  double peakGflops = 0;          // P_theoretical (FP32 FMA)
  double bandwidthGBs = 0;        // #GlobalMem_bandwidth
  double spThroughput = 0;        // #SP_TP, thread instructions per clock per SM
  double issueThroughput = 0;     // #Issue_TP, thread instructions per clock per SM
  double ldsBytesPerClock = 0;    // #LDS_TP as bytes per clock per SM
  // Implementation (data/models/sgemm_bound.json).
  int threadsPerBlock = 0;        // T_B (a square)
  int indexRegisters = 0;         // R_index
  int strideStep = 0;             // L is a multiple of this
  int ldsWidthBits = 64;          // LDS.X: 32, 64 or 128
  // A measured mix throughput (thread instructions per clock per SM) at `measuredAtBlocking`.
  std::optional<double> measuredMixThroughput;
  int measuredAtBlocking = 0;
  std::vector<std::pair<std::string, std::string>> origins;  // parameter → source
};

struct RegisterBlocking {
  int blocking = 0;           // B_R
  int looseBlocking = 0;      // largest B_R with B_R² + B_R + 1 < R_Max (eq. 4.3)
  int stride = 0;             // L (eq. 4.4)
  int sharedBlocking = 0;     // B_Sh = B_R·√T_B (eq. 4.7)
  int registersPerThread = 0; // R_T: left side of eq. 4.5
  int prefetchRegisters = 0;  // 2·B_Sh·L / T_B
  int activeBlocks = 0;       // Blk: eqs. 4.2 and 4.6
  int activeThreads = 0;      // T_SM
};

struct SgemmBound {
  RegisterBlocking blocking;
  double instructionFactor = 0;  // F_I = 32 / X
  double ffmaShare = 0;          // B_R² / (B_R² + 2·B_R·F_I)
  double throughputFactor = 0;   // F_T used
  std::string throughputOrigin;  // "measured: ..." or "derived: issue-bound ..."
  // The unit-throughput F_T and what binds it (always computed).
  double derivedThroughputFactor = 0;
  std::string derivedLimiter;    // "issue", "FP32 units", "LDS"
  double smBoundGflops = 0;      // eq. 4.10
  double memBoundGflops = 0;     // eq. 4.8
  double potentialGflops = 0;    // eq. 4.11
  double boundFraction = 0;      // potential / P_theoretical
  std::string binding;           // "SM throughput" or "global memory bandwidth"
};

// The register blocking under eqs. 4.1-4.7. Throws teg::Error when T_B is not a square or no
// B_R >= 1 fits.
RegisterBlocking maxRegisterBlocking(const SgemmBoundParameters& p);

// F_T from issue, FP32 and LDS throughputs for `blocking` (eq. 4.9 without measurement): the mix
// of B_R² FFMA and 2·B_R·F_I LDS.X runs at the slowest of the three rates. Sets *limiter.
double derivedThroughputFactor(const SgemmBoundParameters& p, int blocking, std::string* limiter);

// Eqs. 4.8-4.11. Throws teg::Error on impossible parameters.
SgemmBound sgemmBound(const SgemmBoundParameters& p);

// Table 4.2's parameters for `gpu` from the device and data/models/sgemm_bound.json (read from
// `dataFile`), for LDS.`ldsWidthBits`. Throws teg::Error naming the missing figure.
SgemmBoundParameters sgemmBoundParametersFor(const device::Device& gpu, int ldsWidthBits, const std::string& dataFile);

// data/models/sgemm_bound.json under the data directory.
std::string sgemmBoundDataFile();

// Lai §4.2.3: the bank of a Kepler register (even 0, even 1, odd 0, odd 1 → 0..3).
int keplerRegisterBank(int registerIndex);
// The largest number of distinct source registers that share a bank (1 = conflict-free).
int keplerBankConflictDegree(const std::vector<int>& sourceRegisters);

}  // namespace teg::models
