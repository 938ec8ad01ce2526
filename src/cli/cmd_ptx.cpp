// Placeholder until the ptx command lands; it refuses to run rather than pretend.
#include "command.hpp"
#include "teg/support/error.hpp"

namespace teg::cli {

void registerPtxCommand(CLI::App& app, Context&) {
  app.callback([] { throw Error("'ptx' is not implemented yet"); });
}

}  // namespace teg::cli
