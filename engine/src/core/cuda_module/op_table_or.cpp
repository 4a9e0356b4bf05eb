// The empty CUDA op table that stands in for a family's when the module does not load.
#include "core/cuda/op_table.hpp"
#include "core/cuda_module/module_loader.hpp"

namespace gigacheck::cuda_module {

const cuda::OpTable& opTableOr(const cuda::OpTable* fromModule)
{
    static const cuda::OpTable none;
    return fromModule ? *fromModule : none;
}

}  // namespace gigacheck::cuda_module
