// Strassen's part of the CUDA module (core/cuda_module/README.md): its op table and the bench's
// measurements (bench/rates.hpp, bench/shared_target_products.hpp), forwarded in forward.cpp,
// filled in cuda/module_part.cpp.
#pragma once

#include "families/strassen/bench/rates.hpp"
#include "families/strassen/bench/shared_target_products.hpp"

namespace gigacheck::cuda {
struct OpTable;
}

namespace gigacheck::strassen {

struct CudaModulePart {
    const cuda::OpTable* ops = nullptr;
    // bench/rates.hpp (cuda/rates.cu)
    double (*cublasGemmSeconds)(const Shape&, Precision, bool tf32, int device, int repetitions) = nullptr;
    double (*deviceCopyGBs)(int device) = nullptr;
    double (*peerCopyGBs)(int from, int to) = nullptr;
    // bench/shared_target_products.hpp (cuda/shared_target_products.cu)
    std::vector<SharedTargetTiming> (*sharedTargetProducts)(int device, std::int64_t n, Precision, int repetitions) = nullptr;
};

}  // namespace gigacheck::strassen
