// The one-axis rule (abft README "One axis"), one definition for the host reference
// (abft/verify.cpp) and the CUDA decide kernel (cuda/abft_kernels.cu).
#pragma once

#ifdef __CUDACC__
#define GIGACHECK_LOCATE_RULE_HD __host__ __device__
#else
#define GIGACHECK_LOCATE_RULE_HD
#endif

namespace gigacheck {

// "Clearly the largest": the other axis's largest residual / threshold must be this many times
// the next largest. Clean checks of a block sit far below their thresholds (a few percent, abft
// README), a fault near the threshold near 1, so a factor 4 separates them with room to spare.
constexpr double kLocateDominance = 4.0;

// A single check mismatched (residual, tolerance) and no check of the other axis did; the other
// axis's largest residual / threshold is otherRatio (the next largest otherSecondRatio), and its
// tolerance otherTolerance. Tolerances are thresholds with the TF32 sum part taken from the stored
// checksum. Unambiguous: otherRatio > 0 and >= kLocateDominance * otherSecondRatio. Consistent:
// one error e shows as `residual` and as otherRatio * otherTolerance, each within its own
// round-off, |residual - otherResidual| <= tolerance + otherTolerance; the other check is clean
// (otherResidual < otherTolerance), so only the upper side can fail. NaN never locates.
GIGACHECK_LOCATE_RULE_HD inline bool locatesOnOtherAxis(double residual, double tolerance, double otherRatio,
                                                        double otherSecondRatio, double otherTolerance)
{
    const bool unambiguous = otherRatio > 0 && otherRatio >= kLocateDominance * otherSecondRatio;
    const bool consistent = residual <= tolerance + otherTolerance + otherRatio * otherTolerance;
    return unambiguous && consistent;
}

}  // namespace gigacheck
