#include "differential.hpp"

#include <bit>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "teg/emu/emulator.hpp"
#include "teg/emu/npy.hpp"
#include "teg/ptx/parser.hpp"
#include "teg/sass/parser.hpp"
#include "teg/support/error.hpp"
#include "teg/support/input_file.hpp"
#include "teg/toolchain/compiler.hpp"
#include "teg/toolchain/disassembler.hpp"

namespace teg::differential {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

template <class T>
std::span<const std::byte> bytesOf(const std::vector<T>& v) {
  return std::as_bytes(std::span<const T>(v));
}

struct Buffers {
  std::vector<std::vector<std::byte>> contents;  // in kBufferNames order
};

constexpr std::array<const char*, 8> kBufferNames = {"ui", "fi", "di", "uo", "fo", "dd", "ai", "ao"};
constexpr std::array<int, 8> kElementBytes = {4, 4, 8, 4, 4, 8, 4, 4};

// Runs one kernel on one emulator; the buffers it leaves, or the error it stopped with.
struct Outcome {
  std::optional<Buffers> buffers;
  std::string error;
};

Outcome runOne(const ptx::Module& ptxModule, const sass::Module* sassModule, std::string_view cubin, int sm,
               const GeneratedKernel& k, const KernelInputs& in) {
  Outcome out;
  try {
    emu::Emulator e(ptxModule, k.name, emu::Dim3{k.gridX, 1, 1}, emu::Dim3{k.blockX, 1, 1});
    const std::size_t threads = threadCount(k);
    e.addBuffer("ui", bytesOf(in.ui));
    e.addBuffer("fi", bytesOf(in.fi));
    e.addBuffer("di", bytesOf(in.di));
    e.addZeroedBuffer("uo", threads * kOutputsPerThread * 4);
    e.addZeroedBuffer("fo", threads * kOutputsPerThread * 4);
    e.addZeroedBuffer("dd", threads * kDoublesPerThread * 8);
    e.addZeroedBuffer("ai", threads * kApproxPerThread * 4);
    e.addZeroedBuffer("ao", threads * kApproxPerThread * 4);
#ifdef TEG_DIFFERENTIAL_HAVE_SASS
    if (sassModule != nullptr) e.selectSass(*sassModule, sm, cubin);  // the cubin: constant bank 2
#else
    if (sassModule != nullptr) throw Error(fmt::format("no SASS emulator in this build (sm_{})", sm));
#endif
    emu::RunOptions options;
    options.threads = 1;
    options.maxBlockInstructions = std::uint64_t{1} << 22;  // a generated kernel runs < 10^4 per block
    e.run(options);
    Buffers b;
    for (const char* name : kBufferNames) {
      const auto span = e.buffer(name);
      b.contents.emplace_back(span.begin(), span.end());
    }
    out.buffers = std::move(b);
  } catch (const std::exception& ex) {
    out.error = ex.what();
  }
  return out;
}

std::string describeFloat(std::uint32_t bits) {
  return fmt::format("0x{:08x} ({:g})", bits, static_cast<double>(std::bit_cast<float>(bits)));
}
std::string describeDouble(std::uint64_t bits) {
  return fmt::format("0x{:016x} ({:g})", bits, std::bit_cast<double>(bits));
}

// The distance between adjacent floats at |x| (the ulp of a result of that size).
double ulpOf(float x) {
  const float a = std::fabs(x);
  if (!std::isfinite(a)) return 0;
  const float next = std::nextafter(a, std::numeric_limits<float>::infinity());
  return static_cast<double>(next) - static_cast<double>(a);
}

// Compares the two runs' buffers; appends what differs to `diffs` (at most a few per kernel).
void compareBuffers(const GeneratedKernel& k, const std::string& arch, const Buffers& p, const Buffers& s,
                    Summary& summary) {
  int reported = 0;
  auto report = [&](std::string what) {
    if (reported++ < 4) summary.differences.push_back(Difference{k.seed, arch, std::move(what)});
  };
  std::vector<float> approxArgs(threadCount(k) * kApproxPerThread);
  // Which NaN a float or double result holds is not always the PTX's to say: the PTX ISA gives
  // neg, abs, min and max of NaNs "an unspecified NaN", and ptxas folds those into what it likes.
  // min/max.f64 of two NaNs is DSETP.MIN/MAX + a LOP3 quieting the second operand, and ptxas may
  // commute the operands (fmax(sqrt(x), x) of an sNaN x: DSETP.MAX x, sqrt(x) on sm_75-sm_120, so
  // the GPU keeps sqrt(x)'s NaN where the PTX emulator quiets x); (double)(-f) of a NaN f is
  // `F2F.F64.F32 R2, -R0`, which keeps the flipped sign that neg.f32 (FADD -R0, -RZ) would drop.
  // So a NaN in fo, dd or ai (the .approx inputs, float values like fo: seed 5002444's ai[9] was a
  // NaN of the other sign) matches any NaN (counted apart); integer outputs stay bit for bit.
  for (std::size_t b = 0; b < kBufferNames.size(); ++b) {
    const auto& x = p.contents[b];
    const auto& y = s.contents[b];
    const std::string name = kBufferNames[b];
    if (x.size() != y.size()) {
      report(fmt::format("buffer {}: {} bytes on the PTX path, {} on the SASS path", name, x.size(), y.size()));
      continue;
    }
    if (name == "ai") std::memcpy(approxArgs.data(), x.data(), std::min(x.size(), approxArgs.size() * 4));
    if (name == "ao") continue;  // below, with its bound
    summary.bitsCompared += x.size();
    if (std::memcmp(x.data(), y.data(), x.size()) == 0) continue;
    const int w = kElementBytes[b];
    for (std::size_t i = 0; i + w <= x.size(); i += w) {
      if (std::memcmp(x.data() + i, y.data() + i, w) == 0) continue;
      std::uint64_t px = 0, sy = 0;
      std::memcpy(&px, x.data() + i, w);
      std::memcpy(&sy, y.data() + i, w);
      const bool bothNaN = w == 8 ? std::isnan(std::bit_cast<double>(px)) && std::isnan(std::bit_cast<double>(sy))
                                  : std::isnan(std::bit_cast<float>(static_cast<std::uint32_t>(px))) &&
                                        std::isnan(std::bit_cast<float>(static_cast<std::uint32_t>(sy)));
      if ((name == "fo" || name == "dd" || name == "ai") && bothNaN) {
        ++summary.nanPayloadsTolerated;
        continue;
      }
      const std::size_t element = i / w;
      const auto thread = element / (name == "dd" || name == "di" ? kDoublesPerThread : kOutputsPerThread);
      if (w == 8)
        report(fmt::format("{}[{}] (thread {}): ptx {} sass {}", name, element, thread, describeDouble(px), describeDouble(sy)));
      else if (name[0] == 'f' || name[0] == 'a')
        report(fmt::format("{}[{}] (thread {}): ptx {} sass {}", name, element, thread,
                           describeFloat(static_cast<std::uint32_t>(px)), describeFloat(static_cast<std::uint32_t>(sy))));
      else
        report(fmt::format("{}[{}] (thread {}): ptx 0x{:08x} sass 0x{:08x}", name, element, thread, px, sy));
    }
  }
  // .approx results: within the documented bound of the PTX emulator's (correctly rounded) value,
  // plus that value's own half ulp; NaN matches NaN, and a result below 2^-126 may be flushed.
  const auto& pa = p.contents[7];
  const auto& sa = s.contents[7];
  if (pa.size() != sa.size()) return;
  for (std::size_t i = 0; i * 4 < pa.size(); ++i) {
    const Approx kind = k.approxSlots[i % kApproxPerThread];
    if (kind == Approx::None) continue;
    float a = 0, b = 0;
    std::memcpy(&a, pa.data() + 4 * i, 4);
    std::memcpy(&b, sa.data() + 4 * i, 4);
    ++summary.approxChecked;
    if (std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b)) continue;
    if (std::isnan(a) && std::isnan(b)) continue;
    const auto bound = approxBound(kind, approxArgs[i]);
    if (!bound) continue;  // outside the documented range
    const double tiny = std::ldexp(1.0, -126);
    if (std::fabs(a) < tiny && std::fabs(b) < tiny) continue;
    const double allowed = std::max(bound->ulps * ulpOf(a), bound->absolute) + 0.5 * ulpOf(a);
    const double error = std::fabs(static_cast<double>(a) - static_cast<double>(b));
    if (std::isfinite(a) && std::isfinite(b) && error <= allowed) continue;
    report(fmt::format("ao[{}] {}({:g}): ptx {} sass {}: {:g} apart, bound {:g}", i, bound->name,
                       static_cast<double>(approxArgs[i]), describeFloat(std::bit_cast<std::uint32_t>(a)),
                       describeFloat(std::bit_cast<std::uint32_t>(b)), error, allowed));
  }
}

// Writes k_<seed>.cu, its inputs (.npy) and a launch file that `teg run` accepts.
void keepReproducer(const GeneratedKernel& k, const KernelInputs& in, const RunConfig& config) {
  const fs::path dir = fs::path(config.keepDirectory) / k.name;
  fs::create_directories(dir);
  std::ofstream(dir / (k.name + ".cu")) << translationUnit({k});
  emu::writeNpy((dir / "ui.npy").string(), emu::ScalarType::U32,
                std::vector<std::byte>(bytesOf(in.ui).begin(), bytesOf(in.ui).end()));
  emu::writeNpy((dir / "fi.npy").string(), emu::ScalarType::F32,
                std::vector<std::byte>(bytesOf(in.fi).begin(), bytesOf(in.fi).end()));
  emu::writeNpy((dir / "di.npy").string(), emu::ScalarType::F64,
                std::vector<std::byte>(bytesOf(in.di).begin(), bytesOf(in.di).end()));
  const std::size_t threads = threadCount(k);
  auto file = [](const char* type, std::size_t count, const char* path) {
    return nlohmann::json{{"type", type}, {"count", count}, {"init", {{"file", path}}}};
  };
  auto zeros = [](const char* type, std::size_t count) {
    return nlohmann::json{{"type", type}, {"count", count}, {"init", "zeros"}};
  };
  nlohmann::json launch = {
      {"source", k.name + ".cu"},
      {"kernel", k.name},
      {"description", fmt::format("differential test kernel, seed {}, {}", k.seed, config.arch)},
      {"grid", {k.gridX}},
      {"block", {k.blockX}},
      {"nvcc_args", config.nvccFlags},
      {"args",
       {{{"name", "ui"}, {"buffer", file("u32", threads * kInputsPerThread, "ui.npy")}},
        {{"name", "fi"}, {"buffer", file("f32", threads * kInputsPerThread, "fi.npy")}},
        {{"name", "di"}, {"buffer", file("f64", threads * kDoublesPerThread, "di.npy")}},
        {{"name", "uo"}, {"buffer", zeros("u32", threads * kOutputsPerThread)}},
        {{"name", "fo"}, {"buffer", zeros("f32", threads * kOutputsPerThread)}},
        {{"name", "dd"}, {"buffer", zeros("f64", threads * kDoublesPerThread)}},
        {{"name", "ai"}, {"buffer", zeros("f32", threads * kApproxPerThread)}},
        {{"name", "ao"}, {"buffer", zeros("f32", threads * kApproxPerThread)}}}},
  };
  std::ofstream(dir / (k.name + ".launch.json")) << launch.dump(1) << "\n";
}

}  // namespace

int smVersion(const std::string& arch) {
  if (arch.rfind("sm_", 0) != 0) throw Error(fmt::format("'{}': expected sm_XY", arch));
  try {
    return std::stoi(arch.substr(3));
  } catch (const std::exception&) {
    throw Error(fmt::format("'{}': expected sm_XY", arch));
  }
}

namespace {

// Runs `argv` without a shell, its stdout and stderr into `log`; the exit status (-1: a signal).
int runProgram(const std::vector<std::string>& argv, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error(fmt::format("cannot run {}: {}", argv[0], std::strerror(rc)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The tools run on batches of up to thousands of kernels, and bulk runs go at `nice -n 19` on a
// shared machine, where nvdisasm's default two minutes ran out on 25 kernels x 7 architectures
// (load average 14 on two cores): an hour each before the run stops.
constexpr std::chrono::milliseconds kToolTimeout{3600 * 1000};

// ptxas: where teg finds the CUDA tools, else beside nvcc (it always comes with nvcc).
const std::string& ptxasPath() {
  static const std::string path = [] {
    if (auto p = toolchain::findCudaTool("ptxas", toolchain::cudaToolSearchFromEnvironment("ptxas"))) return *p;
    const fs::path sibling = fs::path(toolchain::findNvcc()).parent_path() / "ptxas";
    if (!fs::exists(sibling)) throw Error("ptxas not found (it comes with nvcc: " + sibling.string() + ")");
    return sibling.string();
  }();
  return path;
}

// ptxas on the PTX of an earlier nvcc run, as nvcc itself runs it (`nvcc --dryrun`: -m64,
// --generate-line-info for -lineinfo, and nvcc's -fmad=false as "--fmad false"): the cubin.
std::string assemble(const fs::path& ptx, const std::string& arch, const RunConfig& config, const fs::path& scratch) {
  std::vector<std::string> argv{ptxasPath(), "-arch=" + arch, "-m64", "--generate-line-info"};
  for (const auto& f : config.nvccFlags)
    if (f == "-fmad=false") argv.insert(argv.end(), {"--fmad", "false"});
  const fs::path cubin = scratch / fmt::format("{}.{}.cubin", ptx.stem().string(), arch);
  const fs::path log = scratch / "ptxas.log";
  argv.insert(argv.end(), {ptx.string(), "-o", cubin.string()});
  if (runProgram(argv, log) != 0) throw Error(fmt::format("ptxas -arch={} failed on {}:\n{}", arch, ptx.string(), readInputFile(log.string())));
  std::string bytes = readInputFile(cubin.string());
  fs::remove(cubin);
  return bytes;
}

// Compares one kernel's two outcomes into `summary` (and keeps a reproducer of a difference).
void judge(const GeneratedKernel& k, const KernelInputs& in, const Outcome& p, const Outcome& s, const std::string& arch,
           const RunConfig& config, Summary& summary) {
  const std::size_t before = summary.differences.size();
  if (!s.buffers && s.error.rfind("unsupported SASS instruction", 0) == 0) {
    summary.waiting.push_back(Difference{k.seed, arch, s.error.substr(0, s.error.find(" in block"))});
    return;
  }
  if (p.buffers && s.buffers) {
    ++summary.compared;
    compareBuffers(k, arch, *p.buffers, *s.buffers, summary);
  } else if (!p.buffers && !s.buffers) {
    summary.bothFailed.push_back(Difference{k.seed, arch, "PTX: " + p.error + " | SASS: " + s.error});
  } else {
    summary.differences.push_back(Difference{
        k.seed, arch, p.buffers ? "only the SASS emulator failed: " + s.error : "only the PTX emulator failed: " + p.error});
  }
  if (summary.differences.size() != before && !config.keepDirectory.empty()) {
    RunConfig forArch = config;
    forArch.arch = arch;
    keepReproducer(k, in, forArch);
  }
}

}  // namespace

Summary runDifferential(std::uint64_t firstSeed, std::uint64_t count, std::uint64_t batch, const RunConfig& config,
                        const std::function<void(const Summary&)>& progress) {
  std::function<void(const std::vector<Summary>&)> each;
  if (progress) each = [&](const std::vector<Summary>& s) { progress(s.front()); };
  return runDifferentialOnePtx(firstSeed, count, batch, config, {}, each).front();
}

std::vector<Summary> runDifferentialOnePtx(std::uint64_t firstSeed, std::uint64_t count, std::uint64_t batch,
                                           const RunConfig& config, const std::vector<std::string>& moreArchs,
                                           const std::function<void(const std::vector<Summary>&)>& progress) {
  std::vector<std::string> archs{config.arch};
  archs.insert(archs.end(), moreArchs.begin(), moreArchs.end());
  std::vector<int> sms;
  for (const auto& a : archs) {
    sms.push_back(smVersion(a));
    if (sms.back() < sms.front())
      throw Error(fmt::format("{}: PTX written for {} cannot be assembled for an older architecture", a, config.arch));
  }
  std::vector<Summary> summaries(archs.size());
  const fs::path scratch =
      config.keepDirectory.empty()
          ? fs::temp_directory_path() / fmt::format("teg-differential-{}-{}", ::getpid(), firstSeed)
          : fs::path(config.keepDirectory);
  fs::create_directories(scratch);
  for (std::uint64_t start = 0; start < count; start += batch) {
    const std::uint64_t n = std::min(batch, count - start);
    std::vector<GeneratedKernel> kernels;
    for (std::uint64_t i = 0; i < n; ++i) kernels.push_back(generateKernel(firstSeed + start + i, config.generator));
    for (auto& s : summaries) s.kernels += n;
    const fs::path cu = config.sourceFile.empty() ? scratch / fmt::format("batch_{}_{}.cu", firstSeed + start, config.arch)
                                                  : fs::path(config.sourceFile);
    if (config.sourceFile.empty()) std::ofstream(cu) << translationUnit(kernels);

    // nvcc (cicc and ptxas) for the first architecture; the PTX parsed and run once.
    auto t0 = Clock::now();
    toolchain::CompileOptions options;
    options.arch = config.arch;
    options.extraArgs = config.nvccFlags;
    options.useCache = config.useCompileCache;
    options.timeout = kToolTimeout;
    const toolchain::CompileResult compiled = toolchain::compileCuda(cu.string(), options);
    const ptx::Module ptxModule = ptx::parseModule(compiled.ptx, cu.filename().string() + ".ptx");
    summaries.front().compileSeconds += secondsSince(t0);
    t0 = Clock::now();
    std::vector<KernelInputs> inputs;
    std::vector<Outcome> ptxOutcomes;
    for (const auto& k : kernels) {
      inputs.push_back(generateInputs(k));
      ptxOutcomes.push_back(runOne(ptxModule, nullptr, {}, sms.front(), k, inputs.back()));
    }
    summaries.front().emulateSeconds += secondsSince(t0);

    fs::path ptxFile;
    if (archs.size() > 1) {
      ptxFile = scratch / fmt::format("batch_{}.ptx", firstSeed + start);
      std::ofstream(ptxFile) << compiled.ptx;
    }
    for (std::size_t a = 0; a < archs.size(); ++a) {
      Summary& summary = summaries[a];
      t0 = Clock::now();
      const std::string cubin = a == 0 ? compiled.cubin : assemble(ptxFile, archs[a], config, scratch);
      const sass::Module sassModule =
          sass::parseDisassembly(toolchain::disassembleCubin(cubin, kToolTimeout), cu.filename().string() + "." + archs[a] + ".sass");
      summary.compileSeconds += secondsSince(t0);
      t0 = Clock::now();
      for (std::size_t i = 0; i < kernels.size(); ++i) {
        const Outcome s = runOne(ptxModule, &sassModule, cubin, sms[a], kernels[i], inputs[i]);
        judge(kernels[i], inputs[i], ptxOutcomes[i], s, archs[a], config, summary);
      }
      summary.emulateSeconds += secondsSince(t0);
    }
    if (!ptxFile.empty()) fs::remove(ptxFile);
    if (config.keepDirectory.empty() && config.sourceFile.empty()) fs::remove(cu);
    if (progress) progress(summaries);
  }
  if (config.keepDirectory.empty()) fs::remove_all(scratch);
  return summaries;
}

}  // namespace teg::differential
