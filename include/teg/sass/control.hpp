// The scheduling control bits ptxas writes into every Volta-and-later instruction (bits 105..125
// of the 128-bit word, i.e. bits 41..61 of the high 64-bit word). Layout from Jia, Maggioni,
// Staiger, Scarpazza, "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking"
// (arXiv:1804.06826, 2018, the chapter on instruction encoding), the same as cloudcores/CuAssembler
// CuAsm/common.py decodeCtrlCodes, from the least significant bit up:
//   stall  4 bits   cycles the scheduler waits before issuing this warp's next instruction
//   yield  1 bit    0 = the scheduler is asked to switch to another warp (CuAssembler prints
//                   "Y" when the bit is 0, "-" when it is 1)
//   write  3 bits   dependency barrier (scoreboard) this variable-latency instruction sets when
//                   its result is written; 7 = none
//   read   3 bits   barrier set when its source registers have been read; 7 = none
//   wait   6 bits   mask of barriers that must be clear before this instruction issues
//   reuse  4 bits   operand-reuse cache flags for source slots a, b, c, d
#pragma once

#include <cstdint>
#include <string>

namespace teg::sass {

struct Control {
  int stall = 0;              // 0..15 cycles
  bool yield = false;         // true: the yield hint is on (raw bit 0)
  int writeBarrier = -1;      // 0..5, -1 none (raw 7)
  int readBarrier = -1;       // 0..5, -1 none (raw 7)
  std::uint8_t waitMask = 0;  // bit i: wait for barrier i
  std::uint8_t reuse = 0;     // bit i: operand slot i (a, b, c, d) goes to the reuse cache
  std::uint32_t raw = 0;      // the 21 bits as they are

  bool operator==(const Control&) const = default;
};

// Decodes the control bits from the high 64-bit word of an instruction (the second hex word
// nvdisasm -hex prints).
Control decodeControl(std::uint64_t highWord);

// CuAssembler's notation, "reuse:Bwait:Rread:Wwrite:Y:Sstall", e.g. "R-R-:B0-----:R-:W1:Y:S04";
// one string a person can read beside an instruction.
std::string formatControl(const Control& control);

}  // namespace teg::sass
