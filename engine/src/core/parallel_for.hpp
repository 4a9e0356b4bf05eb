// Splits [0, n) into contiguous ranges run on std::threads (the host's cores; fewer when the work
// is small). For passes whose per-line results do not depend on the split (each line summed in its
// own fixed order), so the bits are the same on every machine and with any thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace gigacheck {

// fn(begin, end) over [0, n); workPerItem: elements touched per item, so that small passes stay on
// the calling thread (a thread pays off from about a million elements).
template <class Fn> void parallelFor(std::int64_t n, std::int64_t workPerItem, Fn&& fn)
{
    if (n <= 0)
        return;
    constexpr std::int64_t kMinWorkPerThread = std::int64_t(1) << 20;
    const std::int64_t work = n * std::max<std::int64_t>(1, workPerItem);
    const std::int64_t byWork = std::max<std::int64_t>(1, work / kMinWorkPerThread);
    const std::int64_t threads =
        std::min<std::int64_t>({std::int64_t(std::max(1u, std::thread::hardware_concurrency())), byWork, n});
    if (threads <= 1) {
        fn(std::int64_t(0), n);
        return;
    }
    const std::int64_t chunk = (n + threads - 1) / threads;
    std::vector<std::thread> workers;
    workers.reserve(std::size_t(threads - 1));
    for (std::int64_t t = 1; t < threads; ++t) {
        const std::int64_t begin = t * chunk, end = std::min(n, begin + chunk);
        if (begin < end)
            workers.emplace_back([&fn, begin, end] { fn(begin, end); });
    }
    fn(std::int64_t(0), std::min(n, chunk));
    for (auto& w : workers)
        w.join();
}

}  // namespace gigacheck
