// Built without nvcc: no CUDA device.
#include "families/reduced_matmul/cuda/device_reduced.hpp"
#include "gigacheck/cuda_status.hpp"

namespace gigacheck::reduced_matmul::device {

bool available(std::string* why)
{
    if (why)
        *why = whyNoCudaBackend();
    return false;
}

}  // namespace gigacheck::reduced_matmul::device
