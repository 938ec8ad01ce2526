// How GPU names are compared: case-insensitively, ignoring spaces, '-', '_' and a leading
// vendor/brand word, so that "RTX 4090", "rtx4090" and "NVIDIA GeForce RTX 4090" are one name.
#pragma once

#include <string>

namespace teg::device::detail {

// "NVIDIA GeForce RTX 4090" -> "rtx4090"; "sm_80" -> "sm80"; "8.0" -> "8.0".
std::string normalizeName(const std::string& name);

// Levenshtein distance (for "did you mean" suggestions).
int editDistance(const std::string& a, const std::string& b);

}  // namespace teg::device::detail
