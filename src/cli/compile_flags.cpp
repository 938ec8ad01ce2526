#include "compile_flags.hpp"

namespace teg::cli {

void addCompileFlags(CLI::App& app, toolchain::CompileOptions& options) {
  app.add_option("-I,--include-dir", options.includeDirs,
                 "Include directory for nvcc (repeatable), e.g. -I ../common/inc for the samples' helper headers")
      ->type_name("DIR")
      ->allow_extra_args(false)  // one value per -I: `-I inc k.cu` must not take k.cu as well
      ->group("nvcc");
  app.add_option("-D,--define", options.defines, "Macro for nvcc: NAME or NAME=VALUE (repeatable)")
      ->type_name("NAME[=VALUE]")
      ->allow_extra_args(false)
      ->group("nvcc");
  app.add_option("--nvcc-arg", options.extraArgs, "Extra argument for nvcc (repeatable), e.g. --nvcc-arg=-maxrregcount=32")
      ->type_name("ARG")
      ->allow_extra_args(false)
      ->group("nvcc");
  app.add_flag_callback("--no-cache", [&options] { options.useCache = false; },
                        "Run nvcc even when the compile cache has the result (also: TEG_NO_CACHE=1)")
      ->group("nvcc");
}

}  // namespace teg::cli
