// Checks a fully resolved device: every required figure is present (set by the device or by
// what it inherits) and the figures agree with each other (warps x warp size = threads, the
// carve-outs end at the shared memory per SM, ...). Throws teg::Error naming the file.
#pragma once

#include <string>

#include "teg/device/device.hpp"

namespace teg::device::detail {

void validateDevice(const Device& device, const std::string& file);

}  // namespace teg::device::detail
