// Built without the CUDA module (nvcc not found at configure time, or GIGACHECK_WITH_CUDA=OFF, as
// the quick start does on a machine without a GPU): the CUDA backend does not exist.
#include "gigacheck/backend.hpp"
#include "gigacheck/cuda_status.hpp"

namespace gigacheck {

bool cudaCompiledIn() { return false; }

std::string whyNoCudaBackend()
{
#ifdef GIGACHECK_CUDA_TURNED_OFF
    return "this build has no CUDA backend (configured with GIGACHECK_WITH_CUDA=OFF; packaging/build.sh builds it)";
#else
    return "this build has no CUDA backend (nvcc was not found when it was configured)";
#endif
}

std::unique_ptr<Backend> makeCudaBackend(std::string* why, int /*device*/)
{
    if (why)
        *why = whyNoCudaBackend();
    return nullptr;
}

std::unique_ptr<Backend> makeCudaBackend(std::string* why, const std::vector<int>& /*ordinals*/)
{
    return makeCudaBackend(why, -1);
}

}  // namespace gigacheck
