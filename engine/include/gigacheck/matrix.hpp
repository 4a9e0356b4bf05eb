// Host matrices: type-erased row-major storage for FP32 / FP64 and reproducible generation.
#pragma once

#include "gigacheck/types.hpp"

#include <functional>
#include <memory>

namespace gigacheck {

// Where host memory comes from: plain heap by default; the CUDA backend supplies pinned memory.
struct HostAllocator {
    std::function<void*(std::size_t)> allocate;
    std::function<void(void*)> release;
    static HostAllocator heap();
};

class HostMatrix {
public:
    HostMatrix() = default;
    HostMatrix(Precision p, std::int64_t rows, std::int64_t cols,
               const HostAllocator& alloc = HostAllocator::heap());

    Precision precision() const { return precision_; }
    std::int64_t rows() const { return rows_; }
    std::int64_t cols() const { return cols_; }
    std::size_t bytes() const { return std::size_t(rows_) * std::size_t(cols_) * elementSize(precision_); }
    bool empty() const { return rows_ == 0 || cols_ == 0; }

    void* data() { return data_.get(); }
    const void* data() const { return data_.get(); }
    template <class T> T* as() { return static_cast<T*>(data_.get()); }
    template <class T> const T* as() const { return static_cast<const T*>(data_.get()); }

    // Element access as double whatever the precision (GUI, reports, tests; not for hot loops).
    double at(std::int64_t r, std::int64_t c) const;
    void set(std::int64_t r, std::int64_t c, double v);
    void fill(double v);

private:
    Precision precision_ = Precision::F32;
    std::int64_t rows_ = 0, cols_ = 0;
    std::shared_ptr<void> data_;
};

// Reproducible inputs: same (seed, stream) gives the same matrix on every machine.
// uniform: U(-1, 1); normal: N(0, 1); wide: sign * 10^U(-3, 3) (magnitudes over six decades).
void fillRandom(HostMatrix& m, Distribution d, std::uint64_t seed, std::uint64_t stream);

// Expected |C_ij| of a product of such inputs (scales random fault deltas).
double typicalMagnitude(const Shape& s, Distribution d);

}  // namespace gigacheck
