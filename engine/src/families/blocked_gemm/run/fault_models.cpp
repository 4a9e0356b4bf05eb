// shapeFaults: the fault models beyond one cell (gigacheck/fault_models.hpp).
#include "gigacheck/fault_models.hpp"
#include "gigacheck/blocked_gemm/plan_faults.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace gigacheck {

bool isCheckerFault(FaultTarget t)
{
    return t == FaultTarget::Check || t == FaultTarget::Correction || t == FaultTarget::EncodingA ||
           t == FaultTarget::EncodingB;
}

// Every model runs on both backends: the CPU backend's ops (cpu/block_ops.cpp) and the CUDA ones
// (cuda/op_table.cpp, abft/cuda/abft_kernels.cu) apply the checker's faults and two-bit flips alike.
std::string faultsUnsupportedOn(const FaultSpec&, BackendKind) { return {}; }

namespace {

void validate(const FaultSpec& spec, Precision p)
{
    if (spec.extentLength < 1 || spec.extentLength > (1 << 20))
        throw InputError("a fault's extent (segment length or tile side) must be 1 to 2^20 cells (got " +
                         std::to_string(spec.extentLength) + ")");
    if (spec.bit2 >= 0) {
        const int bits = p == Precision::F64 ? 64 : 32;
        if (spec.model != FaultModel::BitFlip)
            throw InputError("a second bit belongs to a bit flip (--fault bitflip:B+B2)");
        if (spec.bit2 >= bits)
            throw InputError("bit " + std::to_string(spec.bit2) + " is outside an " + std::string(toString(p)) +
                             " element (bits 0-" + std::to_string(bits - 1) + ")");
        const int first = spec.bit == -1 ? bits - 2 : spec.bit;
        if (spec.bit2 == first)
            throw InputError("two-bit flip: the second bit must differ from the first (both are " +
                             std::to_string(first) + ")");
    }
    if (!spec.at.empty() && (spec.target == FaultTarget::Check || spec.target == FaultTarget::EncodingA ||
                             spec.target == FaultTarget::EncodingB))
        throw InputError("--inject-at places faults in the result C; --target " + std::string(toString(spec.target)) +
                         " takes random faults (--errors K)");
}

}  // namespace

FaultSpec placementOf(const FaultSpec& spec)
{
    FaultSpec placing = spec;
    if (isCheckerFault(spec.target))
        placing.target = FaultTarget::Result;
    return placing;
}

void shapeFaults(FaultPlan& faults, const FaultSpec& spec, const Plan& plan)
{
    if (!spec.any())
        return;
    validate(spec, plan.precision);
    std::vector<Injection> out;
    for (Injection inj : faults.injections) {
        if (spec.bit2 >= 0 && inj.model == FaultModel::BitFlip)
            inj.bit2 = spec.bit2;
        // planFaults placed the checker's faults as result cells (placementOf): give them their target.
        if (spec.target == FaultTarget::Check || spec.target == FaultTarget::EncodingA ||
            spec.target == FaultTarget::EncodingB)
            inj.target = spec.target;
        const std::int64_t rows = plan.rowsOf(inj.block.i), cols = plan.colsOf(inj.block.j);
        const std::int64_t depth = plan.depthOf(inj.block.k);
        switch (inj.target) {
        case FaultTarget::Check:  // the cell's row check or its column check, alternately
            if ((inj.localRow + inj.localCol) % 2 == 0)
                inj.localCol = cols, inj.globalCol = -1;
            else
                inj.localRow = rows, inj.globalRow = -1;
            out.push_back(inj);
            continue;
        case FaultTarget::EncodingA:  // c_A[k]: the A block's checksum row, entry k of its depth
        case FaultTarget::EncodingB:  // r_B[k]: the B block's checksum column, entry k
            inj.localRow = (inj.target == FaultTarget::EncodingA ? inj.localCol : inj.localRow) % depth;
            inj.localCol = 0;
            inj.globalRow = inj.globalCol = -1;
            out.push_back(inj);
            continue;
        case FaultTarget::ChecksumRow:
        case FaultTarget::ChecksumCol:
            out.push_back(inj);
            continue;
        case FaultTarget::Result:
        case FaultTarget::Correction:
            break;
        }
        // Explicit positions come as result faults; with --target correction their writes are hit too.
        const bool correction = spec.target == FaultTarget::Correction;
        for (const auto& [r, c] : faultReach(spec.extent, spec.extentLength, inj.localRow, inj.localCol, rows, cols)) {
            Injection cell = inj;
            cell.localRow = r;
            cell.localCol = c;
            cell.globalRow = plan.rowOffset(inj.block.i) + r;
            cell.globalCol = plan.colOffset(inj.block.j) + c;
            cell.target = FaultTarget::Result;
            out.push_back(cell);
            if (correction) {  // the fault that makes the correction, then the correction's write hit
                cell.target = FaultTarget::Correction;
                out.push_back(cell);
            }
        }
    }
    faults.injections = std::move(out);
}

}  // namespace gigacheck
