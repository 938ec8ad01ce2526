#include "device_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

#include "figure_ranges.hpp"
#include "figure_table.hpp"
#include "teg/support/json_file.hpp"

namespace teg::device::detail {

namespace {

using nlohmann::json;

// Where `"key"` first appears in `text` at or after `from`; file-only when it cannot be found
// (nlohmann keeps no positions for parsed values, so this is a textual search).
SourceLocation locateKey(const std::string& text, const std::string& path, const std::string& key,
                         std::size_t from = 0) {
  const auto pos = text.find("\"" + key + "\"", from);
  if (pos == std::string::npos) return SourceLocation{path, 0, 0};
  return locateOffset(path, text, pos);
}

[[noreturn]] void fail(const SourceLocation& where, const std::string& field,
                       const std::string& reason) {
  throw Error(where, fmt::format("{}: {}", field, reason));
}

// A string that looks like a short citation key rather than a citation (which has spaces or
// slashes): such a string must name an entry of "sources", or it is probably a typo.
bool looksLikeSourceKey(const std::string& s) {
  static const std::regex keyPattern(R"([A-Za-z0-9_.\-]+)");
  return std::regex_match(s, keyPattern);
}

std::string resolveSource(const json& source, const std::map<std::string, std::string>& sources,
                          const SourceLocation& where, const std::string& field) {
  if (!source.is_string() || source.get<std::string>().empty())
    fail(where, field, "expected a non-empty string (a key of \"sources\" or a citation)");
  const auto text = source.get<std::string>();
  if (auto it = sources.find(text); it != sources.end()) return it->second;
  if (looksLikeSourceKey(text)) {
    std::string known;
    for (const auto& [k, v] : sources) known += (known.empty() ? "" : ", ") + k;
    fail(where, field,
         fmt::format("unknown source key '{}' (known: {}; a literal citation must contain a space)",
                     text, known.empty() ? "none" : known));
  }
  return text;
}

// A figure's optional "basis" (what kind of figure it is, for `teg devices audit`) and
// "measured_on" (the GPU a measurement was taken on). measured_on implies basis "measured".
void readBasis(const json& entry, const SourceLocation& where, const std::string& field, RawFigure& raw) {
  if (entry.contains("basis")) {
    const auto& b = entry["basis"];
    static const std::vector<std::string> kinds = {"measured", "documented", "derived", "assumed"};
    if (!b.is_string() || std::find(kinds.begin(), kinds.end(), b.get<std::string>()) == kinds.end())
      fail(where, field + ".basis", "expected one of \"measured\", \"documented\", \"derived\", \"assumed\"");
    raw.basis = b.get<std::string>();
  }
  if (entry.contains("measured_on")) {
    const auto& m = entry["measured_on"];
    if (!m.is_string() || m.get<std::string>().empty())
      fail(where, field + ".measured_on", "expected the id of the GPU the figure was measured on");
    if (!raw.basis.empty() && raw.basis != "measured")
      fail(where, field + ".measured_on", fmt::format("given with basis \"{}\" (only a measurement has one)", raw.basis));
    raw.basis = "measured";
    raw.measuredOn = m.get<std::string>();
  }
}

const std::vector<std::string> kTopLevelKeys = {"id",      "name",    "aliases", "inherits",
                                                "generic", "sources", "figures", "notes"};

}  // namespace

const RawFigure* DeviceFile::figure(const std::string& key) const {
  for (const auto& f : figures)
    if (f.key == key) return &f;
  return nullptr;
}

DeviceFile readDeviceFile(const std::string& path) {
  return parseDeviceFile(readTextFile(path), path);
}

DeviceFile parseDeviceFile(const std::string& text, const std::string& path) {
  const json doc = parseJson(text, path);
  const SourceLocation fileOnly{path, 0, 0};
  if (!doc.is_object()) throw Error(fileOnly, "expected a JSON object at the top level");

  for (const auto& [key, value] : doc.items()) {
    if (std::find(kTopLevelKeys.begin(), kTopLevelKeys.end(), key) == kTopLevelKeys.end())
      fail(locateKey(text, path, key), key,
           "unknown top-level key (allowed: id, name, aliases, inherits, generic, sources, "
           "figures, notes)");
  }

  DeviceFile file;
  file.path = path;
  auto stringField = [&](const char* key, std::string& out) {
    if (!doc.contains(key)) return;
    const auto& v = doc[key];
    if (!v.is_string() || v.get<std::string>().empty())
      fail(locateKey(text, path, key), key, "expected a non-empty string");
    out = v.get<std::string>();
  };
  stringField("id", file.id);
  file.idGiven = !file.id.empty();
  if (!file.idGiven) file.id = std::filesystem::path(path).stem().string();
  stringField("name", file.name);
  stringField("inherits", file.inherits);

  if (doc.contains("generic")) {
    if (!doc["generic"].is_boolean())
      fail(locateKey(text, path, "generic"), "generic", "expected true or false");
    file.generic = doc["generic"].get<bool>();
  }
  if (doc.contains("aliases")) {
    const auto& v = doc["aliases"];
    const auto where = locateKey(text, path, "aliases");
    if (!v.is_array()) fail(where, "aliases", "expected an array of strings");
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string() || v[i].get<std::string>().empty())
        fail(where, fmt::format("aliases[{}]", i), "expected a non-empty string");
      file.aliases.push_back(v[i].get<std::string>());
    }
  }
  if (doc.contains("notes") && !doc["notes"].is_string() && !doc["notes"].is_array())
    fail(locateKey(text, path, "notes"), "notes", "expected a string or an array of strings");

  std::map<std::string, std::string> sources;
  if (doc.contains("sources")) {
    const auto& v = doc["sources"];
    if (!v.is_object())
      fail(locateKey(text, path, "sources"), "sources", "expected an object of key: citation");
    for (const auto& [key, citation] : v.items()) {
      if (!citation.is_string() || citation.get<std::string>().empty())
        fail(locateKey(text, path, key), "sources." + key, "expected a non-empty citation string");
      sources[key] = citation.get<std::string>();
    }
  }

  if (doc.contains("figures")) {
    const auto& figures = doc["figures"];
    const auto figuresPos = text.find("\"figures\"");
    const std::size_t from = figuresPos == std::string::npos ? 0 : figuresPos;
    if (!figures.is_object())
      fail(locateKey(text, path, "figures"), "figures", "expected an object of figures");
    for (const auto& [key, entry] : figures.items()) {
      const auto where = locateKey(text, path, key, from);
      const std::string field = "figures." + key;
      const FigureSpec* spec = findFigureSpec(key);
      if (spec == nullptr) fail(where, field, "unknown figure key (see data/devices/README.md)");
      if (!entry.is_object())
        fail(where, field, "expected an object {\"value\": ..., \"source\": ...}");
      RawFigure raw;
      raw.key = key;
      raw.where = where;
      if (entry.contains("note")) {
        if (!entry["note"].is_string()) fail(where, field + ".note", "expected a string");
        raw.note = entry["note"].get<std::string>();
      }
      readBasis(entry, where, field, raw);
      if (spec->kind == FigureKind::Measured) {
        for (const auto& [k, v] : entry.items())
          if (k != "value" && k != "unit" && k != "method" && k != "source" && k != "note" && k != "basis" &&
              k != "measured_on")
            fail(where, field + "." + k,
                 "unknown field (allowed: value, unit, method, source, note, basis, measured_on)");
        // The range first: "0 is outside 1 to 100000 MHz" says more than "expected positive".
        if (const auto reason = checkFigureRange(key, entry); !reason.empty()) fail(where, field, reason);
        if (const auto reason = checkFigureValue(spec->kind, entry); !reason.empty())
          fail(where, field, reason);
        raw.source = resolveSource(entry["source"], sources, where, field + ".source");
        raw.value = entry;
        raw.value["source"] = raw.source;
      } else {
        for (const auto& [k, v] : entry.items())
          if (k != "value" && k != "source" && k != "unit" && k != "note" && k != "basis" && k != "measured_on")
            fail(where, field + "." + k, "unknown field (allowed: value, source, unit, note, basis, measured_on)");
        if (!entry.contains("value")) fail(where, field + ".value", "missing");
        if (const auto reason = checkFigureRange(key, entry["value"]); !reason.empty())
          fail(where, field, reason);
        if (const auto reason = checkFigureValue(spec->kind, entry["value"]); !reason.empty())
          fail(where, field, reason);
        if (!entry.contains("source"))
          fail(where, field + ".source", "missing (every figure needs a source)");
        raw.source = resolveSource(entry["source"], sources, where, field + ".source");
        raw.value = entry["value"];
      }
      file.figures.push_back(std::move(raw));
    }
  }
  return file;
}

}  // namespace teg::device::detail
