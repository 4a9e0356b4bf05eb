// The user's own operands: checked before a run so that a bad file is refused with a reason, never
// turned into a run whose checksums are meaningless.
#include "gigacheck/operands.hpp"

#include "gigacheck/npy.hpp"

#include <filesystem>

#include <algorithm>
#include <cmath>

namespace gigacheck {

namespace {

std::string dims(const HostMatrix& m)
{
    return std::to_string(m.rows()) + " x " + std::to_string(m.cols());
}

template <class T> double meanSquare(const HostMatrix& m)
{
    const T* p = m.as<T>();
    const std::size_t count = std::size_t(m.rows()) * std::size_t(m.cols());
    double sum = 0;
    for (std::size_t i = 0; i < count; ++i)
        sum += double(p[i]) * double(p[i]);
    return count ? sum / double(count) : 0.0;
}

}  // namespace

Shape shapeOfOperands(const HostMatrix& a, const HostMatrix& b)
{
    if (a.empty() || b.empty())
        throw InputError("A and B must both hold at least one value");
    if (a.cols() != b.rows())
        throw InputError("A is " + dims(a) + " and B is " + dims(b) + ": B needs as many rows as A has columns (" +
                         std::to_string(a.cols()) + ")");
    return {a.rows(), a.cols(), b.cols()};
}

void requireFinite(const HostMatrix& m, const std::string& what)
{
    const std::size_t count = std::size_t(m.rows()) * std::size_t(m.cols());
    for (std::size_t i = 0; i < count; ++i) {
        const double v = m.precision() == Precision::F32 ? double(m.as<float>()[i]) : m.as<double>()[i];
        if (!std::isfinite(v))
            throw InputError(what + " holds " + (std::isnan(v) ? "NaN" : "an infinity") + " at row " +
                             std::to_string(i / std::size_t(m.cols())) + ", column " +
                             std::to_string(i % std::size_t(m.cols())) +
                             " (from 0): checksums of it would mean nothing");
    }
}

HostMatrix convertedTo(const HostMatrix& m, Precision p, const HostAllocator& alloc)
{
    HostMatrix out(p, m.rows(), m.cols(), alloc);
    const std::size_t count = std::size_t(m.rows()) * std::size_t(m.cols());
    if (m.precision() == p) {
        if (count)
            std::copy_n(static_cast<const char*>(m.data()), m.bytes(), static_cast<char*>(out.data()));
    } else if (p == Precision::F32) {
        for (std::size_t i = 0; i < count; ++i)
            out.as<float>()[i] = float(m.as<double>()[i]);
    } else {
        for (std::size_t i = 0; i < count; ++i)
            out.as<double>()[i] = double(m.as<float>()[i]);
    }
    return out;
}

double typicalMagnitudeOf(const HostMatrix& a, const HostMatrix& b)
{
    const double ma = a.precision() == Precision::F32 ? meanSquare<float>(a) : meanSquare<double>(a);
    const double mb = b.precision() == Precision::F32 ? meanSquare<float>(b) : meanSquare<double>(b);
    const double magnitude = std::sqrt(double(std::max<std::int64_t>(a.cols(), 1)) * ma * mb);
    // All-zero operands still get a visible fault.
    return magnitude > 0 && std::isfinite(magnitude) ? magnitude : 1.0;
}

InputMatrix inputMatrixOfFile(const std::string& operand, const std::string& path)
{
    const NpyHeader h = readNpyHeader(path);
    InputMatrix m;
    m.operand = operand;
    m.file = std::filesystem::path(path).filename().string();
    m.rows = h.rows;
    m.cols = h.cols;
    m.dtype = h.precision == Precision::F32 ? "float32" : "float64";
    m.fortranOrder = h.fortranOrder;
    return m;
}

}  // namespace gigacheck
