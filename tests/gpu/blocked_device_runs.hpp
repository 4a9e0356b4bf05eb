// The blocked GEMM runs the GPU tests start: on the CUDA backend with the full FP64 reference, in
// several blocks with several k steps (strategy none: one block), and one bit flip at a cell.
#pragma once

#include "gigacheck/blocked_gemm/run.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace gigacheck::test {

inline RunConfig deviceRun(GemmVariant g, Shape shape, StrategyKind k, Precision p = Precision::F32)
{
    RunConfig c;
    c.shape = shape;
    c.strategy = k;
    c.precision = p;
    c.gemm = g;
    c.backend = BackendKind::Cuda;
    c.reference = ReferenceMode::Full;
    // Room for blocks of 64 x 48 x 64 and what the GEMM keeps beside them (its workspace).
    c.memCapBytes = k == StrategyKind::None ? 0 : bytesForBlocks(k, p, true, 64, 48, 64, g);
    return c;
}

// Bit `bit` of C's cell (row, col) flipped once, in the last k step of the block that holds it.
inline RunConfig withBitFlip(RunConfig c, int bit, std::int64_t row = 17, std::int64_t col = 33)
{
    c.faults.model = FaultModel::BitFlip;
    c.faults.bit = bit;
    c.faults.at.push_back({row, col, std::nullopt, std::nullopt});
    return c;
}

// "257x129x31 s2 normal": the run a failed check names.
inline std::string nameOfRun(Shape shape, StrategyKind k, Distribution d)
{
    return std::to_string(shape.m) + "x" + std::to_string(shape.n) + "x" + std::to_string(shape.q) + " " +
           std::string(toString(k)) + " " + std::string(toString(d));
}

}  // namespace gigacheck::test
