// Placeholder until the devices command lands; it refuses to run rather than pretend.
#include "command.hpp"
#include "teg/support/error.hpp"

namespace teg::cli {

void registerDevicesCommand(CLI::App& app, Context&) {
  app.callback([] { throw Error("'devices' is not implemented yet"); });
}

}  // namespace teg::cli
