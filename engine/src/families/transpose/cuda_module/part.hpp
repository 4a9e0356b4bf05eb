// Transpose's part of the CUDA module (core/cuda_module/README.md): its op table and
// cuda/device_transpose.hpp, forwarded in forward.cpp, filled in cuda/module_part.cpp.
#pragma once

#include <cstddef>
#include <string>

namespace gigacheck::cuda {
struct OpTable;
}

namespace gigacheck::transpose {

struct CudaModulePart {
    const cuda::OpTable* ops = nullptr;
    bool (*available)(std::string* why) = nullptr;
    double (*deviceCopyGbps)(std::size_t bytes, int reps, int device) = nullptr;
    double (*datasheetPeakGbps)(int device) = nullptr;
};

}  // namespace gigacheck::transpose
