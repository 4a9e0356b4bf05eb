// The index math of the C2R decomposition for in-place transposition, one definition for the CPU
// reference (cpu/decomposition.cpp, run by the tests on any machine) and the CUDA kernels
// (cuda/decomposition.cu).
//
// B. Catanzaro, A. Keller, M. Garland, "A Decomposition for In-place Matrix Transposition",
// PPoPP 2014. The m x n row-major matrix A (element (r, c) at r*n + c) must become its n x m
// transpose in the same memory: A(r, c) to position p = c*m + r, i.e. to row p / n, column p % n
// of the same m x n grid. With g = gcd(m, n), a = m / g, b = n / g, that move is split into three
// passes, each of which keeps every element inside one column or one row (so each pass needs only
// one column or one row of scratch, never a second matrix):
//
//   1. column rotation (only when g > 1): column c rotated down by c / b (mod m). Afterwards the
//      elements of every row have pairwise distinct destination columns.
//   2. row shuffle: in row r, the element in column c goes to column ((r - c/b) mod m + c*m) mod n
//      (a bijection of the row: c*m mod n runs over the multiples of g, (r - c/b) mod g over the
//      residues mod g).
//   3. column shuffle: final (i, j) takes row ((p mod m) + (p / m) / b) mod m of column j, where
//      p = i*n + j: the row the element of A(p mod m, p / m) was rotated to in pass 1.
//
// Run backwards, the three inverse passes transpose the other way: the inverse of the C2R
// transpose of an n x m matrix (the memory viewed as n rows of m) is the transpose of the m x n
// matrix in the same memory ("R2C"): inverse column shuffle (a scatter by postSource), inverse
// row shuffle (a gather by shuffleDestination), inverse rotation (up by c / b). Both ways are
// correct for every shape; the column passes want few rows (a strip of whole columns sits in
// shared memory), so m <= n runs C2R on the m x n grid and m > n runs R2C on the n x m grid: the
// column passes always see min(m, n) rows.
//
// The closed forms below are what the CPU reference uses; the walkers are their incremental forms
// (no division per element) that the GPU threads use, and the tests check both against each other.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define GIGACHECK_C2R_HD __host__ __device__
#else
#define GIGACHECK_C2R_HD
#endif

namespace gigacheck::transpose::c2r {

using Index = std::int64_t;

GIGACHECK_C2R_HD inline Index gcd(Index x, Index y)
{
    while (y != 0) {
        const Index t = x % y;
        x = y;
        y = t;
    }
    return x;
}

struct Shape {
    Index m = 1, n = 1;  // rows, columns of the input
    Index g = 1;         // gcd(m, n)
    Index a = 1, b = 1;  // m / g, n / g
};

GIGACHECK_C2R_HD inline Shape shapeOf(Index m, Index n)
{
    Shape s;
    s.m = m;
    s.n = n;
    s.g = gcd(m, n);
    s.a = m / s.g;
    s.b = n / s.g;
    return s;
}

// x mod y for 0 <= x < 2^32 in 32-bit arithmetic where it fits (a 64-bit division costs several
// times more on the GPU).
GIGACHECK_C2R_HD inline Index modSmall(Index x, Index y)
{
    if (x < (Index(1) << 32) && y < (Index(1) << 32))
        return Index(std::uint32_t(x) % std::uint32_t(y));
    return x % y;
}

// Pass 1, gather: after the rotation, (r, c) holds what was at (prerotationSource(r, c), c).
// c / b < g <= m, so one correction keeps it in [0, m).
GIGACHECK_C2R_HD inline Index prerotationSource(const Shape& s, Index r, Index c)
{
    const Index x = r - c / s.b;
    return x < 0 ? x + s.m : x;
}

// The inverse of pass 1, gather: (r, c) takes what is at (prerotationTarget(r, c), c).
GIGACHECK_C2R_HD inline Index prerotationTarget(const Shape& s, Index r, Index c)
{
    const Index x = r + c / s.b;
    return x >= s.m ? x - s.m : x;
}

// Pass 2, scatter: in row r, column c moves to this column.
GIGACHECK_C2R_HD inline Index shuffleDestination(const Shape& s, Index r, Index c)
{
    return (prerotationSource(s, r, c) % s.n + (c % s.n) * (s.m % s.n) % s.n) % s.n;
}

// Pass 3, gather: final (i, j) takes the element at (postSource(i, j), j).
GIGACHECK_C2R_HD inline Index postSource(const Shape& s, Index i, Index j)
{
    const Index p = i * s.n + j;
    const Index x = p % s.m + (p / s.m) / s.b;  // (p / m) / b < g <= m
    return x >= s.m ? x - s.m : x;
}

// Pass 2 incrementally: one thread walks columns c0, c0 + step, ... of a row.
struct ShuffleStep {
    Index step = 1, divB = 0, modB = 0, mModN = 0;  // step / b, step % b, step*m mod n
};
GIGACHECK_C2R_HD inline ShuffleStep shuffleStep(const Shape& s, Index step)
{
    ShuffleStep d;
    d.step = step;
    d.divB = step / s.b;
    d.modB = step % s.b;
    d.mModN = (step % s.n) * (s.m % s.n) % s.n;
    return d;
}
struct ShuffleWalker {
    Index k = 0, kr = 0, cmn = 0;  // c / b, c % b, c*m mod n of the current column c
    GIGACHECK_C2R_HD ShuffleWalker(const Shape& s, Index c0)
        : k(c0 / s.b), kr(c0 % s.b), cmn((c0 % s.n) * (s.m % s.n) % s.n)
    {
    }
    GIGACHECK_C2R_HD Index destination(const Shape& s, Index r) const
    {
        Index x = r - k;  // (r - c/b) mod m
        if (x < 0)
            x += s.m;
        if (x >= s.n)
            x = modSmall(x, s.n);
        x += cmn;
        return x >= s.n ? x - s.n : x;
    }
    GIGACHECK_C2R_HD void advance(const Shape& s, const ShuffleStep& d)
    {
        k += d.divB;
        kr += d.modB;
        if (kr >= s.b) {
            kr -= s.b;
            ++k;
        }
        cmn += d.mModN;
        if (cmn >= s.n)
            cmn -= s.n;
    }
};

// Pass 3 incrementally: one thread walks rows i0, i0 + step, ... of column j.
struct PostStep {
    Index dr = 0, dkDiv = 0, dkMod = 0;  // step*n = dc*m + dr; dc / b, dc % b
};
GIGACHECK_C2R_HD inline PostStep postStep(const Shape& s, Index step)
{
    const Index q = step * s.n;
    const Index dc = q / s.m;
    PostStep d;
    d.dr = q % s.m;
    d.dkDiv = dc / s.b;
    d.dkMod = dc % s.b;
    return d;
}
struct PostWalker {
    Index r = 0, k = 0, kr = 0;  // p mod m, (p / m) / b, (p / m) % b for p = i*n + j
    GIGACHECK_C2R_HD PostWalker(const Shape& s, Index i0, Index j)
    {
        const Index p = i0 * s.n + j;
        const Index c = p / s.m;
        r = p % s.m;
        k = c / s.b;
        kr = c % s.b;
    }
    GIGACHECK_C2R_HD Index source(const Shape& s) const
    {
        const Index x = r + k;
        return x >= s.m ? x - s.m : x;
    }
    GIGACHECK_C2R_HD void advance(const Shape& s, const PostStep& d)
    {
        r += d.dr;
        kr += d.dkMod;
        k += d.dkDiv;
        if (r >= s.m) {
            r -= s.m;
            ++kr;
        }
        if (kr >= s.b) {
            kr -= s.b;
            ++k;
        }
    }
};

}  // namespace gigacheck::transpose::c2r
