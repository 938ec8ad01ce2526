// A launch description: which kernel to run, with what grid, block and arguments. It is the
// input of `teg run` and `teg predict`. Read from JSON:
//
//   {"source": "vector_add.cu", "kernel": "vectorAdd", "grid": [4096], "block": [256],
//    "dynamic_smem": 0, "carveout": 9,     (optional: preferred shared-memory carve-out, %)
//    "args": [{"name": "a", "buffer": {"type": "f32", "count": 1048576,
//                                      "init": {"random": {"seed": 1, "min": -1, "max": 1}}}},
//             {"name": "c", "buffer": {"type": "f32", "count": 1048576, "init": "zeros",
//                                      "expect": {"file": "c.npy", "tolerance": 1e-6}}},
//             {"name": "n", "scalar": {"type": "i32", "value": 1048576}}]}
//
// Initialisers: "zeros", "iota", {"constant": x}, {"random": {"seed", "min", "max"}},
// {"file": "x.bin"} (raw little-endian) or {"file": "x.npy"} (NumPy .npy, dtype must match).
// Paths are relative to the launch file. Every error names the file and the field.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "teg/emu/scalar_type.hpp"
#include "teg/trace/trace.hpp"

namespace teg::emu {

using Dim3 = trace::Dim3;

struct ZerosInit {};
struct IotaInit {};
struct ConstantInit {
  double value = 0;
};
struct RandomInit {
  std::uint64_t seed = 0;
  double min = 0, max = 1;
};
struct FileInit {
  std::string path;  // resolved (absolute or relative to the working directory)
};
using BufferInit = std::variant<ZerosInit, IotaInit, ConstantInit, RandomInit, FileInit>;

struct ExpectedValues {
  BufferInit values;      // usually a FileInit; any initialiser is accepted
  double tolerance = 0;   // absolute tolerance; 0 = exact
};

struct BufferArg {
  ScalarType type = ScalarType::F32;
  std::uint64_t count = 0;
  BufferInit init = ZerosInit{};
  std::optional<ExpectedValues> expect;
};

struct ScalarArg {
  ScalarType type = ScalarType::I32;
  // Integers are held exactly; floats as double.
  std::variant<std::int64_t, std::uint64_t, double> value;
};

struct LaunchArg {
  std::string name;
  std::variant<ScalarArg, BufferArg> value;
  [[nodiscard]] bool isBuffer() const { return std::holds_alternative<BufferArg>(value); }
};

struct LaunchDescription {
  std::string file;        // where it was read from ("" when built in code)
  std::string source;      // .cu or .ptx, resolved against the launch file's directory
  std::string kernel;
  Dim3 grid, block;
  std::uint32_t dynamicSmem = 0;
  // cudaFuncAttributePreferredSharedMemoryCarveout, percent 0..100; -1 = the default (largest).
  int carveoutPercent = -1;
  std::vector<LaunchArg> args;
};

// Parses a launch description; `file` names it in messages and anchors relative paths.
LaunchDescription parseLaunch(const std::string& jsonText, const std::string& file);
LaunchDescription readLaunchFile(const std::string& path);

// The bytes of a buffer after its initialiser ran (count × element size, little-endian).
// `what` names the buffer in error messages.
std::vector<std::byte> materializeBuffer(ScalarType type, std::uint64_t count,
                                         const BufferInit& init, const std::string& what);

// Throws teg::Error naming `what` (the argument) when the value does not fit the type: an i32
// of 2^40 would reach the kernel as 0 and an f32 of 1e300 as inf. parseLaunch checks every
// scalar; a launch built in code checks its own.
void checkScalarFits(const ScalarArg& arg, const std::string& what);

// Bytes of a scalar argument as the kernel parameter holds it.
std::vector<std::byte> scalarBytes(const ScalarArg& arg);

}  // namespace teg::emu
