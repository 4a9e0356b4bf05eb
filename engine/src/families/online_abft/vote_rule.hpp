// TMR's element-wise majority, one definition for the CPU op and the CUDA vote kernel.
#pragma once

#ifdef __CUDACC__
#define GIGACHECK_VOTE_HD __host__ __device__
#else
#define GIGACHECK_VOTE_HD
#endif

namespace gigacheck::online_abft {

template <class T> struct VoteOutcomeOf {
    T value;
    bool majority;  // at least two replicas agree
    bool outvoted;  // one replica disagreed with the two others
};
using VoteOutcome = VoteOutcomeOf<double>;

// Replicas agree when bitwise equal: the three products run the same deterministic kernel on the
// same inputs, so any difference is a fault (a NaN never agrees, not even with itself).
template <class T> GIGACHECK_VOTE_HD inline VoteOutcomeOf<T> majorityOf(T r0, T r1, T r2)
{
    const bool a01 = r0 == r1, a02 = r0 == r2, a12 = r1 == r2;
    if (a01 && a02)
        return {r0, true, false};
    if (a01 || a02)
        return {r0, true, true};
    if (a12)
        return {r1, true, true};
    return {r0, false, false};
}

template <class T> inline VoteOutcome majority(T r0, T r1, T r2)
{
    const auto v = majorityOf<T>(r0, r1, r2);
    return {double(v.value), v.majority, v.outvoted};
}

}  // namespace gigacheck::online_abft
