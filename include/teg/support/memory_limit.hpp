// How much memory an input may make teg allocate: no more than the machine's physical memory.
// A launch description asking for a 512 GiB buffer is refused before any allocation, naming the
// buffer and its size, instead of ending in "internal error: std::bad_alloc" (or, with
// overcommit, in the OOM killer half-way through a run).
#pragma once

#include <cstdint>
#include <string>

namespace teg {

// Bytes of physical memory (sysconf(_SC_PHYS_PAGES) x page size); 0 if the system does not say.
std::uint64_t physicalMemoryBytes();

// Throws teg::Error naming `what` when `bytes` more (on top of `alreadyAllocated`) would exceed
// physicalMemoryBytes(). Does nothing when the physical memory is unknown.
void checkAllocation(const std::string& what, std::uint64_t bytes, std::uint64_t alreadyAllocated = 0);

}  // namespace teg
