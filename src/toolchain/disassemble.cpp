// nvdisasm on a cubin: -hex prints both 64-bit words of each instruction (the control bits are in
// the high word), -gi the source line with its inlining chain (the cubin carries it because
// compileCuda passes -lineinfo), -c only the code sections.
#include <fstream>
#include <string>

#include "process.hpp"
#include "temp_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::toolchain {

std::string disassembleCubin(const std::string& cubin, std::chrono::milliseconds timeout) {
  if (cubin.empty()) throw Error("no cubin to disassemble (the compile kept none)");
  // CUDA 13's nvdisasm refuses Volta cubins ("SM70 is deprecated"): those go to CUDA 11.8's.
  const int sm = cubinSmVersion(cubin);
  std::string nvdisasm;
  if (sm > 0 && sm < 75) {
    const auto legacy = findVoltaTool("nvdisasm");
    if (!legacy)
      throw Error("the cubin is for sm_" + std::to_string(sm) +
                  ", which only CUDA 11.8's nvdisasm reads: not found (scripts/install-deps.sh unpacks it into "
                  "build/tools/cuda11; or set TEG_CUDA11_BIN)");
    nvdisasm = *legacy;
  } else {
    nvdisasm = findNvdisasm();
  }
  TempDir scratch;
  const auto file = scratch.path() / "module.cubin";
  {
    std::ofstream out(file, std::ios::binary);
    out.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
    if (!out) throw Error("cannot write " + file.string());
  }
  const ProcessResult run = runProcess({nvdisasm, "-hex", "-gi", "-c", file.string()}, scratch.path(), timeout);
  if (run.timedOut) throw Error(nvdisasm + " did not finish within " + std::to_string(timeout.count() / 1000) + " s");
  if (run.exitCode != 0)
    throw Error(nvdisasm + " failed (exit " + std::to_string(run.exitCode) + "): " + run.err +
                " (a cubin for an architecture newer than this nvdisasm needs a newer one: "
                "nvidia-cuda-nvdisasm from PyPI follows the CUDA releases)");
  return run.out;
}

}  // namespace teg::toolchain
