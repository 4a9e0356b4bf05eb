// The CPU backend's stand-in for device memory: every buffer of a run comes from here, so the
// cap is enforced and the high-water mark measured in one place.
#pragma once

#include <cstddef>
#include <vector>

namespace gigacheck {

class BufferPool {
public:
    explicit BufferPool(std::size_t capBytes) : cap_(capBytes) {}
    ~BufferPool();
    BufferPool(const BufferPool&) = delete;
    BufferPool& operator=(const BufferPool&) = delete;

    // Zeroed, 64-byte aligned memory. Throws BackendError when it would exceed the cap.
    void* allocate(std::size_t bytes);
    void release(void* p);

    std::size_t inUse() const { return inUse_; }
    std::size_t peak() const { return peak_; }
    std::size_t cap() const { return cap_; }

private:
    struct Block {
        void* p;
        std::size_t bytes;
    };
    std::size_t cap_, inUse_ = 0, peak_ = 0;
    std::vector<Block> blocks_;
};

}  // namespace gigacheck
