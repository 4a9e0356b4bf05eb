// Built without nvcc: there are no GPU reduced matmuls.
#include "families/reduced_matmul/cuda/device_reduced.hpp"

namespace gigacheck::reduced_matmul::device {

bool available(std::string* why)
{
    if (why)
        *why = "this build has no CUDA backend (nvcc was not found when it was configured)";
    return false;
}

Timing run(Variant, Precision, const void*, const void*, void*, std::int64_t, int, int)
{
    throw BackendError("this build has no CUDA backend");
}

}  // namespace gigacheck::reduced_matmul::device
