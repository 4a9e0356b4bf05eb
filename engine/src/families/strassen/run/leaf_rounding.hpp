// The round-off scales of TF32 leaves from the operands the leaves actually multiply (README
// "Fault tolerance", docs/strassen.md "Which check sees what"). A TF32 leaf rounds its operands --
// the stage sums (A0 + A3, A1 - A3 ...), not A and B -- where the checksums of A and B cannot see
// it, and that rounding is most of a TF32 Strassen C's error. Rather than the conventional
// product's scale times a per-level growth fitted to the worst variant, the scales here are those
// of the actual sums: a symbolic pass over the schedule finds every leaf product's operands as
// signed combinations of A's and B's leaf tiles and its coefficient in every C tile (the accumulate
// variant's C transforms included), and the squares of the products those rounded values enter
// are summed per row check, column check and cell. V-ABFT's idea (a bound on the round-off of the
// actual sums), with the algorithm's own sums.
#pragma once

#include "gigacheck/schedule.hpp"
#include "gigacheck/strassen.hpp"

#include <optional>
#include <vector>

namespace gigacheck::strassen {

// With rounding errors of relative size u on every entry of a leaf's operands S_A and S_B, the
// error of the product M = S_A S_B has, per row r of M's row sums, the variance-scale
//   sum_k S_A(r,k)^2 ((S_B e)_k^2 + ||S_B(k,:)||^2)
// (S_A(r,k)'s rounding enters every column of the row alike, S_B(k,c)'s each column once), per
// column c likewise, and per cell sum_k S_A(r,k)^2 S_B(k,c)^2. A row check of C sums a leaf's
// rows with the sum of its coefficients over the C tiles of that tile row; a cell takes the
// squared coefficient of each product that reaches its tile. The peeled fringe's plain products
// enter with A's and B's own entries. Sizes: rowQ m, colQ q, cellQ m x q (row-major), over the
// whole C; cellQ only when asked (it costs a product of squared operands per leaf: (7/8)^L of one
// DGEMM of the shape).
struct LeafRoundingScales {
    std::vector<double> rowQ, colQ, cellQ;
};

// nullopt when the schedule holds an op the symbolic pass cannot follow (the caller then keeps
// the conventional scales with a growth per level).
std::optional<LeafRoundingScales> leafRoundingScales(const Schedule& schedule, const HostMatrix& a, const HostMatrix& b,
                                                     const Shape& core, int levels, bool withCells);

}  // namespace gigacheck::strassen
