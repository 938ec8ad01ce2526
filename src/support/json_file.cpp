#include "teg/support/json_file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include <sstream>

#include "teg/support/error.hpp"
#include "teg/support/input_file.hpp"

namespace teg {

namespace {

// Where the `occurrence`-th (0-based) `"key"` followed by ':' is in `text`; npos when the key is
// spelled differently there (escapes), and the error is then reported for the file only.
std::size_t findKey(const std::string& text, const std::string& key, int occurrence) {
  const std::string quoted = nlohmann::json(key).dump();
  for (std::size_t pos = text.find(quoted); pos != std::string::npos; pos = text.find(quoted, pos + 1)) {
    std::size_t after = pos + quoted.size();
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t' || text[after] == '\n' || text[after] == '\r'))
      ++after;
    if (after < text.size() && text[after] == ':' && occurrence-- == 0) return pos;
  }
  return std::string::npos;
}

}  // namespace

nlohmann::json parseJson(const std::string& text, const std::string& file) {
  // A key given twice in one object would silently keep the last value (nlohmann's choice, and
  // RFC 8259 leaves it open): the parser callback sees every key and refuses the second one.
  std::vector<std::unordered_set<std::string>> openObjects;
  std::unordered_map<std::string, int> keysSeen;  // occurrences so far, to find the duplicate's text
  const auto refuseDuplicates = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) {
      openObjects.emplace_back();
    } else if (event == Event::object_end) {
      openObjects.pop_back();
    } else if (event == Event::key) {
      const auto& key = parsed.get_ref<const std::string&>();
      const int occurrence = keysSeen[key]++;
      if (!openObjects.back().insert(key).second) {
        const std::size_t at = findKey(text, key, occurrence);
        throw Error(at == std::string::npos ? SourceLocation{file, 0, 0} : locateOffset(file, text, at),
                    fmt::format("duplicate key \"{}\" (an object gives each key once; the later value "
                                "would silently replace the earlier)", key));
      }
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, refuseDuplicates);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann reports the byte just past the offending token; point at the token itself.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: " prefix.
    if (auto pos = what.find(": "); pos != std::string::npos) what = what.substr(pos + 2);
    throw Error(locateOffset(file, text, offset), fmt::format("invalid JSON: {}", what));
  } catch (const nlohmann::json::exception& e) {
    // Anything else the parser throws (out_of_range 406: a number beyond double's range) carries
    // no offset; point at the quoted token when the message names one.
    std::string what = e.what();
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    std::size_t offset = 0;
    if (const auto open = what.find('\''), close = what.rfind('\''); open != std::string::npos && close > open)
      if (const auto at = text.find(what.substr(open + 1, close - open - 1)); at != std::string::npos) offset = at;
    throw Error(locateOffset(file, text, offset), fmt::format("invalid JSON: {}", what));
  }
}

std::string readTextFile(const std::string& path) { return readInputFile(path); }

nlohmann::json readJsonFile(const std::string& path) { return parseJson(readTextFile(path), path); }

}  // namespace teg
