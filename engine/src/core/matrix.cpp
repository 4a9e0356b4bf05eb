// Host matrices and their reproducible random contents.
#include "gigacheck/matrix.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

namespace gigacheck {

HostAllocator HostAllocator::heap()
{
    // 64-byte alignment suits vector loads and BLAS.
    return {[](std::size_t bytes) -> void* {
                return std::aligned_alloc(64, std::max<std::size_t>(64, (bytes + 63) / 64 * 64));
            },
            [](void* p) { std::free(p); }};
}

HostMatrix::HostMatrix(Precision p, std::int64_t rows, std::int64_t cols, const HostAllocator& alloc)
    : precision_(p), rows_(rows), cols_(cols)
{
    if (rows < 0 || cols < 0)
        throw InputError("matrix extents must not be negative (" + std::to_string(rows) + " x " +
                         std::to_string(cols) + ")");
    const std::size_t limit = std::numeric_limits<std::size_t>::max() / elementSize(p);
    if (rows > 0 && std::size_t(cols) > limit / std::size_t(rows))
        throw InputError("matrix of " + std::to_string(rows) + " x " + std::to_string(cols) +
                         " elements is too large to address");
    const std::size_t size = bytes();
    if (size == 0)
        return;
    void* memory = alloc.allocate(size);
    if (!memory)
        throw BackendError("out of host memory: could not allocate " + formatBytes(double(size)) +
                           " for a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
    std::memset(memory, 0, size);
    data_ = std::shared_ptr<void>(memory, alloc.release);
}

namespace {
void checkIndex(const HostMatrix& m, std::int64_t r, std::int64_t c)
{
    if (r < 0 || c < 0 || r >= m.rows() || c >= m.cols())
        throw InputError("element (" + std::to_string(r) + ", " + std::to_string(c) + ") is outside the " +
                         std::to_string(m.rows()) + " x " + std::to_string(m.cols()) + " matrix");
}
}  // namespace

double HostMatrix::at(std::int64_t r, std::int64_t c) const
{
    checkIndex(*this, r, c);
    const std::size_t i = std::size_t(r) * std::size_t(cols_) + std::size_t(c);
    return precision_ == Precision::F64 ? as<double>()[i] : double(as<float>()[i]);
}

void HostMatrix::set(std::int64_t r, std::int64_t c, double v)
{
    checkIndex(*this, r, c);
    const std::size_t i = std::size_t(r) * std::size_t(cols_) + std::size_t(c);
    if (precision_ == Precision::F64)
        as<double>()[i] = v;
    else
        as<float>()[i] = float(v);
}

void HostMatrix::fill(double v)
{
    const std::size_t n = std::size_t(rows_) * std::size_t(cols_);
    if (precision_ == Precision::F64)
        std::fill_n(as<double>(), n, v);
    else
        std::fill_n(as<float>(), n, float(v));
}

namespace {

// Counter-based generation: every element is a pure function of (seed, stream, index), so the
// result is identical on every machine and independent of how the work is split across threads.
constexpr std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

struct CounterRng {
    std::uint64_t key;
    CounterRng(std::uint64_t seed, std::uint64_t stream)
        : key(splitmix64(splitmix64(seed) ^ (stream * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull)))
    {
    }
    // Uniform in (0, 1): 53 random bits, never exactly 0 (safe for log in Box-Muller).
    double uniform(std::uint64_t index, std::uint64_t lane) const
    {
        const std::uint64_t bits = splitmix64(key ^ splitmix64(index * 4 + lane));
        return (double(bits >> 11) + 0.5) * 0x1.0p-53;
    }
};

std::array<double, 2> normalPair(const CounterRng& rng, std::uint64_t pair)
{
    const double radius = std::sqrt(-2.0 * std::log(rng.uniform(pair, 0)));
    const double angle = 2.0 * std::numbers::pi * rng.uniform(pair, 1);
    return {radius * std::cos(angle), radius * std::sin(angle)};
}

double sample(const CounterRng& rng, Distribution d, std::uint64_t index)
{
    switch (d) {
    case Distribution::Uniform:
        return 2.0 * rng.uniform(index, 0) - 1.0;
    case Distribution::Normal:
        // Box-Muller: elements 2p and 2p+1 are the cosine and sine of pair p (see fillRange).
        return normalPair(rng, index / 2)[index % 2];
    case Distribution::Wide: {
        const double sign = rng.uniform(index, 0) < 0.5 ? -1.0 : 1.0;
        return sign * std::exp((6.0 * rng.uniform(index, 1) - 3.0) * std::numbers::ln10);
    }
    }
    return 0;
}

template <class T>
void fillRange(T* data, std::uint64_t begin, std::uint64_t end, const CounterRng& rng, Distribution d)
{
    std::uint64_t i = begin;
    if (d == Distribution::Normal) {
        // Whole pairs at once: one logarithm for two elements. Same values as sample().
        if (i % 2 == 1 && i < end) {
            data[i] = T(sample(rng, d, i));
            ++i;
        }
        for (; i + 1 < end; i += 2) {
            const auto pair = normalPair(rng, i / 2);
            data[i] = T(pair[0]);
            data[i + 1] = T(pair[1]);
        }
    }
    for (; i < end; ++i)
        data[i] = T(sample(rng, d, i));
}

}  // namespace

void fillRandom(HostMatrix& m, Distribution d, std::uint64_t seed, std::uint64_t stream)
{
    const std::uint64_t count = std::uint64_t(m.rows()) * std::uint64_t(m.cols());
    if (count == 0)
        return;
    const CounterRng rng(seed, stream);
    const auto fillPart = [&](std::uint64_t begin, std::uint64_t end) {
        if (m.precision() == Precision::F64)
            fillRange(m.as<double>(), begin, end, rng, d);
        else
            fillRange(m.as<float>(), begin, end, rng, d);
    };
    // Large matrices are filled in parallel; the values do not depend on the split.
    const unsigned threads = std::min<std::uint64_t>(std::max(1u, std::thread::hardware_concurrency()),
                                                     count / (1u << 20) + 1);
    if (threads <= 1) {
        fillPart(0, count);
        return;
    }
    std::vector<std::thread> workers;
    const std::uint64_t chunk = (count + threads - 1) / threads;
    for (unsigned t = 0; t < threads; ++t) {
        const std::uint64_t begin = t * chunk, end = std::min(count, begin + chunk);
        if (begin < end)
            workers.emplace_back(fillPart, begin, end);
    }
    for (auto& w : workers)
        w.join();
}

double typicalMagnitude(const Shape& s, Distribution d)
{
    // |C_ij| ~ sqrt(n * E[a^2] * E[b^2]) for independent zero-mean entries.
    double meanSquare = 1.0;
    switch (d) {
    case Distribution::Uniform: meanSquare = 1.0 / 3.0; break;  // U(-1, 1)
    case Distribution::Normal: meanSquare = 1.0; break;          // N(0, 1)
    case Distribution::Wide:                                    // 10^U(-3, 3)
        meanSquare = (1e6 - 1e-6) / (12.0 * std::log(10.0));
        break;
    }
    return std::sqrt(double(std::max<std::int64_t>(s.n, 1))) * meanSquare;
}

}  // namespace gigacheck
