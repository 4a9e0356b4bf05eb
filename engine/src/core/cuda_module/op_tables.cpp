// Each family's CUDA op table as families/<name>/ops.cpp asks for it (FamilyOps::cuda), from the
// CUDA module. Only the module's executor reads these tables; without the module no CUDA backend
// exists, so an empty table stands in.
#include "core/cuda/op_table.hpp"
#include "core/cuda_module/module_loader.hpp"
#include "families/blocked_gemm/ops.hpp"
#include "families/online_abft/ops.hpp"
#include "families/reduced_matmul/ops.hpp"
#include "families/strassen/ops.hpp"
#include "families/transpose/ops.hpp"

namespace gigacheck {
namespace {

const cuda::OpTable& fromModule(const cuda::OpTable& (*cuda_module::Api::*member)())
{
    static const cuda::OpTable none;
    const cuda_module::Api* api = cuda_module::load(nullptr);
    return api ? (api->*member)() : none;
}

}  // namespace

const cuda::OpTable& blocked_gemm::cudaOps() { return fromModule(&cuda_module::Api::blockedGemmOps); }
const cuda::OpTable& online_abft::cudaOps() { return fromModule(&cuda_module::Api::onlineAbftOps); }
const cuda::OpTable& strassen::cudaOps() { return fromModule(&cuda_module::Api::strassenOps); }
const cuda::OpTable& transpose::cudaOps() { return fromModule(&cuda_module::Api::transposeOps); }
const cuda::OpTable& reduced_matmul::cudaOps() { return fromModule(&cuda_module::Api::reducedMatmulOps); }

}  // namespace gigacheck
