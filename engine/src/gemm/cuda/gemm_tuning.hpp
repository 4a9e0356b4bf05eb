// One cuBLAS kernel per shape, tuned on the device once per process.
//
// cuBLAS picks its kernel by a heuristic, and for some shapes the pick is poor: the online
// family's panel products (m x 1024 x m/2, beta = 1) ran at 0.91-0.93 of the full SGEMM's rate
// with cublasSgemm's pick and at 0.95-0.97 with the best configuration cuBLASLt accepts for them
// (H200, resources/results/probes/panel_gemm_search_probe.cu). tuneGemm times cuBLAS's pick and
// every cuBLASLt configuration of the shape (algorithm, tile, stages, CTA swizzle, custom option;
// no split-K, no workspace, so that the sums are ordered as in one kernel and concurrent calls on
// several streams share nothing), and keeps the fastest (or one of a tile the caller prefers, within
// its margin: TuningOptions); gemm() runs it for calls with `tuned` set.
// FP32 with FP32 compute only (`--gemm cublas`), the case that was measured.
#pragma once

#include "gemm/cuda/gemm.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gigacheck::cuda {

struct GemmTuning {
    bool tried = false;        // false: not a tunable call (precision, variant, empty or too long)
    double libraryMs = 0;      // cuBLAS's own pick, median
    double bestMs = 0;         // the kept configuration (libraryMs when cuBLAS's pick was kept)
    int configurations = 0;    // cuBLASLt configurations timed
    std::string kept;          // "cuBLAS's pick" or "cuBLASLt algo A, tile T, stages S, swizzle W, option O"
};

// Times on stream s with the call's own buffers (C is overwritten; A and B only read), so it runs
// before a schedule's first op, untimed. Once per process, device and shape (extents, leading
// dimensions, accumulate, the operands' address alignment): later calls return the first one's
// result, whatever options they pass. A product whose cuBLAS pick takes more than
// options.longestMs (timing its ~80 configurations would cost seconds) borrows the configuration kept for the same product at a
// depth whose pick takes half that, tuned then if it was not yet, and keeps it if it beats cuBLAS's
// pick on its own depth too (report: "... (kept at depth D)", configurations 1).
// GIGACHECK_NO_GEMM_TUNING=1 turns tuning off (the A/B of the results README). Throws BackendError
// on CUDA errors.
struct TuningOptions {
    // The GPU tests: keep the fastest cuBLASLt configuration even where cuBLAS's pick is faster,
    // so that a test checks the results of the path gemm() takes when tuned.
    bool keepFastest = false;
    double longestMs = 25.0;  // cuBLAS's pick slower than this: borrowed from a shorter depth (the bench's reference lifts it)
    // cuBLASLt tile ids (CUBLASLT_MATMUL_TILE_*) kept over a faster configuration when their lone
    // time is at most preferWithin slower (tuning_choice.hpp): set by a family that measured these
    // tiles faster in its own sustained pattern than lone timings say (online ABFT's panels).
    std::vector<std::uint32_t> preferredTiles;
    double preferWithin = 0.0;
};
GemmTuning tuneGemm(const GemmCall& g, cublasHandle_t handle, cudaStream_t s, const TuningOptions& options = {});

// Runs g with its shape's tuned cuBLASLt configuration; false (nothing issued) when there is none.
bool runTunedGemm(const GemmCall& g, cudaStream_t s);

// After cudaDeviceReset: the descriptors and handles of before are gone.
void forgetGemmTunings();

}  // namespace gigacheck::cuda
