#include "teg/support/memory_limit.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "teg/support/error.hpp"

namespace teg {

namespace {

std::string gib(std::uint64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1ull << 30)); }

}  // namespace

std::uint64_t physicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
}

void checkAllocation(const std::string& what, std::uint64_t bytes, std::uint64_t alreadyAllocated) {
  const std::uint64_t limit = physicalMemoryBytes();
  if (limit == 0) return;
  // Written as subtractions: bytes + alreadyAllocated could wrap.
  if (alreadyAllocated <= limit && bytes <= limit - alreadyAllocated) return;
  throw Error(fmt::format("{}: {} bytes ({}){} exceed this machine's physical memory ({}); not allocated", what,
                          bytes, gib(bytes),
                          alreadyAllocated > 0 ? fmt::format(" on top of {} already allocated", gib(alreadyAllocated)) : "",
                          gib(limit)));
}

}  // namespace teg
