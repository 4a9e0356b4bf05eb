// Name tables of the strassen enums, and the fault grammar mapped to Strassen's fault places.
#include "gigacheck/strassen.hpp"

#include <array>

namespace gigacheck {

namespace {
constexpr std::array kVariants{
    EnumName<StrassenVariant>{StrassenVariant::Msmes, "msmes", "MSMES (the thesis's stages 1-7)",
                              "In-place sums in A and B, each product accumulated into its two C blocks, A and B recovered."},
    EnumName<StrassenVariant>{StrassenVariant::Winograd, "winograd", "Strassen-Winograd in place",
                              "7 products, 15 additions, staged in place in A and B; products into every C block they reach."},
    EnumName<StrassenVariant>{StrassenVariant::Workspace, "workspace", "MSMES + one leaf workspace",
                              "The thesis's stages with each product computed once into one leaf-sized block M."},
    EnumName<StrassenVariant>{StrassenVariant::Accumulate, "accumulate", "in-place C += AB (one GEMM per product)",
                              "Strassen-Winograd with C transformed in place: each product is one beta=1 GEMM, no memory beyond A, B, C."},
};
constexpr std::array kDecompositions{
    EnumName<StrassenDecomposition>{StrassenDecomposition::TwoD, "2d", "2D / naive", "8 block products, then 4 sums."},
    EnumName<StrassenDecomposition>{StrassenDecomposition::Winograd, "winograd", "Strassen-Winograd",
                                    "7 tasks; 8 sums before, 7 after."},
};
}  // namespace

template <> const EnumTable<StrassenVariant>& enumTable<StrassenVariant>()
{
    static const EnumTable<StrassenVariant> table{"Strassen variant", kVariants};
    return table;
}
template <> const EnumTable<StrassenDecomposition>& enumTable<StrassenDecomposition>()
{
    static const EnumTable<StrassenDecomposition> table{"decomposition", kDecompositions};
    return table;
}
std::string_view toString(StrassenVariant v) { return nameOf(v); }
std::string_view toString(StrassenDecomposition d) { return nameOf(d); }
StrassenVariant strassenVariantFromString(std::string_view s) { return valueOfName<StrassenVariant>(s); }
StrassenDecomposition strassenDecompositionFromString(std::string_view s) { return valueOfName<StrassenDecomposition>(s); }

StrassenFault strassenFaultOf(const InjectSpec& spec)
{
    const std::string text = toString(spec);
    const auto refuse = [&](const std::string& why) {
        return InputError("--inject-at '" + text + "': " + why + " (strassen takes [c:|a:|b:]R,C[:DELTA][@K], the "
                          "quadrant form c:Q, a:Q, b:Q [:DELTA][@K] and product:K[:R,C][:DELTA]; K a leaf product)");
    };
    StrassenFault f;
    switch (spec.target) {
    case InjectTarget::C: f.where = StrassenFault::Where::C; break;
    case InjectTarget::A: f.where = StrassenFault::Where::A; break;
    case InjectTarget::B: f.where = StrassenFault::Where::B; break;
    case InjectTarget::Product: f.where = StrassenFault::Where::Product; break;
    case InjectTarget::ChecksumRow:
    case InjectTarget::ChecksumCol:
        throw refuse("Strassen keeps no checksum row or column between stages (its checks take their sums at the end)");
    }
    if (f.where == StrassenFault::Where::Product) {
        if (spec.when)
            throw refuse("product:K already says when (right after leaf product K); @WHEN is for c, a and b");
        f.index = spec.product;
    } else {
        f.index = spec.quadrant.value_or(0);
        f.afterProduct = spec.when.value_or(-1);
    }
    if (spec.hasCell()) {
        f.row = spec.row;
        f.col = spec.col;
    }
    if (spec.delta) {
        f.delta = *spec.delta;
        f.deltaGiven = true;
    }
    return f;
}

StrassenFault parseStrassenFault(std::string_view text) { return strassenFaultOf(parseInjectSpec(text)); }

namespace {

InjectSpec specOf(const StrassenFault& f)
{
    InjectSpec s;
    s.targetGiven = true;
    s.target = f.where == StrassenFault::Where::Product ? InjectTarget::Product
               : f.where == StrassenFault::Where::C     ? InjectTarget::C
               : f.where == StrassenFault::Where::A     ? InjectTarget::A
                                                        : InjectTarget::B;
    if (f.where == StrassenFault::Where::Product)
        s.product = f.index;
    else if (!f.hasCell())
        s.quadrant = f.index;
    s.row = f.row;
    s.col = f.col;
    if (f.afterProduct >= 0)
        s.when = f.afterProduct;
    return s;
}

}  // namespace

std::string faultPlace(const StrassenFault& f) { return toString(specOf(f)); }

std::string toString(const StrassenFault& f)
{
    InjectSpec s = specOf(f);
    if (f.deltaGiven || f.delta != 0)
        s.delta = f.delta;
    return toString(s);
}

}  // namespace gigacheck
