// Lai's data-flow model of Hopping_Matrix (seed 000 ch. 2).
#include "teg/models/dataflow_qcd.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "model_parameters.hpp"
#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace teg::models {

AccessPatterns accessPatternsFromBits(const std::string& bits) {
  if (bits.size() != 5 || bits.find_first_not_of("01") != std::string::npos)
    throw Error(fmt::format("patterns '{}': expected five 0/1 digits, P1 to P5 (e.g. 01111)", bits));
  return {bits[0] == '1', bits[1] == '1', bits[2] == '1', bits[3] == '1', bits[4] == '1'};
}

double mainMemoryBytesPerSite(const HoppingMatrixData& d, const AccessPatterns& p) {
  if (d.alpha < 0 || d.alpha > 1 || d.beta < 0 || d.beta > 1 || d.alpha + d.beta > 1)
    throw Error(fmt::format("alpha {} and beta {} must lie in [0, 1] with alpha + beta <= 1", d.alpha, d.beta));
  if (!(d.flopsPerSite > 0) || !(d.spinorBytes > 0) || !(d.gaugeBytes > 0) || !(d.halfSpinorBytes > 0) ||
      !(d.gaugeCompressedFraction > 0))
    throw Error("Hopping_Matrix data: flops and byte counts must be > 0");
  const double gauge = d.gaugeBytes * (p.p1 ? d.gaugeCompressedFraction : 1.0) * (p.p2 ? 0.5 : 1.0);
  const double traffic = 2 * d.halfSpinorBytes;  // written, then read back
  const double half = p.p3 ? traffic * (d.alpha * !p.p4 + d.beta * !p.p5)
                           : traffic - traffic * (d.alpha * p.p4 + d.beta * p.p5);
  return d.spinorBytes + gauge + half;
}

double arithmeticPerMainMemoryByte(const HoppingMatrixData& d, const AccessPatterns& p) {
  return d.flopsPerSite / mainMemoryBytesPerSite(d, p);
}

std::string hoppingMatrixDataFile() { return dataDirectory() + "/models/hopping_matrix_dataflow.json"; }

HoppingMatrixData hoppingMatrixData(const std::string& file) {
  const nlohmann::json data = readJsonFile(file);
  const auto value = [&](const char* key) { return detail::modelParameter(data, file, key); };
  HoppingMatrixData d;
  d.flopsPerSite = value("flops_per_site");
  d.spinorBytes = value("spinor_bytes");
  d.gaugeBytes = value("gauge_bytes");
  d.gaugeCompressedFraction = value("gauge_compressed_fraction");
  d.halfSpinorBytes = value("half_spinor_bytes");
  d.alpha = value("alpha");
  d.beta = value("beta");
  return d;
}

}  // namespace teg::models
