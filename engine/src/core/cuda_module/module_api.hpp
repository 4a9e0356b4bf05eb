// What the CUDA module (libgigacheck_cuda.so) hands the engine: one table of the functions the
// engine calls on the CUDA side, returned by the module's one C entry point. Plain C++ (no CUDA
// types): the engine includes it without linking any CUDA library. Engine and module come from
// the same build; the loader refuses a module whose table size or version differ.
//
// A new CUDA function that engine code (run/, bench/, core) calls: a member here, its address in
// module/module_entry.cpp, and a forwarder of the same name in forward_<area>.cpp.
#pragma once

#include "families/blocked_gemm/cuda/measure.hpp"
#include "families/blocked_gemm/cuda/measure_rates.hpp"
#include "families/online_abft/cuda/panel_floor.hpp"
#include "families/strassen/bench/shared_target_products.hpp"
#include "gigacheck/backend.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gigacheck::cuda {
struct OpTable;
}

namespace gigacheck::cuda_module {

inline constexpr const char* kModuleFileName = "libgigacheck_cuda.so";
inline constexpr const char* kEntryPoint = "gigacheck_cuda_module";

struct Api {
    std::size_t size = sizeof(Api);
    const char* version = nullptr;  // the project version both sides were built as

    // core/cuda
    std::unique_ptr<Backend> (*makeCudaBackend)(std::string* why, const std::vector<int>& ordinals) = nullptr;
    std::vector<DeviceInfo> (*cudaDevices)(std::string* why) = nullptr;
    void (*useDevice)(int device) = nullptr;

    // each family's CUDA op table (families/<name>/cuda/op_table.cpp)
    const cuda::OpTable& (*blockedGemmOps)() = nullptr;
    const cuda::OpTable& (*onlineAbftOps)() = nullptr;
    const cuda::OpTable& (*strassenOps)() = nullptr;
    const cuda::OpTable& (*transposeOps)() = nullptr;
    const cuda::OpTable& (*reducedMatmulOps)() = nullptr;

    // families/blocked_gemm/cuda/measure.hpp (the bench and `devices --measure`)
    Ceilings (*measureDeviceCeilings)(int device, MeasureSteps* steps) = nullptr;
    cuda::GemmTiming (*timeGemm)(GemmVariant, int tile, int optimizedBk, Precision, std::int64_t n, int reps) = nullptr;
    cuda::AbftTiming (*timeAbftOverhead)(Precision, bool tf32, std::int64_t n, int errors, int reps) = nullptr;
    double (*timeCublasXt)(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps) = nullptr;
    double (*timeCublasXtOn)(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps,
                             const std::vector<int>& gpus) = nullptr;
    double (*inCoreGemmGflops)(std::int64_t m, std::int64_t n, std::int64_t q, Precision, int reps) = nullptr;
    double (*tunedInCoreGemmGflops)(std::int64_t n, int reps, std::string* kept) = nullptr;
    void (*linkBandwidth)(double& h2dGBs, double& d2hGBs) = nullptr;
    // families/blocked_gemm/cuda/measure_rates.hpp (the cost model's tables, `bench link`)
    void (*measureRateTables)(Ceilings& c, bool quick, MeasureSteps* steps) = nullptr;
    double (*measureGemmRate)(const std::string& kind, std::int64_t m, std::int64_t n, std::int64_t k, int reps) = nullptr;
    std::vector<cuda::LinkUnderLoad> (*measureLinkUnderLoad)(bool quick) = nullptr;
    double (*timeHostLoads)(const std::vector<HostLoad>& loads) = nullptr;
    double (*timeHostPacking)(const std::vector<HostLoad>& loads) = nullptr;

    // families/online_abft/cuda/panel_floor.hpp (`bench online`)
    cuda::PanelFloor (*panelProductsAlone)(std::int64_t m, std::int64_t n, std::int64_t panel,
                                           const std::vector<std::int64_t>& blockCols, int reps,
                                           bool sumsAfterEachStep) = nullptr;

    // families/strassen/bench/rates.hpp (cuda/rates.cu)
    double (*strassenCublasGemmSeconds)(const Shape&, Precision, bool tf32, int device, int repetitions) = nullptr;
    double (*strassenDeviceCopyGBs)(int device) = nullptr;
    double (*strassenPeerCopyGBs)(int from, int to) = nullptr;
    // families/strassen/bench/shared_target_products.hpp
    std::vector<strassen::SharedTargetTiming> (*strassenSharedTargetProducts)(int device, std::int64_t n, Precision,
                                                                              int repetitions) = nullptr;

    // families/transpose/cuda/device_transpose.hpp
    bool (*transposeAvailable)(std::string* why) = nullptr;
    double (*transposeDeviceCopyGbps)(std::size_t bytes, int reps, int device) = nullptr;
    double (*transposeDatasheetPeakGbps)(int device) = nullptr;

    // families/reduced_matmul/cuda/device_reduced.hpp
    bool (*reducedAvailable)(std::string* why) = nullptr;
};

using EntryFunction = const Api* (*)();

}  // namespace gigacheck::cuda_module
