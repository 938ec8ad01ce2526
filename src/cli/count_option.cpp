// A validator for options that hold a count in an unsigned integer: CLI11 converts "-5" into
// such an option as 2^64 - 5 (an instruction budget of "no limit in practice"), so the text is
// checked first.
#include <charconv>
#include <cstdint>

#include "command.hpp"

namespace teg::cli {

CLI::Validator nonNegativeCount() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc::result_out_of_range) return "'" + text + "' is larger than 2^64-1";
        if (ec != std::errc() || end != text.data() + text.size() || text.empty())
          return "'" + text + "' is not a non-negative integer";
        return {};
      },
      "N >= 0");
}

}  // namespace teg::cli
