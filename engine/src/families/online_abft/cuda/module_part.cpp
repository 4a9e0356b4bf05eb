// Online ABFT's part of the CUDA module (../cuda_module/part.hpp), handed to the engine by the
// module's entry point (families/cuda_module/module_entry.cpp).
#include "core/cuda/op_table.hpp"
#include "families/online_abft/cuda_module/part.hpp"
#include "families/online_abft/ops.hpp"

namespace gigacheck::online_abft {

const void* cudaModulePart()
{
    static const CudaModulePart part{&cudaOps(), &cuda::panelProductsAlone};
    return &part;
}

}  // namespace gigacheck::online_abft
