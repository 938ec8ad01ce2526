// What real kernels pass in (issue 24): a struct by value, bool, __constant__ and __device__
// variables filled from the launch description, texture objects (tex1Dfetch, tex2D). The kernels
// (kernel_arguments.cu) are compiled by nvcc for sm_80 and run on the emulator; every expectation
// is computed here from the kernel's definition, by hand for the texture filtering (the CUDA C++
// Programming Guide's "Texture Fetching" formulas).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "teg/analysis/predict.hpp"
#include "teg/device/database.hpp"
#include "teg/emu/emulator.hpp"
#include "teg/emu/launch.hpp"
#include "teg/emu/statistics.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::emu {
namespace {

const std::string kDir = TEG_KERNEL_ARGUMENTS_DIR;
const std::string kSource = kDir + "/kernel_arguments.cu";

// The module compiled once per process, or null without nvcc.
const ptx::Module* kernels() {
  static const std::unique_ptr<ptx::Module> module = []() -> std::unique_ptr<ptx::Module> {
    try {
      (void)toolchain::findNvcc();
    } catch (const Error&) {
      return nullptr;
    }
    toolchain::CompileOptions options;
    options.arch = "sm_80";
    const auto compiled = toolchain::compileCuda(kSource, options);
    return std::make_unique<ptx::Module>(ptx::parseModule(compiled.ptx, "kernel_arguments.ptx"));
  }();
  return module.get();
}

#define NEED_NVCC()                                                  \
  const ptx::Module* module = kernels();                             \
  if (module == nullptr) GTEST_SKIP() << "nvcc not found";

// A launch description of kernel_arguments.cu: `rest` is the JSON after "kernel".
LaunchDescription launchOf(const std::string& rest) {
  return parseLaunch(R"({"source": "kernel_arguments.cu", )" + rest + "}", kDir + "/test.launch.json");
}

template <class T>
std::vector<T> contents(const Emulator& e, const std::string& name) {
  const auto bytes = e.buffer(name);
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// Runs the launch on every block; returns the emulator to read buffers from.
std::unique_ptr<Emulator> run(const ptx::Module& module, const LaunchDescription& launch,
                              trace::TraceListener* listener = nullptr) {
  auto e = std::make_unique<Emulator>(module, launch);
  RunOptions options;
  options.listener = listener;
  e->run(options);
  return e;
}

// ---------------------------------------------------------------------------------------------
// Structs by value

TEST(KernelArguments, StructByValueIsPackedLikeTheCxxAbi) {
  NEED_NVCC();
  // Params {bool negate; int n; double scale; const float* x;}: 24 bytes, x at offset 16.
  const auto launch = launchOf(R"("kernel": "scaleByParams", "grid": [4], "block": [32], "args": [
      {"name": "p", "struct": [{"name": "negate", "scalar": {"type": "bool", "value": true}},
                               {"name": "n", "scalar": {"type": "i32", "value": 100}},
                               {"name": "scale", "scalar": {"type": "f64", "value": 0.5}},
                               {"name": "x", "buffer": {"type": "f32", "count": 128, "init": "iota"}}]},
      {"name": "y", "buffer": {"type": "f32", "count": 128, "init": {"constant": 7}}}])");
  const auto e = run(*module, launch);
  const auto y = contents<float>(*e, "y");
  ASSERT_EQ(y.size(), 128u);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(y[i], i < 100 ? -0.5f * static_cast<float>(i) : 7.0f) << i;
  // The struct's buffer field is an allocation of its own, named after the field.
  EXPECT_EQ(contents<float>(*e, "p.x")[99], 99.0f);
  EXPECT_EQ(launchBuffers(launch).size(), 2u);
  EXPECT_EQ(launchBuffers(launch)[0].name, "p.x");
}

TEST(KernelArguments, NestedStructFieldsAreAlignedToTheirLargestMember) {
  NEED_NVCC();
  // Clip {char tag; Range {short lo, hi;} range; float* out;}: tag 0, range 2, out 8; 16 bytes.
  const auto launch = launchOf(R"("kernel": "clipToRange", "grid": [1], "block": [8], "args": [
      {"name": "c", "struct": [{"name": "tag", "scalar": {"type": "i8", "value": 1}},
                               {"name": "range", "struct": [{"name": "lo", "scalar": {"type": "i16", "value": -2}},
                                                            {"name": "hi", "scalar": {"type": "i16", "value": 3}}]},
                               {"name": "out", "buffer": {"type": "f32", "count": 8}}]},
      {"name": "in", "buffer": {"type": "f32", "count": 8, "init": {"values": [-5, -2.5, -1, 0, 1.5, 3, 4, 100]}}},
      {"name": "n", "scalar": {"type": "i32", "value": 8}}])");
  const auto e = run(*module, launch);
  // out = clamp(in, -2, 3) + 1
  EXPECT_EQ(contents<float>(*e, "c.out"), (std::vector<float>{-1, -1, 0, 1, 2.5f, 4, 4, 4}));
}

TEST(KernelArguments, ATextureObjectCanBeAStructField) {
  NEED_NVCC();
  // Lookup {int offset; cudaTextureObject_t table;}: the handle at offset 8; its texels are "l.table".
  const auto launch = launchOf(R"("kernel": "lookupInStruct", "grid": [1], "block": [32], "args": [
      {"name": "l", "struct": [{"name": "offset", "scalar": {"type": "i32", "value": 2}},
                               {"name": "table", "texture": {"type": "f32", "width": 6, "init": {"values": [5, 6, 7, 8, 9, 10]}}}]},
      {"name": "out", "buffer": {"type": "f32", "count": 5}},
      {"name": "n", "scalar": {"type": "i32", "value": 5}}])");
  const auto e = run(*module, launch);
  EXPECT_EQ(contents<float>(*e, "out"), (std::vector<float>{7, 8, 9, 10, 10}));  // index 6 clamps to 5
  EXPECT_EQ(contents<float>(*e, "l.table")[0], 5.0f);
}

TEST(KernelArguments, AStructOfTheWrongSizeIsRefusedWithItsLayout) {
  NEED_NVCC();
  // The pointer field forgotten: 16 bytes where the kernel's Params has 24.
  const auto launch = launchOf(R"("kernel": "scaleByParams", "grid": [1], "block": [32], "args": [
      {"name": "p", "struct": [{"name": "negate", "scalar": {"type": "bool", "value": false}},
                               {"name": "n", "scalar": {"type": "i32", "value": 1}},
                               {"name": "scale", "scalar": {"type": "f64", "value": 1}}]},
      {"name": "y", "buffer": {"type": "f32", "count": 1}}])");
  const std::string error = errorOf([&] { Emulator e(*module, launch); });
  EXPECT_NE(error.find("argument 'p' has 16 bytes as a struct (negate: bool at 0, n: i32 at 4, scale: f64 at 8) "
                       "but parameter 0 ('_Z13scaleByParams6ParamsPf_param_0') has 24 bytes"),
            std::string::npos)
      << error;
}

TEST(KernelArguments, StructFieldsAreCheckedWhenTheLaunchIsRead) {
  EXPECT_NE(errorOf([] {
              (void)launchOf(R"("kernel": "k", "grid": 1, "block": 1, "args": [
                  {"name": "p", "struct": [{"buffer": {"type": "f32", "count": 1}}]}])");
            }).find("args[0].struct[0]: a buffer, struct or texture field needs a \"name\""),
            std::string::npos);
  EXPECT_NE(errorOf([] { (void)launchOf(R"("kernel": "k", "grid": 1, "block": 1, "args": [{"name": "p", "struct": []}])"); })
                .find("args[0].struct: expected a non-empty array of fields"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// bool

TEST(KernelArguments, BoolParametersAndBuffers) {
  NEED_NVCC();
  const auto launch = launchOf(R"("kernel": "maskedUpdate", "grid": [1], "block": [32], "args": [
      {"name": "flip", "scalar": {"type": "bool", "value": true}},
      {"name": "keep", "buffer": {"type": "bool", "count": 6, "init": {"values": [true, false, true, 1, 0, true]}}},
      {"name": "y", "buffer": {"type": "f32", "count": 6, "init": "iota"}},
      {"name": "n", "scalar": {"type": "i32", "value": 6}}])");
  const auto e = run(*module, launch);
  EXPECT_EQ(contents<float>(*e, "y"), (std::vector<float>{-0.0f, 1, -2, -3, 4, -5}));
  // flip = false doubles the kept elements instead.
  auto doubling = launch;
  std::get<ScalarArg>(doubling.args[0].value).value = std::uint64_t{0};
  EXPECT_EQ(contents<float>(*run(*module, doubling), "y"), (std::vector<float>{0, 1, 4, 6, 4, 10}));
}

TEST(KernelArguments, ABoolHoldsOnlyZeroOrOne) {
  EXPECT_NE(errorOf([] {
              (void)launchOf(R"("kernel": "k", "grid": 1, "block": 1, "args": [{"name": "b", "scalar": {"type": "bool", "value": 2}}])");
            }).find("args[0].scalar.value: expected true, false, 0 or 1 for type bool"),
            std::string::npos);
  const std::vector<std::byte> bits = materializeBuffer(ScalarType::Bool, 5, IotaInit{}, "b");
  EXPECT_EQ(bits, (std::vector<std::byte>{std::byte{0}, std::byte{1}, std::byte{0}, std::byte{1}, std::byte{0}}));
  EXPECT_NE(errorOf([] { (void)materializeBuffer(ScalarType::Bool, 1, ConstantInit{2}, "b"); })
                .find("constant 2 is not representable as bool"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// __constant__ and __device__ variables

TEST(KernelArguments, ConstantMemoryFilterTapsComeFromTheLaunch) {
  NEED_NVCC();
  const auto launch = launchOf(R"("kernel": "firConstant", "grid": [2], "block": [32],
      "symbols": {"c_taps": {"type": "f32", "init": {"values": [0.25, -1, 2, 0.5, 4]}},
                  "d_outputs": {"type": "u32", "init": {"constant": 1000}}},
      "args": [{"name": "in", "buffer": {"type": "f32", "count": 50, "init": {"random": {"seed": 3, "min": -1, "max": 1}}}},
               {"name": "out", "buffer": {"type": "f32", "count": 50}},
               {"name": "n", "scalar": {"type": "i32", "value": 50}}])");
  const auto e = run(*module, launch);
  const std::vector<float> taps{0.25f, -1.0f, 2.0f, 0.5f, 4.0f};
  const auto in = contents<float>(*e, "in");
  const auto out = contents<float>(*e, "out");
  for (int i = 0; i < 50; ++i) {
    float sum = 0;  // the kernel's order: k = 0..4, fused multiply-adds
    for (int k = 0; k < 5; ++k) {
      const int j = i + k - 2;
      if (j >= 0 && j < 50) sum = std::fma(taps[k], in[j], sum);
    }
    EXPECT_EQ(out[i], sum) << i;
  }
  // The __device__ counter started at the launch's 1000 and counted the 50 outputs.
  EXPECT_EQ(contents<std::uint32_t>(*e, "d_outputs"), std::vector<std::uint32_t>{1050u});
  // Both read back by name (what `teg run --dump d_outputs=...` writes).
  std::uint32_t outputs = 0;
  ASSERT_EQ(e->symbol("d_outputs").size(), 4u);
  std::memcpy(&outputs, e->symbol("d_outputs").data(), 4);
  EXPECT_EQ(outputs, 1050u);
  float lastTap = 0;
  ASSERT_EQ(e->symbol("c_taps").size(), 20u);
  std::memcpy(&lastTap, e->symbol("c_taps").data() + 16, 4);
  EXPECT_EQ(lastTap, 4.0f);
}

TEST(KernelArguments, AConstantStructIsFilledLikeAStructArgument) {
  NEED_NVCC();
  // SimParams {float dt; bool damped; float damping; float* v;}: 0, 4, 8, 16; 24 bytes.
  const auto launch = launchOf(R"("kernel": "integrate", "grid": [1], "block": [32],
      "symbols": {"c_sim": {"struct": [{"name": "dt", "scalar": {"type": "f32", "value": 0.5}},
                                       {"name": "damped", "scalar": {"type": "bool", "value": true}},
                                       {"name": "damping", "scalar": {"type": "f32", "value": 0.25}},
                                       {"name": "v", "buffer": {"type": "f32", "count": 4, "init": {"values": [8, 16, -8, 4]}}}]}},
      "args": [{"name": "x", "buffer": {"type": "f32", "count": 4, "init": {"constant": 1}}},
               {"name": "n", "scalar": {"type": "i32", "value": 4}}])");
  const auto e = run(*module, launch);
  // x = 1 + 0.5 · v · 0.25
  EXPECT_EQ(contents<float>(*e, "x"), (std::vector<float>{2, 3, 0, 1.5f}));
  EXPECT_EQ(contents<float>(*e, "c_sim.v")[1], 16.0f);
  ASSERT_EQ(launchBuffers(launch).size(), 2u);
  EXPECT_EQ(launchBuffers(launch)[1].name, "c_sim.v");
  // Without the pointer the struct is 12 bytes: refused, with its layout.
  auto shorter = launch;
  shorter.symbols[0].fields->fields.pop_back();
  EXPECT_EQ(errorOf([&] { Emulator bad(*module, shorter); }),
            kDir + "/test.launch.json: symbols.c_sim: 12 bytes (a struct: dt: f32 at 0, damped: bool at 4, damping: f32 at 8) "
                   "for 'c_sim', which has 24 bytes");
}

TEST(KernelArguments, SymbolsAreCheckedAgainstTheirDeclarations) {
  NEED_NVCC();
  auto errorWith = [&](const std::string& symbols) {
    return errorOf([&] {
      Emulator e(*module, launchOf(R"("kernel": "firConstant", "grid": 1, "block": 1, "symbols": )" + symbols + R"(,
          "args": [{"name": "in", "buffer": {"type": "f32", "count": 1}}, {"name": "out", "buffer": {"type": "f32", "count": 1}},
                   {"name": "n", "scalar": {"type": "i32", "value": 1}}])"));
    });
  };
  const std::string where = kDir + "/test.launch.json: symbols.";
  EXPECT_EQ(errorWith(R"({"c_taps": {"type": "f32", "init": {"values": [1, 2, 3, 4]}}})"),
            where + "c_taps ('c_taps', 20 bytes = 5 × f32): 4 values listed, the buffer has 5 elements");
  EXPECT_EQ(errorWith(R"({"c_tap": {"type": "f32", "init": "zeros"}})"),
            where + "c_tap: the module has no __constant__ or __device__ variable 'c_tap' (it has: c_taps (__constant__), "
                    "d_outputs (__device__), c_sim (__constant__))");
  EXPECT_EQ(errorWith(R"({"d_outputs": {"type": "f32", "init": "zeros"}})"),
            where + "d_outputs: 'd_outputs' is declared .u32, which f32 elements cannot fill");
  EXPECT_EQ(errorWith(R"({"c_taps": {"type": "f64", "init": "zeros"}})"),
            where + "c_taps: 'c_taps' has 20 bytes, not a whole number of f64 elements");
}

// ---------------------------------------------------------------------------------------------
// Textures

// A recorder of the tex instruction's static description and lane addresses.
class TexRecorder final : public trace::TraceListener {
 public:
  void beginKernel(const trace::KernelInfo& k) override { kernel = k; }
  void instruction(const trace::WarpInstruction& r) override {
    if (kernel.instructions[r.pc].text.rfind("tex.", 0) == 0) fetches.push_back(r);
  }
  trace::KernelInfo kernel;
  std::vector<trace::WarpInstruction> fetches;
};

LaunchDescription gatherLaunch(const std::string& address) {
  return launchOf(R"("kernel": "textureGather", "grid": [1], "block": [32], "args": [
      {"name": "table", "texture": {"type": "f32", "width": 8, "address": ")" + address + R"(",
                                    "init": {"values": [10, 11, 12, 13, 14, 15, 16, 17]}}},
      {"name": "idx", "buffer": {"type": "i32", "count": 6, "init": {"values": [3, 0, 7, -1, 8, 1000000]}}},
      {"name": "out", "buffer": {"type": "f32", "count": 6}},
      {"name": "n", "scalar": {"type": "i32", "value": 6}}])");
}

TEST(KernelArguments, Tex1DfetchGathersAndAddressesOutOfRangeIndices) {
  NEED_NVCC();
  TexRecorder recorder;
  const auto clamp = run(*module, gatherLaunch("clamp"), &recorder);
  // Clamp: indices below 0 read texel 0, beyond the end the last texel.
  EXPECT_EQ(contents<float>(*clamp, "out"), (std::vector<float>{13, 10, 17, 10, 17, 17}));
  // Border: outside reads zero.
  EXPECT_EQ(contents<float>(*run(*module, gatherLaunch("border")), "out"), (std::vector<float>{13, 10, 17, 0, 0, 0}));

  // For the timing engine the fetch is a load through the texture path (L1/texture cache) of one
  // 4-byte texel per lane, at the texel's address in the texture's buffer.
  ASSERT_EQ(recorder.fetches.size(), 1u);
  const trace::StaticInstruction& s = recorder.kernel.instructions[recorder.fetches[0].pc];
  EXPECT_EQ(s.kind, trace::InstrKind::Load);
  EXPECT_EQ(s.space, trace::MemorySpace::Texture);
  EXPECT_EQ(s.cache, trace::CachePolicy::CacheL1);
  EXPECT_EQ(s.accessBytes, 4u);
  EXPECT_EQ(recorder.fetches[0].activeMask, 0x3fu);
  const std::uint64_t base = clamp->bufferAddress("table");
  const std::uint64_t texel[6] = {3, 0, 7, 0, 7, 7};
  for (int lane = 0; lane < 6; ++lane) EXPECT_EQ(recorder.fetches[0].addresses[lane], base + 4 * texel[lane]) << lane;

  // teg run's statistics count the fetch as a global load of 6 × 4 bytes: texels 0, 3 and 7 of
  // the 32-byte-aligned table lie in one sector.
  MemoryGeometry geometry;
  geometry.sharedBanks = 32;
  geometry.sharedBankWidth = 4;
  geometry.sectorBytes = 32;
  geometry.lineBytes = 128;
  StatisticsCollector stats(geometry);
  Emulator again(*module, gatherLaunch("clamp"));
  RunOptions options;
  options.listener = &stats;
  again.run(options);
  const GlobalCounters& fetch = stats.kernels().at(0).byPc.at(recorder.fetches[0].pc).globalLoads;
  EXPECT_EQ(fetch.requests, 1u);
  EXPECT_EQ(fetch.bytesRequested, 24u);
  EXPECT_EQ(fetch.sectors, 1u);
}

// T(x, y) of a 3 × 2 f32 texture whose rows are 16 bytes apart (one padding texel, 1000, that no
// fetch may read): row 0 = 1 2 4, row 1 = 8 16 32.
LaunchDescription bilinearLaunch(const std::string& address, const std::vector<float>& uv) {
  std::string list;
  for (float v : uv) list += (list.empty() ? "" : ", ") + std::to_string(v);
  const auto n = std::to_string(uv.size() / 2);
  return launchOf(R"("kernel": "textureSample2d", "grid": [1], "block": [32], "args": [
      {"name": "image", "texture": {"type": "f32", "width": 3, "height": 2, "pitch": 16, "filter": "linear",
                                    "address": ")" + address + R"(", "init": {"values": [1, 2, 4, 1000, 8, 16, 32, 1000]}}},
      {"name": "uv", "buffer": {"type": "f32", "count": )" + std::to_string(uv.size()) + R"(, "init": {"values": [)" + list + R"(]}}},
      {"name": "out", "buffer": {"type": "f32", "count": )" + n + R"(}},
      {"name": "n", "scalar": {"type": "i32", "value": )" + n + "}}]");
}

TEST(KernelArguments, Tex2DBilinearSamplesMatchAHandComputation) {
  NEED_NVCC();
  // tex(x, y) = (1-α)(1-β)T[i,j] + α(1-β)T[i+1,j] + (1-α)βT[i,j+1] + αβT[i+1,j+1],
  // i = floor(x - 0.5), α = frac(x - 0.5) in 1/256 steps; j, β likewise from y.
  const std::vector<float> uv{1.5f, 1.0f,     // i=1 α=0, j=0 β=.5: (2 + 16) / 2 = 9
                              1.0f, 0.5f,     // i=0 α=.5, j=0 β=0: (1 + 2) / 2 = 1.5
                              2.25f, 1.75f,   // i=1 α=.75, j=1 β=.25, row 2 clamped to row 1:
                                              //   .25·.75·16 + .75·.75·32 + .25·.25·16 + .75·.25·32 = 28
                              0.0f, 0.0f,     // i=j=-1, α=β=.5, all four clamp to T[0,0] = 1
                              1.8f, 0.5f};    // i=1 α=0.3 -> 77/256 (9-bit weight), β=0:
                                              //   2 + 2·77/256 = 2.6015625 (2.6 unquantised)
  const auto clamp = run(*module, bilinearLaunch("clamp", uv));
  EXPECT_EQ(contents<float>(*clamp, "out"), (std::vector<float>{9, 1.5f, 28, 1, 2.6015625f}));
  // Border: texels outside are zero; at (0, 0) only T[0,0] is inside, weighted .5·.5.
  const auto border = run(*module, bilinearLaunch("border", {0.0f, 0.0f, 3.0f, 1.0f}));
  // (3, 1): i=2 α=.5, j=0 β=.5: .25·4 + .25·0 + .25·32 + .25·0 = 9
  EXPECT_EQ(contents<float>(*border, "out"), (std::vector<float>{0.25f, 9}));
}

// cuda-samples' dct8x8 creates its texture with wrap, a linear filter and unnormalised
// coordinates; cudaCreateTextureObject accepts that and the runtime switches wrap and mirror to
// clamp (CUDA Runtime API, cudaTextureDesc::addressMode). teg refused the launch before.
TEST(KernelArguments, WrapAndMirrorWithUnnormalisedCoordinatesClampAsTheRuntimeDoes) {
  NEED_NVCC();
  for (const char* mode : {"wrap", "mirror"}) {
    // (2.25, 1.75) and (0, 0): the clamp values of Tex2DBilinearSamplesMatchAHandComputation.
    const auto r = run(*module, bilinearLaunch(mode, {2.25f, 1.75f, 0.0f, 0.0f}));
    EXPECT_EQ(contents<float>(*r, "out"), (std::vector<float>{28, 1})) << mode;
  }
}

TEST(KernelArguments, NormalizedCoordinatesWrapAndEightBitTexelsReadAsNormalizedFloats) {
  NEED_NVCC();
  // A 2 × 2 u8 image 0 255 / 51 102 read as floats in [0, 1] (v / 255), point sampled at
  // normalised coordinates that wrap; the kernel adds the missing alpha channel, which reads 1.
  const auto launch = launchOf(R"("kernel": "textureSampleUchar", "grid": [1], "block": [32], "args": [
      {"name": "image", "texture": {"type": "u8", "width": 2, "height": 2, "read": "normalized_float",
                                    "normalized_coords": true, "address": "wrap", "init": {"values": [0, 255, 51, 102]}}},
      {"name": "uv", "buffer": {"type": "f32", "count": 6, "init": {"values": [0.25, 0.25, 1.75, 0.25, -0.25, 0.75]}}},
      {"name": "out", "buffer": {"type": "f32", "count": 3}},
      {"name": "n", "scalar": {"type": "i32", "value": 3}}])");
  const auto out = contents<float>(*run(*module, launch), "out");
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], 1.0f);               // (0.5, 0.5) -> T[0,0] = 0
  EXPECT_EQ(out[1], 2.0f);               // x = 3.5 -> texel 3 wraps to 1: T[1,0] = 255 -> 1
  EXPECT_FLOAT_EQ(out[2], 1.0f + 0.4f);  // x = -0.5 -> texel -1 wraps to 1, y = 1.5: T[1,1] = 102 -> 0.4
}

TEST(KernelArguments, TexturesAreCheckedWhenTheLaunchIsReadAndWhenFetched) {
  auto parseError = [](const std::string& texture) {
    return errorOf([&] {
      (void)launchOf(R"("kernel": "k", "grid": 1, "block": 1, "args": [{"name": "t", "texture": )" + texture + "}]");
    });
  };
  EXPECT_NE(parseError(R"({"type": "i32", "width": 4, "filter": "linear"})")
                .find("args[0].texture.filter: linear filtering needs a floating-point result"),
            std::string::npos);
  EXPECT_NE(parseError(R"({"type": "f32", "width": 4, "height": 2, "pitch": 8})")
                .find("args[0].texture.pitch: must be a multiple of the texel size (4 bytes) and at least width × texel = 16 bytes"),
            std::string::npos);
  EXPECT_NE(parseError(R"({"type": "f64", "width": 4})").find("f64 is not a texture format"), std::string::npos);
  EXPECT_NE(parseError(R"({"type": "f32", "width": 2147483648, "height": 2147483648})").find("would exceed 2^36 bytes"),
            std::string::npos);

  const ptx::Module* module = kernels();
  if (module == nullptr) GTEST_SKIP() << "nvcc not found";
  // tex2D on a 1-D texture: the fetch names the texture and what it is.
  auto launch = bilinearLaunch("clamp", {0.5f, 0.5f});
  std::get<TextureArg>(launch.args[0].value).height = 0;
  std::get<TextureArg>(launch.args[0].value).pitchBytes = 12;
  std::get<TextureArg>(launch.args[0].value).init = ZerosInit{};
  const std::string error = errorOf([&] { (void)run(*module, launch); });
  EXPECT_NE(error.find("tex.2d on texture 'image', which is 1-D (it has no height)"), std::string::npos) << error;
}

TEST(KernelArguments, ATextureKernelIsPredicted) {
  NEED_NVCC();
  // Before texture fetches were emulated, the prediction stopped at the tex instruction.
  const device::DeviceDatabase devices = device::DeviceDatabase::loadDefault();
  analysis::PredictRequest request;
  request.launch = gatherLaunch("clamp");
  request.device = &devices.find("a100");
  request.peerBlocks = 0;
  const analysis::Prediction p = analysis::predict(request);
  EXPECT_GT(p.result.cycles, 0);
  EXPECT_GT(p.result.memory.l1Hits + p.result.memory.l2Hits + p.result.memory.dramSectors, 0u);
}

}  // namespace
}  // namespace teg::emu
