// Exact integer division by small divisors without a divide instruction: x / d as
// (x * ceil'(2^32 / d)) >> 32 with a compile-time table of reciprocals. The occupancy calculation
// divides small counts (warps, allocation units) by small counts, and a hardware divide costs
// more than the rest of it together.
//
// Exactness: with m = floor(2^32 / d) + 1 = (2^32 + e) / d, 0 < e <= d, x * m / 2^32 =
// x / d + x e / (d 2^32), and the floor is x / d whenever x e < 2^32 — true for
// x < kMaxNumerator (2^20) and d <= kMaxDivisor (2^11). Outside that range it divides.
#pragma once

#include <array>
#include <cstdint>

namespace teg::occupancy {

inline constexpr unsigned kSmallDivideMaxDivisor = 2048;
inline constexpr unsigned kSmallDivideMaxNumerator = 1u << 20;

namespace detail {
inline constexpr auto kReciprocals = [] {
  std::array<std::uint64_t, kSmallDivideMaxDivisor + 1> r{};
  for (unsigned d = 1; d <= kSmallDivideMaxDivisor; ++d) r[d] = (std::uint64_t{1} << 32) / d + 1;
  return r;
}();
}  // namespace detail

// x / d for d >= 1.
inline unsigned smallDivide(unsigned x, unsigned d) {
  if (d <= kSmallDivideMaxDivisor && x < kSmallDivideMaxNumerator)
    return static_cast<unsigned>((x * detail::kReciprocals[d]) >> 32);
  return x / d;
}

}  // namespace teg::occupancy
