#include "teg/analysis/validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "teg/analysis/baseline_models.hpp"
#include "teg/analysis/bounds.hpp"
#include "teg/analysis/predict.hpp"
#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/input_file.hpp"
#include "teg/support/json_file.hpp"

namespace teg::analysis {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

emu::Dim3 dimFrom(const json& j, const std::string& where) {
  if (!j.is_array() || j.empty() || j.size() > 3)
    throw Error(fmt::format("{}: expected an array of 1 to 3 positive integers", where));
  std::array<std::uint32_t, 3> v{1, 1, 1};
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number_unsigned() || j[i].get<std::uint64_t>() == 0 || j[i].get<std::uint64_t>() > 0xffffffffULL)
      throw Error(fmt::format("{}: expected an array of 1 to 3 positive integers", where));
    v[i] = j[i].get<std::uint32_t>();
  }
  return emu::Dim3{v[0], v[1], v[2]};
}

// A CSV of data/validation: a header line, then comma-separated fields (no field holds a comma).
std::vector<std::map<std::string, std::string>> readCsv(const std::string& path) {
  std::istringstream in(readInputFile(path));
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream s(line);
    std::string f;
    while (std::getline(s, f, ',')) fields.push_back(f);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    if (header.empty()) {
      header = fields;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = i < fields.size() ? fields[i] : "";
    rows.push_back(std::move(row));
  }
  return rows;
}

// A JSON integer within [low, high]; nlohmann's get<int>() of a float or of a value out of range
// would be a silent (undefined) conversion.
std::int64_t integerIn(const json& v, std::int64_t low, std::int64_t high, const std::string& where) {
  const bool inRange = v.is_number_unsigned() ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(high)
                                              : v.is_number_integer() && v.get<std::int64_t>() <= high;
  if (!inRange || v.get<std::int64_t>() < low)
    throw Error(fmt::format("{}: expected an integer from {} to {}", where, low, high));
  return v.get<std::int64_t>();
}

double numberField(const std::map<std::string, std::string>& row, const std::string& column, const std::string& where) {
  const auto it = row.find(column);
  if (it == row.end()) throw Error(fmt::format("{}: the CSV has no column '{}'", where, column));
  try {
    std::size_t used = 0;
    const double v = std::stod(it->second, &used);
    if (used != it->second.size()) throw std::invalid_argument(it->second);
    return v;
  } catch (const std::exception&) {
    throw Error(fmt::format("{}: column '{}' value '{}' is not a number", where, column, it->second));
  }
}

ValidationRow rowFromJson(const json& r, const std::string& where, const fs::path& base) {
  ValidationRow row;
  row.label = r.at("label").get<std::string>();
  if (r.contains("launch")) row.launchFile = (base / r["launch"].get<std::string>()).lexically_normal().string();
  if (r.contains("kernel")) row.kernel = r["kernel"].get<std::string>();
  row.measured = r.at("measured").get<double>();
  if (r.contains("grid")) row.grid = dimFrom(r["grid"], where + "/grid");
  if (r.contains("block")) row.block = dimFrom(r["block"], where + "/block");
  if (r.contains("scalars"))
    for (const auto& [name, value] : r["scalars"].items()) row.scalars[name] = value.get<double>();
  if (r.contains("what_if")) row.whatIfs = r["what_if"].get<std::vector<std::string>>();
  if (r.contains("regs")) row.registers = static_cast<int>(integerIn(r["regs"], 1, 255, where + "/regs"));
  if (r.contains("per")) {
    row.per = r["per"].get<double>();
    if (!(*row.per > 0)) throw Error(fmt::format("{}: 'per' must be positive", where));
  }
  if (r.contains("bytes")) {
    row.bytes = r["bytes"].get<double>();
    if (!(*row.bytes > 0)) throw Error(fmt::format("{}: 'bytes' must be positive", where));
  }
  if (!(row.measured > 0)) throw Error(fmt::format("{}: 'measured' must be positive", where));
  return row;
}

void rowsFromCsv(const json& spec, const fs::path& base, ValidationSuite& suite) {
  const std::string where = suite.file + ": rows_from_csv";
  const std::string path = (base / spec.at("file").get<std::string>()).lexically_normal().string();
  const auto filter = spec.value("where", json::object());
  const std::string blockColumn = spec.value("block", "");
  const std::string measuredColumn = spec.at("measured").get<std::string>();
  const std::string labelColumn = spec.value("label", blockColumn);
  const auto atMost = spec.value("at_most", json::object());
  const auto argsFromColumns = spec.value("args_from_columns", json::object());
  for (const auto& csvRow : readCsv(path)) {
    bool match = true;
    for (const auto& [column, value] : filter.items()) {
      const auto it = csvRow.find(column);
      if (it == csvRow.end()) throw Error(fmt::format("{}: {} has no column '{}'", where, path, column));
      match = match && it->second == value.get<std::string>();
    }
    for (const auto& [column, limit] : atMost.items())
      match = match && numberField(csvRow, column, where) <= limit.get<double>();
    if (!match) continue;
    ValidationRow row;
    for (const auto& [arg, from] : argsFromColumns.items())
      row.scalars[arg] = numberField(csvRow, from.at("column").get<std::string>(), where) * from.value("scale", 1.0);
    if (!labelColumn.empty()) {
      const auto label = csvRow.find(labelColumn);
      if (label == csvRow.end()) throw Error(fmt::format("{}: {} has no column '{}'", where, path, labelColumn));
      row.label = label->second;
    }
    row.measured = numberField(csvRow, measuredColumn, where);
    if (!blockColumn.empty()) {
      const double threads = numberField(csvRow, blockColumn, where);
      if (!(threads >= 1 && threads <= 65536 && threads == std::floor(threads)))
        throw Error(fmt::format("{}: column '{}' value {} is not a block size (an integer from 1 to 65536)", where,
                                blockColumn, threads));
      row.block = emu::Dim3{static_cast<std::uint32_t>(threads), 1, 1};
    }
    if (row.measured > 0) suite.rows.push_back(std::move(row));
  }
  if (suite.rows.empty()) throw Error(fmt::format("{}: no row of {} matches", where, path));
}

void setScalar(emu::LaunchDescription& launch, const std::string& name, double value, const std::string& where) {
  for (auto& arg : launch.args) {
    if (arg.name != name) continue;
    if (auto* buffer = std::get_if<emu::BufferArg>(&arg.value)) {  // a buffer's element count
      if (!(value >= 1 && value <= 0x1p53 && value == std::floor(value)))
        throw Error(fmt::format("{}: buffer '{}' needs a whole number of elements, not {}", where, name, value));
      buffer->count = static_cast<std::uint64_t>(value);
      return;
    }
    auto* scalar = std::get_if<emu::ScalarArg>(&arg.value);
    if (scalar == nullptr) throw Error(fmt::format("{}: argument '{}' is neither a scalar nor a buffer", where, name));
    if (emu::isFloatingPoint(scalar->type)) scalar->value = value;
    else if (emu::isSigned(scalar->type)) scalar->value = static_cast<std::int64_t>(std::llround(value));
    else scalar->value = static_cast<std::uint64_t>(std::llround(value));
    return;
  }
  throw Error(fmt::format("{}: the launch has no argument '{}'", where, name));
}

// The time the suite's measurement took (ValidationSuite::launch). "two_launches": gpu-benches
// times launch, launch, synchronise with a host timer and halves it: the first launch pays the
// synchronous overhead, the second only the gap behind the first.
double launchViewMs(const timing::LaunchViews& l, const std::string& view) {
  if (view == "stream") return l.streamMs;
  if (view == "graph") return l.graphMs;
  if (view == "synchronous") return l.synchronousMs;
  if (view == "two_launches") return (l.synchronousMs + l.streamMs) / 2;
  return l.kernelMs;
}

double clockInterval(const timing::TimingResult& r, const ValidationSuite& suite, double per, const std::string& where) {
  // Per warp: its first and last clock read.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<double, double>> span;
  for (const auto& c : r.clockReads) {
    auto [it, fresh] = span.try_emplace({c.block, c.warp}, c.issue, c.issue);
    if (!fresh) {
      it->second.first = std::min(it->second.first, c.issue);
      it->second.second = std::max(it->second.second, c.issue);
    }
  }
  std::vector<double> values;
  for (const auto& [warp, s] : span)
    if (s.second > s.first) values.push_back((s.second - s.first) / per);
  if (values.empty()) throw Error(fmt::format("{}: no simulated warp read the clock twice", where));
  if (suite.reduce == "min") return *std::min_element(values.begin(), values.end());
  if (suite.reduce == "mean") {
    double sum = 0;
    for (double v : values) sum += v;
    return sum / static_cast<double>(values.size());
  }
  return *std::max_element(values.begin(), values.end());
}

}  // namespace

const char* validationMetricName(ValidationMetric m) {
  switch (m) {
    case ValidationMetric::ClockInterval: return "clock_interval";
    case ValidationMetric::Cycles: return "cycles";
    case ValidationMetric::BandwidthGBs: return "bandwidth_gbps";
    case ValidationMetric::BytesPerCycle: return "bytes_per_cycle";
    case ValidationMetric::UnitUtilisation: return "utilisation";
    case ValidationMetric::Gflops: return "gflops";
    case ValidationMetric::TimeMs: return "time_ms";
  }
  return "?";
}

ValidationSuite loadValidationSuite(const std::string& path) {
  const json j = parseJson(readTextFile(path), path);
  ValidationSuite s;
  s.file = path;
  const fs::path base = fs::path(path).parent_path();
  try {
    s.name = j.at("name").get<std::string>();
    s.title = j.at("title").get<std::string>();
    s.source = j.at("source").get<std::string>();
    s.notes = j.value("notes", "");
    s.gpu = j.at("gpu").get<std::string>();
    s.deviceFigures = j.value("device_figures", "");
    s.launchFile = (base / j.at("launch").get<std::string>()).lexically_normal().string();
    const json& m = j.at("metric");
    const std::string kind = m.at("kind").get<std::string>();
    if (kind == "clock_interval") s.metric = ValidationMetric::ClockInterval;
    else if (kind == "cycles") s.metric = ValidationMetric::Cycles;
    else if (kind == "bandwidth_gbps") s.metric = ValidationMetric::BandwidthGBs;
    else if (kind == "bytes_per_cycle") s.metric = ValidationMetric::BytesPerCycle;
    else if (kind == "utilisation") s.metric = ValidationMetric::UnitUtilisation;
    else if (kind == "gflops") s.metric = ValidationMetric::Gflops;
    else if (kind == "time_ms") s.metric = ValidationMetric::TimeMs;
    else throw Error(fmt::format("{}: metric.kind '{}' is not clock_interval, cycles, bandwidth_gbps, bytes_per_cycle, "
                                 "utilisation, gflops or time_ms", path, kind));
    s.units = m.value("units", std::vector<std::string>{});
    for (const auto& u : s.units)
      if (!device::instructionClassFromName(u)) throw Error(fmt::format("{}: metric.units: '{}' is not an instruction class", path, u));
    if (s.metric == ValidationMetric::UnitUtilisation && s.units.empty())
      throw Error(fmt::format("{}: metric.units (the instruction classes to sum) is required for utilisation", path));
    s.per = m.value("per", 1.0);
    s.reduce = m.value("reduce", "max");
    s.bytes = m.value("bytes", 0.0);
    s.cycles = m.value("cycles", std::string("launch"));
    if (s.cycles != "launch" && s.cycles != "clock_interval")
      throw Error(fmt::format("{}: metric.cycles '{}' is not launch or clock_interval", path, s.cycles));
    if (s.cycles != "launch" && s.metric != ValidationMetric::BytesPerCycle)
      throw Error(fmt::format("{}: metric.cycles applies to bytes_per_cycle only", path));
    s.flops = m.value("flops", 0.0);
    if (s.metric == ValidationMetric::Gflops && !(s.flops > 0))
      throw Error(fmt::format("{}: metric.flops (floating-point operations of one launch) is required for gflops", path));
    if (j.contains("sample_blocks"))
      s.sampledBlocks = static_cast<std::uint64_t>(integerIn(j["sample_blocks"], 1, std::int64_t{1} << 32, path + ": sample_blocks"));
    if (j.contains("peer_blocks"))
      s.peerBlocks = static_cast<int>(integerIn(j["peer_blocks"], 0, 1024, path + ": peer_blocks"));
    s.launch = m.value("launch", std::string("kernel"));
    if (s.launch != "kernel" && s.launch != "stream" && s.launch != "graph" && s.launch != "synchronous" &&
        s.launch != "two_launches")
      throw Error(fmt::format("{}: metric.launch '{}' is not kernel, stream, graph, synchronous or two_launches", path,
                              s.launch));
    if (s.launch != "kernel" && s.metric != ValidationMetric::BandwidthGBs && s.metric != ValidationMetric::TimeMs)
      throw Error(fmt::format("{}: metric.launch applies to bandwidth_gbps and time_ms only", path));
    if (m.contains("grid_elements"))
      s.gridElements = static_cast<std::uint64_t>(
          integerIn(m["grid_elements"], 0, std::int64_t{1} << 53, path + ": metric.grid_elements"));
    if (s.reduce != "max" && s.reduce != "min" && s.reduce != "mean")
      throw Error(fmt::format("{}: metric.reduce '{}' is not max, min or mean", path, s.reduce));
    if (s.per <= 0) throw Error(fmt::format("{}: metric.per must be positive", path));
    const bool perBytes = s.metric == ValidationMetric::BandwidthGBs || s.metric == ValidationMetric::BytesPerCycle;
    if (j.contains("tolerance")) {
      s.meanTolerancePct = j["tolerance"].value("mean_pct", 0.0);
      s.maxTolerancePct = j["tolerance"].value("max_pct", 0.0);
    }
    if (j.contains("isa")) {
      try {
        s.isa = parseIsaRequest(j["isa"].get<std::string>());
      } catch (const std::exception& e) {
        throw Error(fmt::format("{}: isa: {}", path, e.what()));
      }
      s.isaWhy = j.value("isa_why", "");
      if (s.isaWhy.empty()) throw Error(fmt::format("{}: isa_why (why the suite fixes its instruction stream) is required with isa", path));
    }
    if (j.contains("rows")) {
      const auto& rows = j["rows"];
      for (std::size_t i = 0; i < rows.size(); ++i)
        s.rows.push_back(rowFromJson(rows[i], fmt::format("{}: /rows/{}", path, i), base));
    }
    if (j.contains("rows_from_csv")) rowsFromCsv(j["rows_from_csv"], base, s);
    if (j.contains("row_defaults")) {
      json merged{{"label", ""}, {"measured", 1.0}};
      merged.update(j["row_defaults"]);
      const ValidationRow defaults = rowFromJson(merged, path + ": /row_defaults", base);
      for (auto& row : s.rows) {
        if (!row.grid) row.grid = defaults.grid;
        if (!row.block) row.block = defaults.block;
        for (const auto& [k, v] : defaults.scalars) row.scalars.try_emplace(k, v);
        if (row.whatIfs.empty()) row.whatIfs = defaults.whatIfs;
        if (!row.registers) row.registers = defaults.registers;
        if (row.launchFile.empty()) row.launchFile = defaults.launchFile;
        if (row.kernel.empty()) row.kernel = defaults.kernel;
      }
    }
    if (perBytes)
      for (const auto& row : s.rows)
        if (s.bytes <= 0 && !row.bytes)
          throw Error(fmt::format("{}: metric.bytes (bytes moved per launch) or the row's 'bytes' is required for {} "
                                  "(row '{}' has neither)",
                                  path, kind, row.label));
  } catch (const json::exception& e) {
    throw Error(fmt::format("{}: {}", path, e.what()));
  }
  if (s.rows.empty()) throw Error(fmt::format("{}: a suite needs rows (or rows_from_csv)", path));
  return s;
}

std::vector<std::string> validationSuiteFiles(const std::string& directory) {
  const std::string dir = directory.empty() ? dataDirectory() + "/validation/suites" : directory;
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path().string());
  if (ec) throw Error(fmt::format("{}: cannot list validation suites: {}", dir, ec.message()));
  std::sort(files.begin(), files.end());
  return files;
}

ValidationResult runValidationSuite(const ValidationSuite& suite, const device::DeviceDatabase& devices,
                                    const ValidationOptions& options) {
  ValidationResult out;
  out.suite = &suite;
  device::Device gpu = devices.find(suite.gpu);
  if (!suite.deviceFigures.empty()) {
    // One method at a time (data/validation/README.md): this method's figures replace the others.
    const std::string suffix = "@" + suite.deviceFigures;
    std::size_t replaced = 0;
    for (const auto& [key, figure] : devices.find(suite.gpu).measured)
      if (key.size() > suffix.size() && key.ends_with(suffix)) {
        gpu.measured[key.substr(0, key.size() - suffix.size())] = figure;
        ++replaced;
      }
    bool any = replaced > 0;
    for (const auto& [key, figure] : gpu.measured) any = any || figure.method == suite.deviceFigures;
    if (!any)
      throw Error(fmt::format("{}: device_figures '{}': {} has no figure of that method", suite.file,
                              suite.deviceFigures, suite.gpu));
  }
  std::map<std::string, emu::LaunchDescription> launches;
  auto launchOf = [&](const std::string& file) -> const emu::LaunchDescription& {
    auto it = launches.find(file);
    if (it == launches.end()) it = launches.emplace(file, emu::readLaunchFile(file)).first;
    return it->second;
  };
  const std::size_t count = options.rowLimit ? std::min(*options.rowLimit, suite.rows.size()) : suite.rows.size();
  double sumAbs = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const ValidationRow& row = suite.rows[i];
    const std::string where = fmt::format("{}: row '{}'", suite.file, row.label);
    PredictRequest request;
    request.launch = launchOf(row.launchFile.empty() ? suite.launchFile : row.launchFile);
    if (!row.kernel.empty()) request.launch.kernel = row.kernel;
    if (row.block) request.launch.block = *row.block;
    if (row.grid) request.launch.grid = *row.grid;
    else if (suite.gridElements > 0)
      // gpu-stream's launch: N / block + 1 blocks of one element per thread.
      request.launch.grid = emu::Dim3{static_cast<std::uint32_t>(suite.gridElements / request.launch.block.count() + 1), 1, 1};
    for (const auto& [name, value] : row.scalars) setScalar(request.launch, name, value, where);
    request.device = &gpu;
    request.sampledBlocks = suite.sampledBlocks;
    request.peerBlocks = suite.peerBlocks;
    request.whatIfs = row.whatIfs;
    request.registersPerThread = row.registers;
    request.threads = options.threads;
    request.isa = suite.isa.value_or(options.isa);
    // --isa sass over suites of every generation: a GPU CUDA 13 has no SASS for (cc < 7.5) runs
    // on PTX and says why, as auto does, instead of ending the whole validation.
    std::string sassFallback;
    if (!suite.isa && request.isa == IsaRequest::Sass) {
      sassFallback = sassArchitectureObstacle(gpu);
      if (!sassFallback.empty()) request.isa = IsaRequest::Ptx;
    }
    const Prediction p = predict(request);
    const timing::TimingResult& r = p.whatIfs.empty() ? p.result : p.whatIfs.back().result;
    const double bytes = row.bytes.value_or(suite.bytes);
    ValidationRowResult rr;
    rr.label = row.label;
    rr.measured = row.measured;
    rr.bound = r.bound;
    const BoundReport bounds = boundsOf(p);
    rr.bindingResource = bounds.binding;
    rr.boundCycles = bounds.bounds.empty() ? 0 : bounds.bounds.front().cycles;
    rr.predictedCycles = p.result.cycles;
    rr.isa = p.isa.isa;
    rr.isaReason = suite.isa              ? fmt::format("the suite asks for {}: {}", isaRequestName(*suite.isa), suite.isaWhy)
                   : !sassFallback.empty() ? fmt::format("--isa sass: PTX because {}", sassFallback)
                                           : p.isa.reason;
    switch (suite.metric) {
      case ValidationMetric::ClockInterval: rr.predicted = clockInterval(r, suite, row.per.value_or(suite.per), where); break;
      case ValidationMetric::Cycles: rr.predicted = r.cycles; break;
      case ValidationMetric::BandwidthGBs: {
        const double ms = launchViewMs(r.launch, suite.launch);
        rr.predicted = ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0;
        break;
      }
      case ValidationMetric::TimeMs: rr.predicted = launchViewMs(r.launch, suite.launch); break;
      case ValidationMetric::BytesPerCycle: {
        // The kernel's own clock interval (between its barriers) or the whole launch's cycles.
        const double cycles = suite.cycles == "clock_interval" ? clockInterval(r, suite, 1.0, where) : r.cycles;
        rr.predicted = cycles > 0 ? bytes / cycles : 0;
        break;
      }
      case ValidationMetric::Gflops: rr.predicted = r.timeMs > 0 ? suite.flops / (r.timeMs * 1e-3) / 1e9 : 0; break;
      case ValidationMetric::UnitUtilisation:
        rr.predicted = 0;
        for (const auto& u : r.units)
          if (std::find(suite.units.begin(), suite.units.end(), device::instructionClassName(u.unit)) != suite.units.end())
            rr.predicted += 100 * u.utilisation;
        break;
    }
    rr.errorPct = 100.0 * (rr.predicted - rr.measured) / rr.measured;
    if (row.whatIfs.empty() && p.result.cycles > 0)
      for (const auto& [model, cycles] : baselineModelCycles(p)) {
        if (!(cycles > 0)) continue;
        const double timeS = cycles / (p.config.clockMhz * 1e6);
        switch (suite.metric) {
          case ValidationMetric::Cycles: rr.models[model] = cycles; break;
          case ValidationMetric::BandwidthGBs: rr.models[model] = bytes / timeS / 1e9; break;
          case ValidationMetric::BytesPerCycle:
            // The baseline models time whole launches, not a kernel's own clock interval.
            if (suite.cycles == "launch") rr.models[model] = bytes / cycles;
            break;
          case ValidationMetric::Gflops: rr.models[model] = suite.flops / timeS / 1e9; break;
          default: break;
        }
      }
    sumAbs += std::abs(rr.errorPct);
    out.maxAbsErrorPct = std::max(out.maxAbsErrorPct, std::abs(rr.errorPct));
    out.rows.push_back(rr);
  }
  out.meanAbsErrorPct = out.rows.empty() ? 0 : sumAbs / static_cast<double>(out.rows.size());
  if (out.rows.size() >= 3) {
    std::vector<double> measured, predicted;
    for (const auto& rr : out.rows) measured.push_back(rr.measured), predicted.push_back(rr.predicted);
    out.kendallTau = kendallTauB(measured, predicted);
  }
  out.toleranceStated = suite.meanTolerancePct > 0 || suite.maxTolerancePct > 0;
  out.verdict = toleranceVerdict(out.meanAbsErrorPct, out.maxAbsErrorPct, suite.meanTolerancePct,
                                 suite.maxTolerancePct, out.withinTolerance);
  return out;
}

std::optional<double> kendallTauB(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.size() < 2) return std::nullopt;
  // tau-b = (concordant - discordant) / sqrt((n0 - ties in a) (n0 - ties in b)), n0 = n(n-1)/2
  // (Kendall 1945); O(n^2), suites have tens of rows.
  double concordant = 0, discordant = 0, tiesA = 0, tiesB = 0, pairs = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      ++pairs;
      const double da = a[j] - a[i], db = b[j] - b[i];
      if (da == 0) ++tiesA;
      if (db == 0) ++tiesB;
      if (da == 0 || db == 0) continue;
      ((da > 0) == (db > 0) ? concordant : discordant) += 1;
    }
  const double denominator = std::sqrt((pairs - tiesA) * (pairs - tiesB));
  if (denominator == 0) return std::nullopt;
  return (concordant - discordant) / denominator;
}

std::string toleranceVerdict(double meanAbsErrorPct, double maxAbsErrorPct, double meanTolerancePct,
                             double maxTolerancePct, bool& within) {
  std::vector<std::string> parts;
  within = true;
  if (meanTolerancePct > 0) {
    const bool ok = meanAbsErrorPct <= meanTolerancePct;
    within = within && ok;
    parts.push_back(fmt::format("mean {:.1f} % {} {:g} %", meanAbsErrorPct, ok ? "<=" : ">", meanTolerancePct));
  }
  if (maxTolerancePct > 0) {
    const bool ok = maxAbsErrorPct <= maxTolerancePct;
    within = within && ok;
    parts.push_back(fmt::format("max {:.1f} % {} {:g} %", maxAbsErrorPct, ok ? "<=" : ">", maxTolerancePct));
  }
  return parts.empty() ? fmt::format("mean {:.1f} %, max {:.1f} % (no tolerance stated)", meanAbsErrorPct, maxAbsErrorPct)
                       : fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace teg::analysis
