// Strassen's CUDA functions in the engine of a CUDA build (its op table, bench/rates.hpp,
// bench/shared_target_products.hpp): forwarded to its part of the module (part.hpp).
#include "core/cuda_module/module_loader.hpp"
#include "families/strassen/cuda_module/part.hpp"
#include "families/strassen/ops.hpp"

namespace gigacheck::strassen {
namespace {
const CudaModulePart& module(const char* what) { return cuda_module::requirePart<CudaModulePart>(kFamilyName, what); }
}  // namespace

const cuda::OpTable& cudaOps()
{
    const CudaModulePart* part = cuda_module::loadPart<CudaModulePart>(kFamilyName, nullptr);
    return cuda_module::opTableOr(part ? part->ops : nullptr);
}

double cublasGemmSeconds(const Shape& shape, Precision precision, bool tf32, int device, int repetitions)
{
    return module("bench strassen (cuBLAS rates)").cublasGemmSeconds(shape, precision, tf32, device, repetitions);
}

double deviceCopyGBs(int device) { return module("bench strassen").deviceCopyGBs(device); }

double peerCopyGBs(int from, int to) { return module("bench multi-gpu-strassen").peerCopyGBs(from, to); }

std::vector<SharedTargetTiming> measureSharedTargetProducts(int device, std::int64_t n, Precision precision,
                                                            int repetitions)
{
    return module("bench strassen (atomics against ordering)").sharedTargetProducts(device, n, precision, repetitions);
}

}  // namespace gigacheck::strassen
