// What the CUDA module (libgigacheck_cuda.so) hands the engine: one table of the functions the
// engine calls on the CUDA side, returned by the module's one C entry point. Plain C++ (no CUDA
// types): the engine includes it without linking any CUDA library. Engine and module come from
// the same build; the loader refuses a module whose table size or version differ.
//
// Core's own functions are members here; each family's (its CUDA op table, its bench's
// measurements) are the family's part, a struct the family defines (families/<name>/cuda_module/
// part.hpp) and the module hands out by family name: core names no family.
#pragma once

#include "gigacheck/backend.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

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

    // The family's part (its CudaModulePart), nullptr for a family the module does not know.
    const void* (*familyPart)(const char* family) = nullptr;
};

using EntryFunction = const Api* (*)();

}  // namespace gigacheck::cuda_module
