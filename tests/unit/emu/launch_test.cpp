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

// Issue 24: values that changed silently on the way to the kernel are errors naming the
// argument and the type's range.
TEST(Launch, ScalarsThatDoNotFitTheirTypeAreRefused) {
  const auto scalar = [](const std::string& type, const std::string& value) {
    return errorOf(R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 32,
                       "args": [{"name": "n", "scalar": {"type": ")" + type + R"(", "value": )" + value + "}}]}");
  };
  EXPECT_EQ(scalar("i32", "1099511627776"),
            "/work/l.json: args[0].scalar.value ('n'): 1099511627776 does not fit i32 (it holds -2147483648 to "
            "2147483647); the kernel would see a different value");
  EXPECT_EQ(scalar("f32", "1e300"),
            "/work/l.json: args[0].scalar.value ('n'): 1e+300 does not fit f32 (it holds magnitudes up to "
            "3.4028235e+38); the kernel would see a different value");
  EXPECT_NE(scalar("u8", "-1").find("-1 does not fit u8 (it holds 0 to 255)"), std::string::npos);
  EXPECT_NE(scalar("i64", "9223372036854775808").find("does not fit i64"), std::string::npos);
  EXPECT_NE(scalar("f16", "65520").find("does not fit f16 (it holds magnitudes up to 65504)"), std::string::npos);
  // The extremes themselves fit.
  for (const auto& [type, value] : std::vector<std::pair<std::string, std::string>>{
           {"i32", "-2147483648"}, {"i32", "2147483647"}, {"u32", "4294967295"}, {"u64", "18446744073709551615"},
           {"i64", "-9223372036854775808"}, {"f16", "65504"}, {"f32", "3.4028234663852886e38"}, {"f64", "1e308"}})
    EXPECT_EQ(scalar(type, value), "(no error)") << type << " " << value;
  // Buffer initialisers of a float type overflow the same way.
  EXPECT_THROW(materializeBuffer(ScalarType::F32, 1, ConstantInit{1e300}, "b"), teg::Error);
  EXPECT_THROW(materializeBuffer(ScalarType::F16, 1, RandomInit{1, 0, 1e6}, "b"), teg::Error);
}

TEST(Launch, DuplicateNamesAndKeysAreRefused) {
  EXPECT_EQ(errorOf(R"({"source": "k.cu", "kernel": "k", "grid": 1, "block": 32,
                        "args": [{"name": "x", "buffer": {"type": "f32", "count": 4}},
                                 {"name": "y", "buffer": {"type": "f32", "count": 4}},
                                 {"name": "x", "buffer": {"type": "f32", "count": 4}}]})"),
            "/work/l.json: args[2].name: 'x' is already the name of args[0]");
  EXPECT_EQ(errorOf("{\"source\": \"k.cu\", \"kernel\": \"k\",\n \"grid\": 4, \"grid\": 8, \"block\": 32}")
                .substr(0, 39),
            "/work/l.json:2:13: duplicate key \"grid\"");
}

// Issue 24: a buffer larger than the machine's memory ended in "internal error: std::bad_alloc".
TEST(Launch, ABufferBeyondPhysicalMemoryIsRefusedBeforeAllocating) {
  try {
    (void)materializeBuffer(ScalarType::F64, std::uint64_t{1} << 60, IotaInit{}, "x");
    FAIL() << "no error";
  } catch (const teg::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("x (1152921504606846976 x f64): 9223372036854775808 bytes (8589934592.0 GiB) "
                                          "exceed this machine's physical memory (", 0), 0u) << e.what();
  }
  EXPECT_THROW(materializeBuffer(ScalarType::F64, std::uint64_t{1} << 62, IotaInit{}, "x"), teg::Error);  // 2^65 bytes
}

// Issue 24: a shape beyond 64 bits threw std::out_of_range from stoull, naming no file; a shape
// whose product wraps could pass as a small array.
TEST(Launch, NpyShapesOutOfRangeNameTheFileAndTheField) {
  const auto path = (std::filesystem::temp_directory_path() / "teg_bad_shape.npy").string();
  const auto writeWithShape = [&](const std::string& shape) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + shape + "), }";
    header.append(64 - (10 + header.size() + 1) % 64, ' ');
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    const char len[2] = {static_cast<char>(header.size() & 0xFF), static_cast<char>(header.size() >> 8)};
    out.write(len, 2);
    out << header;
    out.write("\0\0\0\0", 4);  // one float
  };
  const auto error = [&]() -> std::string {
    try {
      (void)readNpy(path);
    } catch (const teg::Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  writeWithShape("99999999999999999999999,");
  EXPECT_EQ(error(), path + ": .npy header field 'shape': dimension 99999999999999999999999 is larger than 2^64-1");
  writeWithShape("4294967296, 4294967296");  // 2^64 elements: the product wrapped to 0
  EXPECT_EQ(error(), path + ": .npy header field 'shape': (4294967296, 4294967296) has more than 2^64-1 elements");
  writeWithShape("4611686018427387905,");  // x 4 bytes wraps to 4: the one float would have matched
  EXPECT_EQ(error(), path + ": .npy header field 'shape': (4611686018427387905,) of 4-byte elements is more than "
                            "2^64-1 bytes");
  writeWithShape("1,");
  EXPECT_EQ(error(), "(no error)");
  std::filesystem::remove(path);
}

}  // namespace

namespace {

TEST(Launch, PointerCycleIsOneRandomCycleThroughEverySegment) {
  const auto l = parseLaunch(R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [64], "args": [
      {"name": "buf", "buffer": {"type": "u64", "count": 128, "init": {"pointer_cycle": {"stride": 64, "seed": 5}}}}]})",
                             "/work/l.json");
  const auto& init = std::get<BufferArg>(l.args[0].value).init;
  ASSERT_TRUE(std::holds_alternative<PointerCycleInit>(init));
  const auto& cycle = std::get<PointerCycleInit>(init);
  EXPECT_EQ(cycle.stride, 64u);
  // 128 u64 = 1 KiB = 16 segments of 64 bytes at 0x1000: starting at segment 0, 16 steps visit
  // every segment once and come back to 0; every pointer is the address of a segment start.
  const std::uint64_t base = 0x1000;
  const auto bytes = pointerCycle(1024, base, cycle);
  std::vector<bool> seen(16, false);
  std::uint64_t at = 0;
  for (int step = 0; step < 16; ++step) {
    EXPECT_FALSE(seen[at]) << "segment " << at << " visited twice";
    seen[at] = true;
    const auto next = element<std::uint64_t>(bytes, at * 8);
    ASSERT_EQ((next - base) % 64, 0u);
    at = (next - base) / 64;
    ASSERT_LT(at, 16u);
  }
  EXPECT_EQ(at, 0u);
  // Not the identity order: a shuffled cycle (the seed decides, reproducibly).
  int inOrder = 0;
  for (std::uint64_t k = 0; k < 16; ++k) inOrder += element<std::uint64_t>(bytes, k * 8) == base + ((k + 1) % 16) * 64;
  EXPECT_LT(inOrder, 8);
  EXPECT_EQ(pointerCycle(1024, base, cycle), bytes);
  // A stride that is not a multiple of 8 bytes is refused, naming the field.
  EXPECT_NE(errorOf(R"({"source": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "args": [
      {"name": "b", "buffer": {"type": "u64", "count": 8, "init": {"pointer_cycle": {"stride": 12}}}}]})")
                .find("stride"),
            std::string::npos);
  // Outside a buffer argument (it needs the buffer's own address) it is an error, not a crash.
  EXPECT_THROW(materializeBuffer(ScalarType::U64, 8, cycle, "b"), teg::Error);
}

}  // namespace
