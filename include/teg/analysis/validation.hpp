// `teg validate`: predictions against published measurements. A validation suite is a JSON file
// under data/validation/suites/ naming a GPU, a kernel (a launch description), what is compared
// (the metric) and rows of measured values with their launch changes; the rows can also come from
// a CSV of data/validation/ filtered by columns. Running a suite predicts every row with the same
// pipeline as `teg predict` and reports each row's error and the suite's mean and maximum, against
// the tolerance the suite states (taken from the issue or the paper, never from the results).
//
//   {"name": "chien2010-table2", "title": "...", "source": "seed 002 Table 2 (max row)",
//    "gpu": "Tesla C1060", "launch": "../kernels/chien2010_mad.smem.launch.json",
//    "metric": {"kind": "clock_interval", "per": 256, "reduce": "max"},
//    "tolerance": {"mean_pct": 5, "max_pct": 10},
//    "rows": [{"label": "1 thread", "block": [1], "measured": 34.6}, ...]}
//
// Metrics: "clock_interval" (a warp's last clock read minus its first, / per; reduced over the
// simulated warps by max, min or mean — how a microbenchmark times itself), "cycles" (the
// predicted cycles of the busiest SM), "bandwidth_gbps" (metric.bytes / predicted time),
// "utilisation" (percent of the cycles the units named in metric.units were busy, summed);
// "bytes_per_cycle" divides metric.bytes by the launch's cycles, or with "cycles":
// "clock_interval" by the clock interval the kernel read itself (reduced as for clock_interval).
// A row may set "launch" (another launch file), "grid", "block", "scalars" ({"name": value}),
// "what_if" (["no-bank-conflicts"]), "per" (this row's iterations between the clock reads),
// "regs" (registers per thread: for GPUs nvcc no longer targets, ptxas's count for sm_75 does
// not apply; the experiment's residency decides);
// with "grid_elements": N in the metric, a row without a grid gets N / block + 1 blocks.
// In "scalars", the name of a buffer argument sets that buffer's element count.
// rows_from_csv: {"file", "where": {column: value}, "at_most": {column: number}, "measured",
// "label", "block", "args_from_columns": {arg: {"column", "scale"}}} (an argument, scalar or
// buffer count, set to the column's value x scale).
// "device_figures": "<method>" predicts with the device's latency.<level>@<method> figures in
// place of its plain latency.<level> ones (compare one method's rows with that method's figures).
#pragma once

#include "teg/analysis/isa_choice.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "teg/device/database.hpp"
#include "teg/emu/launch.hpp"

namespace teg::analysis {

// bandwidth_gbps: bytes per launch / predicted time; bytes_per_cycle: bytes per launch / predicted
// cycles (whole GPU, in the clock teg counts cycles in: for rows a paper gives per clock, so that
// no clock has to be assumed).
enum class ValidationMetric { ClockInterval, Cycles, BandwidthGBs, BytesPerCycle, UnitUtilisation, Gflops, TimeMs };
const char* validationMetricName(ValidationMetric m);

struct ValidationRow {
  std::string label;
  std::string launchFile;  // resolved; "" = the suite's launch
  std::string kernel;      // "" = the launch's kernel (a program with one kernel per row, e.g. per template instance)
  std::optional<emu::Dim3> grid, block;
  std::map<std::string, double> scalars;
  std::vector<std::string> whatIfs;
  std::optional<double> per;  // clock_interval: this row's iterations (else the metric's)
  std::optional<int> registers;  // registers per thread, when the experiment fixes residency
  std::optional<double> bytes;   // bandwidth_gbps, bytes_per_cycle: this row's bytes per launch (else the metric's)
  double measured = 0;
};

struct ValidationSuite {
  std::string file;
  std::string name, title, source, notes;
  std::string gpu;
  std::string deviceFigures;  // a measurement method whose latency figures replace the plain ones
  std::string launchFile;  // resolved
  ValidationMetric metric = ValidationMetric::Cycles;
  double per = 1;              // clock_interval: iterations between the two clock reads
  std::string reduce = "max";  // clock_interval: max | min | mean over warps
  double bytes = 0;            // bandwidth_gbps, bytes_per_cycle: bytes moved by one launch
  // bytes_per_cycle: which cycles the bytes are divided by (metric.cycles): "launch" (the
  // predicted cycles of the launch, the default) or "clock_interval" (a warp's last clock read
  // minus its first, reduced over the warps by `reduce`: a microbenchmark that times its own
  // loop with %clock between two barriers, as Luo et al. 2024's L1 program does).
  std::string cycles = "launch";
  double flops = 0;            // gflops: floating-point operations of one launch, as the source counts them
  // Blocks of the busiest SM to simulate and peer blocks to trace (PredictRequest); 0 and 8 =
  // predict's defaults. Large kernels (a 4096^3 SGEMM) sample fewer to stay fast.
  std::uint64_t sampledBlocks = 0;
  int peerBlocks = 8;
  std::uint64_t gridElements = 0;
  std::vector<std::string> units;  // utilisation: instruction classes ("fp32_fma", "int_add", ...)
  // bandwidth_gbps, time_ms: which time the measurement took (metric.launch): "kernel" (the kernel alone,
  // as a profiler or events around many launches see it; the default), "stream" (back to back),
  // "graph", "synchronous" (a host timer around one launch), or "two_launches" (a host timer
  // around two back-to-back launches between synchronisations, halved: one synchronous launch
  // and one stream launch, averaged).
  std::string launch = "kernel";
  double meanTolerancePct = 0, maxTolerancePct = 0;  // 0 = not checked
  // "isa": the instruction stream every row is timed on whatever --isa says, for suites that
  // check a mechanism of one path only (the PTX software sequences); "isa_why" says why.
  std::optional<IsaRequest> isa;
  std::string isaWhy;
  std::vector<ValidationRow> rows;
};

struct ValidationRowResult {
  std::string label;
  double measured = 0, predicted = 0;
  double errorPct = 0;  // (predicted - measured) / measured
  std::string bound;    // the prediction's bound, for the reader
  // `teg bound` on the row's prediction (without its what-ifs): the binding resource's cycles
  // beside the predicted cycles, which can never be fewer (bounds.hpp).
  std::string bindingResource;
  double boundCycles = 0, predictedCycles = 0;
  // The baseline models (baseline_models.hpp) in the suite's metric, where the metric is a time
  // or a rate of the whole launch (cycles, bandwidth_gbps, bytes_per_cycle) and the row has no
  // what-if; empty otherwise.
  std::map<std::string, double> models;
  // The instruction stream the row's prediction timed and why (isa_choice.hpp).
  trace::Isa isa = trace::Isa::Ptx;
  std::string isaReason;
};

struct ValidationResult {
  const ValidationSuite* suite = nullptr;
  std::vector<ValidationRowResult> rows;
  double meanAbsErrorPct = 0, maxAbsErrorPct = 0;
  bool withinTolerance = true;
  bool toleranceStated = false;  // false: informational (e.g. two methods compared, model vs model)
  std::string verdict;  // "mean 3.1 % <= 5 %, max 7.9 % <= 10 %"
  // Whether the prediction orders the rows as the measurements do (a sweep, kernel variants):
  // Kendall's tau-b over the rows, from 3 rows on.
  std::optional<double> kendallTau;
};

// Kendall's tau-b of two equally long series (ties in either count for neither side); nullopt
// for fewer than 2 pairs or a series without two distinct values.
std::optional<double> kendallTauB(const std::vector<double>& a, const std::vector<double>& b);

// Reads a suite; errors name the file, line and column (JSON) or the field.
ValidationSuite loadValidationSuite(const std::string& path);
// Every suite file of a directory (default dataDirectory()/validation/suites), sorted by name.
std::vector<std::string> validationSuiteFiles(const std::string& directory);

struct ValidationOptions {
  unsigned threads = 1;                  // emulator worker threads
  IsaRequest isa = IsaRequest::Auto;     // --isa: every row's prediction times this stream
  std::optional<std::size_t> rowLimit;   // only the first N rows (quick runs)
};

ValidationResult runValidationSuite(const ValidationSuite& suite, const device::DeviceDatabase& devices,
                                    const ValidationOptions& options = {});

// An aim stated over the rows of several suites at once (issue #5: one mean over seed 000's
// Tables 3.2-3.6, one over gpu-stream's 384 rows), from data/validation/groups.json:
//   {"groups": [{"name": ..., "title": ..., "source": ..., "suites": ["lai2013-table3.2", ...],
//                "tolerance": {"mean_pct": 10}}]}
struct ValidationGroup {
  std::string name, title, source;
  std::vector<std::string> suites;
  double meanTolerancePct = 0, maxTolerancePct = 0;  // 0 = not checked
};

// Reads the groups; errors name the file, line and column (JSON) or the field. A missing file
// has no groups.
std::vector<ValidationGroup> loadValidationGroups(const std::string& path);
std::string defaultValidationGroupsFile();  // dataDirectory()/validation/groups.json

struct ValidationGroupResult {
  const ValidationGroup* group = nullptr;
  std::size_t rows = 0;
  double meanAbsErrorPct = 0, maxAbsErrorPct = 0;
  bool withinTolerance = true;
  bool toleranceStated = false;
  std::string verdict;
};

// The group's errors over every row of its suites, or nothing when one of them is not among
// `results` (a run of other suites).
std::optional<ValidationGroupResult> summarizeValidationGroup(const ValidationGroup& group,
                                                              const std::vector<ValidationResult>& results);

// "mean 3.1 % <= 5 %, max 7.9 % <= 10 %" (or "... (no tolerance stated)"), and whether both hold.
std::string toleranceVerdict(double meanAbsErrorPct, double maxAbsErrorPct, double meanTolerancePct,
                             double maxTolerancePct, bool& within);

}  // namespace teg::analysis
