// teg_differential: runs random kernels on the PTX and the SASS emulator and compares them
// (tests/differential/README.md). Exit status 0 when no kernel differed, 1 otherwise, 2 on a
// usage or tool error.
//
//   teg_differential --count 100000 --arch sm_80 --arch sm_90 --batch 200 --seed 1 --keep out/
//   teg_differential --count 1000 --one-ptx --arch sm_75 --arch sm_80 ... --arch sm_120 --batch 100
#include <algorithm>
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "differential.hpp"

int main(int argc, char** argv) {
  CLI::App app{"teg differential test: random CUDA kernels on the PTX and SASS emulators"};
  std::uint64_t count = 1000, batch = 200, seed = 1;
  std::vector<std::string> archs;
  std::string keep, source;
  bool onePtx = false, fmad = false, noApprox = false, noInt = false, noControl = false, noBlock = false, noDouble = false, noHalf = false;
  app.add_option("--count,-n", count, "kernels per architecture")->check(CLI::PositiveNumber);
  app.add_option("--batch", batch, "kernels per nvcc run")->check(CLI::Range(1, 5000));
  app.add_option("--seed", seed, "seed of the first kernel (kernel i has seed + i)");
  app.add_option("--arch", archs, "architecture(s), e.g. sm_80 (default sm_80)");
  app.add_option("--keep", keep, "directory for the generated .cu files and a reproducer (.cu, .npy, launch) per difference");
  app.add_option("--source", source, "compile this .cu (a reduced reproducer with kernels k_<seed>) instead of generating");
  app.add_flag("--one-ptx", onePtx,
               "with several --arch: one nvcc run per batch for the oldest, its PTX run once on the PTX emulator and "
               "assembled by ptxas for the others (cheaper; every architecture gets the oldest one's PTX)");
  app.add_flag("--fmad", fmad, "compile without -fmad=false (ptxas may then fuse mul+add the PTX keeps apart)");
  app.add_flag("--no-approx", noApprox, "no .approx instructions");
  app.add_flag("--no-integer", noInt, "no integer arithmetic in expressions (conversions stay)");
  app.add_flag("--no-control", noControl, "no branches, loops, switches, local arrays or calls");
  app.add_flag("--no-block", noBlock, "no shared memory, barriers, atomics, shuffles or votes");
  app.add_flag("--no-double", noDouble, "no double precision");
  app.add_flag("--no-half", noHalf, "no half precision");
  CLI11_PARSE(app, argc, argv);
  if (archs.empty()) archs.push_back("sm_80");

  std::uint64_t total = 0, compared = 0, differing = 0;
  auto report = [&](const std::string& arch, const teg::differential::Summary& summary) {
    for (const auto& d : summary.differences) fmt::print("DIFF {} seed {}: {}\n", d.arch, d.seed, d.what);
    for (const auto& d : summary.bothFailed) fmt::print("BOTH-FAILED {} seed {}: {}\n", d.arch, d.seed, d.what);
    for (const auto& d : summary.waiting) fmt::print("WAITING {} seed {}: {}\n", d.arch, d.seed, d.what);
    std::uint64_t differingKernels = 0;
    for (std::size_t i = 0; i < summary.differences.size(); ++i)
      if (i == 0 || summary.differences[i].seed != summary.differences[i - 1].seed) ++differingKernels;
    fmt::print("{}: {} kernels generated, {} run on both emulators and compared ({} bytes bit for bit, {} .approx "
               "results within bound, {} NaNs of unspecified sign/payload), {} differences in {} kernels, {} failed on "
               "both, {} waiting for SASS emulator gaps; nvcc/ptxas+nvdisasm {:.0f} s, emulators {:.0f} s\n",
               arch, summary.kernels, summary.compared, summary.bitsCompared, summary.approxChecked,
               summary.nanPayloadsTolerated, summary.differences.size(), differingKernels, summary.bothFailed.size(),
               summary.waiting.size(), summary.compileSeconds, summary.emulateSeconds);
    std::fflush(stdout);
    total += summary.kernels;
    compared += summary.compared;
    differing += summary.differences.size();
  };
  auto configFor = [&](const std::string& arch) {
    teg::differential::RunConfig config;
    config.arch = arch;
    config.keepDirectory = keep;
    config.sourceFile = source;
    if (fmad) config.nvccFlags.clear();
    config.generator.approx = !noApprox;
    config.generator.integerOps = !noInt;
    config.generator.control = !noControl;
    config.generator.blockOps = !noBlock;
    config.generator.doubles = !noDouble;
    config.generator.halves = !noHalf;
    return config;
  };
  try {
    if (onePtx && archs.size() > 1) {
      std::sort(archs.begin(), archs.end(), [](const std::string& a, const std::string& b) {
        return teg::differential::smVersion(a) < teg::differential::smVersion(b);
      });
      const std::vector<std::string> more(archs.begin() + 1, archs.end());
      const auto summaries = teg::differential::runDifferentialOnePtx(
          seed, count, batch, configFor(archs.front()), more, [&](const std::vector<teg::differential::Summary>& all) {
            std::size_t diffs = 0;
            double tools = 0, emu = 0;
            for (const auto& s : all) diffs += s.differences.size(), tools += s.compileSeconds, emu += s.emulateSeconds;
            std::fprintf(stderr, "\r%zu architectures: %llu/%llu kernels each, %zu differences (tools %.0f s, emulators %.0f s)",
                         all.size(), static_cast<unsigned long long>(all.front().kernels),
                         static_cast<unsigned long long>(count), diffs, tools, emu);
          });
      std::fprintf(stderr, "\n");
      for (std::size_t a = 0; a < archs.size(); ++a) report(archs[a], summaries[a]);
    } else {
      for (const auto& arch : archs) {
        const auto summary = teg::differential::runDifferential(
            seed, count, batch, configFor(arch), [&](const teg::differential::Summary& s) {
              std::fprintf(stderr, "\r%s: %llu/%llu kernels, %llu compared, %zu differences, %zu both failed (nvcc %.0f s, emulators %.0f s)",
                           arch.c_str(), static_cast<unsigned long long>(s.kernels), static_cast<unsigned long long>(count),
                           static_cast<unsigned long long>(s.compared), s.differences.size(), s.bothFailed.size(),
                           s.compileSeconds, s.emulateSeconds);
            });
        std::fprintf(stderr, "\n");
        report(arch, summary);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "teg_differential: %s\n", e.what());
    return 2;
  }
  fmt::print("total: {} kernels, {} compared, {} differences\n", total, compared, differing);
  return differing == 0 ? 0 : 1;
}
