// Transpose's part of the CUDA module (../cuda_module/part.hpp), handed to the engine by the
// module's entry point (families/cuda_module/module_entry.cpp).
#include "core/cuda/op_table.hpp"
#include "families/transpose/cuda/device_transpose.hpp"
#include "families/transpose/cuda_module/part.hpp"
#include "families/transpose/ops.hpp"

namespace gigacheck::transpose {

const void* cudaModulePart()
{
    static const CudaModulePart part{&cudaOps(), &device::available, &device::deviceCopyGbps, &device::datasheetPeakGbps};
    return &part;
}

}  // namespace gigacheck::transpose
