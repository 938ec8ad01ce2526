// Least-squares straight line and its coefficient of determination, and the runtime fit of
// Ma et al. eq. 15 (seed 001 sect. IV-A):
//
//   Time = a1 · √B_r / 𝒯 + a0        (the seed reports a1 = 0.957, a0 = 53.9, r² = 0.9916 for
//                                     APSP, n = 8192, GTX480; its data points are only in
//                                     Fig. 2, which the extracted text does not contain)
#pragma once

#include <string>
#include <vector>

namespace teg::models {

struct LinearFit {
  double slope = 0;      // a1
  double intercept = 0;  // a0
  double rSquared = 0;   // 1 - SS_res/SS_tot
  double rmse = 0;       // sqrt(SS_res / points)
  std::size_t points = 0;
};

// Ordinary least squares y = slope·x + intercept (Eigen, column-pivoting QR). Throws teg::Error
// for fewer than 2 points, different lengths, non-finite values, or all x equal.
LinearFit fitLine(const std::vector<double>& x, const std::vector<double>& y);

// One measured run for eq. 15.
struct RuntimeSample {
  double x = 0;     // √B_r / 𝒯
  double time = 0;  // measured run time (any unit; a1 and a0 come out in it)
  int line = 0;     // line in the CSV file (0 when not from a file)
};

// Reads eq. 15 measurements from CSV text (`file` names it in errors). Header columns:
//   time                                    required: measured run time
//   x                                       √B_r/𝒯 directly, or
//   blocks, threads_per_core                B_r and 𝒯, or
//   n, sub_block, threads_per_core          B_r = (n/S_D)², as in the seed's Fig. 2 caption
// Extra columns are ignored. Throws teg::Error with file:line:col on a bad cell, no rows, or
// no usable set of columns.
std::vector<RuntimeSample> parseRuntimeSamples(const std::string& csvText, const std::string& file);
std::vector<RuntimeSample> readRuntimeSamplesCsv(const std::string& path);

// fitLine over the samples (eq. 15).
LinearFit fitRuntimeModel(const std::vector<RuntimeSample>& samples);

}  // namespace teg::models
