// Name tables of the strassen enums and the --inject-at syntax.
#include "gigacheck/strassen.hpp"

#include <array>
#include <charconv>

namespace gigacheck {

namespace {
constexpr std::array kVariants{
    EnumName<StrassenVariant>{StrassenVariant::Msmes, "msmes", "MSMES (the thesis's stages 1-7)",
                              "In-place sums in A and B, each product accumulated into its two C blocks, A and B recovered."},
    EnumName<StrassenVariant>{StrassenVariant::Winograd, "winograd", "Strassen-Winograd in place",
                              "7 products, 15 additions, staged in place in A and B; products into every C block they reach."},
    EnumName<StrassenVariant>{StrassenVariant::Workspace, "workspace", "MSMES + one leaf workspace",
                              "The seed's stages with each product computed once into one leaf-sized block M."},
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

StrassenFault parseStrassenFault(std::string_view text)
{
    const auto bad = [&] {
        return InputError("--inject-at '" + std::string(text) +
                          "': expected product:K, c:Q, a:Q or b:Q (K a leaf product, Q a quadrant 0..3), optionally :DELTA");
    };
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos)
        throw bad();
    const std::string_view where = text.substr(0, colon);
    std::string_view rest = text.substr(colon + 1);
    StrassenFault f;
    if (where == "product")
        f.where = StrassenFault::Where::Product;
    else if (where == "c")
        f.where = StrassenFault::Where::C;
    else if (where == "a")
        f.where = StrassenFault::Where::A;
    else if (where == "b")
        f.where = StrassenFault::Where::B;
    else
        throw bad();
    const std::size_t second = rest.find(':');
    const std::string_view index = rest.substr(0, second);
    const auto [p, ec] = std::from_chars(index.data(), index.data() + index.size(), f.index);
    if (ec != std::errc() || p != index.data() + index.size() || f.index < 0)
        throw bad();
    if (f.where != StrassenFault::Where::Product && f.index > 3)
        throw bad();
    if (second != std::string_view::npos) {
        const std::string delta(rest.substr(second + 1));
        try {
            std::size_t used = 0;
            f.delta = std::stod(delta, &used);
            if (used != delta.size())
                throw bad();
            f.deltaGiven = true;
        } catch (const std::logic_error&) {
            throw bad();
        }
    }
    return f;
}

std::string faultPlace(const StrassenFault& f)
{
    const char* w = f.where == StrassenFault::Where::Product ? "product"
                    : f.where == StrassenFault::Where::C     ? "c"
                    : f.where == StrassenFault::Where::A     ? "a"
                                                             : "b";
    return std::string(w) + ':' + std::to_string(f.index);
}

std::string toString(const StrassenFault& f)
{
    std::string s = faultPlace(f);
    if (f.deltaGiven || f.delta != 0) {
        // Shortest form that reads back to the same double (std::to_string kept 6 decimals: a
        // delta of 1e-9 came back from a record as 0).
        char text[64];
        const auto [end, ec] = std::to_chars(text, text + sizeof text, f.delta);
        s += ':';
        s.append(text, ec == std::errc() ? end : text);
    }
    return s;
}

}  // namespace gigacheck
