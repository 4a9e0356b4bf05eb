// Built when nvcc was not found at configure time: the CUDA backend does not exist.
#include "gigacheck/backend.hpp"
#include "gigacheck/cuda_status.hpp"

namespace gigacheck {

bool cudaCompiledIn() { return false; }

std::string whyNoCudaBackend() { return "this build has no CUDA backend (nvcc was not found when it was configured)"; }

std::unique_ptr<Backend> makeCudaBackend(std::string* why, int /*device*/)
{
    if (why)
        *why = "this build has no CUDA backend (nvcc was not found when it was configured)";
    return nullptr;
}

std::unique_ptr<Backend> makeCudaBackend(std::string* why, const std::vector<int>& /*ordinals*/)
{
    return makeCudaBackend(why, -1);
}

}  // namespace gigacheck
