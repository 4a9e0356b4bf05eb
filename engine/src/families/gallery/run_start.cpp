// The backend of a kernel-gallery run (run_start.hpp).
#include "families/gallery/run_start.hpp"

#include "gigacheck/types.hpp"

namespace gigacheck::gallery {

std::unique_ptr<Backend> galleryBackend(BackendKind kind, int device, const std::string& what)
{
    if (kind != BackendKind::Cuda)
        return makeCpuBackend();
    std::string why;
    std::unique_ptr<Backend> backend = makeCudaBackend(&why, device);
    if (!backend)
        throw InputError(what + " on CUDA: no CUDA device: " + why);
    return backend;
}

}  // namespace gigacheck::gallery
