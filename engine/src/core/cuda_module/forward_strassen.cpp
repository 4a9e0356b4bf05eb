// families/strassen/bench/rates.hpp in the engine of a CUDA build: forwarded to the module
// (strassen/cuda/rates.cu), bench/shared_target_products.hpp likewise (cuda/shared_target_products.cu).
#include "core/cuda_module/module_loader.hpp"
#include "families/strassen/bench/rates.hpp"
#include "families/strassen/bench/shared_target_products.hpp"

namespace gigacheck::strassen {

double cublasGemmSeconds(const Shape& shape, Precision precision, bool tf32, int device, int repetitions)
{
    return cuda_module::require("bench strassen (cuBLAS rates)").strassenCublasGemmSeconds(shape, precision, tf32, device, repetitions);
}

double deviceCopyGBs(int device) { return cuda_module::require("bench strassen").strassenDeviceCopyGBs(device); }

double peerCopyGBs(int from, int to) { return cuda_module::require("bench multi-gpu-strassen").strassenPeerCopyGBs(from, to); }

std::vector<SharedTargetTiming> measureSharedTargetProducts(int device, std::int64_t n, Precision precision,
                                                            int repetitions)
{
    return cuda_module::require("bench strassen (atomics against ordering)")
        .strassenSharedTargetProducts(device, n, precision, repetitions);
}

}  // namespace gigacheck::strassen
