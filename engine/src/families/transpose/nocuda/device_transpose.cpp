// Built without nvcc: there are no GPU transposes.
#include "families/transpose/cuda/device_transpose.hpp"

namespace gigacheck::transpose::device {

bool available(std::string* why)
{
    if (why)
        *why = "this build has no CUDA backend (nvcc was not found when it was configured)";
    return false;
}

Timing run(Variant, ElementType, void*, std::int64_t, std::int64_t, int, int)
{
    throw BackendError("this build has no CUDA backend");
}

double deviceCopyGbps(std::size_t, int)
{
    throw BackendError("this build has no CUDA backend");
}

}  // namespace gigacheck::transpose::device
