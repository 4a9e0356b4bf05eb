// The reduced matmul family's name table and which backend has which kernel.
#include "gigacheck/reduced_matmul.hpp"

#include <array>

namespace gigacheck {

namespace {
using reduced_matmul::Variant;
constexpr std::array<EnumName<Variant>, 6> kVariants{{
    {Variant::Naive4p, "naive4p", "Naive, 4p multiplications", "One thread per C element, 4 products per k (section 4.3.1)"},
    {Variant::NaiveP, "naivep", "Naive, p multiplications", "Row and column pairs summed before the product (section 4.3.2)"},
    {Variant::Tiled8, "tiled8", "Tiled 8 (GPU)", "Shared tiles of pre-summed pairs, TILE = 8 (the paper's section 4.3.3)"},
    {Variant::Tiled16, "tiled16", "Tiled 16 (GPU)", "Shared tiles of pre-summed pairs, TILE = 16"},
    {Variant::Tiled32, "tiled32", "Tiled 32 (GPU)", "Shared tiles of pre-summed pairs, TILE = 32"},
    {Variant::ReduceBlas, "reduce-blas", "Reduce + BLAS", "Reduce the pairs once, then one OpenBLAS / cuBLAS GEMM"},
}};
}  // namespace

template <> const EnumTable<Variant>& enumTable<Variant>()
{
    static const EnumTable<Variant> table{"reduced matmul variant", kVariants};
    return table;
}

namespace reduced_matmul {

std::string_view toString(Variant v) { return nameOf(v); }
Variant variantFromString(std::string_view s) { return valueOfName<Variant>(s); }
bool onCpu(Variant v) { return v == Variant::Naive4p || v == Variant::NaiveP || v == Variant::ReduceBlas; }
bool onCuda(Variant) { return true; }
int tileOf(Variant v)
{
    switch (v) {
    case Variant::Tiled8: return 8;
    case Variant::Tiled16: return 16;
    case Variant::Tiled32: return 32;
    default: return 0;
    }
}

}  // namespace reduced_matmul
}  // namespace gigacheck
