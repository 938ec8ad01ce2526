// One nvcc run per compile: `-cubin -Xptxas -v` makes ptxas report each function's resources,
// `--keep` leaves the PTX it assembled, so the PTX and the resources describe the same module.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include "compile_cache.hpp"
#include "process.hpp"
#include "removed_runtime_api.hpp"
#include "temp_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/support/input_file.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::toolchain {

namespace fs = std::filesystem;

namespace {

void checkArch(const std::string& arch) {
  static const std::regex re(R"(sm_\d{2,3}[af]?)");
  if (!std::regex_match(arch, re))
    throw Error("invalid --arch '" + arch + "': expected a real architecture such as sm_80, sm_90a");
}

// nvcc runs its sub-tools through a shell and wraps file names in double quotes (checked with
// nvcc 13.0: spaces, ', ;, &, |, * are safe; ", ` and $ break the command or run code). teg passes
// nvcc an argument vector, but cannot stop nvcc's own shell, so it refuses such paths.
void checkNvccSafePath(const std::string& path, const std::string& what) {
  for (const char c : path) {
    if (c == '"' || c == '`' || c == '$' || static_cast<unsigned char>(c) < 0x20)
      throw Error(SourceLocation{path},
                  what + " contains a character nvcc's internal shell would interpret (\", `, $ "
                  "or a control character); rename it");
  }
}

// The PTX that --keep left: "<stem>.ptx" for one architecture; with user -gencode flags there
// may be several ("<stem>.compute_80.ptx"), then the one for the chosen architecture.
fs::path keptPtx(const fs::path& dir, const std::string& stem, const std::string& arch) {
  const std::string virt = "compute_" + arch.substr(3);
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".ptx") found.push_back(e.path());
  for (const auto& p : found)
    if (p.filename() == stem + ".ptx" || p.filename() == stem + "." + virt + ".ptx") return p;
  if (found.size() == 1) return found.front();
  throw Error("nvcc left " + std::to_string(found.size()) + " PTX files and none for " + arch);
}

std::string limitText(std::chrono::milliseconds t) {
  const long long ms = t.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

// Runs one toolkit program with the timeout; a program killed for it is an error naming the
// program and the limit.
ProcessResult runTool(const std::vector<std::string>& command, const fs::path& scratch,
                      std::chrono::milliseconds timeout) {
  ProcessResult run = runProcess(command, scratch, timeout);
  if (run.timedOut)
    throw Error(command.front() + " did not finish within " + limitText(timeout) +
                " and was stopped with the processes it started (raise the limit with "
                "TEG_NVCC_TIMEOUT=SECONDS, 0 for none)");
  return run;
}

// The toolkit's identity for the cache key: `nvcc --version` names the release and build.
std::string nvccVersion(const std::string& nvcc, const fs::path& scratch, std::chrono::milliseconds timeout) {
  const ProcessResult run = runTool({nvcc, "--version"}, scratch, timeout);
  if (run.exitCode != 0) throw Error(nvcc + " --version failed (exit " + std::to_string(run.exitCode) + "):\n" + run.err);
  return run.out;
}

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

// The note a compile with the removed-API header gets (also for a cached one: its command line
// carries the --pre-include).
void noteRemovedRuntimeApi(CompileResult& result, const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  const bool texture = std::find(names.begin(), names.end(), detail::kTextureTemplate) != names.end() ||
                       list.find("Texture") != std::string::npos;
  result.notes.push_back(
      std::string("the file's host code uses CUDA runtime API that CUDA ") + (texture ? "12 and 13" : "13") + " removed" +
      (list.empty() ? std::string() : " (" + list + ")") +
      "; compiled with teg's declarations of it (data/toolchain/cuda13_removed_runtime_api.h). teg runs only the "
      "kernels, so this does not change what it predicts; to build the program itself, port it to cudaDevice* "
      "and cudaDeviceGetAttribute" + (texture ? std::string(", and its texture references to texture objects") : std::string()));
}

bool usesRemovedApiHeader(const std::vector<std::string>& command) {
  return std::any_of(command.begin(), command.end(), [](const std::string& a) {
    return a.rfind("--pre-include=", 0) == 0 && a.find("cuda13_removed_runtime_api.h") != std::string::npos;
  });
}

}  // namespace

std::chrono::milliseconds nvccTimeout(const CompileOptions& options) {
  if (options.timeout) return *options.timeout;
  const char* env = std::getenv("TEG_NVCC_TIMEOUT");
  if (env == nullptr || *env == '\0') return kDefaultNvccTimeout;
  double seconds = 0;
  const char* end = env + std::char_traits<char>::length(env);
  const auto [ptr, ec] = std::from_chars(env, end, seconds);
  // At most a year: anything longer is "no limit" in practice and would overflow milliseconds.
  if (ec != std::errc() || ptr != end || !std::isfinite(seconds) || seconds < 0 || seconds > 3.2e7)
    throw Error(std::string("TEG_NVCC_TIMEOUT='") + env +
                "': expected the seconds nvcc may run, e.g. 600 (0 for no limit)");
  return std::chrono::milliseconds(static_cast<long long>(std::ceil(seconds * 1000)));
}

CompileResult compileCuda(const std::string& cuPath, const CompileOptions& options) {
  checkArch(options.arch);
  // Volta, which nvcc 13 no longer targets: its oldest PTX (compute_75), then CUDA 11.8's ptxas
  // (volta_sass.cpp). The result's PTX is nvcc's, its cubin and resources sm_70's.
  if (options.arch == "sm_70" || options.arch == "sm_72") {
    CompileOptions ptxOptions = options;
    ptxOptions.arch = "sm_75";
    const CompileResult ptx = compileCuda(cuPath, ptxOptions);
    CompileResult volta = assembleForVolta(ptx.ptx, options.arch, nvccTimeout(options));
    volta.log = ptx.log + volta.log;
    volta.notes = ptx.notes;
    volta.notes.push_back("nvcc 13 has no " + options.arch + " target: its compute_75 PTX was assembled for " +
                          options.arch + " by CUDA 11.8's ptxas");
    std::vector<std::string> command = ptx.command;
    command.push_back("&&");
    command.insert(command.end(), volta.command.begin(), volta.command.end());
    volta.command = std::move(command);
    volta.fromCache = ptx.fromCache;
    return volta;
  }
  if (cuPath.empty()) throw Error("no source file given");
  checkInputFile(cuPath);  // a directory or a FIFO is refused here, before nvcc could hang on it
  // As the user wrote it (so nvcc's messages name the file they know), except that a name
  // starting with '-' gets "./" so that nvcc can never take it for an option.
  const fs::path source = cuPath.front() == '-' ? fs::path(".") / cuPath : fs::path(cuPath);

  checkNvccSafePath(cuPath, "the source path");
  // The user's flags, in the order nvcc gets them: include directories (absolute, so that the
  // cache key means the same directories from any working directory), macros, then the rest.
  std::vector<std::string> flags;
  for (const auto& dir : options.includeDirs) {
    if (dir.empty()) throw Error("-I: empty include directory");
    checkNvccSafePath(dir, "the include directory");
    flags.push_back("-I" + absolute(dir));
  }
  for (const auto& define : options.defines) {
    if (define.empty() || define.front() == '=') throw Error("-D '" + define + "': expected NAME or NAME=VALUE");
    flags.push_back("-D" + define);
  }
  flags.insert(flags.end(), options.extraArgs.begin(), options.extraArgs.end());

  const std::chrono::milliseconds timeout = nvccTimeout(options);
  TempDir scratch;
  checkNvccSafePath(scratch.path().string(), "the temporary directory (see $TMPDIR)");
  const fs::path keep = scratch.path() / "keep";
  fs::create_directories(keep);
  const std::string nvcc = findNvcc();

  // The cache key: everything that decides nvcc's output except the headers, which the entry
  // checks itself (their names are only known after a compile).
  std::optional<CompileCache> cache;
  std::string key;
  // The cache needs -MMD -MF for the header list; a user's own dependency flags would clash.
  const bool userDependencyFlags = std::any_of(flags.begin(), flags.end(), [](const std::string& f) {
    return f.rfind("-M", 0) == 0 || f.find("dependenc") != std::string::npos;
  });
  if (options.useCache && !userDependencyFlags) {
    if (const auto dir = compileCacheDirectory()) {
      cache.emplace(*dir);
      std::string material = "teg compile\n" + nvcc + "\n" + nvccVersion(nvcc, scratch.path(), timeout) + "\n" +
                             fs::current_path().string() + "\n" + options.arch + "\n";
      // nvcc adds these variables' flags to every command line.
      for (const char* var : {"NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN"})
        if (const char* v = std::getenv(var)) material += std::string(var) + "=" + v + "\n";
      for (const auto& f : flags) material += f + '\0';
      material += "\n" + cuPath + "\n" + sha256Hex(readInputFile(cuPath));
      key = sha256Hex(material);
      if (auto hit = cache->load(key)) {
        CompileResult result;
        result.ptx = std::move(hit->ptx);
        result.cubin = std::move(hit->cubin);
        result.log = std::move(hit->log);
        result.command = std::move(hit->command);
        result.kernels = parsePtxasVerbose(result.log);
        result.fromCache = true;
        if (usesRemovedApiHeader(result.command)) noteRemovedRuntimeApi(result, {});
        return result;
      }
    }
  }

  CompileResult result;
  result.command = {nvcc, "-cubin", "-arch=" + options.arch, "-lineinfo", "-Xptxas", "-v",
                    "--keep", "--keep-dir", keep.string(),
                    "-o", (scratch.path() / "module.cubin").string()};
  result.command.insert(result.command.end(), flags.begin(), flags.end());
  const fs::path dependencyFile = scratch.path() / "module.d";
  // -MMD lists the headers the compile read (all but the host compiler's own), for the cache.
  std::vector<std::string> run = result.command;
  if (cache) run.insert(run.end(), {"-MMD", "-MF", dependencyFile.string()});
  run.push_back(source.string());
  result.command.push_back(source.string());

  ProcessResult ran = runTool(run, scratch.path(), timeout);
  result.log = ran.out + ran.err;
  if (ran.exitCode != 0) {
    // Host code of a pre-CUDA-13 program: once more with the removed API declared (the flag goes
    // before the source, in the command that is reported and cached too).
    if (const auto removed = detail::removedRuntimeApiErrors(result.log); !removed.empty()) {
      const std::string header = detail::removedRuntimeApiHeader();
      checkNvccSafePath(header, "teg's data directory");
      const std::string preInclude = "--pre-include=" + header;
      result.command.insert(result.command.end() - 1, preInclude);
      run.insert(run.end() - 1, preInclude);
      ran = runTool(run, scratch.path(), timeout);
      result.log = ran.out + ran.err;
      if (ran.exitCode == 0) noteRemovedRuntimeApi(result, removed);
      else if (detail::readsTextureReference(result.log))
        throw Error(SourceLocation{cuPath},
                    "a kernel reads a texture reference (texture<T, dim, mode> at file scope with tex1Dfetch, tex2D, "
                    "...), which CUDA 12 removed and teg does not emulate; texture objects (cudaTextureObject_t, a "
                    "launch file's \"texture\" argument) it runs. nvcc, with teg's declarations of the removed host "
                    "API pre-included:\n" + result.log);
    }
  }
  if (ran.exitCode != 0)
    throw Error(SourceLocation{cuPath}, "nvcc failed (exit " + std::to_string(ran.exitCode) +
                                            "):\n" + result.log);
  result.ptx = readInputFile(keptPtx(keep, source.stem().string(), options.arch).string());
  // A user's own -gencode list makes nvcc refuse -cubin -o with several outputs before it gets
  // here; one cubin is what a successful run leaves.
  if (const fs::path cubin = scratch.path() / "module.cubin"; fs::exists(cubin)) result.cubin = readInputFile(cubin.string());
  result.kernels = parsePtxasVerbose(result.log);
  if (cache) {
    std::vector<std::string> dependencies{absolute(cuPath)};
    try {
      for (const auto& d : parseDependencyFile(readInputFile(dependencyFile.string()))) dependencies.push_back(absolute(d));
      cache->store(key, CachedCompile{result.ptx, result.cubin, result.log, result.command}, dependencies);
    } catch (const Error&) {
      // No dependency list (a user flag replaced -MF): the result is good, only not cached.
    }
  }
  return result;
}

}  // namespace teg::toolchain
