// One operand of an nvdisasm instruction line ("R2.reuse", "-|R3|", "c[0x0][0x160]",
// "desc[UR4][R2.64+0x10]", "`(.L_x_3)") into an Operand. Forms it does not know become
// OperandKind::Other with their text (newer architectures print new ones); what is malformed in a
// known form (an unbalanced bracket, R300, a number that does not fit) throws teg::Error at
// `where` (the operand's first column).
#pragma once

#include <string_view>

#include "teg/sass/ir.hpp"

namespace teg::sass::detail {

Operand parseOperand(std::string_view text, const SourceLocation& where);

}  // namespace teg::sass::detail
