// The one list of the algorithm families of this build: a family adds its line here and nothing
// else outside its folder (engine/src/families/README.md "Adding a family"). Each NAME is the
// family's namespace (gigacheck::NAME) and the name its records carry; the family defines there
//   const Family& familyContract();          its contract (gigacheck/family.hpp), in the engine
//   const void* cudaModulePart();            its part of the CUDA module (cuda/module_part.cpp)
// The list is expanded where they are gathered: families.cpp (the registry) and
// cuda_module/module_entry.cpp (the module's table), so neither includes a family's header.
// Explicit rather than self-registered: an object nobody references in a static library is
// dropped by the linker, and its registration with it.
#pragma once

#define GIGACHECK_FOR_EACH_FAMILY(X) \
    X(blocked_gemm)                  \
    X(online_abft)                   \
    X(strassen)                      \
    X(reduced_matmul)                \
    X(transpose)
