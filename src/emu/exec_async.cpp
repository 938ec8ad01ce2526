// Asynchronous copies and mbarriers (PTX ISA §9.7.9.25 cp.async, cp.async.bulk; §9.7.13.15
// mbarrier), as CUDA's cuda::memcpy_async, cuda::barrier and cuda::pipeline compile to them.
//
// A functional emulator may complete an asynchronous copy when it is issued: the ISA only
// promises that the data is in shared memory once a wait (cp.async.wait_group/wait_all, or the
// mbarrier phase the copy completes on) has returned, and completing earlier is one of the
// orders the hardware may show. So a copy is done at once; cp.async.mbarrier.arrive, whose
// pending-count increment and asynchronous arrive cancel once the copy is complete, changes
// nothing; .noinc arrives at once; a bulk copy's complete-tx is applied at once.
//
// The mbarrier object (8 bytes of shared memory, opaque in the ISA) is kept in teg's own layout:
// bits 0-20 pending arrivals of the current phase, 21-41 the expected arrival count, 42-62 the
// transaction count (21-bit two's complement: complete-tx may run ahead of expect-tx), bit 63
// the current phase's parity. A phase completes when pending arrivals and transaction count are
// both zero: the parity flips and pending arrivals start again at the expected count. The state
// an arrive returns is the object before the arrive; a wait compares parities.
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "async_form.hpp"
#include "block_runner.hpp"
#include "lanes.hpp"

namespace teg::emu {

namespace {

constexpr std::uint32_t kCountBits = 21;
constexpr std::uint64_t kCountMask = (std::uint64_t{1} << kCountBits) - 1;
// PTX ISA mbarrier: counts lie in [1, 2^20 - 1], transaction counts in [-(2^20 - 1), 2^20 - 1].
constexpr std::int64_t kMaxCount = (std::int64_t{1} << 20) - 1;

struct MbarrierState {
  std::uint32_t pending = 0, expected = 0;
  std::int32_t tx = 0;
  bool phase = false;

  static MbarrierState decode(std::uint64_t v) {
    MbarrierState s;
    s.pending = static_cast<std::uint32_t>(v & kCountMask);
    s.expected = static_cast<std::uint32_t>((v >> kCountBits) & kCountMask);
    const auto raw = static_cast<std::uint32_t>((v >> (2 * kCountBits)) & kCountMask);
    s.tx = (raw & (1u << (kCountBits - 1))) ? static_cast<std::int32_t>(raw) - (1 << kCountBits)
                                           : static_cast<std::int32_t>(raw);
    s.phase = (v >> 63) != 0;
    return s;
  }
  [[nodiscard]] std::uint64_t encode() const {
    return std::uint64_t{pending} | (std::uint64_t{expected} << kCountBits) |
           ((static_cast<std::uint64_t>(static_cast<std::uint32_t>(tx)) & kCountMask) << (2 * kCountBits)) |
           (std::uint64_t{phase} << 63);
  }
  void completeIfDone() {
    if (pending != 0 || tx != 0) return;
    phase = !phase;
    pending = expected;
  }
};

}  // namespace

// The mbarrier object of lane `lane`: in shared memory (a .shared address, or a generic one in
// the shared window), 8-byte aligned. Its shared-window offset goes to `offset`.
std::byte* BlockRunner::mbarrierAt(Warp& w, const Frame& f, const Decoded& d, const Addr& a, int lane,
                                   std::uint64_t& offset) {
  std::uint64_t address = addressOf(f, a, lane);
  if (a.space == Space::Generic) {
    if (address < kSharedWindow || address >= kSharedWindow + kWindowSize)
      fail(w, lane, d, fmt::format("mbarrier object at generic address 0x{:x} is not in shared memory (PTX ISA: "
                                   "an mbarrier lives in .shared)", address));
    address -= kSharedWindow;
  } else if (a.space != Space::Shared) {
    fail(w, lane, d, "mbarrier object outside shared memory (PTX ISA: an mbarrier lives in .shared)");
  } else {
    address &= 0xffffffffu;  // shared addresses are 32-bit offsets
  }
  offset = address;
  return resolve(w, lane, d, Space::Shared, address, 8, true);
}

void BlockRunner::execAsync(Warp& w, Frame& f, const Decoded& d, std::uint32_t exec, std::uint64_t* addresses) {
  const AsyncInstruction in = AsyncInstruction::unpack(d.qual);
  const auto load = [](const std::byte* p) { std::uint64_t v; std::memcpy(&v, p, 8); return v; };
  const auto store = [&](std::byte* p, const MbarrierState& s) {
    const std::uint64_t v = s.encode();
    std::memcpy(p, &v, 8);
    ++asyncProgress_;
  };
  const auto countOperand = [&](int lane, std::uint32_t i, std::int64_t fallback) -> std::int64_t {
    if (d.numSrc <= i) return fallback;
    return static_cast<std::int32_t>(read(w, f, d.src[i], scratch_[i].data())[lane]);
  };
  const auto checkCount = [&](int lane, std::int64_t n, const char* what) {
    if (n < 1 || n > kMaxCount)
      fail(w, lane, d, fmt::format("mbarrier {} {} is outside [1, 2^20 - 1] (PTX ISA mbarrier)", what, n));
  };
  const auto checkTx = [&](int lane, std::int64_t tx) {
    if (tx < -kMaxCount || tx > kMaxCount)
      fail(w, lane, d, fmt::format("mbarrier transaction count {} is outside [-(2^20 - 1), 2^20 - 1] (PTX ISA mbarrier)", tx));
  };
  const auto arrive = [&](int lane, MbarrierState& s, std::int64_t count) {
    if (count > static_cast<std::int64_t>(s.pending))
      fail(w, lane, d, fmt::format("mbarrier arrive of {} on a phase with {} pending arrivals of {} (PTX ISA: "
                                   "undefined behaviour)", count, s.pending, s.expected));
    s.pending -= static_cast<std::uint32_t>(count);
  };

  switch (in.form) {
    case AsyncForm::CommitGroup:
    case AsyncForm::WaitGroup:
    case AsyncForm::WaitAll:
      return;  // every copy is already complete

    case AsyncForm::Copy: {
      const View cpSize = read(w, f, d.src[0], scratch_[0].data());
      const bool hasSecond = d.numSrc > 1;
      const bool ignoreSrc = hasSecond && d.src[1].kind == SrcKind::Reg && d.src[1].regBits == 1;
      const View second = hasSecond ? read(w, f, d.src[1], scratch_[1].data()) : View{scratch_[1].data(), 0};
      forEachLane(exec, [&](int l) {
        const std::uint64_t size = cpSize[l];
        if (size != 4 && size != 8 && size != 16)
          fail(w, l, d, fmt::format("cp.async copy size {} is not 4, 8 or 16 bytes", size));
        std::uint64_t srcSize = size;
        if (ignoreSrc) srcSize = (second[l] & 1u) ? 0 : size;
        else if (hasSecond) srcSize = static_cast<std::uint32_t>(second[l]);
        if (srcSize > size)
          fail(w, l, d, fmt::format("cp.async src-size {} exceeds the copy size {}", srcSize, size));
        const std::uint64_t dst = addressOf(f, d.addr, l), src = addressOf(f, d.addr2, l);
        addresses[l] = src;
        std::byte* to = resolve(w, l, d, d.addr.space, dst, static_cast<std::uint32_t>(size), true);
        if (srcSize == size) {
          std::memcpy(to, resolve(w, l, d, d.addr2.space, src, static_cast<std::uint32_t>(size), false), size);
        } else {
          if (src % size) fail(w, l, d, fmt::format("misaligned cp.async source 0x{:x} (needs {}-byte alignment)", src, size));
          for (std::uint64_t k = 0; k < srcSize; ++k) to[k] = *resolve(w, l, d, d.addr2.space, src + k, 1, false);
          std::memset(to + srcSize, 0, size - srcSize);
        }
      });
      ++asyncProgress_;
      return;
    }

    case AsyncForm::BulkCopy: {
      // Each executing thread copies `size` bytes (a multiple of 16, both addresses 16-byte
      // aligned) and completes that many transaction bytes on the mbarrier.
      const View sizes = read(w, f, d.src[0], scratch_[0].data());
      forEachLane(exec, [&](int l) {
        const std::uint64_t size = static_cast<std::uint32_t>(sizes[l]);
        const std::uint64_t dst = addressOf(f, d.addr, l), src = addressOf(f, d.addr2, l);
        if (size == 0 || size % 16 || size > static_cast<std::uint64_t>(kMaxCount))
          fail(w, l, d, fmt::format("cp.async.bulk size {} is not a positive multiple of 16 below 2^20", size));
        if (dst % 16 || src % 16)
          fail(w, l, d, fmt::format("cp.async.bulk addresses 0x{:x} <- 0x{:x} are not 16-byte aligned", dst, src));
        addresses[l] = src;
        for (std::uint64_t k = 0; k < size; k += 16)
          std::memcpy(resolve(w, l, d, d.addr.space, dst + k, 16, true),
                      resolve(w, l, d, d.addr2.space, src + k, 16, false), 16);
        std::uint64_t offset = 0;
        std::byte* p = mbarrierAt(w, f, d, d.addr3, l, offset);
        MbarrierState s = MbarrierState::decode(load(p));
        s.tx -= static_cast<std::int32_t>(size);
        checkTx(l, s.tx);
        s.completeIfDone();
        store(p, s);
      });
      return;
    }

    case AsyncForm::PendingCount: {
      const View state = read(w, f, d.src[0], scratch_[0].data());
      forEachLane(exec, [&](int l) { write(f, d.dst, l, MbarrierState::decode(state[l]).pending); });
      return;
    }

    default: break;
  }

  // The forms on an mbarrier object, lane by lane in lane order (as the hardware's atomics
  // serialise them).
  bool allComplete = true;
  forEachLane(exec, [&](int l) {
    std::uint64_t offset = 0;
    std::byte* p = mbarrierAt(w, f, d, d.addr, l, offset);
    addresses[l] = offset;
    const std::uint64_t before = load(p);
    MbarrierState s = MbarrierState::decode(before);
    switch (in.form) {
      case AsyncForm::Init: {
        const std::int64_t count = countOperand(l, 0, 0);
        checkCount(l, count, "count");
        s = MbarrierState{};
        s.pending = s.expected = static_cast<std::uint32_t>(count);
        store(p, s);
        break;
      }
      case AsyncForm::Inval: std::memset(p, 0, 8); ++asyncProgress_; break;
      case AsyncForm::CopyArrive: break;  // +1 pending, then an arrive once the (complete) copies are done
      case AsyncForm::CopyArriveNoinc:
        arrive(l, s, 1);
        s.completeIfDone();
        store(p, s);
        break;
      case AsyncForm::Arrive:
      case AsyncForm::ArriveDrop: {
        std::int64_t count = 1;
        if (in.expectTx) {
          const std::int64_t tx = countOperand(l, 0, 0);
          checkTx(l, tx);
          s.tx += static_cast<std::int32_t>(tx);
          checkTx(l, s.tx);
        } else {
          count = countOperand(l, 0, 1);
          checkCount(l, count, "arrival count");
        }
        arrive(l, s, count);
        if (in.form == AsyncForm::ArriveDrop) s.expected -= static_cast<std::uint32_t>(count);
        s.completeIfDone();
        store(p, s);
        if (d.hasDst) write(f, d.dst, l, before);
        break;
      }
      case AsyncForm::ExpectTx:
      case AsyncForm::CompleteTx: {
        const std::int64_t tx = countOperand(l, 0, 0);
        checkTx(l, tx);
        s.tx += static_cast<std::int32_t>(in.form == AsyncForm::ExpectTx ? tx : -tx);
        checkTx(l, s.tx);
        s.completeIfDone();
        store(p, s);
        break;
      }
      case AsyncForm::TestWait:
      case AsyncForm::TryWait: {
        // The phase a state (or a parity) names has completed once the current parity differs.
        const std::uint64_t operand = read(w, f, d.src[0], scratch_[0].data())[l];
        const bool waitedParity = in.parity ? (operand & 1u) != 0 : (operand >> 63) != 0;
        const bool complete = s.phase != waitedParity;
        if (!complete) allComplete = false;
        write(f, d.dst, l, complete ? 1 : 0);
        if (!complete) spinDescription_ = fmt::format(
            "{} waits at {} on the mbarrier at shared offset 0x{:x} (phase {}: {} of {} arrivals pending, "
            "transaction count {})", threadName(w, l), describeInstruction(d), offset, s.phase ? 1 : 0, s.pending,
            s.expected, s.tx);
        break;
      }
      default: fail(w, l, d, "asynchronous-copy form not supported by the emulator");
    }
  });
  // A thread whose phase is not complete spins; let the other warps run before it tries again.
  if (!allComplete) yieldRequested_ = true;
}

}  // namespace teg::emu
