// The four recipes. msmes is the seed's section 3.3.3-3.3.4 with two misprints of the seed fixed
// (both checked symbolically by tst_strassen): stage 4 writes B1 = B1 + B0 (the seed prints
// "B0 = B1 + B0", which would destroy the B0 + B3 that M0 needs), and stage 7 restores A2 and B2
// (A2 = A2 + A0, B2 = B2 - B3; the seed repeats the two steps of stage 6 there).
// winograd and accumulate stage the standard Strassen-Winograd operands
//   S1 = A2 + A3, S2 = S1 - A0, S3 = A0 - A2, S4 = A1 - S2,
//   T1 = B1 - B0, T2 = B3 - T1, T3 = B3 - B1, T4 = T2 - B2,
//   P1 = A0 B0, P2 = A1 B2, P3 = S4 B3, P4 = A3 T4, P5 = S1 T1, P6 = S2 T2, P7 = S3 T3,
//   C0 = P1 + P2, C1 = P1 + P6 + P5 + P3, C2 = P1 + P6 + P7 - P4, C3 = P1 + P6 + P7 + P5
// in place in A2, A1 and B1 (6 sums in A, 6 in B, each undone). accumulate also keeps C in a
// transformed state between products (9 sums on C blocks) so that each product lands in one block.
#include "families/strassen/recipe.hpp"

namespace gigacheck::strassen {

namespace {

Step add(int stage, Matrix m, int dst, int src, int coefficient, std::string_view formula)
{
    Step s;
    s.kind = Step::Kind::Add;
    s.stage = stage;
    s.matrix = m;
    s.dst = dst;
    s.src = src;
    s.coefficient = coefficient;
    s.formula = formula;
    return s;
}

Step product(int stage, int a, int b, std::vector<Target> targets, std::string_view formula)
{
    Step s;
    s.kind = Step::Kind::Product;
    s.stage = stage;
    s.a = a;
    s.b = b;
    s.targets = std::move(targets);
    s.formula = formula;
    return s;
}

constexpr Matrix A = Matrix::A, B = Matrix::B, C = Matrix::C;

Recipe msmes(bool withRecovery)
{
    Recipe r{"msmes", {}, withRecovery};
    auto& s = r.steps;
    // Stage 1 (addition / subtraction)
    s.push_back(add(1, A, 2, 3, +1, "A2 = A2 + A3"));
    s.push_back(add(1, B, 1, 3, -1, "B1 = B1 - B3"));
    s.push_back(add(1, B, 2, 0, -1, "B2 = B2 - B0"));
    s.push_back(add(1, A, 1, 0, +1, "A1 = A0 + A1"));
    // Stage 2 (multiplication, group 1)
    s.push_back(product(2, 2, 0, {{2, +1}, {3, -1}}, "M1 = A2 x B0; C2 += M1; C3 -= M1"));
    s.push_back(product(2, 0, 1, {{1, +1}, {3, +1}}, "M2 = A0 x B1; C1 += M2; C3 += M2"));
    s.push_back(product(2, 3, 2, {{0, +1}, {2, +1}}, "M3 = A3 x B2; C0 += M3; C2 += M3"));
    s.push_back(product(2, 1, 3, {{1, +1}, {0, -1}}, "M4 = A1 x B3; C1 += M4; C0 -= M4"));
    // Stage 3 (addition)
    s.push_back(add(3, A, 0, 3, +1, "A0 = A0 + A3"));
    s.push_back(add(3, B, 0, 3, +1, "B0 = B0 + B3"));
    // Stage 4 (addition / subtraction)
    s.push_back(add(4, A, 2, 0, -1, "A2 = A2 - A0  (A2 + A3 - A0 - A3)"));
    s.push_back(add(4, B, 1, 0, +1, "B1 = B1 + B0  (B1 - B3 + B0 + B3)"));
    s.push_back(add(4, A, 1, 0, -1, "A1 = A1 - A0  (A0 + A1 - A0 - A3)"));
    s.push_back(add(4, B, 2, 0, +1, "B2 = B2 + B0  (B2 - B0 + B0 + B3)"));
    // Stage 5 (multiplication, group 2)
    s.push_back(product(5, 0, 0, {{0, +1}, {3, +1}}, "M0 = A0 x B0; C0 += M0; C3 += M0"));
    s.push_back(product(5, 2, 1, {{3, +1}}, "M5 = A2 x B1; C3 += M5"));
    s.push_back(product(5, 1, 2, {{0, +1}}, "M6 = A1 x B2; C0 += M6"));
    if (withRecovery) {
        // Stage 6 (recuperation 1)
        s.push_back(add(6, A, 0, 3, -1, "A0 = A0 - A3  (A0 + A3 - A3)"));
        s.push_back(add(6, B, 0, 3, -1, "B0 = B0 - B3  (B0 + B3 - B3)"));
        // Stage 7 (recuperation 2)
        s.push_back(add(7, A, 1, 3, +1, "A1 = A1 + A3  (A1 - A3 + A3)"));
        s.push_back(add(7, B, 1, 0, -1, "B1 = B1 - B0  (B1 + B0 - B0)"));
        s.push_back(add(7, A, 2, 0, +1, "A2 = A2 + A0  (A2 - A0 + A0)"));
        s.push_back(add(7, B, 2, 3, -1, "B2 = B2 - B3  (B2 + B3 - B3)"));
    }
    return r;
}

// The Strassen-Winograd staging shared by winograd and accumulate; withC adds the C-block sums that
// let accumulate send each product to a single block (C-steps are skipped for winograd, whose
// products carry all their targets instead).
Recipe winogradRecipe(bool accumulate)
{
    Recipe r{accumulate ? "accumulate" : "winograd", {}, true};
    auto& s = r.steps;
    auto cAdd = [&](int stage, int dst, int src, int k, std::string_view f) {
        if (accumulate)
            s.push_back(add(stage, C, dst, src, k, f));
    };
    auto prod = [&](int stage, int a, int b, std::vector<Target> all, Target one, std::string_view f) {
        s.push_back(product(stage, a, b, accumulate ? std::vector<Target>{one} : std::move(all), f));
    };
    s.push_back(add(1, A, 2, 3, +1, "A2 = A2 + A3  (S1)"));
    s.push_back(add(1, B, 1, 0, -1, "B1 = B1 - B0  (T1)"));
    cAdd(1, 3, 1, -1, "C3 = C3 - C1");
    prod(2, 2, 1, {{1, +1}, {3, +1}}, {1, +1}, "P5 = S1 x T1 = A2 x B1; C1 += P5; C3 += P5");
    cAdd(3, 1, 0, -1, "C1 = C1 - C0");
    cAdd(3, 2, 0, -1, "C2 = C2 - C0");
    prod(4, 0, 0, {{0, +1}, {1, +1}, {2, +1}, {3, +1}}, {0, +1}, "P1 = A0 x B0; C0..C3 += P1");
    s.push_back(add(5, A, 2, 0, -1, "A2 = A2 - A0  (S2)"));
    s.push_back(add(5, B, 1, 3, -1, "B1 = B1 - B3  (-T2)"));
    cAdd(5, 2, 1, -1, "C2 = C2 - C1");
    prod(6, 2, 1, {{1, -1}, {2, -1}, {3, -1}}, {1, -1}, "P6 = S2 x T2 = -(A2 x B1); C1, C2, C3 += P6");
    cAdd(7, 1, 0, +1, "C1 = C1 + C0");
    prod(8, 1, 2, {{0, +1}}, {0, +1}, "P2 = A1 x B2; C0 += P2");
    s.push_back(add(9, B, 1, 2, +1, "B1 = B1 + B2  (-T4)"));
    prod(10, 3, 1, {{2, +1}}, {2, +1}, "P4 = A3 x T4 = -(A3 x B1); C2 -= P4");
    s.push_back(add(11, A, 1, 2, -1, "A1 = A1 - A2  (S4)"));
    cAdd(11, 2, 1, +1, "C2 = C2 + C1");
    cAdd(11, 3, 1, +1, "C3 = C3 + C1");
    prod(12, 1, 3, {{1, +1}}, {1, +1}, "P3 = S4 x B3 = A1 x B3; C1 += P3");
    s.push_back(add(13, A, 1, 2, +1, "A1 = A1 + A2  (A1 recovered)"));
    s.push_back(add(13, B, 1, 2, -1, "B1 = B1 - B2  (-T2)"));
    s.push_back(add(13, B, 1, 0, +1, "B1 = B1 + B0  (-T3)"));
    s.push_back(add(13, A, 2, 3, -1, "A2 = A2 - A3  (-S3)"));
    cAdd(13, 3, 2, -1, "C3 = C3 - C2");
    prod(14, 2, 1, {{2, +1}, {3, +1}}, {2, +1}, "P7 = S3 x T3 = A2 x B1; C2 += P7; C3 += P7");
    s.push_back(add(15, A, 2, 0, +1, "A2 = A2 + A0  (A2 recovered)"));
    s.push_back(add(15, B, 1, 3, +1, "B1 = B1 + B3  (B1 recovered)"));
    cAdd(15, 3, 2, +1, "C3 = C3 + C2  (C back in place)");
    return r;
}

}  // namespace

const Recipe& recipeOf(StrassenVariant variant)
{
    static const Recipe msmesRecipe = msmes(true);
    static const Recipe winograd = winogradRecipe(false);
    static const Recipe accumulate = winogradRecipe(true);
    switch (variant) {
    case StrassenVariant::Msmes:
    case StrassenVariant::Workspace:
        return msmesRecipe;
    case StrassenVariant::Winograd:
        return winograd;
    case StrassenVariant::Accumulate:
        return accumulate;
    }
    return msmesRecipe;
}

int productCount(const Recipe& recipe)
{
    int n = 0;
    for (const Step& s : recipe.steps)
        n += s.kind == Step::Kind::Product;
    return n;
}

}  // namespace gigacheck::strassen
