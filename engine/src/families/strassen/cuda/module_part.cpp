// Strassen's part of the CUDA module (../cuda_module/part.hpp), handed to the engine by the
// module's entry point (families/cuda_module/module_entry.cpp).
#include "core/cuda/op_table.hpp"
#include "families/strassen/cuda_module/part.hpp"
#include "families/strassen/ops.hpp"

namespace gigacheck::strassen {

const void* cudaModulePart()
{
    static const CudaModulePart part{&cudaOps(), &cublasGemmSeconds, &deviceCopyGBs, &peerCopyGBs,
                                     &measureSharedTargetProducts};
    return &part;
}

}  // namespace gigacheck::strassen
