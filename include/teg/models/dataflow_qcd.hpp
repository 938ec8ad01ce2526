// Lai's data-flow model of lattice QCD's Hopping_Matrix (seed 000 ch. 2, Tables 2.3-2.4): per
// space-time site, 1320 flops against the bytes moved to and from main memory, which depend on
// the memory-access patterns P1-P5 an implementation can apply:
//   bytes = spinor + gauge · (P1 ? 8/18 : 1) · (P2 ? 1/2 : 1) + half,
//   half  = P3 ? 1536·(α·¬P4 + β·¬P5) : 1536 − 1536·(α·P4 + β·P5)
//   R_A/M = flops / bytes (eq. 2.2),   P = bandwidth × R_A/M (the data path that binds)
// P4 keeps the inter-processor boundary (fraction α) out of main memory, P5 the inter-core one (β),
// as sect. 2.4.1 defines them. Table 2.4's rows with P3 and exactly one of P4/P5 print α and β the
// other way round (1536 + 1536β for 00101); its rows without P3 and every numeric entry follow
// the definitions, so we do.
#pragma once

#include <string>

namespace teg::models {

struct HoppingMatrixData {
  double flopsPerSite = 0, spinorBytes = 0, gaugeBytes = 0, gaugeCompressedFraction = 0, halfSpinorBytes = 0;
  double alpha = 0, beta = 0;
};

struct AccessPatterns {
  bool p1 = false, p2 = false, p3 = false, p4 = false, p5 = false;
};

// "01111" (P1..P5); throws teg::Error on anything else.
AccessPatterns accessPatternsFromBits(const std::string& bits);

// Main-memory bytes per site and R_A/M; throws on impossible data (alpha, beta outside [0, 1]).
double mainMemoryBytesPerSite(const HoppingMatrixData& d, const AccessPatterns& p);
double arithmeticPerMainMemoryByte(const HoppingMatrixData& d, const AccessPatterns& p);

HoppingMatrixData hoppingMatrixData(const std::string& file);
std::string hoppingMatrixDataFile();

}  // namespace teg::models
