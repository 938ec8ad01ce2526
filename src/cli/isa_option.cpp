#include "isa_option.hpp"

namespace teg::cli {

void addIsaOption(CLI::App& app, std::string& isa) {
  app.add_option("--isa", isa,
                 "Instruction stream to run and time: sass (what the GPU runs, ptxas's schedule), ptx (nvcc's PTX), "
                 "or auto (SASS where the GPU is cc >= 7.0 (Volta through CUDA 11.8's ptxas), nvdisasm is found, the SASS emulator runs the kernel "
                 "and no what-if is asked for; else PTX, and the report says why)")
      ->capture_default_str()
      ->check(CLI::IsMember({"sass", "ptx", "auto"}));
}

}  // namespace teg::cli
