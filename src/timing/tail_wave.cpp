#include "tail_wave.hpp"

namespace teg::timing::detail {

std::uint64_t tailWaveBlocks(std::uint64_t blocksOnSm, std::uint64_t slots, std::uint64_t simulated) {
  if (slots == 0 || simulated < slots || blocksOnSm <= simulated) return 0;
  return blocksOnSm % slots;
}

double tailWaveFinish(const std::vector<double>& done, std::uint64_t slots, std::uint64_t blocksOnSm, double perBlock,
                      double tailDuration) {
  const std::uint64_t k = done.size();
  const std::uint64_t p = tailWaveBlocks(blocksOnSm, slots, k);
  if (p == 0) return 0;
  // The blocks before the tail that are not simulated, at the steady pace.
  const double shift = perBlock * static_cast<double>(blocksOnSm - p - k);
  const double lastFullWaveEnd = done[k - 1] + shift;
  const double tailStart = done[k - slots + p - 1] + shift;  // the p-th slot the last full wave frees
  const double tailEnd = tailStart + tailDuration;
  return tailEnd > lastFullWaveEnd ? tailEnd : lastFullWaveEnd;
}

}  // namespace teg::timing::detail
