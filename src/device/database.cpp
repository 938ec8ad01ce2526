// The device database: reads every device file, resolves "inherits" chains, applies user
// override files, validates each device and indexes its names. Which JSON key means what is in
// figure_table.cpp; the consistency rules are in validate.cpp.
#include "teg/device/database.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>

#include "device_file.hpp"
#include "figure_table.hpp"
#include "name_match.hpp"
#include "teg/support/data_dir.hpp"
#include "teg/support/error.hpp"
#include "validate.hpp"

namespace teg::device {

using detail::DeviceFile;

struct DeviceDatabase::Files {
  std::vector<DeviceFile> devices;  // one per device (database files, then added user devices)
  // User override files, in the order given, each with the id of the device it overrides.
  std::vector<std::pair<std::string, DeviceFile>> overrides;
};

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Sets the figures of `file` on `device`, replacing the provenance of figures it redefines.
void applyFigures(Device& device, const DeviceFile& file) {
  for (const auto& raw : file.figures) {
    const auto* spec = detail::findFigureSpec(raw.key);
    spec->apply(device, raw.key, raw.value);
    Device::Figure fig{raw.key,
                       spec->kind == detail::FigureKind::Measured
                           ? detail::figureValueText(raw.value["value"]) + " " +
                                 raw.value["unit"].get<std::string>()
                           : detail::figureValueText(raw.value),
                       raw.source, file.path, raw.note, file.id, raw.basis, raw.measuredOn};
    auto it = std::find_if(device.figures.begin(), device.figures.end(),
                           [&](const Device::Figure& f) { return f.key == raw.key; });
    if (it != device.figures.end())
      *it = std::move(fig);
    else
      device.figures.push_back(std::move(fig));
  }
}

std::vector<std::string> jsonFilesIn(const std::filesystem::path& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path().string());
  if (ec) throw Error(fmt::format("cannot list device directory '{}': {}", dir.string(), ec.message()));
  std::sort(files.begin(), files.end());
  return files;
}

// "did you mean" candidates among `names` (normalised name -> display id).
std::string closeMatches(const std::string& query,
                         const std::vector<std::pair<std::string, std::string>>& names) {
  const std::string q = detail::normalizeName(query);
  std::vector<std::pair<int, std::string>> scored;
  for (const auto& [key, id] : names) {
    int distance = detail::editDistance(q, key);
    const bool related = q.size() >= 2 && (key.find(q) != std::string::npos ||
                                           (key.size() >= 2 && q.find(key) != std::string::npos));
    if (related) distance = std::min(distance, 1);
    const int tolerance = std::max(1, std::min(3, static_cast<int>(q.size()) / 3));
    if (distance <= tolerance) scored.emplace_back(distance, id);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> picked;
  for (const auto& [distance, id] : scored)
    if (std::find(picked.begin(), picked.end(), id) == picked.end() && picked.size() < 6)
      picked.push_back(id);
  if (picked.empty()) return "";
  return fmt::format("; did you mean {}?", fmt::join(picked, ", "));
}

}  // namespace

DeviceDatabase DeviceDatabase::loadDirectory(const std::string& dir) {
  const std::filesystem::path root(dir);
  if (!std::filesystem::is_directory(root))
    throw Error(fmt::format("device directory '{}' does not exist", dir));
  auto files = std::make_shared<Files>();
  std::vector<std::string> paths = jsonFilesIn(root);
  if (std::filesystem::is_directory(root / "generic"))
    for (auto& p : jsonFilesIn(root / "generic")) paths.push_back(std::move(p));
  for (const auto& path : paths) files->devices.push_back(detail::readDeviceFile(path));
  if (files->devices.empty()) throw Error(fmt::format("no device files (*.json) in '{}'", dir));
  DeviceDatabase db;
  db.files_ = std::move(files);
  db.rebuild();
  return db;
}

DeviceDatabase DeviceDatabase::loadDefault() { return loadDirectory(dataDirectory() + "/devices"); }

struct DeviceDatabase::ParsedOverride {
  DeviceFile file;
  std::string path;  // names the file (or the command-line text) in messages
};

void DeviceDatabase::applyOverrideFile(const std::string& path) {
  applyOverride({detail::readDeviceFile(path), path});
}

void DeviceDatabase::applyOverrideText(const std::string& text, const std::string& origin) {
  applyOverride({detail::parseDeviceFile(text, origin), origin});
}

void DeviceDatabase::applyOverride(ParsedOverride parsed) {
  DeviceFile& file = parsed.file;
  const std::string& path = parsed.path;
  auto files = std::make_shared<Files>(files_ ? *files_ : Files{});
  const Device* target = nullptr;
  if (file.idGiven) {
    target = tryFind(file.id);
  } else if (!file.inherits.empty()) {
    target = tryFind(file.inherits);
    if (target == nullptr) (void)find(file.inherits);  // throws, with close matches
  } else {
    target = tryFind(file.id);  // the file stem
  }
  if (target != nullptr) {
    // An override may restate what the device inherits, but not change it.
    if (!file.inherits.empty()) {
      const Device* parent = tryFind(file.inherits);
      const auto own = std::find_if(files->devices.begin(), files->devices.end(),
                                     [&](const DeviceFile& f) { return lower(f.id) == lower(target->id); });
      const bool restates = parent == target ||
                            (own != files->devices.end() && parent != nullptr &&
                             tryFind(own->inherits) == parent);
      if (!restates)
        throw Error(SourceLocation{path, 0, 0},
                    fmt::format("inherits: '{}' overrides the known device '{}', which does not "
                                "inherit '{}' (give a new \"id\" to add a device instead)",
                                file.id, target->id, file.inherits));
    }
    files->overrides.emplace_back(target->id, std::move(file));
  } else {
    // A user's new GPU may name what it inherits by any name ("a100"), not only by its id.
    if (!file.inherits.empty()) file.inherits = find(file.inherits).id;
    files->devices.push_back(std::move(file));
  }
  DeviceDatabase next;
  next.files_ = std::move(files);
  next.rebuild();
  *this = std::move(next);
}

void DeviceDatabase::rebuild() {
  const Files& files = *files_;
  std::map<std::string, std::size_t> byId;  // lower-case id -> index into files.devices
  for (std::size_t i = 0; i < files.devices.size(); ++i) {
    const auto& f = files.devices[i];
    auto [it, inserted] = byId.emplace(lower(f.id), i);
    if (!inserted)
      throw Error(SourceLocation{f.path, 0, 0},
                  fmt::format("id: '{}' is already used by {}", f.id, files.devices[it->second].path));
  }

  std::map<std::string, Device> resolved;  // lower-case id -> device
  std::vector<std::string> resolving;       // the chain being resolved, to report cycles
  std::function<const Device&(std::size_t)> resolve = [&](std::size_t index) -> const Device& {
    const DeviceFile& file = files.devices[index];
    const std::string key = lower(file.id);
    if (auto it = resolved.find(key); it != resolved.end()) return it->second;
    if (std::find(resolving.begin(), resolving.end(), key) != resolving.end())
      throw Error(SourceLocation{file.path, 0, 0},
                  fmt::format("inherits: cycle {} -> {}", fmt::join(resolving, " -> "), key));
    resolving.push_back(key);
    Device device;
    if (!file.inherits.empty()) {
      auto parent = byId.find(lower(file.inherits));
      if (parent == byId.end()) {
        std::vector<std::pair<std::string, std::string>> ids;
        for (const auto& f : files.devices) ids.emplace_back(detail::normalizeName(f.id), f.id);
        throw Error(SourceLocation{file.path, 0, 0},
                    fmt::format("inherits: no device file has the id '{}'{}", file.inherits,
                                closeMatches(file.inherits, ids)));
      }
      device = resolve(parent->second);
    }
    device.id = file.id;
    device.name = file.name.empty() ? file.id : file.name;  // a name is never inherited
    device.aliases = file.aliases;
    device.generic = file.generic;
    applyFigures(device, file);
    for (const auto& [target, override] : files.overrides) {
      if (lower(target) != key) continue;
      applyFigures(device, override);
      if (!override.name.empty()) device.name = override.name;
      for (const auto& alias : override.aliases) device.aliases.push_back(alias);
    }
    // Show figures in the table's order (limits before clocks, ...), not in JSON key order.
    std::stable_sort(device.figures.begin(), device.figures.end(),
                     [](const Device::Figure& a, const Device::Figure& b) {
                       return detail::figureOrder(a.key) < detail::figureOrder(b.key);
                     });
    resolving.pop_back();
    return resolved.emplace(key, std::move(device)).first->second;
  };

  std::vector<Device> devices;
  for (std::size_t i = 0; i < files.devices.size(); ++i) {
    devices.push_back(resolve(i));
    detail::validateDevice(devices.back(), files.devices[i].path);
  }
  std::stable_sort(devices.begin(), devices.end(), [](const Device& a, const Device& b) {
    if (a.generic != b.generic) return !a.generic;
    if (a.cc != b.cc) return a.cc < b.cc;
    return lower(a.name) < lower(b.name);
  });

  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const Device& d = devices[i];
    std::vector<std::string> names = {d.id, d.name};
    names.insert(names.end(), d.aliases.begin(), d.aliases.end());
    if (d.generic) {
      names.push_back(d.cc.smName());
      names.push_back(d.cc.str());
      names.push_back(fmt::format("compute_{}", d.cc.code()));
    }
    for (const auto& name : names) {
      const std::string key = detail::normalizeName(name);
      if (key.empty()) continue;
      auto [it, inserted] = index.emplace(key, i);
      if (!inserted && it->second != i) {
        const auto& other = devices[it->second];
        const auto& file = std::find_if(files.devices.begin(), files.devices.end(),
                                        [&](const DeviceFile& f) { return f.id == d.id; });
        throw Error(SourceLocation{file != files.devices.end() ? file->path : d.id, 0, 0},
                    fmt::format("name '{}' of device '{}' also names device '{}'", name, d.id,
                                other.id));
      }
    }
  }
  devices_ = std::move(devices);
  index_ = std::move(index);
}

const Device* DeviceDatabase::tryFind(const std::string& name) const {
  auto it = index_.find(detail::normalizeName(name));
  return it == index_.end() ? nullptr : &devices_[it->second];
}

const Device& DeviceDatabase::find(const std::string& name) const {
  if (const Device* d = tryFind(name)) return *d;
  std::vector<std::pair<std::string, std::string>> names;
  for (const auto& [key, i] : index_) names.emplace_back(key, devices_[i].id);
  throw Error(fmt::format("unknown GPU '{}'{} (`teg devices` lists them all)", name,
                          closeMatches(name, names)));
}

}  // namespace teg::device
