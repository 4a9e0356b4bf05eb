// Which checks a located set of cells is fixed from: one definition for the host reference
// (verify.cpp) and the CUDA decide kernel (cuda/abft_kernels.cu), so that both correct alike.
#pragma once

#ifdef __CUDACC__
#define GIGACHECK_CORRECTION_AXIS_HD __host__ __device__
#else
#define GIGACHECK_CORRECTION_AXIS_HD
#endif

namespace gigacheck {

// Given how many rows and columns locate the cells: one row and several columns (row-collinear)
// from the column checks, several rows and one column from the row checks; a single cell from its
// row check -- a row's cells lie side by side in memory, where a column's are a row pitch apart,
// which the device reads one scattered load at a time -- unless the one-axis rule picked its column
// (columnPicked: only the row mismatched), then from that clean column, so that a wrong pick moves
// a clean cell by no more than that column's residual (abft README "One axis"). When the rule
// picked the row, the row is the clean check: the row again.
GIGACHECK_CORRECTION_AXIS_HD inline bool fixedFromRowChecks(long long rows, long long cols, bool columnPicked)
{
    if (rows == 1 && cols == 1)
        return !columnPicked;
    return rows > 1;
}

}  // namespace gigacheck
