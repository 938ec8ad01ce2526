// SASS floating-point, half, double, conversion and MUFU handlers (owned by the SASS float work:
// helper "sassfloat" replaces this file). Until then no float opcode is registered, so a kernel
// using one stops with the emulator's "unsupported SASS instruction" error.
#include "sass_exec.hpp"

namespace teg::emu {

void registerFloatHandlers(SassHandlerTable& /*table*/) {}

}  // namespace teg::emu
