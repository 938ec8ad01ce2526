// A launch description: which kernel to run, with what grid, block and arguments. It is the
// input of `teg run` and `teg predict`. Read from JSON:
//
//   {"source": "vector_add.cu", "kernel": "vectorAdd", "grid": [4096], "block": [256],
//    "dynamic_smem": 0, "carveout": 9,     (optional: preferred shared-memory carve-out, %)
//    "include_dirs": ["../common/inc"], "defines": ["BLOCK=256", "USE_FAST"],
//    "nvcc_args": ["-maxrregcount=32"],   (optional: how nvcc compiles a .cu source)
//    "args": [{"name": "a", "buffer": {"type": "f32", "count": 1048576,
//                                      "init": {"random": {"seed": 1, "min": -1, "max": 1}}}},
//             {"name": "c", "buffer": {"type": "f32", "count": 1048576, "init": "zeros",
//                                      "expect": {"file": "c.npy", "tolerance": 1e-6}}},
//             {"name": "n", "scalar": {"type": "i32", "value": 1048576}}]}
//
// Initialisers: "zeros", "iota", {"constant": x}, {"random": {"seed", "min", "max"}},
// {"values": [x, y, ...]} (every element listed), {"file": "x.bin"} (raw little-endian),
// {"file": "x.npy"} (NumPy .npy, dtype must match) or, for a u64/i64 buffer argument,
// {"pointer_cycle": {"stride": 64, "seed": 1}} (PointerCycleInit). Paths are relative to the
// launch file.
// Every error names the file and the field.
//
// Types: i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64 and bool (one byte, 0 or 1; a scalar's value
// may be true or false).
//
// What real kernels pass besides pointers and scalars:
//   - a struct by value: {"name": "p", "struct": [<fields>]}, each field written like an argument
//     (scalar, buffer, nested struct, texture) and packed in order with natural alignment, as the
//     C++ ABI lays out `struct Params {int n; float a; float* x;}`; a buffer field's allocation is
//     named "p.x". The packed size must equal the PTX parameter's.
//   - a texture object (cudaTextureObject_t): {"name": "t", "texture": {"type": "f32",
//     "channels": 1, "width": 64, "height": 32, "pitch": 256, "init": ..., "address": "clamp",
//     "filter": "linear", "normalized_coords": false, "read": "element"}}: a texture bound to its
//     own buffer (named like the argument) of width × height texels (height absent: 1-D, as
//     tex1Dfetch's linear memory), rows `pitch` bytes apart (default: packed).
//   - `__constant__` and `__device__` variables, as cudaMemcpyToSymbol fills them: top-level
//     "symbols": {"coeffs": {"type": "f32", "init": {"values": [...]}}}; the variable's declared
//     size fixes the count, which the initialiser must fill exactly. A struct variable
//     (`__constant__ SimParams params;`) takes {"struct": [<fields>]}, packed as a struct argument
//     and as large as the variable.
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
struct ValuesInit {
  std::vector<double> values;  // one per element, each representable in the element type
};
// A random cyclic chain of pointers through a u64/i64 buffer, as pointer-chase benchmarks build
// it on the host (gpu-benches gpu-latency): the buffer is cut into count x 8 / stride segments;
// the first 8 bytes of each hold the address of the next segment of one random cycle that starts
// and ends at segment 0 (the order of segments 1..n-1 is a seeded shuffle). Only a buffer argument
// takes it (the values are addresses of the buffer itself).
struct PointerCycleInit {
  std::uint64_t stride = 64;  // bytes between pointers, a multiple of 8
  std::uint64_t seed = 0;
};
using BufferInit = std::variant<ZerosInit, IotaInit, ConstantInit, RandomInit, FileInit, ValuesInit, PointerCycleInit>;

// The contents of a pointer-cycle buffer of `bytes` bytes at device address `base`.
std::vector<std::byte> pointerCycle(std::uint64_t bytes, std::uint64_t base, const PointerCycleInit& init);

struct ExpectedValues {
  BufferInit values;      // usually a FileInit; any initialiser is accepted
  double tolerance = 0;   // absolute tolerance; 0 = exact
};

struct BufferArg {
  ScalarType type = ScalarType::F32;
  std::uint64_t count = 0;
  // Zero bytes mapped before and after the buffer ("margin" in the launch file): on the GPU the
  // memory beside a cudaMalloc allocation is usually mapped, so a kernel that reads a little
  // outside its array (Rodinia's srad_v2 reads a row before its image) runs there; in teg such a
  // read faults unless the buffer has a margin that covers it.
  std::uint64_t marginBytes = 0;
  BufferInit init = ZerosInit{};
  std::optional<ExpectedValues> expect;
};

struct ScalarArg {
  ScalarType type = ScalarType::I32;
  // Integers are held exactly; floats as double.
  std::variant<std::int64_t, std::uint64_t, double> value;
};

struct LaunchArg;

// A struct passed by value: its fields in declaration order.
struct StructArg {
  std::vector<LaunchArg> fields;
};

// cudaTextureDesc's choices (CUDA C++ Programming Guide, "Texture Fetching").
enum class TextureAddressMode { Wrap, Clamp, Mirror, Border };
enum class TextureFilter { Point, Linear };
enum class TextureReadMode { Element, NormalizedFloat };

// A texture object bound to its own linear (1-D) or pitched 2-D buffer.
struct TextureArg {
  ScalarType type = ScalarType::F32;  // of one channel
  std::uint32_t channels = 1;         // 1, 2 or 4 (float, float2, float4...)
  std::uint64_t width = 0;            // texels per row
  std::uint64_t height = 0;           // rows; 0 = a 1-D texture
  std::uint64_t pitchBytes = 0;       // bytes from one row to the next (≥ width × texel size)
  BufferInit init = ZerosInit{};
  TextureAddressMode address = TextureAddressMode::Clamp;  // every dimension
  TextureFilter filter = TextureFilter::Point;
  TextureReadMode read = TextureReadMode::Element;
  bool normalizedCoords = false;
  [[nodiscard]] std::uint32_t texelBytes() const {
    return channels * static_cast<std::uint32_t>(scalarTypeSize(type));
  }
  // Elements of `type` in the buffer: pitch × rows.
  [[nodiscard]] std::uint64_t elementCount() const {
    return pitchBytes / static_cast<std::uint64_t>(scalarTypeSize(type)) * (height == 0 ? 1 : height);
  }
};

struct LaunchArg {
  std::string name;
  std::variant<ScalarArg, BufferArg, StructArg, TextureArg> value;
  [[nodiscard]] bool isBuffer() const { return std::holds_alternative<BufferArg>(value); }
};

// A `__constant__` or `__device__` variable filled before the launch (cudaMemcpyToSymbol):
// elements of `type` from `init`, or, for a struct variable, `fields` packed as a struct argument.
struct SymbolInit {
  std::string name;  // as in the source (or the PTX name)
  ScalarType type = ScalarType::F32;
  BufferInit init = ZerosInit{};
  std::optional<StructArg> fields;
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
  std::vector<SymbolInit> symbols;
  // For a .cu source: nvcc's -I directories (resolved against the launch file's directory),
  // -D macros (NAME or NAME=VALUE) and further arguments, verbatim.
  std::vector<std::string> includeDirs;
  std::vector<std::string> defines;
  std::vector<std::string> nvccArgs;
  // Not from the file: bytes of mapped slack around every buffer, where an access is reported
  // rather than faulting (Emulator::setOverrunSlack); 0 = strict, as `teg run` is.
  std::uint64_t overrunSlackBytes = 0;
};

// Every buffer of a launch with the name its allocation has: buffer arguments by their name,
// buffer fields of structs as "struct.field" (nested: "a.b.c"), of struct symbols likewise.
struct NamedBuffer {
  std::string name;
  const BufferArg* buffer = nullptr;
};
std::vector<NamedBuffer> launchBuffers(const LaunchDescription& launch);

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
