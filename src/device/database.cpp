// Placeholder until the device database loader lands.
#include "teg/device/database.hpp"

#include "teg/support/error.hpp"

namespace teg::device {

DeviceDatabase DeviceDatabase::loadDirectory(const std::string&) {
  throw Error("the device database is not implemented yet");
}
DeviceDatabase DeviceDatabase::loadDefault() { return loadDirectory(""); }
void DeviceDatabase::applyOverrideFile(const std::string&) {}
const Device& DeviceDatabase::find(const std::string& name) const {
  throw Error("unknown GPU '" + name + "'");
}
const Device* DeviceDatabase::tryFind(const std::string&) const { return nullptr; }

}  // namespace teg::device
