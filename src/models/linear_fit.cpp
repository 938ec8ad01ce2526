// Least squares for Ma et al. eq. 15.
#include "teg/models/linear_fit.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "csv_table.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace teg::models {

LinearFit fitLine(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size())
    throw Error(fmt::format("{} x values but {} y values", x.size(), y.size()));
  if (x.size() < 2) throw Error(fmt::format("a line needs at least 2 points (got {})", x.size()));
  // Least squares on x / 2^ex and y / 2^ey (the largest magnitudes scaled to [1, 2)): values
  // near double's limits (1e200, 1e-320) would otherwise square to inf or to 0 and make the fit
  // NaN. Powers of two scale exactly; the coefficients are scaled back below.
  double maxX = 0, maxY = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i]))
      throw Error(fmt::format("point {} is not finite ({}, {})", i + 1, x[i], y[i]));
    maxX = std::max(maxX, std::abs(x[i]));
    maxY = std::max(maxY, std::abs(y[i]));
  }
  const int ex = maxX > 0 ? std::ilogb(maxX) : 0, ey = maxY > 0 ? std::ilogb(maxY) : 0;
  const auto n = static_cast<Eigen::Index>(x.size());
  Eigen::MatrixXd a(n, 2);
  Eigen::VectorXd b(n);
  bool allSameX = true;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double xi = x[static_cast<std::size_t>(i)], yi = y[static_cast<std::size_t>(i)];
    if (xi != x[0]) allSameX = false;
    a(i, 0) = std::ldexp(xi, -ex);
    a(i, 1) = 1.0;
    b(i) = std::ldexp(yi, -ey);
  }
  if (allSameX) throw Error("all x values are equal: the slope is undetermined");

  const auto qr = a.colPivHouseholderQr();
  if (qr.rank() < 2)  // x so nearly constant that QR cannot tell its column from the ones
    throw Error(fmt::format("the fit is undefined: the x values ({} to {}) are equal to double precision "
                            "relative to their size, so the slope is undetermined",
                            *std::min_element(x.begin(), x.end()), *std::max_element(x.begin(), x.end())));
  const Eigen::Vector2d coef = qr.solve(b);
  LinearFit fit;
  fit.slope = std::ldexp(coef(0), ey - ex);
  fit.intercept = std::ldexp(coef(1), ey);
  fit.points = x.size();
  const Eigen::VectorXd residual = b - a * coef;
  const double ssRes = residual.squaredNorm();
  const double ssTot = (b.array() - b.mean()).matrix().squaredNorm();
  fit.rSquared = ssTot > 0 ? 1.0 - ssRes / ssTot : 1.0;  // all y equal: a flat line fits exactly
  fit.rmse = std::ldexp(std::sqrt(ssRes / static_cast<double>(n)), ey);
  // What is still out of range is a line double cannot hold: say which figure and why rather
  // than print "nan" or "inf".
  if (!std::isfinite(coef(0)) || !std::isfinite(coef(1)) || !std::isfinite(fit.rSquared))
    throw Error(fmt::format("the fit is undefined: least squares gave no finite line for x from {} to {} "
                            "(the x values are too close together relative to their size)",
                            *std::min_element(x.begin(), x.end()), *std::max_element(x.begin(), x.end())));
  if (!std::isfinite(fit.slope))
    throw Error(fmt::format("the fit is undefined: its slope exceeds the range of a double (y of "
                            "order 2^{}, x of order 2^{})", ey, ex));
  if (!std::isfinite(fit.intercept) || !std::isfinite(fit.rmse))
    throw Error("the fit is undefined: its intercept or error exceeds the range of a double");
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(fit.slope * x[i] + fit.intercept))
      throw Error(fmt::format("the fit is undefined: its value at point {} (x = {}) exceeds the range of a double",
                              i + 1, x[i]));
  return fit;
}

std::vector<RuntimeSample> parseRuntimeSamples(const std::string& csvText, const std::string& file) {
  const auto table = detail::CsvTable::parse(csvText, file);
  const int timeCol = table.requireColumn("time");
  const auto xCol = table.column("x");
  const auto blocksCol = table.column("blocks");
  const auto nCol = table.column("n");
  const auto sdCol = table.column("sub_block");
  const auto tCol = table.column("threads_per_core");
  if (!xCol && !(tCol && (blocksCol || (nCol && sdCol))))
    throw Error({file, 1, 0},
                "need a column 'x' (= sqrt(B_r)/T), or 'blocks' and 'threads_per_core', or 'n', "
                "'sub_block' and 'threads_per_core'");

  std::vector<RuntimeSample> samples;
  for (const auto& row : table.rows()) {
    RuntimeSample s;
    s.line = row.line;
    s.time = table.number(row, timeCol);
    if (xCol) {
      s.x = table.number(row, *xCol);
    } else {
      const double t = table.number(row, *tCol);
      if (!(t > 0))
        throw Error({file, row.line, row.cells[static_cast<std::size_t>(*tCol)].column},
                    "threads_per_core must be > 0");
      double blocks = 0;
      if (blocksCol) {
        blocks = table.number(row, *blocksCol);
      } else {
        const long long n = table.integer(row, *nCol);
        const long long sd = table.integer(row, *sdCol);
        if (sd < 1 || n < 1 || n % sd != 0)
          throw Error({file, row.line, row.cells[static_cast<std::size_t>(*sdCol)].column},
                      fmt::format("sub_block {} must divide n = {}", sd, n));
        blocks = static_cast<double>(n / sd) * static_cast<double>(n / sd);  // B_r = (n/S_D)²
      }
      if (!(blocks >= 1))
        throw Error({file, row.line, 0}, "the number of blocks must be >= 1");
      s.x = std::sqrt(blocks) / t;
    }
    samples.push_back(s);
  }
  if (samples.empty()) throw Error({file, 0, 0}, "no measurements (only a header)");
  return samples;
}

std::vector<RuntimeSample> readRuntimeSamplesCsv(const std::string& path) {
  return parseRuntimeSamples(readTextFile(path), path);
}

LinearFit fitRuntimeModel(const std::vector<RuntimeSample>& samples) {
  std::vector<double> x, y;
  x.reserve(samples.size());
  y.reserve(samples.size());
  for (const auto& s : samples) x.push_back(s.x), y.push_back(s.time);
  return fitLine(x, y);
}

}  // namespace teg::models
