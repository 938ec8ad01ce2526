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

// Logic contraction: which two-input `and`/`or`/`xor` ptxas folds into the logic operation that
// consumes it. From Maxwell on the SASS has a three-input logic operation, LOP3.LUT Rd, Ra, Rb, Rc
// with an 8-bit truth table (CUDA Binary Utilities, "Instruction Set Reference": LOP3), and ptxas
// folds a chain of two-input operations into it: `x ^= a; x ^= b` is one LOP3, a chain of 16 XORs
// eight (the SASS of data/validation/kernels/l1_bandwidth.cu's l1Read32 on sm_90 has half the
// logic instructions of its PTX). The rule, as conservative as the FMA one: an unguarded
// and/or/xor.b32 whose result has that single definition and a single use, read once by an
// unguarded and/or/xor.b32 later in the same basic block, with none of its sources redefined in
// between, at most one immediate among the three sources, and neither instruction already a
// three-input one (a fused instruction absorbs nothing more and is absorbed by nothing).
// Per instruction: the index of the logic instruction it folds into, or -1.
std::vector<std::int32_t> logicContractionTargets(const Function& function);

}  // namespace teg::ptx
