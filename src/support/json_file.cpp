#include "teg/support/json_file.hpp"

#include <fmt/format.h>

#include "teg/support/error.hpp"
#include "teg/support/input_file.hpp"

namespace teg {

nlohmann::json parseJson(const std::string& text, const std::string& file) {
  try {
    return nlohmann::json::parse(text);
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
