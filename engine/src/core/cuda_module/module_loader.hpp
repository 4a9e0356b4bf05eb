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
#include <string_view>

namespace gigacheck::cuda {
struct OpTable;
}

namespace gigacheck::cuda_module {

// The module's table, or nullptr with *why set (when why is not null). Loads on the first call.
const Api* load(std::string* why);

// The module's table; throws BackendError("<what> needs the CUDA module: <why>") without it.
const Api& require(const char* what);

// A family's part of the module (its families/<name>/cuda_module/part.hpp), as load and require.
const void* loadFamilyPart(std::string_view family, std::string* why);
const void* requireFamilyPart(std::string_view family, const char* what);
template <class Part> const Part* loadPart(std::string_view family, std::string* why)
{
    return static_cast<const Part*>(loadFamilyPart(family, why));
}
template <class Part> const Part& requirePart(std::string_view family, const char* what)
{
    return *static_cast<const Part*>(requireFamilyPart(family, what));
}

// A family's CUDA op table from its part, or an empty one without the module (only the module's
// executor reads these tables, and without the module there is no CUDA backend).
const cuda::OpTable& opTableOr(const cuda::OpTable* fromModule);

}  // namespace gigacheck::cuda_module
