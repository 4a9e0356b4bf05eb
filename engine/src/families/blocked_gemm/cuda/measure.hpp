// The device measurements of the bench suites and `gigacheck devices --measure`, in plain C++
// (no CUDA types), so that bench/ compiles with or without CUDA. Every timing is a median of
// CUDA-event times; each runs on the current device (core/cuda/devices.hpp useDevice).
#pragma once

#include "core/devices/measure_steps.hpp"
#include "gemm/cuda/gemm_rates.hpp"
#include "gigacheck/abft.hpp"
#include "gigacheck/backend.hpp"

#include <string>
#include <vector>

namespace gigacheck::cuda {

// GEMM roofs (cuBLAS FP32 / TF32 / BF16 / FP16 / FP64 at N = 8192), device copy bandwidth (bytes read +
// written), pinned H2D and D2H bandwidth (256 MiB copies): kDeviceCeilingPoints points. steps (may
// be null): told before every point (and throws MeasureCancelled there when cancelled).
inline constexpr int kDeviceCeilingPoints = 6;  // + the BF16 / FP16 roof
Ceilings measureDeviceCeilings(int device, MeasureSteps* steps = nullptr);

struct GemmTiming {
    double medianMs = 0;
    double gflops = 0;
    double relError = 0;  // max |C - C_ref| / (|A| |B|)_ij on sampled rows, C_ref in FP64 on the host
    // cutlass-tf32: the configuration timed ("tuned" for tile -1), how many this build has
    // (tile = 0 .. count - 1) and which of them run B^T (K-major) / B as it lies.
    std::string kernel;
    int kernelCount = 0;
    std::vector<int> kernelsKMajor, kernelsBAsItLies;
    std::string picked;  // tile -1 with B^T: the configuration the tuner kept for n (cutlassTf32KMajorPick)
};
// C = A B for n x n x n random device matrices with one variant (optimizedBk: 8 or 16). For
// cutlass-tf32, tile is the index of the CUTLASS configuration (BackendError when none runs here;
// -1: the default, or with bTransposed the tuner's pick, tuned in the untimed first run), and
// bTransposed times the kernel on B^T laid out beforehand (untimed): both operands K-major.
GemmTiming timeGemm(GemmVariant v, int tile, int optimizedBk, Precision p, std::int64_t n, int reps,
                    bool bTransposed = false);

struct StageTiming {
    std::string name;
    double bytes = 0;  // read through device memory
    double ms = 0;
};

struct AbftTiming {
    double plainMs = 0;      // cuBLAS GEMM, unaugmented n x n, tight leading dimensions
    double protectedMs = 0;  // checksums + GEMM + checksum products + (inject) + verify/correct
    std::string verdict;     // of the last protected repetition
    int corrections = 0;
    // |fixed - clean| / |clean| at the fault: fixed after the run's repair step (the corrected cell
    // recomputed as one dot product), clean from the plain GEMM of the same (TF32: rounded) operands.
    double correctedRelError = 0;
    double threshold = 0;          // largest detection threshold of the block
    double delta = 0;              // the injected fault
    std::vector<StageTiming> stages;  // each ABFT stage alone (errors == 0 only)
    // tf32 only: the same protected product with --gemm cutlass-tf32 (the CUTLASS kernel writes C's
    // sums; the verification reads no C), on its own copies of the unrounded inputs (its passes
    // truncate A and B in registers and write neither; B's checksum pass lays B^T out truncated), in
    // the same interleaved repetitions, against the same plain cuBLAS TF32 GEMM. ran = false with
    // `why` when the kernel cannot run here.
    struct Fused {
        bool ran = false;
        std::string why;
        double kernelMs = 0;     // the CUTLASS kernel alone, no sums (plain, tight leading dimensions)
        // The same on the operands the fused protected product hands it: A as stored (unrounded) and
        // the B^T its checksum pass laid out truncated to TF32 (13 zero bits per value: does the kernel
        // run faster on them, as on zeros?).
        double kernelRoundedMs = 0;
        double protectedMs = 0;  // checksums + fused GEMM + (inject) + verify/correct
        std::string verdict;
        int corrections = 0;
        // Fixed cell against the kernel's own product of the same operands; the host recompute
        // multiplies them truncated to TF32, as the tensor cores did.
        double correctedRelError = 0, threshold = 0;
        std::vector<StageTiming> stages;  // its ABFT passes alone (errors == 0 only)
        // The same product on operands prepared at entry (abft/cuda/prepared_operands.hpp): A's and
        // B's checksums and B^T made once (prepareMs), then per product one read of A and one of B^T
        // beside the kernel (preparedMs), in the same repetitions; its verdict and fixed cell as above.
        double prepareMs = 0, preparedMs = 0;
        double preparedPassFirstMs = 0;  // the same with the pass before the kernel (no tail lane)
        // Who took C's checksum column in the prepared product ("kernel": B^T's checksum rows multiplied
        // with C, the pass reading B^T alone; "pass": the pass over A), and the same product with it
        // taken the other way, where that can run (0 / empty otherwise).
        std::string preparedColumn;
        double preparedOtherWayMs = 0;
        std::string preparedOtherWayVerdict;
        double kernelWithSumsMs = 0;  // the kernel on those operands writing C's sums too (no passes, no check)
        std::string picked;           // the K-major configuration the tuner kept for n
        // The prepared product with C's sums from a pass over C (SumsOfC::ByPass), the kernel writing only C.
        double preparedByPassMs = 0;
        std::string preparedByPassVerdict;
        std::string preparedVerdict;
        int preparedCorrections = 0;
        double preparedCorrectedRelError = 0, preparedThreshold = 0;
    } fused;
    // BF16 / FP16 only: the protected product on operands already in 16-bit storage, the plain
    // side's own (protected_product_16bit.hpp), in the same interleaved repetitions, against the same
    // plain cuBLAS GEMM. correctedRelError: the checksum's correction (no repair pass).
    // operands16SumsFromEpilogue: the same with C's sums from the CUTLASS kernel's epilogue
    // (ran = false with `why` where it cannot run).
    struct Operands16 {
        bool ran = false;
        std::string why;
        double protectedMs = 0;
        std::string verdict;
        int corrections = 0;
        double correctedRelError = 0, threshold = 0;
        // operands16SumsFromEpilogue only: the CUTLASS kernel alone (no sums) on the plain side's
        // operands and C, and the configuration its tuner kept for n.
        double kernelMs = 0;
        std::string picked;
        double entryMs = 0;  // operands16Prepared only: preparing A and B once (prepare16BitOperands)
        std::string checksumsBy;  // the prepared rows: how C's checksum row and column were made
    } operands16, operands16SumsFromEpilogue,
        operands16Prepared,  // the fused one on operands prepared at entry (checksums in the kernel's tail)
        operands16PreparedPassFirst,  // the same with the passes before the kernel
        // BF16, where the prepared product's checksums came from the products beside the kernel or its
        // checksum column from the kernel: the same product the other way (without the side products;
        // without the kernel's column); ran = false elsewhere.
        operands16PreparedColumnByPass;
};
// In-core ABFT overhead of one n x n x n product with `variant` (cublas, cublas-tf32, cublas-bf16,
// cublas-f16) on both sides; cublas-tf32 also times the fused CUTLASS product beside them
// (AbftTiming::fused). BF16 / FP16: the plain side is cuBLAS on operands already in 16-bit storage
// (converted once, untimed); the protected side keeps FP32 operands, rounds them in registers in its
// checksum passes, which write the 16-bit copies its GEMM reads, all of it timed; AbftTiming::operands16
// the protected product on the plain side's 16-bit operands.
AbftTiming timeAbftOverhead(Precision p, GemmVariant variant, std::int64_t n, int errors, int reps);

// C = A B through cublasXt (host matrices, out-of-core tiling by the library) with one block
// dimension; seconds, median of reps.
double timeCublasXt(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps);
// The same over the given GPUs (cublasXtDeviceSelect; distinct ordinals: cublasXt takes each GPU once).
double timeCublasXt(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int blockDim, int reps,
                    const std::vector<int>& gpus);
// The in-core GEMM rates (inCoreGemmGflops, tunedInCoreGemmGflops): gemm/cuda/gemm_rates.hpp (included).
// Pinned host <-> device bandwidths in GB/s (256 MiB copies, median).
void linkBandwidth(double& h2dGBs, double& d2hGBs);

}  // namespace gigacheck::cuda
