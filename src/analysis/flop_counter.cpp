#include "teg/analysis/flop_counter.hpp"

#include <algorithm>
#include <bit>

namespace teg::analysis {

LaneFlops laneFlopsOf(const std::string& instructionText) {
  const std::string mnemonic = trace::mnemonicOf(instructionText);
  const std::string op = mnemonic.substr(0, mnemonic.find('.'));
  const auto dot = mnemonic.rfind('.');
  if (dot == std::string::npos) return {};
  const std::string type = mnemonic.substr(dot + 1);
  double perValue = 0;
  if (op == "add" || op == "sub" || op == "mul") perValue = 1;
  else if (op == "fma" || op == "mad") perValue = 2;
  else return {};
  if (type == "f32") return {perValue, LaneFlops::Precision::Fp32};
  if (type == "f64") return {perValue, LaneFlops::Precision::Fp64};
  if (type == "f16" || type == "bf16") return {perValue, LaneFlops::Precision::Fp16};
  if (type == "f16x2" || type == "bf16x2") return {2 * perValue, LaneFlops::Precision::Fp16};
  return {};
}

LaneFlops laneFlopsOfSass(const std::string& instructionText) {
  std::string text = instructionText;
  if (!text.empty() && text[0] == '@') text = text.substr(std::min(text.size(), text.find(' ') + 1));
  const std::string mnemonic = text.substr(0, text.find(' '));
  const std::string op = mnemonic.substr(0, mnemonic.find('.'));
  using P = LaneFlops::Precision;
  if (op == "FADD" || op == "FMUL" || op == "FADD32I" || op == "FMUL32I") return {1, P::Fp32};
  if (op == "FFMA" || op == "FFMA32I") return {2, P::Fp32};
  if (op == "DADD" || op == "DMUL") return {1, P::Fp64};
  if (op == "DFMA") return {2, P::Fp64};
  const bool toFloat = mnemonic.find(".F32") != std::string::npos;
  if ((op == "HADD2" || op == "HMUL2") && !toFloat) return {2, P::Fp16};
  // HFMA2 -RZ, RZ, constant is ptxas's way to move a constant, not arithmetic.
  if (op == "HFMA2" && !toFloat && text.find("-RZ, RZ,") == std::string::npos) return {4, P::Fp16};
  return {};
}

FlopCounter::FlopCounter(std::vector<std::uint64_t> blocks) : blocks_(std::move(blocks)) {
  std::sort(blocks_.begin(), blocks_.end());
}

void FlopCounter::beginKernel(const trace::KernelInfo& kernel) {
  perPc_.clear();
  for (const auto& s : kernel.instructions)
    perPc_.push_back(kernel.isa == trace::Isa::Sass ? laneFlopsOfSass(s.text) : laneFlopsOf(s.text));
}

void FlopCounter::beginBlock(std::uint32_t block) {
  counting_ = std::binary_search(blocks_.begin(), blocks_.end(), std::uint64_t{block});
}

void FlopCounter::instruction(const trace::WarpInstruction& record) {
  if (!counting_ || record.pc >= perPc_.size()) return;
  const LaneFlops& f = perPc_[record.pc];
  if (f.precision == LaneFlops::Precision::None) return;
  const double flops = f.flops * std::popcount(record.activeMask);
  switch (f.precision) {
    case LaneFlops::Precision::Fp16: count_.fp16 += flops; break;
    case LaneFlops::Precision::Fp32: count_.fp32 += flops; break;
    case LaneFlops::Precision::Fp64: count_.fp64 += flops; break;
    case LaneFlops::Precision::None: break;
  }
}

void FlopCounter::endBlock(std::uint32_t) { counting_ = false; }

}  // namespace teg::analysis
