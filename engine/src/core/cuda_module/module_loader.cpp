#include "core/cuda_module/module_loader.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#ifndef GIGACHECK_CUDA_MODULE_VERSION
#error "engine/CMakeLists.txt defines GIGACHECK_CUDA_MODULE_VERSION for the engine and the module alike"
#endif

namespace gigacheck::cuda_module {
namespace {

namespace fs = std::filesystem;

struct Loaded {
    const Api* api = nullptr;
    std::string why;
};

fs::path engineFolder()
{
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&load), &info) == 0 || !info.dli_fname)
        return {};
    std::error_code ec;
    const fs::path self = fs::canonical(info.dli_fname, ec);
    return ec ? fs::path{} : self.parent_path();
}

fs::path executableFolder()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path{} : exe.parent_path();
}

std::vector<fs::path> candidates()
{
    if (const char* forced = std::getenv("GIGACHECK_CUDA_MODULE"); forced && *forced)
        return {fs::path(forced)};
    std::vector<fs::path> out;
    for (const fs::path& folder : {engineFolder(), executableFolder()}) {
        if (folder.empty())
            continue;
        const fs::path file = folder / kModuleFileName;
        if (std::find(out.begin(), out.end(), file) == out.end())
            out.push_back(file);
    }
    return out;
}

Loaded open()
{
    const std::vector<fs::path> paths = candidates();
    std::string looked;
    for (const fs::path& path : paths) {
        std::error_code ec;
        if (!fs::exists(path, ec)) {
            looked += (looked.empty() ? "" : ", ") + path.string();
            continue;
        }
        // RTLD_NOW: a missing symbol fails here, not in the middle of a run.
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* error = dlerror();
            return {nullptr, "the CUDA module " + path.string() + " could not be loaded: " + (error ? error : "unknown error")};
        }
        auto entry = reinterpret_cast<EntryFunction>(dlsym(handle, kEntryPoint));
        if (!entry)
            return {nullptr, "the CUDA module " + path.string() + " has no entry point " + kEntryPoint};
        const Api* api = entry();
        if (!api || api->size != sizeof(Api) || !api->version || std::strcmp(api->version, GIGACHECK_CUDA_MODULE_VERSION) != 0)
            return {nullptr, "the CUDA module " + path.string() + " comes from another build of gigacheck (version " +
                                 std::string(api && api->version ? api->version : "?") + ", this is " +
                                 GIGACHECK_CUDA_MODULE_VERSION + ")"};
        return {api, {}};
    }
    return {nullptr, std::string("the CUDA module ") + kModuleFileName + " is not installed (looked for " +
                         (looked.empty() ? std::string("it nowhere") : looked) +
                         "; the gigacheck-cuda package provides it, GIGACHECK_CUDA_MODULE names another path)"};
}

}  // namespace

const Api* load(std::string* why)
{
    static const Loaded loaded = open();
    if (!loaded.api && why)
        *why = loaded.why;
    return loaded.api;
}

const Api& require(const char* what)
{
    std::string why;
    if (const Api* api = load(&why))
        return *api;
    throw BackendError(std::string(what) + " needs the CUDA module: " + why);
}

const void* loadFamilyPart(std::string_view family, std::string* why)
{
    const Api* api = load(why);
    if (!api)
        return nullptr;
    const void* part = api->familyPart(std::string(family).c_str());
    if (!part && why)
        *why = "the CUDA module " + std::string(kModuleFileName) + " has no part for the family '" + std::string(family) + "'";
    return part;
}

const void* requireFamilyPart(std::string_view family, const char* what)
{
    std::string why;
    if (const void* part = loadFamilyPart(family, &why))
        return part;
    throw BackendError(std::string(what) + " needs the CUDA module: " + why);
}

}  // namespace gigacheck::cuda_module
