// The device's VerifyOut (abft_device.hpp) as the host's VerifyResult, for any family whose CUDA
// ops verify with cuda::verify.
#pragma once

#include "abft/cuda/abft_device.hpp"

#include "gigacheck/abft.hpp"

#include <algorithm>

namespace gigacheck::cuda {

inline VerifyResult toVerifyResult(const VerifyOut& out)
{
    VerifyResult r;
    r.verdict = out.verdict == kClean ? Verdict::Clean : out.verdict == kCorrected ? Verdict::Corrected : Verdict::Uncorrectable;
    for (int x = 0; x < std::min(out.rowCount, kMaxListed); ++x) {
        r.mismatchRows.push_back(out.rows[x]);
        r.rowResidual.push_back(out.rowResidual[x]);
    }
    for (int x = 0; x < std::min(out.colCount, kMaxListed); ++x) {
        r.mismatchCols.push_back(out.cols[x]);
        r.colResidual.push_back(out.colResidual[x]);
    }
    for (int x = 0; x < std::min(out.correctionCount, kMaxListed); ++x)
        r.corrections.push_back({out.corrRow[x], out.corrCol[x], out.before[x], out.after[x]});
    r.checksumsRecomputed = out.recomputed != 0;
    r.locatedByLargestResidual = out.locatedByLargestResidual != 0;
    r.maxCleanResidualRatio = out.maxCleanRatio;
    r.minThreshold = out.minThreshold;
    r.maxThreshold = out.maxThreshold;
    return r;
}

}  // namespace gigacheck::cuda
