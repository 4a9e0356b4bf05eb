// The online family's host-checked path on the GPU (K >= 2 weighted checksums, faults in A or B;
// op_table.cpp's header comment): the device encodes, multiplies the augmented panels and computes
// the weighted residuals and bound; the host decides with the CPU's own code.
#pragma once

#include "families/online_abft/cuda/op_state.hpp"

namespace gigacheck::online_abft::device_ops {

// makeState's part: the host side's check state, weights and pinned room (`checks` checks).
void setUpHostChecked(State& state, const gigacheck::cuda::OpContext& c, std::size_t checks);
void hostCheckedEncode(const gigacheck::cuda::OpContext& c, cudaStream_t s);
void hostCheckedPanelProduct(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s);
void hostCheckedCheck(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s);

}  // namespace gigacheck::online_abft::device_ops
