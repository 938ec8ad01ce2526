#include "teg/trace/trace_file.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "kernel_info_json.hpp"
#include "teg/support/error.hpp"
#include "teg/support/json_file.hpp"

namespace teg::trace {

namespace {

constexpr char kMagic[8] = {'T', 'E', 'G', 'T', 'R', 'A', 'C', 'E'};
constexpr std::uint32_t kVersion = 1;

enum class Tag : std::uint8_t { BeginBlock = 1, Instruction = 2, EndBlock = 3, EndKernel = 4 };

void putVarint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

std::uint64_t zigzag(std::int64_t v) { return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63); }
std::int64_t unzigzag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

bool isMemory(InstrKind kind) { return kind == InstrKind::Load || kind == InstrKind::Store || kind == InstrKind::Atomic; }

// Reads the file's bytes with bounds checks; every failure names the file and offset.
class Reader {
 public:
  Reader(const std::string& data, const std::string& path) : data_(data), path_(path) {}

  [[nodiscard]] bool atEnd() const { return pos_ >= data_.size(); }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(fmt::format("{}: corrupt trace at byte {}: {}", path_, pos_, what));
  }
  std::uint8_t byte() {
    if (pos_ >= data_.size()) fail("unexpected end of file");
    return static_cast<std::uint8_t>(data_[pos_++]);
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t b = byte();
      v |= std::uint64_t{b & 0x7Fu} << shift;
      if ((b & 0x80) == 0) return v;
    }
    fail("varint longer than 64 bits");
  }
  std::string bytes(std::size_t n) {
    if (n > data_.size() - pos_) fail("unexpected end of file");
    std::string s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  const std::string& data_;
  const std::string& path_;
  std::size_t pos_ = 0;
};

}  // namespace

TraceFileWriter::TraceFileWriter(const std::string& path) : file_(path) {}

// The destructor used to flush and could throw (a full disk during unwinding ended in
// std::terminate); the OutputFile now just removes an unfinished file.
TraceFileWriter::~TraceFileWriter() = default;

void TraceFileWriter::flush() {
  if (buffer_.empty()) return;
  file_.write(buffer_);
  bytes_ += buffer_.size();
  buffer_.clear();
}

void TraceFileWriter::beginKernel(const KernelInfo& kernel) {
  kernel_ = &kernel;
  buffer_.append(kMagic, sizeof kMagic);
  putVarint(buffer_, kVersion);
  const std::string header = kernelInfoToJson(kernel).dump();
  putVarint(buffer_, header.size());
  buffer_ += header;
}

void TraceFileWriter::beginBlock(std::uint32_t block) {
  buffer_.push_back(static_cast<char>(Tag::BeginBlock));
  putVarint(buffer_, block);
}

void TraceFileWriter::instruction(const WarpInstruction& r) {
  buffer_.push_back(static_cast<char>(Tag::Instruction));
  putVarint(buffer_, r.warp);
  putVarint(buffer_, r.pc);
  putVarint(buffer_, r.activeMask);
  if (kernel_ != nullptr && r.pc < kernel_->instructions.size() && isMemory(kernel_->instructions[r.pc].kind)) {
    std::uint64_t previous = 0;
    bool first = true;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      if ((r.activeMask >> lane & 1u) == 0) continue;
      if (first) {
        putVarint(buffer_, r.addresses[lane]);
        first = false;
      } else {
        putVarint(buffer_, zigzag(static_cast<std::int64_t>(r.addresses[lane] - previous)));
      }
      previous = r.addresses[lane];
    }
  }
  if (buffer_.size() > (1u << 20)) flush();
}

void TraceFileWriter::endBlock(std::uint32_t block) {
  buffer_.push_back(static_cast<char>(Tag::EndBlock));
  putVarint(buffer_, block);
}

void TraceFileWriter::endKernel() {
  buffer_.push_back(static_cast<char>(Tag::EndKernel));
  flush();
  file_.commit();  // throws "cannot write PATH: <cause>" on a failed write or close
}

void replayTraceFile(const std::string& path, TraceListener& listener) {
  const std::string data = readTextFile(path);
  Reader in(data, path);
  if (in.bytes(sizeof kMagic) != std::string(kMagic, sizeof kMagic)) in.fail("not a teg trace file (bad magic)");
  if (const auto version = in.varint(); version != kVersion)
    in.fail(fmt::format("trace format version {} (this teg reads {})", version, kVersion));
  const std::uint64_t headerSize = in.varint();
  const KernelInfo kernel =
      kernelInfoFromJson(parseJson(in.bytes(static_cast<std::size_t>(headerSize)), path + " (header)"), path);
  listener.beginKernel(kernel);
  WarpInstruction r;
  std::uint32_t currentBlock = 0;
  bool inBlock = false;
  while (true) {
    const auto tag = static_cast<Tag>(in.byte());
    switch (tag) {
      case Tag::BeginBlock:
        if (inBlock) in.fail("block begins inside another block");
        currentBlock = static_cast<std::uint32_t>(in.varint());
        inBlock = true;
        listener.beginBlock(currentBlock);
        break;
      case Tag::Instruction: {
        if (!inBlock) in.fail("instruction outside a block");
        r.block = currentBlock;
        r.warp = static_cast<std::uint32_t>(in.varint());
        r.pc = static_cast<std::uint32_t>(in.varint());
        r.activeMask = static_cast<std::uint32_t>(in.varint());
        if (r.pc >= kernel.instructions.size()) in.fail(fmt::format("pc {} out of range", r.pc));
        if (isMemory(kernel.instructions[r.pc].kind)) {
          std::uint64_t previous = 0;
          bool first = true;
          for (int lane = 0; lane < kWarpLanes; ++lane) {
            if ((r.activeMask >> lane & 1u) == 0) continue;
            previous = first ? in.varint() : previous + static_cast<std::uint64_t>(unzigzag(in.varint()));
            first = false;
            r.addresses[lane] = previous;
          }
        }
        listener.instruction(r);
        break;
      }
      case Tag::EndBlock:
        if (!inBlock || in.varint() != currentBlock) in.fail("unmatched block end");
        inBlock = false;
        listener.endBlock(currentBlock);
        break;
      case Tag::EndKernel:
        if (inBlock) in.fail("kernel ends inside a block");
        listener.endKernel();
        if (!in.atEnd()) in.fail("data after the end of the kernel");
        return;
      default:
        in.fail(fmt::format("unknown record tag {}", static_cast<int>(tag)));
    }
  }
}

}  // namespace teg::trace
