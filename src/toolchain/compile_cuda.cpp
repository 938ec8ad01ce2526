// One nvcc run per compile: `-cubin -Xptxas -v` makes ptxas report each function's resources,
// `--keep` leaves the PTX it assembled, so the PTX and the resources describe the same module.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "process.hpp"
#include "temp_dir.hpp"
#include "teg/support/error.hpp"
#include "teg/toolchain/compiler.hpp"

namespace teg::toolchain {

namespace fs = std::filesystem;

namespace {

void checkArch(const std::string& arch) {
  static const std::regex re(R"(sm_\d{2,3}[af]?)");
  if (!std::regex_match(arch, re))
    throw Error("invalid --arch '" + arch + "': expected a real architecture such as sm_80, sm_90a");
}

std::string readWhole(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
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

}  // namespace

CompileResult compileCuda(const std::string& cuPath, const CompileOptions& options) {
  checkArch(options.arch);
  std::error_code ec;
  if (!fs::is_regular_file(cuPath, ec)) throw Error(SourceLocation{cuPath}, "no such file");
  // As the user wrote it (so nvcc's messages name the file they know), except that a name
  // starting with '-' gets "./" so that nvcc can never take it for an option.
  const fs::path source = cuPath.front() == '-' ? fs::path(".") / cuPath : fs::path(cuPath);

  checkNvccSafePath(cuPath, "the source path");
  TempDir scratch;
  checkNvccSafePath(scratch.path().string(), "the temporary directory (see $TMPDIR)");
  const fs::path keep = scratch.path() / "keep";
  fs::create_directories(keep);

  CompileResult result;
  result.command = {findNvcc(), "-cubin", "-arch=" + options.arch, "-lineinfo", "-Xptxas", "-v",
                    "--keep", "--keep-dir", keep.string(),
                    "-o", (scratch.path() / "module.cubin").string()};
  result.command.insert(result.command.end(), options.extraArgs.begin(), options.extraArgs.end());
  result.command.push_back(source.string());

  const ProcessResult run = runProcess(result.command, scratch.path());
  result.log = run.out + run.err;
  if (run.exitCode != 0)
    throw Error(SourceLocation{cuPath}, "nvcc failed (exit " + std::to_string(run.exitCode) +
                                            "):\n" + result.log);
  result.ptx = readWhole(keptPtx(keep, source.stem().string(), options.arch));
  result.kernels = parsePtxasVerbose(result.log);
  return result;
}

}  // namespace teg::toolchain
