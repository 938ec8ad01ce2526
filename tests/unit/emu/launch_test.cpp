#include "teg/emu/launch.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "teg/emu/npy.hpp"
#include "teg/support/error.hpp"

using namespace teg::emu;

namespace {

std::string errorOf(const std::string& json) {
  try {
    parseLaunch(json, "/work/l.json");
  } catch (const teg::Error& e) {
    return e.what();
  }
  return "(no error)";
}

template <typename T>
T element(const std::vector<std::byte>& bytes, std::size_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

TEST(Launch, ParsesAFullDescription) {
  const auto l = parseLaunch(R"({
    "source": "kernels/vector_add.cu", "kernel": "vectorAdd", "grid": [4096], "block": [16, 16],
    "dynamic_smem": 1024,
    "args": [
      {"name": "a", "buffer": {"type": "f32", "count": 8, "init": {"random": {"seed": 3, "min": -1, "max": 1}}}},
      {"name": "c", "buffer": {"type": "f32", "count": 8, "expect": {"file": "c.npy", "tolerance": 1e-6}}},
      {"name": "n", "scalar": {"type": "i32", "value": -7}}]})",
                             "/work/launch.json");
  EXPECT_EQ(l.source, "/work/kernels/vector_add.cu");  // relative to the launch file
  EXPECT_EQ(l.grid.x, 4096u);
  EXPECT_EQ(l.block.count(), 256u);
  EXPECT_EQ(l.dynamicSmem, 1024u);
  ASSERT_EQ(l.args.size(), 3u);
  EXPECT_TRUE(l.args[0].isBuffer());
  const auto& c = std::get<BufferArg>(l.args[1].value);
  ASSERT_TRUE(c.expect.has_value());
  EXPECT_EQ(std::get<FileInit>(c.expect->values).path, "/work/c.npy");
  EXPECT_EQ(element<std::int32_t>(scalarBytes(std::get<ScalarArg>(l.args[2].value)), 0), -7);
}

TEST(Launch, ErrorsNameTheFileAndTheField) {
  EXPECT_EQ(errorOf(R"({"source": "k.cu", "kernel": "k", "grid": [0], "block": 32})"),
            "/work/l.json: grid[0]: must be between 1 and 2^32-1");
  EXPECT_EQ(errorOf(R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 32,
                        "args": [{"name": "x", "buffer": {"type": "f33", "count": 4}}]})"),
            "/work/l.json: args[0].buffer.type: unknown type 'f33' (expected i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64 bool)");
  EXPECT_EQ(errorOf(R"({"source": "k.cu", "grid": 1, "block": 32})"), "/work/l.json: kernel: missing");
  EXPECT_EQ(errorOf(R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 32, "blocks": 2})"),
            "/work/l.json: blocks: unknown field (expected one of: source, kernel, grid, block, "
            "dynamic_smem, carveout, args, symbols, description, include_dirs, defines, nvcc_args)");
  EXPECT_EQ(errorOf(R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 32, "carveout": 101})"),
            "/work/l.json: carveout: 101 is larger than the maximum 100");
  EXPECT_EQ(errorOf(R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 32,
                        "args": [{"name": "x", "buffer": {"type": "f32", "count": -4}}]})"),
            "/work/l.json: args[0].buffer.count: expected a non-negative integer");
  EXPECT_EQ(errorOf("{\"source\": \"k.cu\",\n \"kernel\": }"),
            "/work/l.json:2:12: invalid JSON: syntax error while parsing value - unexpected '}'; expected '[', "
            "'{', or a literal");
}

TEST(Launch, CarveoutIsThePreferredSharedMemoryPercentage) {
  const auto with = parseLaunch(R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 32, "carveout": 9})", "/work/l.json");
  EXPECT_EQ(with.carveoutPercent, 9);
  const auto without = parseLaunch(R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 32})", "/work/l.json");
  EXPECT_EQ(without.carveoutPercent, -1);  // the default: the largest carve-out
}

TEST(Launch, InitialisersProduceTheDocumentedValues) {
  const auto iota = materializeBuffer(ScalarType::U16, 5, IotaInit{}, "b");
  EXPECT_EQ(element<std::uint16_t>(iota, 4), 4);
  const auto constant = materializeBuffer(ScalarType::F64, 3, ConstantInit{2.5}, "b");
  EXPECT_EQ(element<double>(constant, 2), 2.5);
  const auto half = materializeBuffer(ScalarType::F16, 2, ConstantInit{1.0}, "b");
  EXPECT_EQ(element<std::uint16_t>(half, 1), 0x3C00);
  EXPECT_THROW(materializeBuffer(ScalarType::U8, 1, ConstantInit{300}, "b"), teg::Error);
}

TEST(Launch, RandomIsDeterministicAndInRange) {
  const RandomInit r{42, -3, 5};
  const auto a = materializeBuffer(ScalarType::F32, 1000, r, "b");
  EXPECT_EQ(a, materializeBuffer(ScalarType::F32, 1000, r, "b"));
  EXPECT_NE(a, materializeBuffer(ScalarType::F32, 1000, RandomInit{43, -3, 5}, "b"));
  const auto ints = materializeBuffer(ScalarType::I32, 1000, r, "b");
  bool sawMin = false, sawMax = false;
  for (std::size_t i = 0; i < 1000; ++i) {
    const float f = element<float>(a, i);
    EXPECT_GE(f, -3.0f);
    EXPECT_LE(f, 5.0f);
    const auto v = element<std::int32_t>(ints, i);
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 5);
    sawMin |= v == -3;
    sawMax |= v == 5;
  }
  EXPECT_TRUE(sawMin && sawMax) << "integer ranges are inclusive";
}

TEST(Launch, NpyFilesRoundTripAndTypesAreChecked) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string path = (dir / "teg_launch_test.npy").string();
  const auto data = materializeBuffer(ScalarType::I32, 7, IotaInit{}, "b");
  writeNpy(path, ScalarType::I32, data);
  EXPECT_EQ(materializeBuffer(ScalarType::I32, 7, FileInit{path}, "b"), data);
  // Data starts 64-byte aligned: magic(6) + version(2) + length(2) + the 57-character dict
  // "{'descr': '<i4', 'fortran_order': False, 'shape': (7,), }" + '\n' = 68 -> padded to 128.
  EXPECT_EQ(std::filesystem::file_size(path), 128u + 7u * 4u);
  try {
    materializeBuffer(ScalarType::F32, 7, FileInit{path}, "args[0]");
    FAIL();
  } catch (const teg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds dtype <i4, the buffer is f32"), std::string::npos) << e.what();
  }
  EXPECT_THROW(materializeBuffer(ScalarType::I32, 8, FileInit{path}, "b"), teg::Error);
}

}  // namespace
