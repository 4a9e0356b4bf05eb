#include "core/cuda/check.hpp"

#include <string>

namespace gigacheck::cuda {

namespace {
std::string where(const char* call, const char* file, int line)
{
    std::string f = file;
    const auto slash = f.find_last_of('/');
    if (slash != std::string::npos)
        f = f.substr(slash + 1);
    return std::string(" in ") + call + " (" + f + ":" + std::to_string(line) + ")";
}
}  // namespace

bool isStickyError(cudaError_t code)
{
    switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
        return true;
    default:
        return false;
    }
}

void throwCudaError(cudaError_t code, const char* call, const char* file, int line)
{
    // Clear a non-sticky error so that the next CUDA call of this thread starts clean.
    if (!isStickyError(code))
        (void)cudaGetLastError();
    std::string msg = std::string("CUDA error ") + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
    if (code == cudaErrorMemoryAllocation)
        msg = std::string("out of device memory: ") + cudaGetErrorString(code);
    throw BackendError(msg + where(call, file, line));
}

void throwCublasError(cublasStatus_t code, const char* call, const char* file, int line)
{
    throw BackendError(std::string("cuBLAS error ") + cublasGetStatusName(code) + " (" +
                       cublasGetStatusString(code) + ")" + where(call, file, line));
}

}  // namespace gigacheck::cuda
