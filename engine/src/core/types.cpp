// Names, sizes and strategy descriptions of the shared vocabulary (types.hpp).
#include "gigacheck/types.hpp"

#include <array>
#include <string>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace gigacheck {

namespace {

constexpr EnumName<Precision> kPrecisions[] = {{Precision::F32, "f32", {}, "float"},
                                               {Precision::F64, "f64", {}, "double"}};
constexpr EnumName<Distribution> kDistributions[] = {{Distribution::Uniform, "uniform", {}, "U(-1, 1)"},
                                                     {Distribution::Normal, "normal", {}, "N(0, 1)"},
                                                     {Distribution::Wide, "wide", {}, "six decades"}};
constexpr EnumName<StrategyKind> kStrategies[] = {
    {StrategyKind::None, "none", {},
     "No blocking: A, B and C fit in device memory whole; one load, one product, one store."},
    {StrategyKind::S1, "s1", {},
     "S1, no buffering: buffers A, B, C; each product waits for its loads, and the next loads wait for the "
     "product."},
    {StrategyKind::S2, "s2", {},
     "S2, double buffer for A and B: the next A' and B' load while C = A*B is computed; the product still waits "
     "while C is copied out."},
    {StrategyKind::S3, "s3", {},
     "S3, double buffer for A, B and C: C and C' alternate so the next block's products run while the finished "
     "block is copied out."},
    {StrategyKind::S4, "s4", {},
     "S4, double concurrent product: one A block multiplies B and B' into C and C' (two neighbouring result "
     "blocks) on two compute streams."}};
constexpr EnumName<BackendKind> kBackends[] = {{BackendKind::Auto, "auto"},
                                               {BackendKind::Cpu, "cpu"},
                                               {BackendKind::Cuda, "cuda"}};
// A new CUDA product kernel: one row here, its launch in cuda/gemm.cu.
constexpr EnumName<GemmVariant> kGemms[] = {{GemmVariant::Naive, "naive"},
                                            {GemmVariant::Tiled, "tiled"},
                                            {GemmVariant::Optimized, "optimized"},
                                            {GemmVariant::Cublas, "cublas"},
                                            {GemmVariant::CublasTf32, "cublas-tf32"},
                                            {GemmVariant::CutlassTf32, "cutlass-tf32"},
                                            {GemmVariant::CublasBf16, "cublas-bf16"},
                                            {GemmVariant::CublasF16, "cublas-f16"},
                                            {GemmVariant::Tf32x3, "tf32x3"}};

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

template <> const EnumTable<Precision>& enumTable<Precision>()
{
    static const EnumTable<Precision> table{"precision", kPrecisions};
    return table;
}
template <> const EnumTable<Distribution>& enumTable<Distribution>()
{
    static const EnumTable<Distribution> table{"distribution", kDistributions};
    return table;
}
template <> const EnumTable<StrategyKind>& enumTable<StrategyKind>()
{
    static const EnumTable<StrategyKind> table{"strategy", kStrategies};
    return table;
}
template <> const EnumTable<BackendKind>& enumTable<BackendKind>()
{
    static const EnumTable<BackendKind> table{"backend", kBackends};
    return table;
}
template <> const EnumTable<GemmVariant>& enumTable<GemmVariant>()
{
    static const EnumTable<GemmVariant> table{"GEMM variant", kGemms};
    return table;
}

std::size_t elementSize(Precision p) { return p == Precision::F64 ? sizeof(double) : sizeof(float); }

std::string_view toString(Precision v) { return nameOf(v); }
std::string_view toString(Distribution v) { return nameOf(v); }
std::string_view toString(StrategyKind v) { return nameOf(v); }
std::string_view toString(BackendKind v) { return nameOf(v); }
std::string_view toString(GemmVariant v) { return nameOf(v); }

Precision precisionFromString(std::string_view s) { return valueOfName<Precision>(s); }
Distribution distributionFromString(std::string_view s) { return valueOfName<Distribution>(s); }
StrategyKind strategyFromString(std::string_view s) { return valueOfName<StrategyKind>(s); }
BackendKind backendFromString(std::string_view s) { return valueOfName<BackendKind>(s); }
GemmVariant gemmFromString(std::string_view s) { return valueOfName<GemmVariant>(s); }

std::string_view describe(StrategyKind s)
{
    for (const EnumName<StrategyKind>& row : enumTable<StrategyKind>().rows)
        if (row.value == s)
            return row.description;
    return "?";
}

std::uint64_t parseSize(std::string_view text)
{
    const auto fail = [&](const std::string& why) -> std::uint64_t {
        throw InputError("invalid size '" + std::string(text) + "': " + why +
                         " (examples: 512MiB, 10MB, 1.5GiB, 4096)");
    };

    std::size_t pos = 0;
    const auto skipSpaces = [&] {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
            ++pos;
    };
    skipSpaces();
    if (pos < text.size() && text[pos] == '-')
        return fail("a size cannot be negative");
    if (pos < text.size() && text[pos] == '+')
        ++pos;

    // Number: digits with at most one decimal point; parsed by hand so no locale or exponent sneaks in.
    long double value = 0, scale = 1;
    bool sawDigit = false, sawPoint = false;
    for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c >= '0' && c <= '9') {
            sawDigit = true;
            if (sawPoint) {
                scale /= 10;
                value += (c - '0') * scale;
            } else {
                value = value * 10 + (c - '0');
            }
        } else if (c == '.' && !sawPoint) {
            sawPoint = true;
        } else {
            break;
        }
    }
    if (!sawDigit)
        return fail("no number");
    skipSpaces();

    std::size_t end = text.size();
    while (end > pos && std::isspace(static_cast<unsigned char>(text[end - 1])))
        --end;
    const std::string unit = lower(text.substr(pos, end - pos));

    static const std::array<std::pair<std::string_view, long double>, 11> kUnits{{
        {"", 1.0L},
        {"b", 1.0L},
        {"kb", 1e3L},
        {"mb", 1e6L},
        {"gb", 1e9L},
        {"tb", 1e12L},
        {"kib", 1024.0L},
        {"mib", 1024.0L * 1024},
        {"gib", 1024.0L * 1024 * 1024},
        {"tib", 1024.0L * 1024 * 1024 * 1024},
        {"bytes", 1.0L},
    }};
    long double multiplier = -1;
    for (const auto& [name, m] : kUnits)
        if (unit == name)
            multiplier = m;
    if (multiplier < 0)
        return fail("unknown unit '" + unit + "' (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)");

    const long double bytes = std::round(value * multiplier);
    if (bytes > static_cast<long double>(std::numeric_limits<std::uint64_t>::max()))
        return fail("too large");
    if (bytes < 1)
        return fail("a size must be at least one byte");
    return static_cast<std::uint64_t>(bytes);
}

std::string formatBytes(double bytes)
{
    static const char* kUnits[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    if (!std::isfinite(bytes))
        return "? B";
    const bool negative = bytes < 0;
    double v = std::fabs(bytes);
    int unit = 0;
    while (v >= 1000 && unit < 5) {
        v /= 1000;
        ++unit;
    }
    char buffer[64];
    if (unit == 0)
        std::snprintf(buffer, sizeof buffer, "%s%.0f B", negative ? "-" : "", v);
    else
        std::snprintf(buffer, sizeof buffer, "%s%.2f %s", negative ? "-" : "", v, kUnits[unit]);
    return buffer;
}

std::string shapeText(const Shape& s)
{
    return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.q);
}

}  // namespace gigacheck
