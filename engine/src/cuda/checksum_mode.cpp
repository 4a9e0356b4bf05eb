// Where C's checksum row / column are computed: beside the GEMM (memory-bound passes) or by the
// GEMM itself on the augmented extents (abft_device.hpp).
#include "cuda/abft_device.hpp"

#include <cstdlib>
#include <string_view>

namespace gigacheck::cuda {

bool checksumsInGemm(GemmVariant v)
{
    const bool cublas = v == GemmVariant::Cublas || v == GemmVariant::CublasTf32;
    // Override for measuring both ways in one process (resources/results/README.md).
    if (const char* mode = std::getenv("GIGACHECK_CHECKSUMS")) {
        if (std::string_view(mode) == "beside")
            return false;
        if (std::string_view(mode) == "gemm")
            return cublas;
    }
    // The TF32 tensor-core GEMM is short and itself needs memory bandwidth: the three checksum
    // passes beside it slow it down instead of hiding. The extra row / column cost ~2/n FLOPs.
    return v == GemmVariant::CublasTf32;
}

}  // namespace gigacheck::cuda
