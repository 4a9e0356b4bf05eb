#include "gemm/cuda/protected_product_16bit.hpp"

#include "core/cuda/check.hpp"
#include "gemm/cuda/checksum_side_products.hpp"
#include "gemm/cuda/gemm_16bit.hpp"
#include "gemm/cutlass/cutlass_16bit_gemm.hpp"
#include "gemm/cutlass/kmajor_choice.hpp"

namespace gigacheck::cuda {

bool multipliesIn16Bit(const GemmCall& g)
{
    const InputFormat f = operandRounding(g);
    return f == InputFormat::Bf16 || f == InputFormat::F16;
}

void checksumB16Of(const GemmCall& g, cudaStream_t s)
{
    float* b = static_cast<float*>(const_cast<void*>(g.b));
    checksumB16(operandRounding(g), Operand16{b, g.ldb, false}, g.n, g.q, RowChecksumsB{b + g.q, g.ldb}, s);
}

namespace {

Cutlass16BitType cutlassTypeOf(InputFormat f)
{
    return f == InputFormat::F16 ? Cutlass16BitType::F16 : Cutlass16BitType::Bf16;
}

// The SMs the CUTLASS 16-bit kernel leaves idle at m x q without a round of tiles more (every 16-bit
// configuration has clusters of two CTAs, cutlass_16bit_gemm.cu).
int smsLeftBy16BitKernel(Index m, Index q)
{
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms - cutlassSmsKeepingRounds(m, q, sms, 2);
}

}  // namespace

bool writesSumsOfC16(const GemmCall& g)
{
    if (!multipliesIn16Bit(g) || g.m <= 0 || g.n <= 0 || g.q <= 0)
        return false;
    Cutlass16BitCall call;  // the copies are packed and 256-byte aligned (copies16For)
    call.type = cutlassTypeOf(operandRounding(g));
    call.n = g.n;
    call.q = g.q;
    call.lda = g.n;
    call.ldb = g.q;
    call.c = static_cast<float*>(g.c);
    call.ldc = g.ldc;
    call.a = call.b = call.c;  // stand-ins with the copies' alignment (16 bytes at least)
    return cutlass16BitFits(call) && cutlass16BitRuns();
}

bool productWithChecksums16(const GemmCall& g, cublasHandle_t handle, cudaStream_t s, AuxView aux, bool sumsOfC)
{
    // The copies are written by the passes and read by the GEMM on the same stream, in order.
    const Copies16 copies = copies16For(g, s);
    float* b = static_cast<float*>(const_cast<void*>(g.b));
    checksumProducts16(operandRounding(g), Operand16{g.a, g.lda, false}, Operand16{b, g.ldb, false},
                       RowChecksumsB{b + g.q, g.ldb}, static_cast<float*>(g.c), g.ldc, g.m, g.n, g.q, aux, g.accumulate,
                       copies.a, copies.b, s);
    if (!sumsOfC || !writesSumsOfC16(g)) {
        gemmOf16BitCopies(g, copies, handle, s);
        return false;
    }
    // The epilogue's sums take the scratch rows the passes above have finished with.
    zeroProductSums(aux, g.m, g.q, s);
    Cutlass16BitCall call;
    call.type = cutlassTypeOf(operandRounding(g));
    call.m = g.m;
    call.n = g.n;
    call.q = g.q;
    call.a = copies.a;
    call.lda = g.n;
    call.b = copies.b;
    call.ldb = g.q;
    call.c = static_cast<float*>(g.c);
    call.ldc = g.ldc;
    call.accumulate = g.accumulate;
    call.rowSums = aux.scratch0();
    call.colSums = aux.scratch1();
    call.rowSumPartials = g.rowSumPartials;
    if (const char* why = cutlass16BitGemm(call, s))
        throw BackendError(why);
    return true;
}

Checksums16By protectedProductOf16BitOperands(const Protected16BitBlocks& x, cublasHandle_t handle, cudaStream_t s,
                                              SideLane& lane)
{
    const RowChecksumsB rowChecksums{x.rowChecksumsB, 2};
    const bool fusedSums = x.fusedSums;
    const bool tail = x.prepared && fusedSums && x.preparedPassInTail;
    SideChecksumProducts16 side;
    side.format = x.format;
    side.a16 = x.a16;
    side.lda = x.n;
    side.b16 = x.b16;
    side.ldb = x.q;
    side.checksumParts = x.checksumParts;
    side.parts = x.sideProductParts;
    side.c = x.c;
    side.ldc = x.ldc;
    side.m = x.m;
    side.n = x.n;
    side.q = x.q;
    // Where c_A's and r_B's parts are here and the kernel leaves SMs idle: both checksums beside the
    // kernel on those SMs, launched (as a graph) the moment it is. This goes before the kernel's checksum
    // column, which keeps every SM busy: BF16 at 4096 on an H100, +13.7 / +20.9 % against +20.5 / +25.3 %.
    const int freeSms = tail && x.checksumParts && x.sideProductParts ? smsLeftBy16BitKernel(x.m, x.q) : 0;
    const std::shared_ptr<SideChecksumProducts16Launch> sideLaunch =
        freeSms > 0 ? sideChecksumProducts16For(side, freeSms) : nullptr;
    const bool sideProducts = sideLaunch != nullptr;
    const Index wider = x.q + kChecksumColumnsOf16BitB;
    const bool columnByKernel = !sideProducts && tail && x.bWithChecksumColumns && x.format == InputFormat::Bf16 &&
                                x.q > 0 && x.q % kCutlassTf32TileColumns == 0 && x.ldc >= wider &&
                                x.aux.ld >= wider && x.ldbWithChecksumColumns >= wider &&
                                kernelChecksumColumnPaysHere(x.m, x.q);
    const auto injectFault = [&] {
        inject(Precision::F32, x.c, x.ldc, x.fault, 1, x.faultBeforeAfter, s,
               fusedSums ? productSumsOf(x.aux, x.m, x.q) : ProductSums{});
    };
    // A fault in C's main part is taken as the kernel's own arithmetic where C's row sums are finished,
    // beside the passes (they write only the checksum cells and scales); one in those cells after them.
    const bool faultInRowSums = tail && faultInMainPart(x.fault, x.m, x.q);
    if (tail) {
        // The reset first (the epilogue's sums take the Aux rows it zeroes); the passes after the GEMM.
        resetPrepared16Checksums(x.c, x.ldc, x.m, x.q, x.aux, *x.prepared, s, columnByKernel);
        CUDA_CHECK(cudaEventRecord(lane.fork.get(), s));
    } else if (x.prepared) {
        // On s before the GEMM: the epilogue's sums take the Aux rows the reset zeroes.
        checksumProductsPrepared16(x.format, x.a16, x.n, x.b16, x.q, x.c, x.ldc, x.m, x.n, x.q, x.aux, *x.prepared, s);
    } else {
        checksumB16(x.format, Operand16{x.b16, x.q, true}, x.n, x.q, rowChecksums, s);
        cudaStream_t passes = fusedSums ? s : lane.side.get();
        if (!fusedSums) {
            CUDA_CHECK(cudaEventRecord(lane.fork.get(), s));
            CUDA_CHECK(cudaStreamWaitEvent(lane.side.get(), lane.fork.get(), 0));
        }
        checksumProducts16(x.format, Operand16{x.a16, x.n, true}, Operand16{x.b16, x.q, true}, rowChecksums, x.c, x.ldc,
                           x.m, x.n, x.q, x.aux, false, nullptr, nullptr, passes);
        if (fusedSums)
            zeroProductSums(x.aux, x.m, x.q, s);
    }
    if (fusedSums) {
        Cutlass16BitCall call;
        call.type = cutlassTypeOf(x.format);
        call.m = x.m;
        call.n = x.n;
        call.q = x.q;
        call.a = x.a16;
        call.lda = x.n;
        call.b = x.b16;
        call.ldb = x.q;
        call.c = x.c;
        call.ldc = x.ldc;
        call.rowSums = x.aux.scratch0();
        call.colSums = x.aux.scratch1();
        call.leavesIdleSms = tail && !columnByKernel;  // the pass starts on them at once
        if (columnByKernel) {
            // B's checksum columns make C's columns q .. q + 7 (A r_B in parts, in C's padding); their
            // row sums, kept apart from C's, are the checksum column.
            call.q = wider;
            call.b = x.bWithChecksumColumns;
            call.ldb = x.ldbWithChecksumColumns;
            call.rowSumSplit = RowSumSplit{x.q, x.c + x.q, x.ldc};
        }
        if (faultInRowSums)
            call.fault = faultAsComputed(*x.fault, x.faultBeforeAfter);
        if (tail)
            call.afterLaunch = [&] {  // as soon as the kernel is issued: the side stream's SMs are free now
                CUDA_CHECK(cudaStreamWaitEvent(lane.side.get(), lane.fork.get(), 0));
                if (sideLaunch)
                    launchSideChecksumProducts16(*sideLaunch, lane.side.get());
                else
                    prepared16ChecksumDots(x.format, x.a16, x.n, x.b16, x.q, x.c, x.ldc, x.m, x.n, x.q, *x.prepared,
                                           lane.side.get(), columnByKernel);
                CUDA_CHECK(cudaEventRecord(lane.join.get(), lane.side.get()));
            };
        if (const char* why = cutlass16BitGemm(call, s))
            throw BackendError(why);
        if (tail)
            CUDA_CHECK(cudaStreamWaitEvent(s, lane.join.get(), 0));
    } else if (x.prepared) {
        gemmOf16BitOperands(x.format, x.a16, x.b16, x.c, x.m, x.n, x.q, handle, s, x.ldc);
    } else {
        CUDA_CHECK(cudaEventRecord(lane.join.get(), lane.side.get()));
        gemmOf16BitOperands(x.format, x.a16, x.b16, x.c, x.m, x.n, x.q, handle, s, x.ldc);
        CUDA_CHECK(cudaStreamWaitEvent(s, lane.join.get(), 0));
    }
    if (x.fault && !faultInRowSums)
        injectFault();
    VerifyCall v = verifyCall(Precision::F32, x.c, x.m, x.q, x.ldc, x.n, x.aux, x.model);
    v.sumsFromProduct = fusedSums;
    verify(v, x.out, s);
    return sideProducts ? Checksums16By::SideProducts : columnByKernel ? Checksums16By::KernelColumn : Checksums16By::Passes;
}

}  // namespace gigacheck::cuda
