// Device global memory as a sparse set of allocations, each at a distinct 512-byte-aligned
// device address with an unmapped guard gap after it (like cudaMalloc). Lookups are by binary
// search; an address outside every allocation is unmapped.
#pragma once

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

struct Allocation {
  std::string name;
  std::uint64_t base = 0;  // first mapped byte
  std::uint64_t size = 0;  // mapped bytes, margins included
  // Mapped bytes before and after the buffer itself (a launch's "margin"): a kernel that reads
  // just outside its array, as some do harmlessly on the GPU, reads zeros there.
  std::uint64_t margin = 0;
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

  // Host pointer for [address, address + bytes) if it lies inside one allocation, else null.
  [[nodiscard]] std::byte* translate(std::uint64_t address, std::uint64_t bytes) const {
    const Allocation* a = find(address);
    // find() puts address inside a; bytes is compared with what is left so no sum can wrap.
    if (!a || bytes > a->size - (address - a->base)) return nullptr;
    return const_cast<std::byte*>(a->data.data()) + (address - a->base);
  }
  [[nodiscard]] const Allocation* find(std::uint64_t address) const;
  // The allocation nearest to an address (for error messages), or null when there is none.
  [[nodiscard]] const Allocation* nearest(std::uint64_t address) const;
  [[nodiscard]] const Allocation* byName(const std::string& name) const;
  [[nodiscard]] Allocation* byName(const std::string& name);
  [[nodiscard]] const std::vector<Allocation>& allocations() const { return allocs_; }

 private:
  std::vector<Allocation> allocs_;  // sorted by base (addresses only grow)
  std::uint64_t next_ = 0;
  std::uint64_t allocatedBytes_ = 0;  // sum of the sizes, checked against physical memory
};

}  // namespace teg::emu
