// One level of each variant as data: the in-place sums on the 2x2 blocks of A, B (and C), and the
// products with their targets, in issue order. The schedule builder (plan/schedule_builder.cpp)
// applies a recipe to every node of the recursion; plan/symbolic.cpp proves each recipe (and the
// whole schedule) computes C += A*B and leaves A and B as they were.
//
// Blocks are numbered as in the seed: A = [A0 A1; A2 A3], B = [B0 B1; B2 B3], C = [C0 C1; C2 C3].
#pragma once

#include "gigacheck/strassen.hpp"

#include <span>
#include <string_view>
#include <vector>

namespace gigacheck::strassen {

enum class Matrix : std::uint8_t { A, B, C };

struct Target {
    int block;   // C block
    int sign;    // +1 / -1
};

struct Step {
    enum class Kind : std::uint8_t { Add, Product } kind = Kind::Add;
    int stage = 0;  // the seed's stage number (msmes: 1-7), or the recipe's own grouping
    // Add: matrix[dst] += coefficient * matrix[src], in place.
    Matrix matrix = Matrix::A;
    int dst = 0, src = 0;
    int coefficient = 1;
    // Product: targets += sign * A[a] * B[b].
    int a = 0, b = 0;
    std::vector<Target> targets;
    std::string_view formula;  // the seed's formula of the step ("A2 = A2 + A3", "M1 = A2 x B0; C2 += M1; C3 -= M1")
};

struct Recipe {
    std::string_view name;
    std::vector<Step> steps;
    bool recoversOperands = true;  // the last steps undo every in-place sum of A and B
};

// The recipe of a variant. exactRestore drops the recovery steps (stages 6-7 for msmes) that the
// run then replaces by copying A and B from the host (the accumulate and winograd recipes interleave
// recovery with products, so they keep it).
const Recipe& recipeOf(StrassenVariant variant);

// Which C block each product of the recipe reaches with which sign, as (block, sign) lists: the
// products' targets for msmes / winograd / workspace; for accumulate the C block written.
int productCount(const Recipe& recipe);

}  // namespace gigacheck::strassen
