// Reading JSON inputs (device files, launch descriptions, batches) with errors that say where:
// a syntax error gives file:line:col, a schema error names the field by its JSON pointer.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace teg {

// Parses `text` (named `file` in messages); throws teg::Error with file:line:col on bad syntax.
nlohmann::json parseJson(const std::string& text, const std::string& file);

// Reads and parses a file; throws teg::Error if it cannot be read or parsed.
nlohmann::json readJsonFile(const std::string& path);

// Reads a whole file into a string (readInputFile: regular files only); throws teg::Error naming
// the path if it cannot.
std::string readTextFile(const std::string& path);

}  // namespace teg
