#include "gemm/cuda/protected_product.hpp"

#include "core/cuda/check.hpp"
#include "gemm/cuda/operand_transpose.hpp"
#include "gemm/cuda/protected_product_16bit.hpp"
#include "gemm/cutlass/kmajor_choice.hpp"

#include <string>

namespace gigacheck::cuda {

// Any rounded input format (TF32, BF16, FP16), the name kept from when TF32 was the only one.
bool roundsOperandsToTf32(const GemmCall& g)
{
    return operandRounding(g) != InputFormat::F32;
}

InputFormat operandRounding(const GemmCall& g)
{
    return g.precision == Precision::F32 ? inputFormatOf(g.variant) : InputFormat::F32;
}

OperandRounding operandModel(const GemmCall& g)
{
    return operandRoundingFor(operandRounding(g), g.bTransposed != nullptr && writesSumsOfC(g));
}

void checksumBOf(const GemmCall& g, cudaStream_t s)
{
    if (multipliesIn16Bit(g)) {  // rounded in registers, B not written (protected_product_16bit.hpp)
        checksumB16Of(g, s);
        return;
    }
    const OperandRounding model = operandModel(g);
    if (model.roundedInRegisters)
        checksumBTransposed(static_cast<float*>(const_cast<void*>(g.b)), g.n, g.q, g.ldb,
                            static_cast<float*>(g.bTransposed), g.n, s);
    else
        checksumB(g.precision, const_cast<void*>(g.b), g.n, g.q, g.ldb, s, model);
}

void productWithChecksums(const GemmCall& g, cublasHandle_t handle, cudaStream_t s, SideLane* lane, AuxView aux,
                          bool inputRounding, bool bFromChecksumBOf)
{
    if (lane && multipliesIn16Bit(g)) {
        // BF16 / FP16: the passes write the 16-bit copies the GEMM reads, so they run before it on s;
        // the CUTLASS 16-bit kernel, where it takes the product, writes C's sums (sumsOfCFromProduct).
        productWithChecksums16(g, handle, s, aux, true);
        return;
    }
    if (lane && roundsOperandsToTf32(g)) {
        // The pass over A rounds A in place: the GEMM must read A after it, so the checksum
        // products run before the GEMM on s (measured no slower for TF32 than beside it:
        // resources/results/README.md), B having been rounded by its checksum pass. The fused
        // kernel reading B^T multiplies the operands rounded (operandModel): the passes round
        // in registers and write nothing; they still run first, the epilogue's sums taking the
        // scratch rows they use.
        const OperandRounding model = bFromChecksumBOf ? operandModel(g) : OperandRounding(operandRounding(g));
        checksumProducts(g.precision, const_cast<void*>(g.a), g.lda, g.b, g.ldb, g.c, g.ldc, g.m, g.n, g.q, aux,
                         g.accumulate, s, inputRounding, model);
        if (writesSumsOfC(g)) {
            // The epilogue writes C's sums into the scratch rows the passes above have finished with;
            // the verification then reads no C (VerifyCall::sumsFromProduct).
            zeroProductSums(aux, g.m, g.q, s);
            // With g.bTransposed, checksumBOf laid B^T out (rounded) in its read of B; a caller that
            // ran checksumB itself had B rounded there, laid K-major here.
            if (g.bTransposed && !bFromChecksumBOf)
                transposeOperand(static_cast<const float*>(g.b), g.n, g.q, g.ldb, static_cast<float*>(g.bTransposed),
                                 g.n, s);
            GemmCall fused = g;
            fused.rowSums = aux.scratch0();
            fused.colSums = aux.scratch1();
            gemm(fused, handle, s);
            return;
        }
        gemm(g, handle, s);
        return;
    }
    if (lane) {
        CUDA_CHECK(cudaEventRecord(lane->fork.get(), s));
        CUDA_CHECK(cudaStreamWaitEvent(lane->side.get(), lane->fork.get(), 0));
        checksumProducts(g.precision, const_cast<void*>(g.a), g.lda, g.b, g.ldb, g.c, g.ldc, g.m, g.n, g.q, aux, g.accumulate,
                         lane->side.get(), inputRounding);
        CUDA_CHECK(cudaEventRecord(lane->join.get(), lane->side.get()));
    }
    gemm(g, handle, s);
    if (lane)
        CUDA_CHECK(cudaStreamWaitEvent(s, lane->join.get(), 0));
}

bool sumsOfCFromProduct(const GemmCall& g)
{
    return multipliesIn16Bit(g) ? writesSumsOfC16(g) : writesSumsOfC(g);
}

ProductSums productSumsOf(AuxView aux, Index rows, Index cols)
{
    return ProductSums{aux.scratch0(), aux.scratch1(), rows, cols};
}

VerifyCall verifyCall(Precision p, void* c, Index rows, Index cols, Index ldc, Index depth, AuxView aux,
                      const RoundoffModel& model, double lambda)
{
    VerifyCall v;
    v.precision = p;
    v.c = c;
    v.rows = rows;
    v.cols = cols;
    v.ldc = ldc;
    v.depth = depth;
    v.aux = aux;
    v.u = model.uAccumulate;
    v.uInput = model.uInput;
    v.truncationSumFactor = truncationSumFactor(model, depth);
    v.lambda = lambda;
    return v;
}

void protectedProduct(const ProtectedBlocks& blocks, cublasHandle_t handle, cudaStream_t s, SideLane& lane)
{
    GemmCall g = blocks.gemm;
    g.accumulate = false;
    checksumBOf(g, s);
    productWithChecksums(g, handle, s, &lane, blocks.aux, blocks.model.uInput > 0, true);
    const bool fusedSums = sumsOfCFromProduct(g);
    if (blocks.fault)
        inject(g.precision, g.c, g.ldc, blocks.fault, 1, blocks.faultBeforeAfter, s,
               fusedSums ? productSumsOf(blocks.aux, g.m, g.q) : ProductSums{});
    VerifyCall v = verifyCall(g.precision, g.c, g.m, g.q, g.ldc, g.n, blocks.aux, blocks.model);
    v.besideGemm = blocks.besideGemm;
    v.sumsFromProduct = fusedSums;
    verify(v, blocks.out, s);
}

bool faultInMainPart(const DeviceInjection* fault, Index rows, Index cols)
{
    return fault != nullptr && fault->row < rows && fault->col < cols;
}

FaultAsComputed faultAsComputed(const DeviceInjection& fault, double* beforeAfter)
{
    FaultAsComputed f;
    f.row = fault.row;
    f.col = fault.col;
    f.bitFlip = fault.bitFlip;
    f.bit = fault.bit;
    f.bit2 = fault.bit2;
    f.delta = fault.delta;
    f.beforeAfter = beforeAfter;
    return f;
}

bool kernelChecksumColumnFits(const GemmCall& g, AuxView aux, const PreparedOperands& prepared)
{
    return prepared.rowScale != nullptr && prepared.rows == g.m && g.m > 0 && g.q > 0 &&
           g.q % kCutlassTf32TileColumns == 0 && g.ldc >= g.q + kChecksumRowsOfBt && aux.ld >= g.q + kChecksumRowsOfBt;
}

bool kernelChecksumColumnPaysHere(Index m, Index q)
{
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return kernelChecksumColumnPaysOn(m, q, cutlassHopperSmCount(device));
}

bool kernelChecksumColumnPays(const GemmCall& g)
{
    return kernelChecksumColumnPaysHere(g.m, g.q);
}

ChecksumColumnBy protectedProductPrepared(const ProtectedBlocks& blocks, const PreparedOperands& prepared,
                                          cublasHandle_t handle, cudaStream_t s, SumsOfC sums, SideLane* tail,
                                          ChecksumColumnBy column)
{
    const bool fromEpilogue = sums == SumsOfC::FromEpilogue;
    GemmCall g = blocks.gemm;
    g.accumulate = false;
    if (g.bTransposed == nullptr || !writesSumsOfC(g))
        throw BackendError("the protected product on prepared operands needs the CUTLASS TF32 kernel reading B^T; it "
                           "does not take " + std::to_string(g.m) + " x " + std::to_string(g.n) + " x " +
                           std::to_string(g.q) + " here");
    const bool fits = fromEpilogue && kernelChecksumColumnFits(g, blocks.aux, prepared);
    if (column == ChecksumColumnBy::Kernel && !fits)
        throw BackendError("the checksum column by the kernel needs operands prepared with A's rows, C's sums from the "
                           "epilogue, C's width a multiple of " + std::to_string(kCutlassTf32TileColumns) +
                           " and room for " + std::to_string(kChecksumRowsOfBt) + " more columns in C and Aux; " +
                           std::to_string(g.m) + " x " + std::to_string(g.n) + " x " + std::to_string(g.q) +
                           " does not have them");
    const bool byKernel = fits && (column == ChecksumColumnBy::Kernel ||
                                   (column == ChecksumColumnBy::Choice && kernelChecksumColumnPays(g)));
    const auto* a = static_cast<const float*>(g.a);
    const auto* bt = static_cast<const float*>(g.bTransposed);
    auto* c = static_cast<float*>(g.c);
    resetPreparedChecksums(c, g.ldc, g.m, g.q, blocks.aux, prepared, s, byKernel);
    if (!tail)
        preparedChecksumDots(a, g.lda, bt, g.n, c, g.ldc, g.m, g.n, g.q, blocks.aux, prepared, s, byKernel);
    else
        CUDA_CHECK(cudaEventRecord(tail->fork.get(), s));
    GemmCall fused = g;
    fused.leavesIdleSms = tail != nullptr && !byKernel;  // the pass starts on them at once
    if (fromEpilogue) {
        fused.rowSums = blocks.aux.scratch0();
        fused.colSums = blocks.aux.scratch1();
    }
    if (byKernel) {
        // B^T's checksum rows make C's columns q .. q + 3 (A r_B in parts, in C's padding); their row
        // sums, kept apart from C's, are the checksum column.
        fused.q = g.q + kChecksumRowsOfBt;
        fused.rowSumSplit = RowSumSplit{g.q, c + g.q, g.ldc};
    }
    const bool faultInRowSums = tail && fromEpilogue && faultInMainPart(blocks.fault, g.m, g.q);
    if (faultInRowSums)
        fused.fault = faultAsComputed(*blocks.fault, blocks.faultBeforeAfter);
    gemm(fused, handle, s);
    if (tail) {
        // Launched after the GEMM: its blocks wait for the SMs the GEMM's CTAs leave. It writes C's
        // checksum row (and column) and the scales, which the GEMM does not touch; a fault in those
        // cells and the verification come after the join.
        CUDA_CHECK(cudaStreamWaitEvent(tail->side.get(), tail->fork.get(), 0));
        preparedChecksumDots(a, g.lda, bt, g.n, c, g.ldc, g.m, g.n, g.q, blocks.aux, prepared, tail->side.get(),
                             byKernel);
        CUDA_CHECK(cudaEventRecord(tail->join.get(), tail->side.get()));
        CUDA_CHECK(cudaStreamWaitEvent(s, tail->join.get(), 0));
    }
    if (blocks.fault && !faultInRowSums)
        inject(g.precision, g.c, g.ldc, blocks.fault, 1, blocks.faultBeforeAfter, s,
               fromEpilogue ? productSumsOf(blocks.aux, g.m, g.q) : ProductSums{});
    VerifyCall v = verifyCall(g.precision, g.c, g.m, g.q, g.ldc, g.n, blocks.aux, blocks.model);
    v.sumsFromProduct = fromEpilogue;
    verify(v, blocks.out, s);
    return byKernel ? ChecksumColumnBy::Kernel : ChecksumColumnBy::Pass;
}

}  // namespace gigacheck::cuda
