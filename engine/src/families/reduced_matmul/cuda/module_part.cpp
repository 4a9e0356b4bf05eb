// Reduced matmul's part of the CUDA module (../cuda_module/part.hpp), handed to the engine by the
// module's entry point (families/cuda_module/module_entry.cpp).
#include "core/cuda/op_table.hpp"
#include "families/reduced_matmul/cuda/device_reduced.hpp"
#include "families/reduced_matmul/cuda_module/part.hpp"
#include "families/reduced_matmul/ops.hpp"

namespace gigacheck::reduced_matmul {

const void* cudaModulePart()
{
    static const CudaModulePart part{&cudaOps(), &device::available};
    return &part;
}

}  // namespace gigacheck::reduced_matmul
