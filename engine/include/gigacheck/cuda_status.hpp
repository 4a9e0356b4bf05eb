// Whether this process has a CUDA backend, and why not. cudaCompiledIn() (gigacheck/backend.hpp)
// is true when the CUDA backend can be used here: compiled in and, in a CUDA build, its module
// libgigacheck_cuda.so loaded (engine/src/core/cuda_module/README.md).
#pragma once

#include <string>

namespace gigacheck {

// Empty when cudaCompiledIn(); else why not, plainly: the build has no CUDA backend, the module is
// not installed, or it could not be loaded (the loader's message: libcublas.so.12 missing, ...).
std::string whyNoCudaBackend();

// Whether this build has the CUTLASS kernels (--gemm cutlass-tf32, Hopper): "built (...)" or
// "not built (why)", as cmake/Cutlass.cmake decided.
std::string cutlassKernelsStatus();

}  // namespace gigacheck
