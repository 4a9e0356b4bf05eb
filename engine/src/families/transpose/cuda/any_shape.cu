#include "families/transpose/cuda/any_shape.hpp"

#include "families/transpose/cuda/kernels.cuh"

namespace gigacheck::transpose {

std::vector<std::int64_t> cycleLeaders(const cpu::SegmentPermutation& p)
{
    std::vector<std::int64_t> leaders;
    std::vector<bool> visited(std::size_t(p.count()), false);
    for (std::int64_t s = 0; s < p.count(); ++s) {
        if (visited[std::size_t(s)])
            continue;
        visited[std::size_t(s)] = true;
        std::int64_t to = p.destination(s);
        if (to == s)
            continue;
        leaders.push_back(s);
        for (; to != s; to = p.destination(to))
            visited[std::size_t(to)] = true;
    }
    return leaders;
}

template <class T> typename AnyShapeInPlace<T>::Orientation AnyShapeInPlace<T>::make(std::int64_t m, std::int64_t n)
{
    Orientation o{cpu::SegmentPermutation(m, n), {}, 0};
    const std::vector<std::int64_t> leaders = cycleLeaders(o.p);
    o.cycles = std::int64_t(leaders.size());
    if (!leaders.empty()) {
        o.leaders = gigacheck::cuda::DeviceBuffer(leaders.size() * sizeof(std::int64_t));
        CUDA_CHECK(cudaMemcpy(o.leaders.get(), leaders.data(), o.leaders.bytes(), cudaMemcpyHostToDevice));
    }
    return o;
}

template <class T> AnyShapeInPlace<T>::AnyShapeInPlace(std::int64_t m, std::int64_t n) : forward_(make(m, n)), backward_(make(n, m)) {}

template <class T> void AnyShapeInPlace<T>::run(T* x, bool forward, cudaStream_t s) const
{
    const Orientation& o = forward ? forward_ : backward_;
    const cpu::SegmentPermutation& p = o.p;
    kernels::launchTilePairSwap(x, p.g, p.b * p.g, p.a * p.b, p.b, s);
    kernels::launchSegmentCycles(x, p.g, p.a, p.b, o.leaders.template as<std::int64_t>(), o.cycles, s);
}

template class AnyShapeInPlace<float>;
template class AnyShapeInPlace<std::int32_t>;

}  // namespace gigacheck::transpose
