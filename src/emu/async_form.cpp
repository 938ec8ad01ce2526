#include "async_form.hpp"

#include "teg/ptx/isa.hpp"

namespace teg::emu {

using ptx::Opcode;
using ptx::Qualifier;

AsyncInstruction asyncFormOf(const ptx::Module& module, const ptx::Function& fn, const ptx::Instruction& in) {
  (void)module;
  AsyncInstruction r;
  if (in.opcode != Opcode::Cp && in.opcode != Opcode::Mbarrier) return r;
  bool async = false, bulk = false, commit = false, waitGroup = false, waitAll = false, mbarrierQ = false;
  bool arrive = false, arriveDrop = false, noinc = false, ca = false, cg = false, completeTxBytes = false;
  bool init = false, expectTx = false, completeTx = false, testWait = false, tryWait = false, parity = false;
  bool pending = false, inval = false, global = false, shared = false, unknown = false;
  int spaces = 0;
  for (const Qualifier q : fn.qualifiersOf(in)) {
    if (static_cast<std::uint16_t>(q) >= ptx::kFirstInternedQualifier) { unknown = true; continue; }
    switch (q) {
      case Qualifier::Async: async = true; break;
      case Qualifier::Bulk: bulk = true; break;
      case Qualifier::CommitGroup: commit = true; break;
      case Qualifier::WaitGroup: waitGroup = true; break;
      case Qualifier::WaitAll: waitAll = true; break;
      case Qualifier::MbarrierQ: mbarrierQ = true; break;
      case Qualifier::Arrive: arrive = true; break;
      case Qualifier::ArriveDrop: arriveDrop = true; break;
      case Qualifier::Noinc: noinc = true; break;
      case Qualifier::Ca: ca = true; break;
      case Qualifier::Cg: cg = true; break;
      case Qualifier::MbarrierCompleteTxBytes: completeTxBytes = true; break;
      case Qualifier::Init: init = true; break;
      case Qualifier::ExpectTx: expectTx = true; break;
      case Qualifier::CompleteTx: completeTx = true; break;
      case Qualifier::TestWait: testWait = true; break;
      case Qualifier::TryWait: tryWait = true; break;
      case Qualifier::Parity: parity = true; break;
      case Qualifier::PendingCount: pending = true; break;
      case Qualifier::Inval: inval = true; break;
      case Qualifier::Global: global = true; ++spaces; break;
      case Qualifier::Shared: case Qualifier::SharedCta: case Qualifier::SharedCluster: shared = true; ++spaces; break;
      default:
        if (ptx::qualifierCategory(q) == ptx::QualifierCategory::Space) ++spaces;
        break;
    }
  }
  if (unknown) return r;
  if (in.opcode == Opcode::Cp) {
    if (!async) return r;
    if (bulk) {
      // Only global -> shared completing on an mbarrier; the shared -> global and bulk-group
      // forms, tensor copies (their own qualifiers) and multicast stay unsupported.
      if (completeTxBytes && shared && global && spaces == 2 && !commit && !waitGroup && !waitAll)
        r.form = AsyncForm::BulkCopy;
      return r;
    }
    if (commit) r.form = AsyncForm::CommitGroup;
    else if (waitGroup) r.form = AsyncForm::WaitGroup;
    else if (waitAll) r.form = AsyncForm::WaitAll;
    else if (mbarrierQ && arrive) r.form = noinc ? AsyncForm::CopyArriveNoinc : AsyncForm::CopyArrive;
    else if ((ca || cg) && shared && global && spaces == 2) r.form = AsyncForm::Copy;
    return r;
  }
  r.parity = parity;
  if (init) r.form = AsyncForm::Init;
  else if (arriveDrop) r.form = AsyncForm::ArriveDrop, r.expectTx = expectTx;
  else if (arrive) r.form = AsyncForm::Arrive, r.expectTx = expectTx;
  else if (expectTx) r.form = AsyncForm::ExpectTx;
  else if (completeTx) r.form = AsyncForm::CompleteTx;
  else if (testWait) r.form = AsyncForm::TestWait;
  else if (tryWait) r.form = AsyncForm::TryWait;
  else if (pending) r.form = AsyncForm::PendingCount;
  else if (inval) r.form = AsyncForm::Inval;
  return r;
}

}  // namespace teg::emu
