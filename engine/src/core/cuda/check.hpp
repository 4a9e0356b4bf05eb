// The one place where CUDA and cuBLAS return codes become exceptions (BackendError).
#pragma once

#include "gigacheck/types.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace gigacheck::cuda {

[[noreturn]] void throwCudaError(cudaError_t code, const char* call, const char* file, int line);
[[noreturn]] void throwCublasError(cublasStatus_t code, const char* call, const char* file, int line);

// True for errors that poison the CUDA context (illegal address, launch failure, ...):
// only a device reset makes the process usable again.
bool isStickyError(cudaError_t code);

}  // namespace gigacheck::cuda

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        const cudaError_t gcCudaStatus = (call);                                          \
        if (gcCudaStatus != cudaSuccess)                                                  \
            ::gigacheck::cuda::throwCudaError(gcCudaStatus, #call, __FILE__, __LINE__);   \
    } while (0)

#define CUBLAS_CHECK(call)                                                                \
    do {                                                                                  \
        const cublasStatus_t gcCublasStatus = (call);                                     \
        if (gcCublasStatus != CUBLAS_STATUS_SUCCESS)                                      \
            ::gigacheck::cuda::throwCublasError(gcCublasStatus, #call, __FILE__, __LINE__); \
    } while (0)

// After every kernel launch: configuration errors show up here, not at the next sync.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
