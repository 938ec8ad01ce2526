// Placeholder until the model command lands; it refuses to run rather than pretend.
#include "command.hpp"
#include "teg/support/error.hpp"

namespace teg::cli {

void registerModelCommand(CLI::App& app, Context&) {
  app.callback([] { throw Error("'model' is not implemented yet"); });
}

}  // namespace teg::cli
