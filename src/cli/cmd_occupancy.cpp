// Placeholder until the occupancy command lands; it refuses to run rather than pretend.
#include "command.hpp"
#include "teg/support/error.hpp"

namespace teg::cli {

void registerOccupancyCommand(CLI::App& app, Context&) {
  app.callback([] { throw Error("'occupancy' is not implemented yet"); });
}

}  // namespace teg::cli
