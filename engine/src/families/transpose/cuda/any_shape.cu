#include "families/transpose/cuda/any_shape.hpp"

#include <algorithm>

namespace gigacheck::transpose {

template <class T>
AnyShapeInPlace<T>::AnyShapeInPlace(std::int64_t m, std::int64_t n)
    : ratioForward_(kernels::ratioConfig<T>(m, n)), ratioBackward_(kernels::ratioConfig<T>(n, m))
{
    std::size_t elements = 0;
    if (ratioForward_.shape.applies()) {
        elements = std::max(ratioForward_.scratchElements(), ratioBackward_.scratchElements());
    } else {
        forward_ = kernels::decompositionConfig(m, n);
        backward_ = kernels::decompositionConfig(n, m);
        elements = std::max(forward_.scratchElements(), backward_.scratchElements());
    }
    if (elements)
        scratch_ = gigacheck::cuda::DeviceBuffer(elements * sizeof(T));
}

template <class T> void AnyShapeInPlace<T>::run(T* x, bool forward, cudaStream_t s) const
{
    if (ratioForward_.shape.applies())
        kernels::launchRatioDecomposition(x, forward ? ratioForward_ : ratioBackward_, scratch_.template as<T>(), s);
    else
        kernels::launchDecomposition(x, forward ? forward_ : backward_, scratch_.template as<T>(), s);
}

template class AnyShapeInPlace<float>;
template class AnyShapeInPlace<std::int32_t>;

}  // namespace gigacheck::transpose
