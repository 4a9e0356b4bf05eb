// Finds and loads the CUDA module once per process (engine side). Where it looks, in order:
//   1. $GIGACHECK_CUDA_MODULE, a path to the module file (only that one is tried);
//   2. the folder of the engine library itself (the build's engine/ folder; installed:
//      lib/gigacheck/, where the gigacheck-cuda package puts the module);
//   3. the folder of the running executable.
// A missing module, one that fails to load (no libcudart / libcublas: the loader's own message)
// or one from another build leaves the CPU lab as it is; `why` says which, plainly.
#pragma once

#include "core/cuda_module/module_api.hpp"

#include <string>

namespace gigacheck::cuda_module {

// The module's table, or nullptr with *why set (when why is not null). Loads on the first call.
const Api* load(std::string* why);

// The module's table; throws BackendError("<what> needs the CUDA module: <why>") without it.
const Api& require(const char* what);

}  // namespace gigacheck::cuda_module
