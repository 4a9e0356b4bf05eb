// The GEMM layer's part of the CUDA module (core/cuda_module/README.md): the plain GEMM rates the
// families' benches measure against, forwarded in forward.cpp, filled in ../cuda/module_part.cpp.
// Named "gemm" beside the families' parts in the module's entry point.
#pragma once

#include "gigacheck/types.hpp"

#include <cstdint>
#include <string>

namespace gigacheck::gemm {

inline constexpr const char* kModulePartName = "gemm";

struct CudaModulePart {
    double (*inCoreGemmGflops)(std::int64_t m, std::int64_t n, std::int64_t q, Precision, int reps) = nullptr;
    double (*tunedInCoreGemmGflops)(std::int64_t n, int reps, std::string* kept) = nullptr;
    double (*inCoreTf32GemmGflops)(std::int64_t m, std::int64_t n, std::int64_t q, int reps) = nullptr;
    double (*inCore16BitGemmGflops)(std::int64_t m, std::int64_t n, std::int64_t q, InputFormat, int reps) = nullptr;
};

const void* cudaModulePart();  // module side

}  // namespace gigacheck::gemm
