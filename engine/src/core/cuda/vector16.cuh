// 16-byte vector accesses (the transpose family's kernels, B^T for the fused TF32 products): which
// CUDA vector type carries 16 bytes of an element type, and its components by a lane-dependent index.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gigacheck::cuda {

// 16 bytes of T as one vector access: E elements of T (float / int32: 4; the ratio decomposition's
// 8-byte carrier of two 4-byte elements: 2; its 16-byte carrier of four: 1).
template <class T> struct Vec16;
template <> struct Vec16<float> {
    using type = float4;
};
template <> struct Vec16<std::int32_t> {
    using type = int4;
};
template <> struct Vec16<unsigned long long> {
    using type = ulonglong2;
};
template <> struct Vec16<uint4> {
    using type = uint4;
};
template <class T> inline constexpr int kPerVector = int(16 / sizeof(T));

// Component k of a 16-byte vector (selects, not a local array: k differs per lane).
template <class T, class V> __device__ __forceinline__ T component(const V& v, int k)
{
    if constexpr (kPerVector<T> == 4)
        return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
    else if constexpr (kPerVector<T> == 2)
        return k == 0 ? v.x : v.y;
    else
        return v;
}
template <class T, class V> __device__ __forceinline__ void setComponent(V& v, int k, T e)
{
    if constexpr (kPerVector<T> == 4) {
        if (k == 0)
            v.x = e;
        else if (k == 1)
            v.y = e;
        else if (k == 2)
            v.z = e;
        else
            v.w = e;
    } else if constexpr (kPerVector<T> == 2) {
        if (k == 0)
            v.x = e;
        else
            v.y = e;
    } else {
        v = e;
    }
}

}  // namespace gigacheck::cuda
