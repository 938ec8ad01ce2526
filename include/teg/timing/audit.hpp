// Which timing-model parameters of a GPU are published measurements of that GPU, and which are
// not: `teg devices audit`. Each parameter the engine reads (timingConfigFor's rules: a product's
// measured latency.<level> beats the generation's timing.<level>_latency, a class without a
// latency takes fp32_fma's) is traced to the figure that supplies it, and that figure is
// classified from data — its "basis" and "measured_on" fields, the GPUs' "chip" figures and, for a
// figure set inside the SM, their compute capability (one SM design per cc: derived) —
// never guessed from its source text (except the one documented fallback below).
#pragma once

#include <string>
#include <vector>

#include "teg/device/database.hpp"
#include "teg/device/device.hpp"

namespace teg::timing {

enum class FigureBasis {
  Measured,      // a published measurement of this product
  Sibling,       // a published measurement of another product with the same chip
  Documented,    // the vendor's documentation states it (a guide, a whitepaper)
  Derived,       // computed by a documented rule from other figures (the source says which), or an
                 // SM-internal figure measured on another chip of the same compute capability
  Assumed,       // taken from another chip or generation, or a default without a figure
  Unclassified,  // the figure records no basis and none can be inferred
};
const char* figureBasisName(FigureBasis basis);  // "measured", "sibling", ...

// Assumed and unclassified figures are the ones a user should not trust blindly.
inline bool needsAttention(FigureBasis b) { return b == FigureBasis::Assumed || b == FigureBasis::Unclassified; }

struct AuditEntry {
  std::string parameter;   // "execution latency fp64_fma", "L2 hit latency", "timing.l2_bytes_per_clk"
  std::string figure;      // the figure key that supplies it; "" when none does (a fallback)
  std::string value;       // as `teg devices show` prints it
  FigureBasis basis = FigureBasis::Unclassified;
  std::string measuredOn;  // id of the GPU measured (Measured, Sibling and measured-elsewhere Assumed)
  std::string reason;      // one line: why this class ("measured on h800-pcie-80gb, same chip GH100")
  std::string source;      // the figure's citation
  std::string definedIn;   // the file that set it
};

struct DeviceAudit {
  std::string id;
  std::string name;
  std::string chip;
  std::vector<AuditEntry> entries;
  [[nodiscard]] int count(FigureBasis b) const;
};

// Audits one product (a generic entry has no product to have been measured: teg::Error).
// `database` resolves measured_on ids to their chips.
DeviceAudit auditTimingFigures(const device::Device& device, const device::DeviceDatabase& database);

}  // namespace teg::timing
