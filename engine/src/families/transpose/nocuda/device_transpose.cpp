// Built without nvcc: there is no device to measure.
#include "families/transpose/cuda/device_transpose.hpp"
#include "gigacheck/cuda_status.hpp"

#include "gigacheck/types.hpp"

namespace gigacheck::transpose::device {

bool available(std::string* why)
{
    if (why)
        *why = whyNoCudaBackend();
    return false;
}

double deviceCopyGbps(std::size_t, int, int) { throw BackendError("this build has no CUDA backend"); }
double datasheetPeakGbps(int) { return 0; }

}  // namespace gigacheck::transpose::device
