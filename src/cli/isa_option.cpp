#include "isa_option.hpp"

namespace teg::cli {

void addIsaOption(CLI::App& app, std::string& isa) {
  app.add_option("--isa", isa,
                 "Instruction stream to run and time: sass (what the GPU runs, ptxas's schedule), ptx (nvcc's PTX), "
                 "or auto (default: SASS where the GPU is cc >= 7.5, nvdisasm is found and the SASS emulator runs "
                 "the kernel; else PTX, and the report says why)")
      ->check(CLI::IsMember({"sass", "ptx", "auto"}));
}

}  // namespace teg::cli
