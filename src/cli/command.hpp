// The teg command-line driver: a table of subcommands, one file each (cmd_<name>.cpp). A command
// only parses options, calls the library and prints through the report helpers; no model logic
// lives here.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "teg/device/database.hpp"

namespace teg::cli {

// State shared by all subcommands: global options and the lazily loaded device database.
class Context {
 public:
  std::vector<std::string> deviceFiles;     // --device-file, applied in order
  std::vector<std::string> figureSettings;  // --set GPU:FIGURE=VALUE, applied after them, in order

  // The database with every --device-file and --set applied (loaded on first use).
  const device::DeviceDatabase& devices();

 private:
  std::unique_ptr<device::DeviceDatabase> database_;
};

// For an option held in an unsigned integer: refuses "-5" (which CLI11 would wrap to 2^64 - 5)
// and anything but digits, naming the text.
CLI::Validator nonNegativeCount();

// Each subcommand registers its options on `app` and sets its callback. The callback throws
// teg::Error for bad input; main prints it as one line and exits 1.
using CommandRegistrar = void (*)(CLI::App& app, Context& context);

struct CommandEntry {
  const char* name;
  const char* summary;
  CommandRegistrar registrar;
};

void registerDevicesCommand(CLI::App& app, Context& context);
void registerOccupancyCommand(CLI::App& app, Context& context);
void registerModelCommand(CLI::App& app, Context& context);
void registerCompileCommand(CLI::App& app, Context& context);
void registerPtxCommand(CLI::App& app, Context& context);
void registerSassCommand(CLI::App& app, Context& context);
void registerRunCommand(CLI::App& app, Context& context);
void registerPredictCommand(CLI::App& app, Context& context);
void registerBoundCommand(CLI::App& app, Context& context);
void registerValidateCommand(CLI::App& app, Context& context);

}  // namespace teg::cli
