#include "core/cpu/buffer_pool.hpp"

#include "gigacheck/types.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace gigacheck {

BufferPool::~BufferPool()
{
    for (const Block& b : blocks_)
        std::free(b.p);
}

void* BufferPool::allocate(std::size_t bytes)
{
    if (inUse_ + bytes > cap_)
        throw BackendError("buffer pool: allocating " + formatBytes(double(bytes)) + " with " +
                           formatBytes(double(inUse_)) + " in use would exceed the cap of " +
                           formatBytes(double(cap_)));
    const std::size_t rounded = std::max<std::size_t>(64, (bytes + 63) / 64 * 64);
    void* p = std::aligned_alloc(64, rounded);
    if (!p)
        throw BackendError("buffer pool: out of host memory allocating " + formatBytes(double(bytes)));
    std::memset(p, 0, rounded);
    blocks_.push_back({p, bytes});
    inUse_ += bytes;
    peak_ = std::max(peak_, inUse_);
    return p;
}

void BufferPool::release(void* p)
{
    const auto it = std::find_if(blocks_.begin(), blocks_.end(), [p](const Block& b) { return b.p == p; });
    if (it == blocks_.end())
        return;
    inUse_ -= it->bytes;
    std::free(it->p);
    blocks_.erase(it);
}

}  // namespace gigacheck
