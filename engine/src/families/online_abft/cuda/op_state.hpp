// The online family's CUDA op table (op_table.cpp) in parts: the run's state and the helpers its
// parts share -- the device path (op_table.cpp), the step-sums path (step_sums_ops.cpp) and the
// host-checked path (host_checked_ops.cpp).
#pragma once

#include "abft/cuda/abft_device.hpp"
#include "core/cuda/op_table.hpp"
#include "core/cuda/resources.hpp"
#include "families/online_abft/host_check.hpp"
#include "families/online_abft/inputs.hpp"
#include "families/online_abft/ops.hpp"
#include "gemm/cuda/gemm.hpp"
#include "gemm/cuda/protected_product.hpp"
#include "gigacheck/tf32x3.hpp"

#include <memory>
#include <string>
#include <vector>

namespace gigacheck::online_abft::device_ops {

using gigacheck::cuda::AuxView;
using gigacheck::cuda::CublasHandle;
using gigacheck::cuda::DeviceInjection;
using gigacheck::cuda::GemmCall;
using gigacheck::cuda::PinnedBuffer;
using gigacheck::cuda::SideLane;
using gigacheck::cuda::VerifyCall;
using gigacheck::cuda::VerifyOut;

inline std::size_t elemSize(Precision p) { return p == Precision::F64 ? 8 : 4; }

// The host-checked path's host side: the check state the CPU keeps too, the weights, pinned room
// for what the device sends (input sums, residuals and bound), each check's verdict (decided by
// the issuing thread, read by the reporting thread once the check's done event passed), and host
// copies of C_f, A_c and B_r made only when a check flags something.
struct HostSide {
    bool on = false;
    CheckState check;
    PinnedBuffer weights;    // K x auxLd doubles: w_t(x)
    PinnedBuffer sums;       // max(input sums of A and B, residuals + bound)
    PinnedBuffer encodeOut;  // before / after of the faults struck at encoding
    std::vector<VerifyResult> results;  // per check slot
    PinnedBuffer mirrorC, mirrorA, mirrorB;
};

// One side lane and one cuBLAS handle per column block: the blocks' GEMMs run at once on their
// own streams, and a handle's workspace must not be shared by concurrent kernels. With column
// blocks the side lanes, and the lanes that run the checks and faults, are of the greatest
// priority (README "Column blocks": otherwise a block's check waits for every wave of the other
// block's GEMM, and its next product waits for the check).
struct State final : gigacheck::cuda::RunState {
    std::vector<std::unique_ptr<SideLane>> lanes, checkLanes;
    std::vector<std::unique_ptr<CublasHandle>> handles;
    std::vector<int> slotOf;  // per op: its slot in verifyOut / injectOut
    PinnedBuffer verifyOut, injectOut, voteOut;
    HostSide host;
    // Per column block: whether the block's last product wrote C's sums into its aux scratch rows
    // (cutlass-tf32 where the kernel takes the shape, README "C's sums from the product"). A block's
    // ops are issued in order (product -> inject -> check on its stream).
    std::vector<char> sumsInAux;
    // The step-sums kernel (stepSumsProduct): per op, the product op it follows or is (its slot in
    // the step sums); the checks' slots in verifyOut run in the same order.
    bool stepSums = false;
    std::vector<int> stepOf;
    int stepSlots = 0;
    // Its steps' checksum passes, launched beside the kernel: they start on the multiprocessors its
    // persistent CTAs leave (all in its last round of tiles, some from its start where fewer walk C
    // in as many rounds) and end before the first check.
    std::unique_ptr<SideLane> passLane;
    std::int64_t stepDepth = 0;  // every product op's (stepsOfOneDepth)
    // The passes go in groups of kStepsPerGroup steps, each group's event recorded when its steps'
    // checksums are complete: the checks of a group then run beside the next group's passes.
    std::vector<gigacheck::cuda::Event> groupDone;
    // The checks of a group screened at once (screenChecks), its first check waiting for the screen:
    // per op, whether its clean verdict is in its VerifyOut already; the last group screened; whether
    // the last check ran in full (the group's later checks are then screened again).
    std::vector<char> screenedClean;
    int screenedGroup = -1;
    bool lastInFull = false;
    bool screens = true;  // GIGACHECK_NO_SCREEN=1: every check in full (to measure the screen against)
    std::unique_ptr<gigacheck::cuda::Event> screened;
};

inline State& stateOf(const gigacheck::cuda::OpContext& c) { return *static_cast<State*>(c.state); }

// Steps per group of the step-sums path's checksum passes (State::groupDone).
inline constexpr int kStepsPerGroup = 4;

inline void* buf(const gigacheck::cuda::OpContext& c, int slot) { return c.buffers[std::size_t(slot)]; }
inline std::int64_t ld(const gigacheck::cuda::OpContext& c, int slot) { return bufferOf(c.schedule, slot).ld; }
inline AuxView auxOf(const gigacheck::cuda::OpContext& c, int block = 0)
{
    return AuxView{static_cast<double*>(buf(c, slotAux(block))), ld(c, slotAux(block))};
}
inline cublasHandle_t handleOf(const gigacheck::cuda::OpContext& c, int block = 0)
{
    return stateOf(c).handles[std::size_t(block)]->get();
}
// TF32, BF16, FP16 products: the operands rounded where the checksums see it (roundoffModel sets the
// rounded-input part for FP32 only); tf32x3: FP32's model and the tensor cores' accumulation. The one
// model of the blocked family.
inline RoundoffModel roundoff(const gigacheck::cuda::OpContext& c)
{
    return roundoffModelOf(inputsOf(c.request).precision, inputsOf(c.request).gemm);
}
inline char* at(const gigacheck::cuda::OpContext& c, int slot, std::int64_t row, std::int64_t col)
{
    return static_cast<char*>(buf(c, slot)) + (std::size_t(row) * std::size_t(ld(c, slot)) + std::size_t(col)) *
                                                  elemSize(inputsOf(c.request).precision);
}

inline HostSide& hostOf(const gigacheck::cuda::OpContext& c) { return stateOf(c).host; }
inline VerifyOut* verifySlot(const gigacheck::cuda::OpContext& c, int opId)
{
    return stateOf(c).verifyOut.as<VerifyOut>() + stateOf(c).slotOf[std::size_t(opId)];
}

// op_table.cpp: the device path's GEMM of a panel product, the device check after a product, and a
// line added to the record's panel_gemm.
GemmCall panelGemm(const gigacheck::cuda::OpContext& c, const Operation& op);
VerifyCall checkCallOf(const gigacheck::cuda::OpContext& c, const Operation& op);
void noteLine(OnlineInputs& in, const std::string& line);

}  // namespace gigacheck::online_abft::device_ops
