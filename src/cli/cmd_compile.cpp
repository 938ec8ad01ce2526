// Placeholder until the compile command lands; it refuses to run rather than pretend.
#include "command.hpp"
#include "teg/support/error.hpp"

namespace teg::cli {

void registerCompileCommand(CLI::App& app, Context&) {
  app.callback([] { throw Error("'compile' is not implemented yet"); });
}

}  // namespace teg::cli
