// families/strassen/bench/rates.hpp in the engine of a CUDA build: forwarded to the module
// (strassen/cuda/rates.cu).
#include "core/cuda_module/module_loader.hpp"
#include "families/strassen/bench/rates.hpp"

namespace gigacheck::strassen {

double cublasGemmSeconds(const Shape& shape, Precision precision, bool tf32, int device, int repetitions)
{
    return cuda_module::require("bench strassen (cuBLAS rates)").strassenCublasGemmSeconds(shape, precision, tf32, device, repetitions);
}

double deviceCopyGBs(int device) { return cuda_module::require("bench strassen").strassenDeviceCopyGBs(device); }

double peerCopyGBs(int from, int to) { return cuda_module::require("bench multi-gpu-strassen").strassenPeerCopyGBs(from, to); }

}  // namespace gigacheck::strassen
