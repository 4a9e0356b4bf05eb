#include "families/reduced_matmul/cpu/kernels.hpp"

#include <cblas.h>

namespace gigacheck::reduced_matmul::cpu {

template <class T> void naive4p(const T* a, const T* b, T* c, std::int64_t n, const std::atomic<bool>* cancel)
{
    const std::int64_t h = n / 2;
    for (std::int64_t i = 0; i < h && !(cancel && cancel->load(std::memory_order_relaxed)); ++i)
        for (std::int64_t j = 0; j < h; ++j) {
            const T* a0 = a + 2 * i * n;
            const T* a1 = a0 + n;
            T sum = 0;
            for (std::int64_t k = 0; k < n; ++k) {
                const T b0 = b[k * n + 2 * j], b1 = b[k * n + 2 * j + 1];
                sum += a0[k] * b0 + a0[k] * b1 + a1[k] * b0 + a1[k] * b1;
            }
            c[i * h + j] = sum;
        }
}

template <class T> void naiveP(const T* a, const T* b, T* c, std::int64_t n, const std::atomic<bool>* cancel)
{
    const std::int64_t h = n / 2;
    for (std::int64_t i = 0; i < h && !(cancel && cancel->load(std::memory_order_relaxed)); ++i)
        for (std::int64_t j = 0; j < h; ++j) {
            const T* a0 = a + 2 * i * n;
            const T* a1 = a0 + n;
            T sum = 0;
            for (std::int64_t k = 0; k < n; ++k)
                sum += (a0[k] + a1[k]) * (b[k * n + 2 * j] + b[k * n + 2 * j + 1]);
            c[i * h + j] = sum;
        }
}

template <class T> void reduceRowPairs(const T* a, T* ar, std::int64_t n)
{
    for (std::int64_t i = 0; i < n / 2; ++i)
        for (std::int64_t k = 0; k < n; ++k)
            ar[i * n + k] = a[2 * i * n + k] + a[(2 * i + 1) * n + k];
}

template <class T> void reduceColumnPairs(const T* b, T* br, std::int64_t n)
{
    const std::int64_t h = n / 2;
    for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t j = 0; j < h; ++j)
            br[k * h + j] = b[k * n + 2 * j] + b[k * n + 2 * j + 1];
}

template <> void blasGemm<float>(const float* ar, const float* br, float* c, std::int64_t n)
{
    const int h = int(n / 2), k = int(n);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, h, h, k, 1.0f, ar, k, br, h, 0.0f, c, h);
}
template <> void blasGemm<double>(const double* ar, const double* br, double* c, std::int64_t n)
{
    const int h = int(n / 2), k = int(n);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, h, h, k, 1.0, ar, k, br, h, 0.0, c, h);
}

template <class T> void reduceBlas(const T* a, const T* b, T* c, T* ar, T* br, std::int64_t n)
{
    reduceRowPairs(a, ar, n);
    reduceColumnPairs(b, br, n);
    blasGemm(ar, br, c, n);
}

#define GIGACHECK_REDUCED_CPU(T)                                                \
    template void naive4p<T>(const T*, const T*, T*, std::int64_t, const std::atomic<bool>*); \
    template void naiveP<T>(const T*, const T*, T*, std::int64_t, const std::atomic<bool>*);  \
    template void reduceRowPairs<T>(const T*, T*, std::int64_t);               \
    template void reduceColumnPairs<T>(const T*, T*, std::int64_t);            \
    template void reduceBlas<T>(const T*, const T*, T*, T*, T*, std::int64_t);
GIGACHECK_REDUCED_CPU(float)
GIGACHECK_REDUCED_CPU(double)
#undef GIGACHECK_REDUCED_CPU

}  // namespace gigacheck::reduced_matmul::cpu
