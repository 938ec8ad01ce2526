// Which asynchronous-copy or mbarrier operation a PTX `cp` / `mbarrier` instruction is (PTX ISA
// §9.7.9.25 cp.async, §9.7.9.25.4 cp.async.bulk, §9.7.13.15 mbarrier): decided once from its
// qualifiers, used by the emulator's decoder (program.cpp), its executor (exec_async.cpp) and
// the trace description (instruction_table.cpp), so the three agree on what each form is.
#pragma once

#include <cstdint>

#include "teg/ptx/ir.hpp"

namespace teg::emu {

enum class AsyncForm : std::uint8_t {
  Unsupported,      // tensor copies, reductions, multicast, shared->global bulk copies, ...
  Copy,             // cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src}
  BulkCopy,         // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
  CommitGroup,      // cp.async.commit_group
  WaitGroup,        // cp.async.wait_group N
  WaitAll,          // cp.async.wait_all
  CopyArrive,       // cp.async.mbarrier.arrive.shared.b64 [mbar]  (pending count +1, then an arrive)
  CopyArriveNoinc,  // cp.async.mbarrier.arrive.noinc.shared.b64 [mbar]
  Init,             // mbarrier.init [mbar], count
  Arrive,           // mbarrier.arrive{.expect_tx} state, [mbar]{, count | tx-count}
  ArriveDrop,       // mbarrier.arrive_drop{.expect_tx} state, [mbar]{, count | tx-count}
  ExpectTx,         // mbarrier.expect_tx [mbar], tx-count
  CompleteTx,       // mbarrier.complete_tx [mbar], tx-count
  TestWait,         // mbarrier.test_wait{.parity} waitComplete, [mbar], state | parity
  TryWait,          // mbarrier.try_wait{.parity} waitComplete, [mbar], state | parity{, hint}
  PendingCount,     // mbarrier.pending_count count, state
  Inval,            // mbarrier.inval [mbar]
};

// The form and its two modifiers, packed into Decoded::qual (form in the low byte).
struct AsyncInstruction {
  AsyncForm form = AsyncForm::Unsupported;
  bool parity = false;    // test_wait/try_wait.parity: the operand is a phase parity, not a state
  bool expectTx = false;  // arrive{,_drop}.expect_tx: the operand is a transaction count
  [[nodiscard]] std::uint32_t pack() const {
    return static_cast<std::uint32_t>(form) | (parity ? 0x100u : 0u) | (expectTx ? 0x200u : 0u);
  }
  static AsyncInstruction unpack(std::uint32_t q) {
    return {static_cast<AsyncForm>(q & 0xffu), (q & 0x100u) != 0, (q & 0x200u) != 0};
  }
};

// Forms that wait for this thread's copies (the timing engine sees them depend on the copies).
constexpr bool waitsForCopies(AsyncForm f) {
  return f == AsyncForm::WaitGroup || f == AsyncForm::WaitAll || f == AsyncForm::TestWait || f == AsyncForm::TryWait;
}
// Forms that read or write the 8-byte mbarrier object in shared memory.
constexpr bool touchesMbarrier(AsyncForm f) {
  return f == AsyncForm::CopyArrive || f == AsyncForm::CopyArriveNoinc || f == AsyncForm::Init ||
         f == AsyncForm::Arrive || f == AsyncForm::ArriveDrop || f == AsyncForm::ExpectTx ||
         f == AsyncForm::CompleteTx || f == AsyncForm::TestWait || f == AsyncForm::TryWait || f == AsyncForm::Inval;
}

AsyncInstruction asyncFormOf(const ptx::Module& module, const ptx::Function& fn, const ptx::Instruction& in);

}  // namespace teg::emu
