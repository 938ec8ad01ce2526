#include "bound_sass.hpp"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "teg/analysis/kernel_source.hpp"
#include "teg/sass/parser.hpp"
#include "teg/sass/register_banks.hpp"
#include "teg/sass/vector_loads.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::cli {

std::optional<analysis::SassFacts> sassFactsOf(const analysis::PredictRequest& request, std::string& why) {
  const analysis::KernelSource source = analysis::loadKernelSource(request.launch, *request.device, request.compile);
  if (source.cubin.empty()) {
    why = "the kernel is PTX, not a .cu (no cubin to read SASS from)";
    return std::nullopt;
  }
  if (source.arch != request.device->cc.smName()) {
    why = fmt::format("nvcc 13 cannot compile for {} ({}): its SASS is not the one the GPU runs", request.device->cc.smName(),
                      request.device->name);
    return std::nullopt;
  }
  if (!toolchain::haveNvdisasm()) {
    why = "nvdisasm not found (bash scripts/install-deps.sh installs it into build/tools/cuda)";
    return std::nullopt;
  }
  const sass::Module m = sass::parseDisassembly(toolchain::disassembleCubin(source.cubin), request.launch.source + " (nvdisasm)");
  const std::string mangled = emu::findKernel(source.module, request.launch.kernel).name;
  const sass::Function* f = m.findFunction(mangled);
  if (!f) {
    why = fmt::format("kernel {} not found in the SASS of {}", mangled, request.launch.source);
    return std::nullopt;
  }
  analysis::SassFacts facts;
  facts.arch = source.arch;
  std::string whyNot;
  const auto layout = sass::registerBankLayout(source.arch, &whyNot);
  facts.bankLayoutKnown = layout.has_value();
  facts.bankPenaltyCycles = layout ? layout->penaltyCycles : 0;
  facts.bankLayout = layout ? fmt::format("{} banks, bank = register mod {}, {} reads per bank per cycle: {}", layout->banks,
                                          layout->banks, layout->readsPerBank, layout->source)
                            : whyNot;
  std::map<std::pair<std::string, int>, analysis::SassLineFacts> lines;
  const auto lineOf = [&](std::size_t i) -> analysis::SassLineFacts* {
    const int s = f->instructions[i].source;
    if (s < 0) return nullptr;
    const auto& p = m.sources[static_cast<std::size_t>(s)];
    auto& l = lines[{p.file, p.line}];
    l.file = p.file;
    l.line = p.line;
    return &l;
  };
  for (std::size_t i = 0; i < f->instructions.size(); ++i)
    if (auto* l = lineOf(i)) {
      ++l->instructions;
      if (layout) l->bankConflictCycles += static_cast<std::uint32_t>(sass::bankConflictCycles(*f, i, *layout));
    }
  for (const auto& g : sass::vectorisableSharedLoads(*f)) {
    // A group's loads may come from several lines: each load counts on its own line, the vector
    // load on the line of the first.
    for (const std::size_t i : g.loads)
      if (auto* l = lineOf(i)) ++l->vectorisableLoads;
    if (auto* l = lineOf(g.loads.front())) ++l->vectorLoads;
  }
  for (auto& [key, l] : lines) facts.lines.push_back(std::move(l));
  return facts;
}

}  // namespace teg::cli
