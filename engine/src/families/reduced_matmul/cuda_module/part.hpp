// Reduced matmul's part of the CUDA module (core/cuda_module/README.md): its op table and
// cuda/device_reduced.hpp, forwarded in forward.cpp, filled in cuda/module_part.cpp.
#pragma once

#include <string>

namespace gigacheck::cuda {
struct OpTable;
}

namespace gigacheck::reduced_matmul {

struct CudaModulePart {
    const cuda::OpTable* ops = nullptr;
    bool (*available)(std::string* why) = nullptr;
};

}  // namespace gigacheck::reduced_matmul
