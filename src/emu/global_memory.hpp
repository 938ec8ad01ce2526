// Device global memory as a sparse set of allocations, each at a distinct 512-byte-aligned
// device address with an unmapped guard gap after it (like cudaMalloc). Lookups are by binary
// search; an address outside every allocation is unmapped.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace teg::emu {

// Zero-filled bytes from calloc: the operating system maps large zero allocations lazily, so a
// 1 GiB buffer a kernel only samples (a STREAM launch, a sampled prediction) costs what it touches.
class ZeroedBytes {
 public:
  ZeroedBytes() = default;
  explicit ZeroedBytes(std::size_t size)
      : bytes_(static_cast<std::byte*>(std::calloc(size == 0 ? 1 : size, 1))), size_(size) {
    if (!bytes_) throw std::bad_alloc();
  }
  [[nodiscard]] std::byte* data() { return bytes_.get(); }
  [[nodiscard]] const std::byte* data() const { return bytes_.get(); }
  [[nodiscard]] std::size_t size() const { return size_; }
  operator std::span<std::byte>() { return {bytes_.get(), size_}; }
  operator std::span<const std::byte>() const { return {bytes_.get(), size_}; }

 private:
  struct Free {
    void operator()(std::byte* p) const { std::free(p); }
  };
  std::unique_ptr<std::byte[], Free> bytes_;
  std::size_t size_ = 0;
};

// Accesses that landed in an allocation's overrun slack (GlobalMemory::setOverrunSlack), counted
// from any emulator thread: how many, and how far beyond the buffer itself they reached.
struct OverrunLog {
  std::atomic<std::uint64_t> accesses{0};
  std::atomic<std::uint64_t> bytesPastEnd{0};      // the farthest byte after the buffer, + 1
  std::atomic<std::uint64_t> bytesBeforeStart{0};  // the farthest byte before it
  void note(std::uint64_t pastEnd, std::uint64_t beforeStart) {
    accesses.fetch_add(1, std::memory_order_relaxed);
    raise(bytesPastEnd, pastEnd);
    raise(bytesBeforeStart, beforeStart);
  }

 private:
  static void raise(std::atomic<std::uint64_t>& to, std::uint64_t value) {
    std::uint64_t seen = to.load(std::memory_order_relaxed);
    while (value > seen && !to.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
  }
};

struct Allocation {
  std::string name;
  std::uint64_t base = 0;  // first mapped byte
  std::uint64_t size = 0;  // mapped bytes, margins included
  // Mapped bytes before and after the buffer itself: the launch's "margin" (a kernel that reads
  // just outside its array, as some do harmlessly on the GPU, reads zeros there) plus the slack.
  std::uint64_t margin = 0;
  // The outer `slack` bytes of each margin: mapped, but an access there is logged in `overruns`
  // (GlobalMemory::setOverrunSlack); 0 when the allocation has none.
  std::uint64_t slack = 0;
  std::shared_ptr<OverrunLog> overruns;
  // Whether [at, at + bytes) lies inside the allocation and outside its slack: an access the
  // emulators' fast paths may complete without translate() (which logs one in the slack).
  [[nodiscard]] bool quiet(std::uint64_t at, std::uint64_t bytes) const {
    // at >= base + slack, so at - base >= slack and size - slack >= slack (size >= 2 margin):
    // no difference below wraps.
    return at >= base + slack && at - base < size - slack && bytes <= size - slack - (at - base);
  }
  ZeroedBytes data;
  // The buffer without its margins, and its device address.
  [[nodiscard]] std::span<std::byte> user() { return {data.data() + margin, size - 2 * margin}; }
  [[nodiscard]] std::span<const std::byte> user() const { return {data.data() + margin, size - 2 * margin}; }
  [[nodiscard]] std::uint64_t userBase() const { return base + margin; }
};

class GlobalMemory {
 public:
  // Returns the device address of a new zero-filled allocation of `size` bytes, with `margin`
  // mapped zero bytes before and after it.
  std::uint64_t allocate(const std::string& name, std::uint64_t size, std::uint64_t margin = 0);

  // From now on each allocation also maps `bytes` of slack before and after its margins: an access
  // there completes (a store lands in the slack, a load reads what is there, zeros at first) and is
  // logged in the allocation's OverrunLog instead of faulting. On a GPU the memory beside a
  // cudaMalloc allocation is mapped (the driver maps device memory in pages of its allocation
  // granularity, 2 MiB on current GPUs, and packs small allocations into them), so a kernel that
  // writes a little past its array runs there; a prediction should time it as it runs.
  void setOverrunSlack(std::uint64_t bytes) { slack_ = bytes; }

  // Host pointer for [address, address + bytes) if it lies inside one allocation, else null.
  [[nodiscard]] std::byte* translate(std::uint64_t address, std::uint64_t bytes) const {
    const Allocation* a = find(address);
    // find() puts address inside a; bytes is compared with what is left so no sum can wrap.
    if (!a || bytes > a->size - (address - a->base)) return nullptr;
    const std::uint64_t offset = address - a->base;
    if (a->slack != 0 && !a->quiet(address, bytes)) [[unlikely]] noteOverrun(*a, offset, bytes);
    return const_cast<std::byte*>(a->data.data()) + offset;
  }
  [[nodiscard]] const Allocation* find(std::uint64_t address) const;
  // The allocation nearest to an address (for error messages), or null when there is none.
  [[nodiscard]] const Allocation* nearest(std::uint64_t address) const;
  [[nodiscard]] const Allocation* byName(const std::string& name) const;
  [[nodiscard]] Allocation* byName(const std::string& name);
  [[nodiscard]] const std::vector<Allocation>& allocations() const { return allocs_; }

 private:
  static void noteOverrun(const Allocation& a, std::uint64_t offset, std::uint64_t bytes);

  std::vector<Allocation> allocs_;  // sorted by base (addresses only grow)
  std::uint64_t next_ = 0;
  std::uint64_t slack_ = 0;  // setOverrunSlack
  std::uint64_t allocatedBytes_ = 0;  // sum of the sizes, checked against physical memory
};

}  // namespace teg::emu
