// Built without nvcc: no CUDA device.
#include "families/reduced_matmul/cuda/device_reduced.hpp"

namespace gigacheck::reduced_matmul::device {

bool available(std::string* why)
{
    if (why)
        *why = "this build has no CUDA backend (nvcc was not found when it was configured)";
    return false;
}

}  // namespace gigacheck::reduced_matmul::device
