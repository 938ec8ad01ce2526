// The product GPU files under data/devices/: every product loads and resolves by the names users
// type, and a handful of figures are checked against datasheet arithmetic written out here
// (independent of the files): DRAM bandwidth = bus width / 8 x data rate per pin, and peak FP32
// = 2 x SMs x FP32 results per clock per SM x clock, against the vendor's published peak. The
// measured latencies are checked row by row against the data/validation CSVs they cite.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "teg/device/database.hpp"
#include "teg/device/device.hpp"
#include "validation_csv.hpp"

namespace {

using teg::device::Device;
using teg::device::DeviceDatabase;
using teg::device::InstructionClass;

const DeviceDatabase& database() {
  static const DeviceDatabase db =
      DeviceDatabase::loadDirectory(std::string(TEG_SOURCE_DIR) + "/data/devices");
  return db;
}

double relativeError(double actual, double expected) {
  return std::fabs(actual - expected) / std::fabs(expected);
}

// --- every product resolves ---------------------------------------------------------------------

TEST(Products, EveryProductHasSmsClocksAndMemory) {
  int products = 0;
  for (const Device& d : database().all()) {
    if (d.generic) continue;
    ++products;
    SCOPED_TRACE(d.id);
    EXPECT_GT(d.smCount, 0);
    EXPECT_GT(d.clocks.coreMhz, 0);
    // The base clock is left out only where the vendor publishes none (B200; the H100 NVL, whose
    // datasheet gives no clocks and whose database entry was not re-read; the laptop GPUs, whose
    // clocks NVIDIA gives as a range that depends on the laptop's power limit; Jetson AGX Thor,
    // whose GPU NVIDIA gives a maximum clock only).
    const bool laptop = d.id.ends_with("-laptop");
    if (d.id != "b200" && d.id != "h100-nvl" && d.id != "jetson-agx-thor" && !laptop) {
      EXPECT_GT(d.clocks.baseMhz, 0);
    }
    EXPECT_LE(d.clocks.baseMhz, d.clocks.coreMhz);
    EXPECT_GT(d.clocks.memoryMhz, 0);
    EXPECT_FALSE(d.memory.dramType.empty());
    EXPECT_GT(d.memory.dramGiB, 0);
    EXPECT_GT(d.memory.dramBandwidthGBs, 0);
    EXPECT_GT(d.memory.busWidthBits, 0);
    EXPECT_GE(d.memory.l2Bytes, 0);
    // Tesla and Fermi count cycles in the shader (hot) clock, which runs at twice the core clock
    // on every GT200 and GF100/GF110 part; from Kepler on there is no separate shader clock.
    if (d.cc.major < 3) {
      EXPECT_NEAR(d.clocks.shaderMhz / d.clocks.coreMhz, 2.0, 0.16);
    } else {
      EXPECT_EQ(d.clocks.shaderMhz, 0);
    }
    // Every product names its chip: `teg devices audit` treats GPUs of one chip as siblings.
    EXPECT_FALSE(d.chip.empty());
    // Every product inherits the limits and throughput table of its generation.
    EXPECT_EQ(d.limits.warpSize, 32);
    EXPECT_GT(d.throughputOf(InstructionClass::Fp32Fma), 0);
  }
  EXPECT_GE(products, 30);
}

// Names as users type them (short names, marketing names, what nvidia-smi prints), the file they
// must resolve to, and the compute capability of that GPU (CUDA C++ Programming Guide, "CUDA-
// Enabled GPUs" / developer.nvidia.com/cuda-gpus).
struct Expected {
  const char* typed;
  const char* id;
  const char* cc;
};

TEST(Products, NamesResolveCaseInsensitively) {
  const std::vector<Expected> cases = {
      {"GTX280", "gtx280", "1.3"},
      {"Tesla C1060", "tesla-c1060", "1.3"},
      {"gtx480", "gtx480", "2.0"},
      {"GeForce GTX 580", "gtx580", "2.0"},
      {"c2050", "tesla-c2050", "2.0"},
      {"gtx680", "gtx680", "3.0"},
      {"K20X", "tesla-k20x", "3.5"},
      {"Tesla K20Xm", "tesla-k20x", "3.5"},
      {"k20c", "tesla-k20c", "3.5"},
      {"k40", "tesla-k40", "3.5"},
      {"gtx980", "gtx980", "5.2"},
      {"P100", "tesla-p100-sxm2-16gb", "6.0"},
      {"gtx1080", "gtx1080", "6.1"},
      {"v100", "tesla-v100-sxm2-16gb", "7.0"},
      {"Tesla V100-SXM2-16GB", "tesla-v100-sxm2-16gb", "7.0"},
      {"Tesla V100-PCIE-16GB", "tesla-v100-pcie-16gb", "7.0"},
      {"t4", "tesla-t4", "7.5"},
      {"Tesla T4", "tesla-t4", "7.5"},
      {"rtx2080ti", "rtx2080ti", "7.5"},
      {"gtx1660ti", "gtx1660ti", "7.5"},
      {"a100", "a100-sxm4-40gb", "8.0"},
      {"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb", "8.0"},
      {"NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb", "8.0"},
      {"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb", "8.0"},
      {"A10", "a10", "8.6"},
      {"NVIDIA A10G", "a10g", "8.6"},
      {"a40", "a40", "8.6"},
      {"rtx3090", "rtx3090", "8.6"},
      {"RTX 3080", "rtx3080", "8.6"},
      {"L4", "l4", "8.9"},
      {"l40", "l40", "8.9"},
      {"L40S", "l40s", "8.9"},
      {"4090", "rtx4090", "8.9"},
      {"NVIDIA GeForce RTX 4090", "rtx4090", "8.9"},
      {"rtx4080", "rtx4080", "8.9"},
      {"h100", "h100-sxm5-80gb", "9.0"},
      {"NVIDIA H100 80GB HBM3", "h100-sxm5-80gb", "9.0"},
      {"NVIDIA H100 PCIe", "h100-pcie-80gb", "9.0"},
      {"h800", "h800-pcie-80gb", "9.0"},
      {"H200", "h200-sxm-141gb", "9.0"},
      {"B200", "b200", "10.0"},
      {"rtx5090", "rtx5090", "12.0"},
      {"TITAN V", "titan-v", "7.0"},
      {"GeForce GTX 780 Ti", "gtx780ti", "3.5"},
      {"gtx750ti", "gtx750ti", "5.0"},
      {"1080ti", "gtx1080ti", "6.1"},
      {"rtx3060", "rtx3060", "8.6"},
      {"RTX 5080", "rtx5080", "12.0"},
      {"titan rtx", "titan-rtx", "7.5"},
      // Added in the eleventh session, as nvidia-smi prints them.
      {"Tesla P100-PCIE-16GB", "tesla-p100-pcie-16gb", "6.0"},
      {"Tesla K80", "tesla-k80", "3.7"},
      {"Tesla P40", "tesla-p40", "6.1"},
      {"NVIDIA TITAN Xp", "titan-xp", "6.1"},
      {"NVIDIA GeForce GTX 1060 6GB", "gtx1060-6gb", "6.1"},
      {"Tesla V100-SXM2-32GB", "tesla-v100-sxm2-32gb", "7.0"},
      {"Tesla V100S-PCIE-32GB", "tesla-v100s-pcie-32gb", "7.0"},
      {"Quadro RTX 8000", "quadro-rtx-8000", "7.5"},
      {"NVIDIA GeForce GTX 1650", "gtx1650", "7.5"},
      {"NVIDIA A2", "a2", "8.6"},
      {"NVIDIA RTX A4500", "rtx-a4500", "8.6"},
      {"NVIDIA GeForce RTX 4060 Ti", "rtx4060ti", "8.9"},
      {"NVIDIA RTX 2000 Ada Generation", "rtx-2000-ada", "8.9"},
      {"NVIDIA H200 NVL", "h200-nvl", "9.0"},
      {"NVIDIA GeForce RTX 5070", "rtx5070", "12.0"},
      {"NVIDIA RTX PRO 5000 Blackwell", "rtx-pro-5000-blackwell", "12.0"},
      {"Tesla M60", "tesla-m60", "5.2"},
      {"Tesla M40 24GB", "tesla-m40-24gb", "5.2"},
      {"Quadro M4000", "quadro-m4000", "5.2"},
      {"Quadro P6000", "quadro-p6000", "6.1"},
      {"NVIDIA TITAN X (Pascal)", "titan-x-pascal", "6.1"},
      {"NVIDIA GeForce GTX 970", "gtx970", "5.2"},
      {"NVIDIA Jetson AGX Orin 64GB", "jetson-agx-orin-64gb", "8.7"},
      {"Jetson Orin Nano 8GB", "jetson-orin-nano-8gb", "8.7"},
      {"NVIDIA Jetson AGX Xavier", "jetson-agx-xavier", "7.2"},
      {"NVIDIA Jetson TX2", "jetson-tx2", "6.2"},
      {"NVIDIA Jetson Nano", "jetson-nano", "5.3"},
      {"NVIDIA GeForce RTX 4060 Laptop GPU", "rtx4060-laptop", "8.9"},
      {"NVIDIA GeForce RTX 4090 Laptop GPU", "rtx4090-laptop", "8.9"},
      {"NVIDIA GeForce RTX 3050 Ti Laptop GPU", "rtx3050ti-laptop", "8.6"},
      {"NVIDIA GeForce RTX 3070 Laptop GPU", "rtx3070-laptop", "8.6"},
  };
  for (const Expected& e : cases) {
    SCOPED_TRACE(e.typed);
    const Device* d = database().tryFind(e.typed);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->id, e.id);
    EXPECT_EQ(d->cc.str(), e.cc);
    EXPECT_FALSE(d->generic);
  }
}

TEST(Products, ShortNamesAndAliasesAreUnique) {
  // A name must find exactly one device: count how many devices claim each name.
  std::map<std::string, std::set<std::string>> owners;
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const Device& d : database().all()) {
    owners[lower(d.id)].insert(d.id);
    owners[lower(d.name)].insert(d.id);
    for (const std::string& a : d.aliases) owners[lower(a)].insert(d.id);
  }
  for (const auto& [name, ids] : owners) EXPECT_EQ(ids.size(), 1u) << name;
}

// --- datasheet arithmetic -----------------------------------------------------------------------

struct BandwidthCase {
  const char* gpu;
  double busBits;      // datasheet bus width
  double gbpsPerPin;   // datasheet data rate per pin
  double published;    // datasheet bandwidth, GB/s
};

TEST(Products, DramBandwidthIsBusWidthTimesDataRate) {
  const std::vector<BandwidthCase> cases = {
      {"Tesla C1060", 512, 1.6, 102},      // seed 002 Table 1: 800 MHz DDR, 512-bit, 102 GB/s
      {"gtx480", 384, 3.696, 177.4},       // GTX 480 spec: 3696 MT/s GDDR5
      {"c2050", 384, 3.0, 144},            // C2050 board spec: 1.5 GHz DDR
      {"k20x", 384, 5.2, 250},             // K20X board spec
      {"p100", 4096, 1.43, 732},           // P100 datasheet
      {"v100", 4096, 1.752, 900},          // V100: 1.75 Gbps HBM2 (NVIDIA rounds to 900)
      {"t4", 256, 10.0, 320},              // T4: 10 Gbps GDDR6
      {"a100", 5120, 2.43, 1555},          // A100 40GB: 2.43 Gbps HBM2
      {"a100-80gb", 5120, 3.186, 2039},    // A100 80GB: 3.2 Gbps HBM2e
      {"rtx3090", 384, 19.5, 936},         // GA102 whitepaper
      {"rtx4090", 384, 21.0, 1008},        // Ada whitepaper
      {"l4", 192, 12.5, 300},              // L4 datasheet
      {"rtx5090", 512, 28.0, 1792},        // RTX Blackwell whitepaper
      {"rtx a6000", 384, 16.0, 768},       // RTX A6000 datasheet: 768 GB/s
      {"a30", 3072, 2.43, 933},            // A30 datasheet: 933 GB/s
      {"a100-pcie-80gb", 5120, 3.024, 1935},  // A100 80GB PCIe datasheet: 1935 GB/s
      {"rtx 6000 ada", 384, 20.0, 960},    // RTX 6000 Ada datasheet: 960 GB/s
      {"rtx pro 6000", 512, 28.0, 1792},   // RTX PRO 6000 Blackwell datasheet: 1792 GB/s
      {"l20", 384, 18.0, 864},             // L20 product brief: 864 GB/s GDDR6
      {"p100-pcie", 4096, 1.43, 732},      // P100 datasheet (PCIe 16 GB): 732 GB/s; 1.43 Gbps HBM2 (TechPowerUp 715 MHz)
      {"p100-pcie-12gb", 3072, 1.43, 549}, // P100 datasheet (PCIe 12 GB): 549 GB/s; AnandTech: 3072-bit
      {"p40", 384, 7.2, 346},              // P40 datasheet: 346 GB/s; TechPowerUp: GDDR5 7.2 Gbps
      {"p4", 256, 6.0, 192},               // NVIDIA P4: 256-bit, 192 GB/s; TechPowerUp: 6 Gbps GDDR5
      {"k80", 384, 5.0, 240},              // K80: 5 Gbps GDDR5, 480 GB/s per two-GPU board = 240 per GPU
      {"titan xp", 384, 11.4, 547.7},      // NVIDIA TITAN Xp: 11.4 Gbps GDDR5X, 547.7 GB/s
      {"gtx1070", 256, 8.0, 256},          // NVIDIA GTX 1070: 8 Gbps GDDR5, 256 GB/s
      {"gtx1060", 192, 8.0, 192},          // NVIDIA GTX 1060 6GB: 8 Gbps GDDR5, 192 GB/s
      {"1050ti", 128, 7.0, 112},           // GTX 1050 Ti: 7 Gbps GDDR5, 112 GB/s (TechPowerUp)
      {"v100-32gb", 4096, 1.754, 900},     // V100 datasheet r5: 900 GB/s; NVML 877 MHz (1.754 Gbps HBM2)
      {"v100-pcie-32gb", 4096, 1.752, 900},  // V100 datasheet r5: 900 GB/s; TechPowerUp 876 MHz
      {"v100s", 4096, 2.214, 1134},        // V100 datasheet r5: V100S 1134 GB/s; TechPowerUp 1107 MHz
      {"rtx8000", 384, 14.0, 672},         // Quadro RTX 8000: 384-bit, 14 Gbps GDDR6, 672 GB/s (TechPowerUp)
      {"quadro rtx 6000", 384, 14.0, 672}, // Quadro RTX 6000: 384-bit, 14 Gbps GDDR6, 672 GB/s (TechPowerUp)
      {"quadro rtx 5000", 256, 14.0, 448}, // Quadro RTX 5000 datasheet: 256-bit, 448 GB/s
      {"quadro rtx 4000", 256, 13.0, 416}, // Quadro RTX 4000: 256-bit, 13 Gbps, 416 GB/s (TechPowerUp)
      {"gtx1650", 128, 8.0, 128},          // GTX 1650 (TU117, GDDR5): 8 Gbps, 128-bit, 128 GB/s
      {"gtx1660super", 192, 14.0, 336},    // GTX 1660 SUPER: 14 Gbps GDDR6, 192-bit, 336 GB/s
      {"rtx2060super", 256, 14.0, 448},    // RTX 2060 SUPER: 14 Gbps, 256-bit, 448 GB/s
      {"rtx2070super", 256, 14.0, 448},    // RTX 2070 SUPER: 14 Gbps, 256-bit, 448 GB/s
      {"rtx2080super", 256, 15.5, 496},    // RTX 2080 SUPER: 15.5 Gbps, 256-bit, 496 GB/s
      {"a2", 128, 12.5, 200.1},            // TechPowerUp 'NVIDIA A2 PCIe': 12.5 Gbps GDDR6, 128-bit, 200.1 GB/s
      {"a16", 128, 12.5, 200},             // A16 datasheet: 4 x 200 GB/s (one GPU); 12.5 Gbps
      {"rtx a4500", 320, 16.0, 640},       // RTX A4500 datasheet: 320-bit, 640 GB/s; 16 Gbps TechPowerUp
      {"rtx 3080 ti", 384, 19.0, 912},     // RTX 3080 Ti: 912 GB/s, 19 Gbps GDDR6X, 384-bit
      {"rtx 3090 ti", 384, 21.0, 1008},    // RTX 3090 Ti: 21 Gbps GDDR6X, 384-bit, 1008 GB/s
      {"a2000-12gb", 192, 12.0, 288},      // RTX A2000 12GB datasheet: 192-bit, 288 GB/s
      {"rtx 3050", 128, 14.0, 224},        // RTX 3050 launch specification: 14 Gbps GDDR6, 224 GB/s
      {"rtx 4060 ti", 128, 18.0, 288},     // RTX 4060 Ti: 18 Gbps GDDR6, 128-bit, 288 GB/s
      {"rtx 4070 super", 192, 21.0, 504},  // RTX 4070 SUPER (CES 2024): 192-bit, 504 GB/s
      {"rtx 4070 ti super", 256, 21.0, 672},  // RTX 4070 Ti SUPER (CES 2024): 256-bit, 672 GB/s
      {"rtx 4080 super", 256, 23.0, 736},  // RTX 4080 SUPER (CES 2024): 256-bit, 736 GB/s
      {"rtx 2000 ada", 128, 14.0, 224},    // RTX 2000 Ada datasheet: 128-bit, 224 GB/s
      {"rtx 4500 ada", 192, 18.0, 432},    // RTX 4500 Ada (TechPowerUp): 18 Gbps GDDR6, 192-bit, 432 GB/s
      {"h200 nvl", 6144, 6.25, 4800},      // H200 datasheet (NVL): 4.8 TB/s; 6144-bit (TechPowerUp)
      {"rtx5070", 192, 28.0, 672},         // RTX 50 specifications (CES 2025): 192-bit, 672 GB/s, 28 Gbps GDDR7
      {"rtx5070ti", 256, 28.0, 896},       // RTX 50 specifications (CES 2025): 256-bit, 896 GB/s
      {"rtx5060ti", 128, 28.0, 448},       // RTX 5060 Ti 16 GB (TechPowerUp): 128-bit, 28 Gbps, 448 GB/s
      {"rtx pro 5000", 384, 28.0, 1344},   // RTX PRO 5000 Blackwell: 1344 GB/s (NVIDIA); 384-bit, 28 Gbps
      {"rtx pro 4500", 256, 28.0, 896},    // RTX PRO 4500 Blackwell (TechPowerUp): 256-bit, 28 Gbps, 896 GB/s
      {"rtx pro 4000", 192, 28.0, 672},    // RTX PRO 4000 Blackwell (TechPowerUp): 192-bit, 28 Gbps, 672 GB/s
      {"m60", 256, 5.01, 160.4},           // TechPowerUp: 160.4 GB/s per GPU; AWS/deviceQuery: 2505 MHz memory clock
      {"m40", 384, 6.0, 288},              // Microway (M40 24GB): 288 GB/s; TechPowerUp: 6 Gbps GDDR5, 384-bit
      {"m4000", 256, 6.0, 192},            // Quadro M4000: 256-bit, 192 GB/s; TechPowerUp: 6 Gbps
      {"p4000", 256, 7.6, 243},            // Quadro P4000: 243 GB/s; TechPowerUp: 7.6 Gbps GDDR5
      {"p5000", 256, 9.0, 288},            // NVIDIA Quadro P5000: 9 Gbps GDDR5X, 256-bit, 288 GB/s
      {"p6000", 384, 9.0, 432},            // NVIDIA Quadro P6000: 9 Gbps GDDR5X, 384-bit, 432 GB/s
      {"titan x pascal", 384, 10.0, 480},  // NVIDIA TITAN X (Pascal): 10 Gbps GDDR5X, 384-bit, 480 GB/s
      {"gtx980ti", 384, 7.0, 336.6},       // TechPowerUp: 7 Gbps GDDR5, 384-bit, 336.6 GB/s
      {"gtx970", 256, 7.0, 224},           // GTX 970 reference: 7 Gbps, 256-bit, 224 GB/s (the 3.5 GB segment: 196)
      {"agx orin", 256, 6.4, 204.8},       // Jetson AGX Orin 64GB: NVIDIA 204.8 GB/s, LPDDR5 3200 MHz
      {"jetson orin nano", 128, 4.266, 68},// Jetson Orin Nano 8GB (original clocks): NVIDIA 68 GB/s
      {"agx xavier", 256, 4.266, 136.5},   // Jetson AGX Xavier: NVIDIA 136.5 GB/s, LPDDR4x
      {"tx2", 128, 3.732, 59.7},           // Jetson TX2: NVIDIA module specification, 59.7 GB/s
      {"jetson nano", 64, 3.2, 25.6},      // Jetson Nano: NVIDIA 25.6 GB/s, LPDDR4
      {"agx thor", 256, 8.532, 273},       // Jetson AGX Thor: NVIDIA 273 GB/s, 256-bit LPDDR5X
      {"rtx 4050 laptop", 96, 16.0, 192},  // NVIDIA laptop specification (96-bit); TechPowerUp 16 Gbps
      {"rtx 4060 laptop", 128, 16.0, 256}, // NVIDIA laptop specification (128-bit); TechPowerUp 16 Gbps
      {"rtx 4070 laptop", 128, 16.0, 256}, // NVIDIA laptop specification (128-bit); TechPowerUp 16 Gbps
      {"rtx 4080 laptop", 192, 18.0, 432}, // NVIDIA laptop specification (192-bit); TechPowerUp 18 Gbps
      {"rtx 4090 laptop", 256, 18.0, 576}, // NVIDIA laptop specification (256-bit); TechPowerUp 18 Gbps
      {"rtx 3050 ti laptop", 128, 12.0, 192},  // NVIDIA launch specification (128-bit); TechPowerUp 12 Gbps
      {"rtx 3070 laptop", 256, 14.0, 448}, // TechPowerUp 14 Gbps, 256-bit (lowest-power Max-Q: 12 Gbps)
      {"rtx 3080 laptop", 256, 14.0, 448}, // TechPowerUp 14 Gbps, 256-bit (lowest-power Max-Q: 12 Gbps)
  };
  for (const BandwidthCase& c : cases) {
    SCOPED_TRACE(c.gpu);
    const Device& d = database().find(c.gpu);
    const double computed = c.busBits / 8.0 * c.gbpsPerPin;
    EXPECT_EQ(d.memory.busWidthBits, static_cast<int>(c.busBits));
    EXPECT_LT(relativeError(computed, c.published), 0.01);
    EXPECT_LT(relativeError(d.memory.dramBandwidthGBs, computed), 0.01);
    // memory_mhz is the clock NVML reports: half the data rate per pin.
    EXPECT_LT(relativeError(d.clocks.memoryMhz, c.gbpsPerPin * 1000.0 / 2.0), 0.01);
  }
}

struct PeakCase {
  const char* gpu;
  double publishedGflops;  // vendor's peak FP32 (non-tensor), GFLOP/s
};

TEST(Products, PeakFp32MatchesThePublishedFigureWithinOnePercent) {
  // Peak = 2 flops per FMA x SMs x FP32 FMA results per clock per SM x clock. The clock is the
  // shader clock on Tesla/Fermi (cc < 3) and the boost clock after, except where the vendor
  // quotes Kepler and Maxwell peaks at the base clock (marked).
  const std::vector<PeakCase> atBoost = {
      {"gtx480", 1345},    // GTX 480 spec: 1345 GFLOPS
      {"c2050", 1030},     // C2050 datasheet: 1.03 TFLOPS single
      {"p100", 10600},     // P100 SXM2: 10.6 TFLOPS
      {"gtx1080", 8873},   // GTX 1080 whitepaper: 8873 GFLOPS
      {"v100", 15700},     // V100 SXM2: 15.7 TFLOPS
      {"v100-pcie", 14000},// V100 PCIe: 14 TFLOPS
      {"t4", 8100},        // T4: 8.1 TFLOPS
      {"a100", 19500},     // A100: 19.5 TFLOPS
      {"a10", 31200},      // A10: 31.2 TFLOPS
      {"a40", 37400},      // A40: 37.4 TFLOPS
      {"rtx3090", 35580},  // GA102 whitepaper: 35.6 TFLOPS
      {"l4", 30300},       // L4: 30.3 TFLOPS
      {"l40s", 91600},     // L40S: 91.6 TFLOPS
      {"rtx4090", 82600},  // Ada whitepaper: 82.6 TFLOPS
      {"h100", 66900},     // H100 SXM5: 66.9 TFLOPS (whitepaper), 67 (datasheet)
      {"h100-pcie", 51200},// H100 PCIe: 51 TFLOPS (datasheet), 51.2 (whitepaper)
      {"titan v", 14900},  // TITAN V: 14.9 TFLOPS
      {"titan rtx", 16300},// TITAN RTX: 16.3 TFLOPS
      {"gtx1080ti", 11340},// GTX 1080 Ti: 11.3 TFLOPS
      {"rtx3060", 12740},  // RTX 3060: 12.7 TFLOPS
      {"rtx5080", 56300},  // RTX Blackwell whitepaper: 56.3 TFLOPS
      {"rtx5090", 104800}, // RTX Blackwell whitepaper: 104.8 TFLOPS
      {"rtx a6000", 38700},      // RTX A6000 datasheet: 38.7 TFLOPS
      {"rtx a5000", 27800},      // RTX A5000 datasheet: 27.8 TFLOPS
      {"rtx a4000", 19200},      // RTX A4000 datasheet: 19.2 TFLOPS
      {"rtx 6000 ada", 91100},   // RTX 6000 Ada datasheet: 91.1 TFLOPS
      {"rtx 5000 ada", 65300},   // RTX 5000 Ada datasheet: 65.3 TFLOPS
      {"rtx 4000 ada", 26700},   // RTX 4000 Ada datasheet: 26.7 TFLOPS
      {"rtx3070", 20300},        // GA102 whitepaper Table 2: RTX 3070 20.3 TFLOPS
      {"rtx2080", 10100},        // GeForce RTX 2080 (reference): 10.1 TFLOPS
      {"quadro gv100", 16700},   // Quadro GV100 datasheet: 16.7 TFLOPS
      {"a100-pcie-80gb", 19500}, // A100 datasheet: 19.5 TFLOPS
      {"a30", 10300},            // A30 datasheet: 10.3 TFLOPS
      {"rtx pro 6000", 125000},  // RTX PRO 6000 Blackwell datasheet: 125 TFLOPS
      {"gh200", 67000},          // GH200 datasheet: 67 TFLOPS
      {"h100 nvl", 60000},       // H100 datasheet, H100 NVL: 60 TFLOPS
      {"l20", 59800},            // L20 product brief: 59.8 TFLOPS
      {"p100-pcie", 9300},       // P100 datasheet, PCIe: 9.3 TFLOPS
      {"p100-pcie-12gb", 9300},  // P100 datasheet, PCIe: 9.3 TFLOPS
      {"p40", 11760},            // TechPowerUp: 11.76 TFLOPS (NVIDIA's rounded 12 is 2 % above)
      {"k80", 4370},             // K80: 8.74 TFLOPS per two-GPU board at boost = 4.37 per GPU
      {"titan xp", 12150},       // TechPowerUp: 12.15 TFLOPS (NVIDIA's rounded 12)
      {"gtx1070", 6500},         // NVIDIA GTX 1070: 6.5 TFLOPS
      {"gtx1060", 4400},         // NVIDIA GTX 1060 launch: 4.4 TFLOPS
      {"v100-32gb", 15700},      // V100 datasheet r5: V100 SXM2 15.7 TFLOPS
      {"v100-pcie-32gb", 14000}, // V100 datasheet r5: V100 PCIe 14 TFLOPS
      {"v100s", 16400},          // V100 datasheet r5: V100S PCIe 16.4 TFLOPS
      {"rtx8000", 16300},        // Quadro RTX 8000 (NVIDIA): 16.3 TFLOPS
      {"quadro rtx 6000", 16300},// Quadro RTX 6000 (NVIDIA): 16.3 TFLOPS
      {"quadro rtx 5000", 11200},// Quadro RTX 5000 datasheet: 11.2 TFLOPS
      {"quadro rtx 4000", 7100}, // Quadro RTX 4000 (NVIDIA): 7.1 TFLOPS
      {"a16", 4500},             // A16 datasheet: 4 x 4.5 TFLOPS (one GPU)
      {"rtx a4500", 23700},      // RTX A4500 datasheet: 23.7 TFLOPS
      {"rtx 3080 ti", 34100},    // RTX 3080 Ti: 34.1 TFLOPS
      {"rtx 3090 ti", 40000},    // RTX 3090 Ti: 40 TFLOPS
      {"a2000-12gb", 8000},      // RTX A2000 12GB datasheet: 8.0 TFLOPS
      {"rtx 3050", 9100},        // NVIDIA RTX 30 specifications: 9.1 TFLOPS
      {"rtx 4060 ti", 22000},    // NVIDIA: 22 TFLOPS
      {"rtx 2000 ada", 12000},   // RTX 2000 Ada datasheet: 12.0 TFLOPS
      {"h200 nvl", 60000},       // H200 datasheet, H200 NVL: 60 TFLOPS
      {"m60", 4820},             // Microway: 9.64 TFLOPS per two-GPU board at GPU Boost = 4.82 per GPU
      {"m40", 6840},             // Microway: 6.84 TFLOPS at GPU Boost
      {"p5000", 8900},           // NVIDIA Quadro P5000: 8.9 TFLOPS
      {"p6000", 12630},          // TechPowerUp: 12.63 TFLOPS (NVIDIA's rounded 12 is 5 % below)
      {"titan x pascal", 11000}, // NVIDIA TITAN X (Pascal): 11 TFLOPS
      {"agx orin", 5300},        // Jetson AGX Orin technical brief: 5.3 TFLOPS FP32
  };
  for (const PeakCase& c : atBoost) {
    SCOPED_TRACE(c.gpu);
    const Device& d = database().find(c.gpu);
    const double clockMhz = d.cc.major < 3 ? d.clocks.shaderMhz : d.clocks.coreMhz;
    const double gflops =
        2.0 * d.smCount * d.throughputOf(InstructionClass::Fp32Fma) * clockMhz / 1000.0;
    EXPECT_LT(relativeError(gflops, c.publishedGflops), 0.01) << gflops;
  }
  const std::vector<PeakCase> atBase = {
      {"k20x", 3950},    // K20X board spec: 3.95 TFLOPS at 732 MHz
      {"gtx980", 4612},  // GTX 980 whitepaper: 4612 GFLOPS at 1126 MHz
      {"gtx680", 3090},  // GTX 680 whitepaper: 3090 GFLOPS at 1006 MHz
      {"gtx780ti", 5040},// GTX 780 Ti: 5.04 TFLOPS at 875 MHz
      {"gtx750ti", 1306},// GTX 750 Ti whitepaper: 1306 GFLOPS at 1020 MHz
      {"gtx980ti", 5630},// GamersNexus: 5.63 TFLOPS at 1000 MHz
  };
  for (const PeakCase& c : atBase) {
    SCOPED_TRACE(c.gpu);
    const Device& d = database().find(c.gpu);
    const double gflops =
        2.0 * d.smCount * d.throughputOf(InstructionClass::Fp32Fma) * d.clocks.baseMhz / 1000.0;
    EXPECT_LT(relativeError(gflops, c.publishedGflops), 0.01) << gflops;
  }
}

TEST(Products, OneChipOneComputeCapability) {
  // A die has one SM design, so every product of a chip has the same compute capability (the
  // guide's CUDA GPUs list): a chip name typed onto the wrong product would show up here.
  std::map<std::string, std::string> ccOfChip;
  for (const Device& d : database().all()) {
    if (d.generic) continue;
    const auto [it, inserted] = ccOfChip.emplace(d.chip, d.cc.str());
    EXPECT_EQ(it->second, d.cc.str()) << d.id << " (" << d.chip << ")";
  }
  EXPECT_GE(ccOfChip.size(), 25u);  // 28 chips from GT200 to GB202
}

TEST(Products, Fp64PeakMatchesTheProductLine) {
  // GeForce parts run double precision slower than the Tesla parts of the same chip. Expected
  // peaks (GFLOP/s) are the vendors' and reviewers' published FP64 figures, computed here as
  // 2 x SMs x fp64 results per clock per SM x clock (shader clock on Fermi, base on Kepler).
  struct Fp64Case {
    const char* gpu;
    double publishedGflops;
    bool atBase;  // Kepler boards quote their peak at the base clock
  };
  const std::vector<Fp64Case> cases = {
      {"gtx480", 168, false},     // GeForce GF100: 1/8 of 1345
      {"gtx580", 197.6, false},   // GeForce GF110: 1/8 of 1581
      {"c2050", 515, false},      // Tesla C2050 datasheet: 515 GFLOPS double
      {"gtx780ti", 210, true},    // GeForce GK110: 1/24 of 5040 (base clock)
      {"k20x", 1310, true},       // K20X board spec: 1.31 TFLOPS double (base clock)
      {"h800", 800, false},       // H800 PCIe datasheet: FP64 0.8 TFLOPS
      {"h100", 33500, false},     // H100 SXM5: 33.5 TFLOPS FP64 (whitepaper)
      {"a40", 584.6, false},      // A40: 1/64 of 37.4 TFLOPS
      {"h100 nvl", 30000, false}, // H100 datasheet, H100 NVL: FP64 30 TFLOPS (1/2)
      {"quadro gv100", 8330, false},  // GV100: 1/2 of 16.66 TFLOPS (the Quadro keeps GV100's rate)
      {"rtx2080", 314.6, false},  // GeForce Turing: 1/32 of 10.07 TFLOPS
      {"rtx3070", 317.4, false},  // GeForce GA104: 1/64 of 20.3 TFLOPS
      {"rtx4070", 455.4, false},  // GeForce AD104: 1/64 of 29.15 TFLOPS
      {"rtx a6000", 604.8, false},// workstation GA102: 1/64 of 38.7 TFLOPS
      {"l20", 927.4, false},      // AD102: 1/64 of 59.35 TFLOPS (database figure)
      {"p100-pcie", 4700, false}, // P100 datasheet, PCIe: 4.7 TFLOPS double (1/2)
      {"k80", 1455, false},       // K80: 2.91 TFLOPS double (1/3) per two-GPU board at boost
      {"k80", 935, true},         // K80: 1.87 TFLOPS double per board at the base clock
      {"gtx1070", 203.1, false},  // GeForce GP104: 1/32 of 6.5 TFLOPS
      {"v100s", 8200, false},     // V100 datasheet r5: V100S FP64 8.2 TFLOPS (1/2)
      {"v100-pcie-32gb", 7000, false},  // V100 datasheet r5: V100 PCIe FP64 7 TFLOPS (1/2)
      {"rtx8000", 509.8, false},  // Quadro Turing: 1/32 of 16.31 TFLOPS
      {"a16", 70.3, false},       // GA107: 1/64 of 4.5 TFLOPS
      {"rtx a4500", 370.3, false},// workstation GA102: 1/64 of 23.7 TFLOPS
      {"rtx 4080 super", 816, false},  // TechPowerUp: FP64 816 GFLOPS (1/64)
      {"h200 nvl", 30000, false}, // H200 datasheet, H200 NVL: FP64 30 TFLOPS (1/2)
      {"rtx pro 5000", 1045.9, false},  // workstation GB202: 1/64 of 66.94 TFLOPS (TechPowerUp)
  };
  for (const Fp64Case& c : cases) {
    SCOPED_TRACE(c.gpu);
    const Device& d = database().find(c.gpu);
    const double clockMhz = d.cc.major < 3 ? d.clocks.shaderMhz : (c.atBase ? d.clocks.baseMhz : d.clocks.coreMhz);
    const double gflops = 2.0 * d.smCount * d.throughputOf(InstructionClass::Fp64Fma) * clockMhz / 1000.0;
    EXPECT_LT(relativeError(gflops, c.publishedGflops), 0.01) << gflops;
  }
}

TEST(Products, SeedFiguresHold) {
  // Seed 002 Table 3 / Sect. 4: latency hiding needs latency / issue interval warps; the figures
  // the C1060 file carries are the seed's own measurements.
  const Device& teslaC1060 = database().find("Tesla C1060");
  ASSERT_EQ(teslaC1060.measured.count("mad_smem"), 1u);
  EXPECT_DOUBLE_EQ(teslaC1060.measured.at("mad_smem").value, 34.6);  // seed 002 Table 2
  // Seed 001 Sect. IV: "an NVIDIA GTX480 with 15 multiprocessors, each of which has 32 cores and
  // supports up to 1536 threads sharing the same 48 KB shared memory".
  const Device& gtx480 = database().find("GTX480");
  EXPECT_EQ(gtx480.smCount, 15);
  EXPECT_EQ(gtx480.limits.maxThreadsPerSm, 1536);
  EXPECT_EQ(gtx480.limits.sharedMemoryPerSm, 48 * 1024);
  EXPECT_EQ(gtx480.throughputOf(InstructionClass::Fp32Fma), 32);  // 32 cores per SM
  // Seed 002 Table 1 / Example 1: Tesla C1060, 240 SPs = N_SM 30, 1.3 GHz, 512-bit, 4096 MB,
  // "SP without dual issue" 624 Gflop/s = 240 x 1.3 GHz x 2.
  const Device& c1060 = database().find("c1060");
  EXPECT_EQ(c1060.smCount, 30);
  EXPECT_NEAR(c1060.clocks.shaderMhz, 1300, 5);
  EXPECT_EQ(c1060.memory.busWidthBits, 512);
  EXPECT_EQ(c1060.memory.dramGiB, 4);
  EXPECT_EQ(c1060.memory.l2Bytes, 0);  // no cache for global memory on cc 1.x
  const double gflops = 2.0 * c1060.smCount *
                        c1060.throughputOf(InstructionClass::Fp32Fma) * c1060.clocks.shaderMhz /
                        1000.0;
  EXPECT_LT(relativeError(gflops, 624), 0.01) << gflops;
  // Seed 003: Tesla C2050, cc 2.0, "Maximum Active threads per SM: 1536"; 448 CUDA cores / 32
  // per SM = 14 SMs (C2050 board specification).
  const Device& c2050 = database().find("Tesla C2050");
  EXPECT_EQ(c2050.limits.maxThreadsPerSm, 1536);
  EXPECT_EQ(c2050.smCount, 14);
}

// --- measured latencies against data/validation/memory_latency.csv ------------------------------

std::vector<std::vector<std::string>> readCsv(const std::string& name) { return teg::test::readValidationCsv(name); }

// The "(a, b, ..., z)" citation that follows `marker` in a figure's source, split at ", ". The
// last field is taken to run to the closing parenthesis, and the middle one may contain ", "
// (PTX text such as "mov.u32 r1, tid.x"), so the caller says how many fields to expect.
std::vector<std::string> citedRow(const std::string& source, const std::string& marker,
                                  std::size_t fields) {
  const auto at = source.find(marker);
  if (at == std::string::npos) return {};
  std::string inside = source.substr(at + marker.size());
  std::vector<std::string> out;
  for (std::size_t i = 0; i + 1 < fields; ++i) {
    if (i + 2 == fields) {  // the field before the last one ends at the last ", " before ")"
      const auto close = inside.find(')');
      const auto comma = inside.rfind(", ", close);
      out.push_back(inside.substr(0, comma));
      inside = inside.substr(comma + 2);
    } else {
      const auto comma = inside.find(", ");
      out.push_back(inside.substr(0, comma));
      inside = inside.substr(comma + 2);
    }
  }
  out.push_back(inside.substr(0, inside.find(')')));
  return out;
}

TEST(Products, MeasuredLatenciesAreRowsOfTheValidationCsvs) {
  // memory_latency.csv: gpu,cc,level,cycles,method,... ; key (gpu|level|method) -> cycles
  std::map<std::string, double> memoryRows;
  for (const auto& f : readCsv("memory_latency.csv"))
    memoryRows[f.at(0) + "|" + f.at(2) + "|" + f.at(4)] = std::stod(f.at(3));
  // instruction_latency.csv: gpu,cc,isa,instruction,kind,cycles,... (dependent latencies only)
  std::map<std::string, double> instructionRows;
  for (const auto& f : readCsv("instruction_latency.csv"))
    if (f.at(4) == "dependent_latency")
      instructionRows[f.at(0) + "|" + f.at(2) + "|" + f.at(3) + "|" + f.at(5)] =
          std::stod(f.at(5));
  ASSERT_EQ(memoryRows.size(), 99u);  // the row count data/validation/README.md gives

  std::set<std::string> memoryUsed;
  int instructionChecked = 0;
  int siblingChecked = 0;
  for (const Device& d : database().all()) {
    if (d.generic) continue;
    for (const auto& [what, m] : d.measured) {
      SCOPED_TRACE(d.id + " latency." + what);
      EXPECT_EQ(m.unit, "cycles");
      EXPECT_FALSE(m.method.empty());
      // A sibling's measurement (measured_on another GPU of the same chip) is that GPU's own
      // figure: the same value, method and chip.
      std::string on;
      for (const auto& fig : d.figures)
        if (fig.key == "latency." + what) on = fig.measuredOn;
      if (!on.empty() && on != d.id) {
        const Device& sibling = database().find(on);
        EXPECT_EQ(sibling.chip, d.chip);
        const auto own = sibling.measured.find(what);
        ASSERT_NE(own, sibling.measured.end()) << on;
        EXPECT_DOUBLE_EQ(m.value, own->second.value);
        EXPECT_EQ(m.method, own->second.method);
        ++siblingChecked;
        continue;
      }
      if (const auto row = citedRow(m.source, "data/validation/memory_latency.csv (", 3);
          !row.empty()) {
        // "(<gpu>, <level>, <method>)"; the key is latency.<level> or latency.<level>@<method>.
        EXPECT_EQ(row[2], m.method);
        EXPECT_EQ(what.substr(0, what.find('@')), row[1]);
        const std::string key = row[0] + "|" + row[1] + "|" + row[2];
        const auto found = memoryRows.find(key);
        ASSERT_NE(found, memoryRows.end()) << key;
        EXPECT_DOUBLE_EQ(m.value, found->second);
        EXPECT_TRUE(memoryUsed.insert(key).second) << "row filed twice: " << key;
      } else if (const auto irow =
                     citedRow(m.source, "data/validation/instruction_latency.csv (", 4);
                 !irow.empty()) {
        // "(<gpu>, <isa>, <instruction>, dependent_latency)"
        EXPECT_EQ(irow[3], "dependent_latency");
        // Cycles are part of the row key because Jia's Turing table lists some opcodes twice.
        const std::string prefix = irow[0] + "|" + irow[1] + "|" + irow[2] + "|";
        const auto found = instructionRows.lower_bound(prefix);
        ASSERT_TRUE(found != instructionRows.end() && found->first.rfind(prefix, 0) == 0)
            << prefix;
        bool matches = false;
        for (auto it = found; it != instructionRows.end() && it->first.rfind(prefix, 0) == 0; ++it)
          matches = matches || it->second == m.value;
        EXPECT_TRUE(matches) << prefix << " " << m.value;
        ++instructionChecked;
      } else {
        // The only other measured figures are seed 002's Tesla C1060 measurements.
        EXPECT_EQ(d.id, "tesla-c1060");
        EXPECT_NE(m.source.find("seed 002"), std::string::npos) << m.source;
      }
    }
  }
  // Every memory_latency.csv row is filed under exactly one product.
  EXPECT_EQ(memoryUsed.size(), memoryRows.size());
  // Filed from a sibling: the A100 SXM4 80GB's far-L2 latency (the A100 SXM4 40GB's) and the far-L2
  // latency of the H100 SXM5 / PCIe / NVL, H200, H200 NVL and GH200 (the H800 PCIe's, Luo 2025).
  EXPECT_EQ(siblingChecked, 1 + 6);
  // Dependent latencies filed: V100 24 + T4 26 less the 4 ambiguous DSET/DSETP rows + TITAN V 43
  // + TITAN RTX 43 (README: 245 rows = these 136 + A100's 109 independent-issue rows).
  EXPECT_EQ(instructionChecked, 24 + 22 + 43 + 43);
}

}  // namespace
