#include "families/blocked_gemm/staging/pack_rows.hpp"

#include "gigacheck/blocked_gemm/h2d_staging.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

namespace gigacheck {

namespace {

void packRange(const PackJob& j, std::int64_t begin, std::int64_t end)
{
    const std::int64_t pad = j.dstPitch - j.rowBytes;
    for (std::int64_t r = begin; r < end; ++r) {
        char* to = j.dst + r * j.dstPitch;
        std::memcpy(to, j.src + r * j.srcPitch, std::size_t(j.rowBytes));
        if (pad > 0 && r + 1 < j.rows)  // the last row's padding lies beyond the copied bytes
            std::memset(to + j.rowBytes, 0, std::size_t(pad));
    }
}

}  // namespace

void packRows(const PackJob& j)
{
    const std::int64_t threads =
        std::clamp<std::int64_t>(j.rows * j.rowBytes / kPackBytesPerThread, 1, std::max<std::int64_t>(1, std::min(kPackThreads, j.rows)));
    const std::int64_t chunk = (j.rows + threads - 1) / threads;
    std::vector<std::thread> workers;
    for (std::int64_t t = 1; t < threads; ++t) {
        const std::int64_t begin = t * chunk, end = std::min(j.rows, begin + chunk);
        if (begin < end)
            workers.emplace_back([&j, begin, end] { packRange(j, begin, end); });
    }
    packRange(j, 0, std::min(j.rows, chunk));
    for (std::thread& w : workers)
        w.join();
}

double measureHostPackGBs(const std::function<void()>& whileTimed)
{
    const std::int64_t rows = 2048, rowBytes = 16 << 10, pitch = 128 << 10;
    std::vector<char> src(std::size_t(rows * pitch), 1), dst(std::size_t(rows * rowBytes), 0);
    if (whileTimed)
        whileTimed();
    double best = 0;
    for (int rep = 0; rep < 5; ++rep) {
        const PackJob job{src.data() + (rep % 4) * rowBytes, dst.data(), rows, rowBytes, pitch, rowBytes};
        const auto t0 = std::chrono::steady_clock::now();
        packRows(job);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::max(best, s > 0 ? double(rows * rowBytes) / s / 1e9 : 0.0);
    }
    return best;
}

HostPackTimer hostPackTimer()
{
    return [](const std::vector<HostLoad>& loads) {
        std::size_t largest = 0;
        for (const HostLoad& l : loads)
            largest = std::max(largest, std::size_t(l.rows) * std::size_t(l.rowBytes));
        std::vector<std::vector<char>> slots;
        try {
            slots.assign(std::size_t(kStagingSlots), std::vector<char>(largest));
        } catch (const std::bad_alloc&) {
            return 0.0;
        }
        std::vector<double> passes;
        for (int pass = 0; pass < 3; ++pass) {
            const auto t0 = std::chrono::steady_clock::now();
            for (std::size_t i = 0; i < loads.size(); ++i) {
                const HostLoad& l = loads[i];
                packRows({static_cast<const char*>(l.source), slots[i % slots.size()].data(), l.rows, l.rowBytes,
                          l.pitchBytes, l.rowBytes});
            }
            passes.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(passes.begin(), passes.end());
        return passes[1];  // the median
    };
}

}  // namespace gigacheck
