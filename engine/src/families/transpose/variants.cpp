// The transpose family's name tables and which backend has which kernel.
#include "gigacheck/transpose.hpp"

#include <array>

namespace gigacheck {

namespace {
using transpose::ElementType;
using transpose::Variant;
constexpr std::array<EnumName<Variant>, 7> kVariants{{
    {Variant::Naive, "naive", "Naive in place", "Square, in place: the paper's Algorithm 1 on the CPU, one thread per swap on the GPU"},
    {Variant::Blocked, "blocked", "Blocked in place (CPU)", "Square, in place: the paper's Algorithm 2, diagonal blocks first, block 16"},
    {Variant::OutOfPlace, "outofplace", "Out of place (CPU)", "Any m x n into a second matrix, 16 x 16 cache blocks"},
    {Variant::Coalesced, "coalesced", "Coalesced in place (GPU)", "Square, in place: the paper's Algorithm 3, 8 x 32 threads, 32 x 32 tiles"},
    {Variant::InPlace, "inplace", "In place, any shape", "Any m x n, no second matrix: square 64 x 64 tile pairs (16-byte); rectangular the C2R decomposition (3 passes)"},
    {Variant::Padded, "padded", "Padded shared memory (GPU)", "Any m x n, out of place: 64 x 64 tiles, 16-byte loads and streaming stores, 64 x 65 shared tile"},
    {Variant::Library, "library", "Library (OpenBLAS / cuBLAS)", "The library reference, out of place, float32: OpenBLAS somatcopy on the CPU, cuBLAS geam on the GPU"},
}};
constexpr std::array<EnumName<ElementType>, 2> kTypes{{
    {ElementType::F32, "f32", "float32"},
    {ElementType::I32, "i32", "int32"},
}};
}  // namespace

template <> const EnumTable<Variant>& enumTable<Variant>()
{
    static const EnumTable<Variant> table{"transpose variant", kVariants};
    return table;
}
template <> const EnumTable<ElementType>& enumTable<ElementType>()
{
    static const EnumTable<ElementType> table{"element type", kTypes};
    return table;
}

namespace transpose {

std::string_view toString(Variant v) { return nameOf(v); }
std::string_view toString(ElementType t) { return nameOf(t); }
Variant variantFromString(std::string_view s) { return valueOfName<Variant>(s); }
ElementType elementTypeFromString(std::string_view s) { return valueOfName<ElementType>(s); }
std::size_t elementBytes(ElementType) { return 4; }

bool onCpu(Variant v)
{
    return v == Variant::Naive || v == Variant::Blocked || v == Variant::OutOfPlace || v == Variant::InPlace || v == Variant::Library;
}
bool onCuda(Variant v)
{
    return v == Variant::Naive || v == Variant::Coalesced || v == Variant::InPlace || v == Variant::Padded || v == Variant::Library;
}
bool inPlace(Variant v) { return v == Variant::Naive || v == Variant::Blocked || v == Variant::Coalesced || v == Variant::InPlace; }
bool squareOnly(Variant v) { return v == Variant::Naive || v == Variant::Blocked || v == Variant::Coalesced; }

}  // namespace transpose
}  // namespace gigacheck
