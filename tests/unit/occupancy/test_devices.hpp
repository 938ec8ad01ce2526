// Devices for the occupancy tests: the real database (data/devices), loaded once.
#pragma once

#include "teg/device/database.hpp"

namespace teg::occupancy::test {

inline const device::DeviceDatabase& database() {
  static const device::DeviceDatabase db = device::DeviceDatabase::loadDefault();
  return db;
}

inline const device::Device& gpu(const char* name) { return database().find(name); }

}  // namespace teg::occupancy::test
