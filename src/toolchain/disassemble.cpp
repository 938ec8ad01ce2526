// nvdisasm on a cubin: -hex prints both 64-bit words of each instruction (the control bits are in
// the high word), -gi the source line with its inlining chain (the cubin carries it because
// compileCuda passes -lineinfo), -c only the code sections.
#include <fstream>

#include "process.hpp"
#include "temp_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::toolchain {

std::string disassembleCubin(const std::string& cubin, std::chrono::milliseconds timeout) {
  if (cubin.empty()) throw Error("no cubin to disassemble (the compile kept none)");
  const std::string nvdisasm = findNvdisasm();
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
