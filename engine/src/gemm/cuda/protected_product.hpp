// The ABFT-protected block product on the device, written once for the backend's ops, the bench
// and the GPU tests: checksum of B -> GEMM with the checksum products beside it -> (inject) ->
// verify (abft/cuda/abft_device.hpp has the kernels and the layout of the augmented blocks).
#pragma once

#include "abft/cuda/abft_device.hpp"
#include "abft/cuda/prepared_operands.hpp"
#include "core/cuda/resources.hpp"
#include "gemm/cuda/gemm.hpp"

#include "gigacheck/abft.hpp"

namespace gigacheck::cuda {

// A side stream and the two events that fork it from, and join it back to, a main stream. One
// per schedule stream: its ops run in order, so the events can be reused.
struct SideLane {
    Stream side;
    Event fork{cudaEventDisableTiming}, join{cudaEventDisableTiming};
};
// The same with the side stream at the device's greatest priority.
struct PriorityLane : SideLane {
    PriorityLane() : SideLane{Stream::highestPriority()} {}
};

// cublas-tf32 on FP32: the operand blocks are rounded to TF32 in place by the checksum passes that
// read them (checksumB for B, the products' pass over A), gigacheck/tf32.hpp says why.
bool roundsOperandsToTf32(const GemmCall& g);
// The format the operands are rounded to (TF32, BF16, FP16; F32: not rounded).
InputFormat operandRounding(const GemmCall& g);
// How the checksum passes take the operands of g (abft/operand_rounding.hpp): rounded to TF32 in
// registers, never written, for the fused CUTLASS kernel reading B^T (writesSumsOfC with
// g.bTransposed: its tensor cores multiply the rounded values); rounded in place otherwise.
OperandRounding operandModel(const GemmCall& g);
// B's checksum column and row norms as the product g needs them (checksumB with operandModel(g));
// with the rounding model, the same read of B lays B^T out, rounded, into g.bTransposed
// (checksumBTransposed): B is read once for both and not written.
void checksumBOf(const GemmCall& g, cudaStream_t s);

// C[rows x cols] (+)= A B with the GEMM variant of g on stream s. With a lane, the checksum
// column / row of C and the round-off bound (memory-bound passes that touch only C's augmentation
// and aux) run on the lane's side stream while the GEMM computes the main part, and s waits for
// them at the end (running them before the GEMM instead was measured no faster for TF32 and
// slower for the others: resources/results/README.md). Needs checksumB (or checksumBOf) of the B block before.
// TF32 (roundsOperandsToTf32): the products' pass over A rounds A, so it runs on s before the GEMM.
// BF16 / FP16 (multipliesIn16Bit): productWithChecksums16 (protected_product_16bit.hpp): the passes
// write the 16-bit copies the GEMM reads and leave the FP32 operands unwritten; checksumBOf likewise;
// on Hopper the CUTLASS 16-bit kernel multiplies them where it takes the shape and writes C's sums.
// cutlass-tf32 (writesSumsOfC): the GEMM's epilogue also writes C's sums into aux's scratch rows; with
// g.bTransposed (scratch of q x n floats) the kernel reads B^T.
// bFromChecksumBOf: B's checksum came from checksumBOf(g), so the passes take the operands as
// operandModel(g) says (the fused K-major kernel: rounded in registers, B^T already laid out).
// Otherwise (a caller that ran checksumB itself, e.g. once per B block for several panel products)
// the operands are rounded in place as for cuBLAS TF32 and B^T is laid out here from the rounded B.
void productWithChecksums(const GemmCall& g, cublasHandle_t handle, cudaStream_t s, SideLane* lane, AuxView aux,
                          bool inputRounding, bool bFromChecksumBOf = false);

// Where a fused-sums GEMM (writesSumsOfC) left C's sums for a block of rows x cols: the scratch rows
// of its Aux, which its fault injection adjusts and its verification reads.
ProductSums productSumsOf(AuxView aux, Index rows, Index cols);
// Whether productWithChecksums(g) with a lane leaves C's row and column sums in aux's scratch rows
// (the CUTLASS TF32 kernel's epilogue, writesSumsOfC, or the 16-bit one's, writesSumsOfC16), so that
// the verification reads no C (VerifyCall::sumsFromProduct).
bool sumsOfCFromProduct(const GemmCall& g);

// The verification of an augmented C block whose inner dimension so far is depth.
VerifyCall verifyCall(Precision p, void* c, Index rows, Index cols, Index ldc, Index depth, AuxView aux,
                      const RoundoffModel& model, double lambda = 4.0);

// One in-core protected product of device blocks laid out as the plan lays them (A: lda,
// B: ldb >= cols + 2, C: (rows + 1) x ldc, aux: 4 x ldx doubles), the sequence the backend runs
// for a single k step: checksumBOf, productWithChecksums, the optional fault, verify into out.
struct ProtectedBlocks {
    GemmCall gemm;  // variant, precision, extents, operands (accumulate is ignored: one k step)
    AuxView aux;
    RoundoffModel model;
    const DeviceInjection* fault = nullptr;  // none when null
    double* faultBeforeAfter = nullptr;      // pinned, 2 doubles
    VerifyOut* out = nullptr;                // pinned
    bool besideGemm = false;                 // VerifyCall::besideGemm (the GPU tests' lean sums)
};
void protectedProduct(const ProtectedBlocks& blocks, cublasHandle_t handle, cudaStream_t s, SideLane& lane);

// The same product on operands prepared at entry (abft/cuda/prepared_operands.hpp): blocks.gemm is a
// cutlass-tf32 call whose bTransposed is the B^T prepareOperands laid out (ld = n), `prepared` its
// vectors. One pass over A and one over B^T, the fused GEMM writing C's sums, the optional fault,
// the verification reading no C. BackendError where the kernel does not take the shape.
// SumsOfC::ByPass: the kernel writes only C, and the verification sums C in one pass instead (which
// costs less than the epilogue's reductions where those slow the kernel down: bench abft-overhead).
// With `tail`, the pass over A and B^T runs on the lane's side stream, launched after the GEMM, so
// that its blocks take the multiprocessors the GEMM's last round of tiles leaves idle (the
// persistent grid walks ceil(tiles / CTAs) rounds, and the CTAs with one tile fewer exit a round
// early: 64 of 132 SMs for a round at 8192) instead of running before the kernel. The side stream
// should have a lower priority than s, so that the GEMM's CTAs are placed first.
//
// C's checksum column A r_B by the kernel instead of the pass (ChecksumColumnBy::Kernel): B^T's
// checksum rows (kChecksumRowsOfBt, r_B in TF32 parts) ride along as four more columns of C, A r_B is
// multiplied by the tensor cores with C, and the epilogue's row sums of those columns, kept apart,
// become the checksum column; the pass then reads B^T alone, and A is read once per product, by the
// kernel. It needs `prepared` made with A's rows (in(..., rows)), C's sums from the epilogue, C's
// width a multiple of the kernel's 128-column tile side (the checksum rows in a tile row of their own)
// and room for four columns more in C (ldc) and in aux (ld). It takes every multiprocessor (the extra
// tile row fills the ones the pass would have had: at 4096, 33 x 16 tiles of 128 x 256 in four rounds
// of 132 SMs). ChecksumColumnBy::Choice takes it where it fits and its tile row adds no round of tiles
// to a short walk (kernelChecksumColumnPaysOn, kmajor_choice.hpp); Kernel throws BackendError where it
// does not fit. Returns the way taken.
enum class SumsOfC { FromEpilogue, ByPass };
enum class ChecksumColumnBy { Choice, Pass, Kernel };
bool kernelChecksumColumnFits(const GemmCall& g, AuxView aux, const PreparedOperands& prepared);
bool kernelChecksumColumnPays(const GemmCall& g);
// kernelChecksumColumnPaysOn for a C of m x q on the current device (false where it is no Hopper GPU).
bool kernelChecksumColumnPaysHere(Index m, Index q);
// Whether a fault lies in C's main part (row < rows, col < cols), not in a checksum cell: the products
// whose checksum passes run after the GEMM on a side stream and whose kernel writes C's sums take it as
// one of the kernel's arithmetic (faultAsComputed), beside the passes (which write only the checksum
// cells and scales) and with no launch of its own before the check.
bool faultInMainPart(const DeviceInjection* fault, Index rows, Index cols);
// The fused kernel's form of such a fault (gemm/cuda/row_sum_partials.hpp); beforeAfter as inject's.
FaultAsComputed faultAsComputed(const DeviceInjection& fault, double* beforeAfter);
ChecksumColumnBy protectedProductPrepared(const ProtectedBlocks& blocks, const PreparedOperands& prepared,
                                          cublasHandle_t handle, cudaStream_t s, SumsOfC sums = SumsOfC::FromEpilogue,
                                          SideLane* tail = nullptr, ChecksumColumnBy column = ChecksumColumnBy::Choice);

}  // namespace gigacheck::cuda
