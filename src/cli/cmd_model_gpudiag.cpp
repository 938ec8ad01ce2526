// `teg model gpudiag|buffers`: GPUDIAG (Kim 2023, seed 004 ch. 3).
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <iostream>
#include <limits>

#include "model_command.hpp"
#include "teg/models/device_figures.hpp"
#include "teg/models/gpudiag.hpp"
#include "teg/models/gpudiag_estimate.hpp"
#include "teg/occupancy/occupancy.hpp"
#include "teg/report/table.hpp"
#include "teg/support/error.hpp"

namespace teg::cli::model {

namespace {

using nlohmann::json;

double parseUnitNumber(const std::string& text, const std::string& spec, const char* what) {
  if (text == "inf" || text == "infinity") return std::numeric_limits<double>::infinity();
  double v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw Error(fmt::format("--unit '{}': {} '{}' is not a number", spec, what, text));
  return v;
}

// "name:t:m:s" (m may be "inf"; m and s default to 1).
models::FunctionalUnit parseUnit(const std::string& spec) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto colon = spec.find(':', start);
    parts.push_back(spec.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts.size() < 2 || parts.size() > 4 || parts[0].empty())
    throw Error(fmt::format("--unit '{}': expected name:t[:m[:s]] (e.g. alu:4:1:4)", spec));
  models::FunctionalUnit u;
  u.name = parts[0];
  u.inverseThroughput = parseUnitNumber(parts[1], spec, "t");
  if (parts.size() > 2) u.replicas = parseUnitNumber(parts[2], spec, "m");
  if (parts.size() > 3) {
    const double s = parseUnitNumber(parts[3], spec, "s");
    if (s < 1 || s != std::floor(s) || s > 1e6)
      throw Error(fmt::format("--unit '{}': groups s must be a positive integer", spec));
    u.groups = static_cast<int>(s);
  }
  return u;
}

std::string limitText(std::int64_t v) {
  return v >= std::numeric_limits<int>::max() ? "-" : fmt::format("{}", v);
}

}  // namespace

void registerGpudiagCommand(CLI::App& app, Context& context) {
  struct Opts {
    std::string gpu;
    int barrierSlots = 0, warpSlots = 0, sms = 0;
    long long smemPerSm = -1, smemUnit = 0, regsPerSm = -1, regUnit = 0;
    int warps = 0;
    long long threads = 0, smem = 0, regs = -1, regsPerWarp = -1, grid = 0;
    std::vector<std::string> units;
    double p1 = 0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--gpu", o->gpu, "GPU whose limits give the state buffers (N1, N2, S, s_min, R, r_min)");
  app.add_option("--barrier-slots", o->barrierSlots, "N1: barrier buffer entries (blocks)")->check(positive());
  app.add_option("--warp-slots", o->warpSlots, "N2: warp slots per SM")->check(positive());
  app.add_option("--smem-per-sm", o->smemPerSm, "S: shared memory per SM, bytes")->check(nonNegative());
  app.add_option("--smem-unit", o->smemUnit, "s_min: shared-memory allocation unit, bytes")->check(positive());
  app.add_option("--regs-per-sm", o->regsPerSm, "R: registers per SM")->check(nonNegative());
  app.add_option("--reg-unit", o->regUnit, "r_min: register allocation unit per warp")->check(positive());
  auto* w = app.add_option("--warps", o->warps, "b: warps per block")->check(positive());
  auto* t = app.add_option("--threads", o->threads, "Threads per block (b = ceil(threads / warp size))")
                ->check(positive());
  w->excludes(t);
  app.add_option("--smem", o->smem, "s: shared memory per block, bytes")->check(nonNegative());
  auto* r = app.add_option("--regs", o->regs, "Registers per thread (r = regs x warp size)")->check(nonNegative());
  auto* rw = app.add_option("--regs-per-warp", o->regsPerWarp, "r: registers per warp")->check(nonNegative());
  r->excludes(rw);
  app.add_option("--unit", o->units, "Functional unit name:t:m:s (t inverse throughput, m replicas per "
                                     "group or 'inf', s groups); repeatable — gives fu(c)");
  app.add_option("--p1", o->p1, "P_1: period of {insts} with one warp (needed with --unit)")->check(positive());
  app.add_option("--grid", o->grid, "G: blocks in the grid — gives g = ceil(G/n_mp) and T(g, b)")
      ->check(positive());
  app.add_option("--sms", o->sms, "n_mp: multiprocessors (default: the GPU's)")->check(positive());
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example: teg model gpudiag --gpu t4 --threads 256 --regs 32 --smem 4096 "
             "--unit alu:4:1:4 --p1 8 --grid 400");
  app.callback([&context, o] {
    const device::Device* gpu = o->gpu.empty() ? nullptr : &context.devices().find(o->gpu);
    models::StateBuffers buf;
    if (gpu) buf = models::stateBuffersOf(*gpu);
    else buf.registerFiles.push_back({0, 1});
    if (o->barrierSlots > 0) buf.barrierSlots = o->barrierSlots;
    if (o->warpSlots > 0) buf.warpSlots = o->warpSlots;
    if (o->smemPerSm >= 0) buf.sharedMemory = o->smemPerSm;
    if (o->smemUnit > 0) buf.sharedMemoryGranularity = o->smemUnit;
    if (o->regsPerSm >= 0) buf.registerFiles[0].size = o->regsPerSm;
    if (o->regUnit > 0) buf.registerFiles[0].granularity = o->regUnit;
    if (buf.barrierSlots < 1 || buf.warpSlots < 1)
      throw Error("give --gpu, or --barrier-slots and --warp-slots (and --smem-per-sm, --regs-per-sm)");

    const int warpSize = gpu && gpu->limits.warpSize > 0 ? gpu->limits.warpSize : 32;
    models::BlockUsage use;
    if (o->warps > 0) use.warps = o->warps;
    else if (o->threads > 0) use.warps = static_cast<int>((o->threads + warpSize - 1) / warpSize);
    else throw Error("give --warps or --threads (the block size)");
    use.sharedMemory = o->smem;
    const long long perWarp = o->regsPerWarp >= 0 ? o->regsPerWarp : (o->regs >= 0 ? o->regs * warpSize : 0);
    use.registersPerWarp = {perWarp};
    if (perWarp > (1LL << 32) || use.sharedMemory > (1LL << 40))
      throw Error("registers per warp or shared memory per block out of range");
    if (use.sharedMemory > 0 && buf.sharedMemory <= 0) throw Error("give --smem-per-sm (S) or --gpu");
    if (perWarp > 0 && buf.registerFiles[0].size <= 0) throw Error("give --regs-per-sm (R) or --gpu");

    const auto n = models::slotCount(buf, use);
    json j = {{"gpu", gpu ? gpu->id : ""},
              {"buffers", {{"barrier_slots", buf.barrierSlots}, {"warp_slots", buf.warpSlots},
                           {"shared_memory", buf.sharedMemory}, {"shared_memory_unit", buf.sharedMemoryGranularity},
                           {"registers", buf.registerFiles[0].size}, {"register_unit", buf.registerFiles[0].granularity}}},
              {"block", {{"warps", use.warps}, {"shared_memory", use.sharedMemory}, {"registers_per_warp", perWarp}}},
              {"n_slot", n.slots},
              {"limiter", models::slotLimitName(n.limiter)},
              {"terms", {{"barriers", n.byBarriers}, {"warp_slots", n.byWarpSlots},
                         {"shared_memory", n.bySharedMemory}, {"registers", n.byRegisters.at(0)}}}};
    report::Table terms({"buffer (eq. 3.3)", "size", "per block", "blocks"});
    terms.addRow({"barriers N1", fmt::format("{}", buf.barrierSlots), "1", limitText(n.byBarriers)});
    terms.addRow({"warp slots N2", fmt::format("{}", buf.warpSlots), fmt::format("{} warps", use.warps),
                  limitText(n.byWarpSlots)});
    terms.addRow({"shared memory S", fmt::format("{} B", buf.sharedMemory),
                  fmt::format("{} B", models::roundUpTo(use.sharedMemory, buf.sharedMemoryGranularity)),
                  limitText(n.bySharedMemory)});
    terms.addRow({"registers R", fmt::format("{}", buf.registerFiles[0].size),
                  fmt::format("{}", use.warps * models::roundUpTo(perWarp, buf.registerFiles[0].granularity)),
                  limitText(n.byRegisters.at(0))});
    KeyValues kv;
    if (gpu) kv.emplace_back("gpu", gpu->id);
    kv.emplace_back("N_slot (eq. 3.3)", fmt::format("{} blocks per SM, limited by {}", n.slots,
                                                    models::slotLimitName(n.limiter)));
    // The exact residency for comparison: GPUDIAG omits the per-scheduler register split and
    // the reserved shared memory per block, so it can be above the occupancy module's answer.
    if (gpu && o->threads > 0 && o->regsPerWarp < 0) {
      occupancy::Launch launch;
      launch.threadsPerBlock = o->threads;
      launch.registersPerThread = std::max(0LL, o->regs);
      launch.staticSharedBytes = o->smem;
      const auto occ = occupancy::computeOccupancy(*gpu, launch);
      if (occ.ok()) {
        j["occupancy_blocks_per_sm"] = occ.blocksPerSm;
        kv.emplace_back("exact residency", fmt::format("{} blocks per SM (occupancy module)", occ.blocksPerSm));
      }
    }
    std::string extra = terms.render();

    if (!o->units.empty()) {
      if (!(o->p1 > 0)) throw Error("--unit needs --p1 (the period of {insts} with one warp)");
      models::FunctionalUnitModel fu;
      fu.singleWarpPeriod = o->p1;
      for (const auto& spec : o->units) fu.units.push_back(parseUnit(spec));
      const int maxWarps = std::max(1, std::min(use.warps * std::max(1, n.slots), 1024));
      report::Table table({"warps c", "fu(c)", "P(c)", "bottleneck"});
      json fuRows = json::array();
      std::vector<double> fuValues;
      for (int c = 1; c <= maxWarps; ++c) {
        const double v = fu.fu(c);
        fuValues.push_back(v);
        fuRows.push_back({{"warps", c}, {"fu", v}, {"period", fu.period(c)}, {"bottleneck", fu.bottleneckAt(c)}});
        const std::string b = fu.bottleneckAt(c);
        table.addRow({fmt::format("{}", c), num(v), num(fu.period(c)), b.empty() ? "- (latency)" : b});
      }
      j["fu"] = fuRows;
      j["bottleneck_throughput"] = fu.bottleneckThroughput();
      kv.emplace_back("bottleneck throughput (eq. 3.7)",
                      fmt::format("{} warp-periods per cycle per SM", num(fu.bottleneckThroughput())));
      extra += "\n" + table.render();
      if (o->grid > 0) {
        if (n.slots < 1) throw Error("N_slot is 0: the block does not fit, T(g, b) is undefined");
        int sms = o->sms > 0 ? o->sms : (gpu ? gpu->smCount : 0);
        if (sms < 1) throw Error("--grid needs --sms or --gpu (the number of multiprocessors)");
        const auto g = models::blocksPerMultiprocessor(o->grid, sms);
        const double time = models::kernelTime(g, use.warps, n.slots, fu);
        j["grid"] = {{"blocks", o->grid}, {"multiprocessors", sms}, {"g", g}, {"t_relative", time},
                     {"cycles_per_period", time * o->p1}};
        kv.emplace_back("g = ceil(G/n_mp)", fmt::format("{} blocks per SM ({} blocks, {} SMs)", g, o->grid, sms));
        kv.emplace_back("T(g, b) (eq. 3.2)",
                        fmt::format("{} x P_1 = {} cycles per repetition of {{insts}}", num(time), num(time * o->p1)));
      }
    } else if (o->grid > 0) {
      throw Error("--grid needs --unit and --p1 (fu(c) enters T(g, b))");
    }
    emit(o->json, j, kv, extra);
  });
}

void registerBuffersCommand(CLI::App& app, Context&) {
  struct Opts {
    std::string csv;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--csv", o->csv,
                 "N_slot measurements: header test,warps,smem,regs,nslot; test is warp_slots, "
                 "shared_memory (b = 1) or registers (regs per warp)")
      ->required();
  app.add_flag("--json", o->json, "Print JSON instead of a table");
  app.footer("Example: teg model buffers --csv nslot.csv");
  app.callback([o] {
    const auto m = models::readSlotMeasurementsCsv(o->csv);
    const auto wsb = models::estimateWarpSlots(m.warpSlots);
    json j = {{"barrier_slots", wsb.barrierSlots}, {"warp_slots", wsb.warpSlots},
              {"warp_slot_samples", m.warpSlots.size()}, {"warp_slot_mismatches", wsb.mismatches}};
    report::Table t({"parameter", "estimate", "samples", "mismatched"});
    t.addRow({"N1 barrier slots (eq. 3.12)", fmt::format("{}", wsb.barrierSlots),
              fmt::format("{}", m.warpSlots.size()), fmt::format("{}", wsb.mismatches)});
    t.addRow({"N2 warp slots (eq. 3.12)", fmt::format("{}", wsb.warpSlots), fmt::format("{}", m.warpSlots.size()),
              fmt::format("{}", wsb.mismatches)});
    if (!m.sharedMemory.empty()) {
      const auto s = models::estimateSharedMemory(m.sharedMemory, wsb);
      j["shared_memory"] = s.size;
      j["shared_memory_unit"] = s.granularity;
      j["shared_memory_mismatches"] = s.mismatches;
      t.addRow({"S shared memory (eq. 3.13)", fmt::format("{} B", s.size), fmt::format("{}", m.sharedMemory.size()),
                fmt::format("{}", s.mismatches)});
      t.addRow({"s_min unit", fmt::format("{} B", s.granularity), "", ""});
    }
    if (!m.registers.empty()) {
      const auto r = models::estimateRegisterFile(m.registers, wsb);
      j["registers"] = r.size;
      j["register_unit"] = r.granularity;
      j["register_mismatches"] = r.mismatches;
      t.addRow({"R registers (eq. 3.13)", fmt::format("{}", r.size), fmt::format("{}", m.registers.size()),
                fmt::format("{}", r.mismatches)});
      t.addRow({"r_min unit (per warp)", fmt::format("{}", r.granularity), "", ""});
    }
    if (o->json) {
      std::cout << j.dump(2) << "\n";
      return;
    }
    std::cout << t.render()
              << "\nmismatched: samples the estimate does not reproduce (measurement noise, or the model "
                 "does not fit).\n";
  });
}

}  // namespace teg::cli::model
