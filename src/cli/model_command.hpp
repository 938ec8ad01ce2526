// Shared pieces of `teg model <sub>` (cmd_model*.cpp): the machine options (--gpu or explicit
// figures), the active-blocks options (--blocks-per-sm or a launch handed to the occupancy
// module), number formatting and table/JSON printing. No model logic lives here.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"

namespace teg::cli::model {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// Option checks with a short message ("must be > 0"); CLI11's PositiveNumber prints DBL_MAX.
CLI::Validator positive();
CLI::Validator nonNegative();

// "%.6g": enough digits to read, no noise.
std::string num(double v);

// Prints `j` (indented) when asJson, else the key/value block and the optional extra text.
void emit(bool asJson, const nlohmann::json& j, const KeyValues& text, const std::string& extra = {});

// --gpu, --sms, --cores-per-sm: explicit figures override the device's.
struct MachineOptions {
  std::string gpu;
  int sms = 0;
  double coresPerSm = 0;
};
void addMachineOptions(CLI::App* app, MachineOptions& o, bool withCores);

struct Machine {
  std::string gpu;        // device id, or "" when only explicit figures were given
  int sms = 0;            // 0 when neither --sms nor --gpu gives it
  double coresPerSm = 0;  // 0 when unknown
};
// Throws teg::Error when a needed figure is missing ("give --sms or --gpu").
Machine resolveMachine(Context& context, const MachineOptions& o, bool needCores);

// --blocks-per-sm, or --threads [--regs] [--smem] [--dyn-smem] with --gpu (occupancy module).
struct ResidencyOptions {
  int blocksPerSm = 0;
  long long threads = 0;
  long long regs = 0;
  long long smem = 0;
  long long dynSmem = 0;
};
void addResidencyOptions(CLI::App* app, ResidencyOptions& o);

struct Residency {
  int blocksPerSm = 0;
  std::string source;  // "given" or "occupancy of <gpu>: limited by <resource>"
};
Residency resolveResidency(Context& context, const std::string& gpu, const ResidencyOptions& o);

// Registrars of the subcommands, one group per file.
void registerWavesCommand(CLI::App& app, Context& context);     // cmd_model_ma.cpp
void registerTmmCommand(CLI::App& app, Context& context);
void registerCombinedCommand(CLI::App& app, Context& context);
void registerApspCommand(CLI::App& app, Context& context);
void registerFitCommand(CLI::App& app, Context& context);
void registerGpudiagCommand(CLI::App& app, Context& context);   // cmd_model_gpudiag.cpp
void registerBuffersCommand(CLI::App& app, Context& context);
void registerLatencyCommand(CLI::App& app, Context& context);   // cmd_model_bounds.cpp
void registerRooflineCommand(CLI::App& app, Context& context);
void registerSgemmBoundCommand(CLI::App& app, Context& context);  // cmd_model_sgemm.cpp
void registerVolkovSgemmCommand(CLI::App& app, Context& context); // cmd_model_volkov.cpp
void registerMwpCwpCommand(CLI::App& app, Context& context);       // cmd_model_survey.cpp
void registerMwpCwpExtendedCommand(CLI::App& app, Context& context);  // cmd_model_survey.cpp
void registerRyooCommand(CLI::App& app, Context& context);
void registerDataflowCommand(CLI::App& app, Context& context);

}  // namespace teg::cli::model
