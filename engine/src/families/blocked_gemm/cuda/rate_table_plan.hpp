// The points of the cost model's rate tables on a GPU (measure_rates.cu measureRateTables), as a
// plain list: the measurement walks it, and measureCeilings counts it beforehand for its progress.
// Plain C++, header-only: the engine (no CUDA) and the CUDA module both include it.
#pragma once

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace gigacheck::cuda {

struct RateTablePlan {
    std::vector<std::int64_t> sides;  // GEMM blocks s x s x s and (s+1) x (s+1) x s, per kind
    static constexpr int kKinds = 3;  // f32, tf32, f64
    std::vector<std::pair<std::int64_t, std::int64_t>> copies;  // (row width, host pitch) in bytes
    // Every point: the GEMMs, the 2D copies and the host's pack rate beside copies.
    int points() const { return int(sides.size()) * kKinds * 2 + int(copies.size()) + 1; }
};

inline RateTablePlan rateTablePlan(bool quick)
{
    RateTablePlan plan;
    plan.sides = quick ? std::vector<std::int64_t>{512, 2048} : std::vector<std::int64_t>{512, 1024, 2048, 4096, 8192, 16384};
    // Widths 2^k and 1.5 x 2^k: the rate is not monotonic in the width (link_2d_copies_2e85113.txt:
    // D2H dips to 28 GB/s at 9-10 KB rows). Host pitches twice the row, 64 KB and 256 KB: beside a
    // GEMM, rows of 4-16 KB out of a wide matrix lose a third of their rate on an H200
    // (resources/results/probes/copy_pitch_probe.cu).
    const std::int64_t widest = std::int64_t(128) << 10;
    for (std::int64_t pow2 = 1024; pow2 <= widest; pow2 *= 2) {
        for (std::int64_t width : {pow2, pow2 * 3 / 2}) {
            if (width > widest)
                continue;
            std::set<std::int64_t> pitches{2 * width};
            if (!quick)
                for (std::int64_t wide : {std::int64_t(64) << 10, std::int64_t(256) << 10})
                    if (wide > 2 * width)
                        pitches.insert(wide);
            for (std::int64_t pitch : pitches)
                plan.copies.emplace_back(width, pitch);
        }
    }
    return plan;
}

}  // namespace gigacheck::cuda
