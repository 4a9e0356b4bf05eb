// The CUDA module's one C entry point (built into libgigacheck_cuda.so only): the table of the
// functions the engine's forwarders call (../module_api.hpp). The module is linked with
// -Bsymbolic-functions, so these addresses are the module's own definitions, never the engine's
// forwarders of the same names.
#include "core/cuda/devices.hpp"
#include "core/cuda/op_table.hpp"
#include "core/cuda_module/module_api.hpp"
#include "families/blocked_gemm/ops.hpp"
#include "families/online_abft/cuda/panel_floor.hpp"
#include "families/online_abft/ops.hpp"
#include "families/reduced_matmul/cuda/device_reduced.hpp"
#include "families/reduced_matmul/ops.hpp"
#include "families/strassen/bench/rates.hpp"
#include "families/strassen/bench/shared_target_products.hpp"
#include "families/strassen/ops.hpp"
#include "families/transpose/cuda/device_transpose.hpp"
#include "families/transpose/ops.hpp"

namespace gigacheck::cuda_module {
namespace {

Api makeApi()
{
    Api api;
    api.version = GIGACHECK_CUDA_MODULE_VERSION;
    api.makeCudaBackend = static_cast<std::unique_ptr<Backend> (*)(std::string*, const std::vector<int>&)>(&makeCudaBackend);
    api.cudaDevices = &cuda::cudaDevices;
    api.useDevice = &cuda::useDevice;
    api.blockedGemmOps = &blocked_gemm::cudaOps;
    api.onlineAbftOps = &online_abft::cudaOps;
    api.strassenOps = &strassen::cudaOps;
    api.transposeOps = &transpose::cudaOps;
    api.reducedMatmulOps = &reduced_matmul::cudaOps;
    api.measureDeviceCeilings = &cuda::measureDeviceCeilings;
    api.timeGemm = &cuda::timeGemm;
    api.timeAbftOverhead = &cuda::timeAbftOverhead;
    api.timeCublasXt = static_cast<double (*)(const HostMatrix&, const HostMatrix&, HostMatrix&, int, int)>(&cuda::timeCublasXt);
    api.timeCublasXtOn = static_cast<double (*)(const HostMatrix&, const HostMatrix&, HostMatrix&, int, int, const std::vector<int>&)>(
        &cuda::timeCublasXt);
    api.inCoreGemmGflops = &cuda::inCoreGemmGflops;
    api.tunedInCoreGemmGflops = &cuda::tunedInCoreGemmGflops;
    api.linkBandwidth = &cuda::linkBandwidth;
    api.measureRateTables = &cuda::measureRateTables;
    api.measureGemmRate = &cuda::measureGemmRate;
    api.measureLinkUnderLoad = &cuda::measureLinkUnderLoad;
    api.timeHostLoads = &cuda::timeHostLoads;
    api.timeHostPacking = &cuda::timeHostPacking;
    api.panelProductsAlone = &cuda::panelProductsAlone;
    api.strassenCublasGemmSeconds = &strassen::cublasGemmSeconds;
    api.strassenDeviceCopyGBs = &strassen::deviceCopyGBs;
    api.strassenPeerCopyGBs = &strassen::peerCopyGBs;
    api.strassenSharedTargetProducts = &strassen::measureSharedTargetProducts;
    api.transposeAvailable = &transpose::device::available;
    api.transposeDeviceCopyGbps = &transpose::device::deviceCopyGbps;
    api.transposeDatasheetPeakGbps = &transpose::device::datasheetPeakGbps;
    api.reducedAvailable = &reduced_matmul::device::available;
    return api;
}

}  // namespace
}  // namespace gigacheck::cuda_module

extern "C" __attribute__((visibility("default"))) const gigacheck::cuda_module::Api* gigacheck_cuda_module()
{
    static const gigacheck::cuda_module::Api api = gigacheck::cuda_module::makeApi();
    return &api;
}
