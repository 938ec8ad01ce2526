#include "global_memory.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "teg/support/error.hpp"

#include "teg/emu/emulator.hpp"
#include "teg/support/memory_limit.hpp"

namespace teg::emu {

namespace {
constexpr std::uint64_t kAlign = 512;      // cudaMalloc's alignment (at least 256 bytes)
constexpr std::uint64_t kGuardGap = 4096;  // unmapped bytes between allocations
// The device address space the allocations may span (2^47 bytes, the 47-bit virtual address space
// of x86-64 and of the GPU's unified addressing): every base + size stays far from 2^64, so the
// bounds checks' sums cannot wrap whatever size a launch asks for.
constexpr std::uint64_t kAddressSpaceEnd = kGlobalBase + (std::uint64_t{1} << 47);
}  // namespace

std::uint64_t GlobalMemory::allocate(const std::string& name, std::uint64_t userSize, std::uint64_t margin) {
  if (next_ == 0) next_ = kGlobalBase;
  // Both below 2^47 (the address space), so the sum cannot wrap.
  if (userSize > kAddressSpaceEnd || margin > kAddressSpaceEnd || slack_ > kAddressSpaceEnd)
    throw Error(fmt::format("global buffer '{}' of {} bytes with a margin of {} bytes (and {} of overrun slack) does "
                            "not fit the device's address space (2^47 bytes)", name, userSize, margin, slack_));
  margin += slack_;  // the slack lies outside the launch's margin (all three below 2^47: no wrap)
  const std::uint64_t size = userSize + 2 * margin;
  checkAllocation(fmt::format("buffer '{}'", name), size, allocatedBytes_);
  if (size > kAddressSpaceEnd - next_ - kGuardGap - kAlign)
    throw Error(fmt::format("global buffer '{}' of {} bytes does not fit the device's address space "
                            "({} bytes left of 2^47)", name, size, kAddressSpaceEnd - next_));
  Allocation a;
  a.name = name;
  // The buffer itself starts on cudaMalloc's alignment, its margin just below it: a margin that
  // is not a multiple of kAlign moves the start of the mapped bytes, never the buffer's address
  // (a misaligned buffer would change its sectors and fault its vector accesses).
  a.base = next_ + (kAlign - margin % kAlign) % kAlign;
  a.size = size;
  a.margin = margin;
  a.slack = slack_;
  if (slack_ != 0) a.overruns = std::make_shared<OverrunLog>();
  a.data = ZeroedBytes(size);
  next_ = (a.base + std::max<std::uint64_t>(size, 1) + kGuardGap + kAlign - 1) / kAlign * kAlign;
  allocs_.push_back(std::move(a));
  allocatedBytes_ += size;
  return allocs_.back().userBase();
}

void GlobalMemory::noteOverrun(const Allocation& a, std::uint64_t offset, std::uint64_t bytes) {
  // Distances from the buffer itself (its margin is part of the launch, not an overrun).
  const std::uint64_t userStart = a.margin, userEnd = a.size - a.margin;
  a.overruns->note(offset + bytes > userEnd ? offset + bytes - userEnd : 0, offset < userStart ? userStart - offset : 0);
}

const Allocation* GlobalMemory::find(std::uint64_t address) const {
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), address,
                             [](std::uint64_t v, const Allocation& a) { return v < a.base; });
  if (it == allocs_.begin()) return nullptr;
  --it;
  if (address >= it->base && address < it->base + it->size) return &*it;
  return nullptr;
}

const Allocation* GlobalMemory::nearest(std::uint64_t address) const {
  const Allocation* best = nullptr;
  std::uint64_t bestDistance = ~std::uint64_t{0};
  for (const Allocation& a : allocs_) {
    const std::uint64_t d = address < a.base ? a.base - address
                            : address >= a.base + a.size ? address - (a.base + a.size) + 1 : 0;
    if (d < bestDistance) { bestDistance = d; best = &a; }
  }
  return best;
}

const Allocation* GlobalMemory::byName(const std::string& name) const {
  for (const Allocation& a : allocs_)
    if (a.name == name) return &a;
  return nullptr;
}

Allocation* GlobalMemory::byName(const std::string& name) {
  for (Allocation& a : allocs_)
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace teg::emu
