// Floating-point contraction: which multiplies ptxas fuses with the add that consumes them.
//
// The PTX ISA lets the code generator fuse `mul` and `add`/`sub` written without a rounding
// modifier into one `fma` ("mul/add sequences with no rounding modifiers may be optimized
// aggressively by the code generator", PTX ISA §9.7.3, add/mul notes); an explicit .rn (what
// nvcc writes under -fmad=false or __fmul_rn) forbids it. nvcc contracts within one expression
// itself, so PTX still holds separate mul and add wherever a sum is built up across statements
// (complex arithmetic, accumulations); ptxas turns those into FFMA/DFMA. The timing engine runs
// the instructions the GPU runs, so it needs to know which PTX pairs become one instruction.
//
// The rule applied here is deliberately conservative (a pair ptxas might still fuse is left
// alone rather than a pair it cannot fuse taken): a `mul.f32`/`mul.f64` without rounding or
// .sat, unguarded, whose result register has that single definition and a single use, read once
// by an unguarded `add`/`sub` of the same type and the same .ftz without rounding or .sat, later
// in the same basic block, with none of the multiply's sources redefined in between. An add
// absorbs at most one multiply (the first in program order).
#pragma once

#include <cstdint>
#include <vector>

#include "teg/ptx/ir.hpp"

namespace teg::ptx {

// Per instruction of `function`: the index of the add/sub it fuses into, or -1.
std::vector<std::int32_t> fmaContractionTargets(const Function& function);

}  // namespace teg::ptx
