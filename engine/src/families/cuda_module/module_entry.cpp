// The CUDA module's one C entry point (built into libgigacheck_cuda.so only): the table of core's
// CUDA functions and, by family name, each family's part (families/<name>/cuda/module_part.cpp).
// Assembled here, above the families, so that core names none of them. The module is linked with
// -Bsymbolic-functions, so these addresses are the module's own definitions, never the engine's
// forwarders of the same names.
#include "core/cuda/devices.hpp"
#include "core/cuda_module/module_api.hpp"
#include "families/family_list.hpp"
#include "gemm/cuda_module/part.hpp"

#include <cstring>

#define GIGACHECK_DECLARE_MODULE_PART(name) \
    namespace gigacheck::name {             \
    const void* cudaModulePart();           \
    }
GIGACHECK_FOR_EACH_FAMILY(GIGACHECK_DECLARE_MODULE_PART)
#undef GIGACHECK_DECLARE_MODULE_PART

namespace gigacheck::cuda_module {
namespace {

struct NamedPart {
    const char* family;
    const void* (*part)();
};

const void* familyPart(const char* family)
{
#define GIGACHECK_NAMED_PART(name) NamedPart{#name, &gigacheck::name::cudaModulePart},
    // The families' parts and the GEMM layer's below them (the rates their benches measure against).
    static constexpr NamedPart parts[] = {GIGACHECK_FOR_EACH_FAMILY(GIGACHECK_NAMED_PART)
                                              NamedPart{gemm::kModulePartName, &gigacheck::gemm::cudaModulePart}};
#undef GIGACHECK_NAMED_PART
    for (const NamedPart& p : parts)
        if (std::strcmp(p.family, family) == 0)
            return p.part();
    return nullptr;
}

Api makeApi()
{
    Api api;
    api.version = GIGACHECK_CUDA_MODULE_VERSION;
    api.makeCudaBackend = static_cast<std::unique_ptr<Backend> (*)(std::string*, const std::vector<int>&)>(&makeCudaBackend);
    api.cudaDevices = &cuda::cudaDevices;
    api.useDevice = &cuda::useDevice;
    api.familyPart = &familyPart;
    return api;
}

}  // namespace
}  // namespace gigacheck::cuda_module

extern "C" __attribute__((visibility("default"))) const gigacheck::cuda_module::Api* gigacheck_cuda_module()
{
    static const gigacheck::cuda_module::Api api = gigacheck::cuda_module::makeApi();
    return &api;
}
