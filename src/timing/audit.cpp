// `teg devices audit`: traces each parameter timingConfigFor() reads to the figure that supplies
// it and classifies that figure (data/devices/README.md, "Audit: what a figure is based on").
// The precedence rules mirror config.cpp's; the audit test checks both agree on the values.
#include "teg/timing/audit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "teg/support/error.hpp"
#include "teg/timing/config.hpp"

namespace teg::timing {

namespace {

using device::Device;
using device::InstructionClass;

const Device::Figure* figureOf(const Device& d, const std::string& key) {
  const auto it = std::find_if(d.figures.begin(), d.figures.end(), [&](const Device::Figure& f) { return f.key == key; });
  return it == d.figures.end() ? nullptr : &*it;
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// Parameters set inside the SM: the dependent latency of an instruction class, the shared-memory
// and L1 hit latencies and the L1 data path's width (both arrays are in the SM), the issue rules. NVIDIA designs one SM per
// compute capability and describes it per SM version: its register scheduling tables (Mesa NAK
// sm75_instr_latencies.rs "for Turing only", sm80_instr_latencies.rs "for Ampere and Ada") and
// ptxas's stall counts, which are the same in every cubin of one sm_XY whichever chip runs it.
// So a measurement of one of these on a chip of the same compute capability is taken by a
// documented rule (derived), while the L2, DRAM and whole-GPU figures depend on the chip and stay
// assumed when measured on another one.
bool setInsideTheSm(const std::string& key) {
  return startsWith(key, "timing.latency.") || startsWith(key, "timing.same_warp.") || key == "latency.mad" ||
         key == "timing.shared_latency" || key == "timing.l1_latency" || key == "latency.shared" ||
         key == "latency.l1" || key == "timing.l1_bytes_per_clk" || key == "timing.scheduler_policy" ||
         key == "timing.issue_interval";
}

// The class of one figure on device `d`.
void classify(const Device::Figure& f, const Device& d, const device::DeviceDatabase& db, AuditEntry& e) {
  std::string basis = f.basis;
  std::string on = f.measuredOn;
  // Inference where the file records no basis: a latency.<what> figure is by its format a
  // measurement (value, unit, method, source) of the GPU whose file holds it; a source that
  // begins "derived" states its rule. Anything else is unclassified, not guessed.
  if (basis.empty()) {
    if (startsWith(f.key, "latency.")) basis = "measured";
    // A rule applied beyond the products it was stated for says so in its note ("assumed: no
    // published Blackwell L2 throughput was found; the H800's rate per MB is used").
    else if (startsWith(f.source, "derived")) basis = startsWith(f.note, "assumed") ? "assumed" : "derived";
  }
  if (basis == "measured") {
    if (on.empty()) on = f.definedById;
    e.measuredOn = on;
    if (on == d.id) {
      e.basis = FigureBasis::Measured;
      e.reason = "measured on this product";
      return;
    }
    const Device* other = db.tryFind(on);
    if (other == nullptr || other->generic) {
      e.basis = FigureBasis::Unclassified;
      e.reason = other == nullptr ? fmt::format("measured_on '{}' names no GPU of the database", on)
                                  : fmt::format("a measurement in {} without measured_on", on);
      return;
    }
    e.measuredOn = other->id;
    if (!d.chip.empty() && other->chip == d.chip) {
      e.basis = FigureBasis::Sibling;
      e.reason = fmt::format("measured on {}, same chip {}", other->id, d.chip);
    } else if (!d.chip.empty() && !other->chip.empty() && other->cc == d.cc && setInsideTheSm(f.key)) {
      e.basis = FigureBasis::Derived;
      e.reason = fmt::format("measured on {} ({}); derived: a property of the SM, one design per compute capability ({})",
                             other->id, other->chip, d.cc.smName());
    } else {
      e.basis = FigureBasis::Assumed;
      e.reason = fmt::format("measured on {} ({}), not on this chip ({})", other->id,
                             other->chip.empty() ? "chip not recorded" : other->chip,
                             d.chip.empty() ? "not recorded" : d.chip);
    }
    return;
  }
  if (basis == "documented") {
    e.basis = FigureBasis::Documented;
    e.reason = "vendor documentation";
  } else if (basis == "derived") {
    e.basis = FigureBasis::Derived;
    e.reason = "derived by the rule its source states";
  } else if (basis == "assumed") {
    e.basis = FigureBasis::Assumed;
    e.reason = f.note.empty() ? "assumed (see its source)" : f.note;
  } else {
    e.basis = FigureBasis::Unclassified;
    e.reason = "the figure records no basis";
  }
}

AuditEntry entryFor(const std::string& parameter, const Device::Figure& f, const Device& d,
                    const device::DeviceDatabase& db) {
  AuditEntry e{parameter, f.key, f.value, FigureBasis::Unclassified, "", "", f.source, f.definedIn};
  classify(f, d, db, e);
  return e;
}

AuditEntry fallback(const std::string& parameter, const std::string& value, const std::string& reason) {
  return AuditEntry{parameter, "", value, FigureBasis::Assumed, "", reason, "", ""};
}

}  // namespace

const char* figureBasisName(FigureBasis basis) {
  switch (basis) {
    case FigureBasis::Measured: return "measured";
    case FigureBasis::Sibling: return "sibling";
    case FigureBasis::Documented: return "documented";
    case FigureBasis::Derived: return "derived";
    case FigureBasis::Assumed: return "assumed";
    case FigureBasis::Unclassified: return "unclassified";
  }
  return "?";
}

int DeviceAudit::count(FigureBasis b) const {
  return static_cast<int>(std::count_if(entries.begin(), entries.end(), [b](const AuditEntry& e) { return e.basis == b; }));
}

DeviceAudit auditTimingFigures(const Device& d, const device::DeviceDatabase& db) {
  if (d.generic)
    throw Error(fmt::format("'{}' is a generic entry: the audit asks what was measured on a product; name a GPU", d.id));
  DeviceAudit a{d.id, d.name, d.chip, {}};
  std::set<std::string> covered;
  auto add = [&](const std::string& parameter, const std::string& key) -> bool {
    const Device::Figure* f = figureOf(d, key);
    if (f == nullptr) return false;
    a.entries.push_back(entryFor(parameter, *f, d, db));
    covered.insert(key);
    return true;
  };

  add("issue interval", "timing.issue_interval");
  if (!add("scheduler policy", "timing.scheduler_policy"))
    a.entries.push_back(fallback("scheduler policy", "loose-round-robin", "no timing.scheduler_policy: the engine's default"));

  // Execution latency per class the GPU executes (throughput > 0). The LD/ST class is not one:
  // a memory instruction's result time comes from its port (shared, L1/constant, L2, DRAM latency
  // below; a store is posted), so no LD/ST class latency is read (decoded_program.cpp).
  // config.cpp: latency.mad (a measured MAD chain) wins for fp32_fma; a class without
  // timing.latency.<class> takes fp32_fma's.
  const std::string fp32Key = "timing.latency.fp32_fma";
  for (int i = 0; i < kClassCount; ++i) {
    const auto cls = static_cast<InstructionClass>(i);
    const std::string name = device::instructionClassName(cls);
    if (d.throughputOf(cls) <= 0 || cls == InstructionClass::LoadStore) continue;
    const std::string parameter = "execution latency " + name;
    if (cls == InstructionClass::Fp32Fma && add(parameter, "latency.mad")) {
      covered.insert(fp32Key);
      continue;
    }
    if (add(parameter, "timing.latency." + name)) continue;
    const Device::Figure* fp32 = figureOf(d, fp32Key);
    a.entries.push_back(fallback(parameter, fp32 ? fp32->value : "-",
                                 "no timing.latency." + name + ": fp32_fma's latency used"));
  }

  // Memory latencies: a product's measured latency.<level> beats the generation's default.
  const std::pair<const char*, const char*> levels[] = {
      {"shared", "shared-memory latency"}, {"l1", "L1 hit latency"}, {"l2", "L2 hit latency"}, {"dram", "DRAM latency"}};
  for (const auto& [level, label] : levels) {
    const std::string measuredKey = std::string("latency.") + level;
    const std::string defaultKey = std::string("timing.") + level + "_latency";
    if (add(label, measuredKey)) {
      covered.insert(defaultKey);  // shadowed by the measurement
      continue;
    }
    if (!add(label, defaultKey)) a.entries.push_back(fallback(label, "-", "no figure (the timing model refuses the device)"));
  }

  // Memory figures of the later mechanisms (config.cpp): the far half of a split L2 (read only
  // where memory.l2_partitions > 1) and the sustained DRAM bandwidth behind the read/write
  // turnaround.
  if (const Device::Figure* parts = figureOf(d, "memory.l2_partitions"); parts != nullptr && parts->value != "1") {
    add("L2 partitions", "memory.l2_partitions");
    if (!add("far L2 latency", "latency.l2_far"))
      a.entries.push_back(fallback("far L2 latency", "-", "no latency.l2_far: every L2 hit takes the near latency"));
  }
  add("sustained DRAM bandwidth", "memory.dram_sustained_gbs");
  // The L2's ECC code word, where the device has one: partial-word stores are read-modify-writes.
  if (figureOf(d, "memory.l2_ecc_word_bytes") != nullptr) add("L2 ECC word", "memory.l2_ecc_word_bytes");
  if (figureOf(d, "memory.l1_sets") != nullptr) add("L1 sets", "memory.l1_sets");

  // Every other timing.* figure the device carries (L2 bandwidth, block launch, same-warp
  // intervals, what later mechanisms add), in file order.
  for (const auto& f : d.figures)
    if (startsWith(f.key, "timing.") && !covered.count(f.key)) {
      a.entries.push_back(entryFor(f.key, f, d, db));
      covered.insert(f.key);
    }
  return a;
}

}  // namespace teg::timing
