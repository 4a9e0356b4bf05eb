// See host_checked_ops.hpp.
#include "families/online_abft/cuda/host_checked_ops.hpp"

#include "core/cuda/check.hpp"
#include "families/online_abft/cuda/weighted_sums.hpp"
#include "gigacheck/weighted_checksums.hpp"

#include <algorithm>

namespace gigacheck::online_abft::device_ops {

namespace {

double* auxRow(const gigacheck::cuda::OpContext& c, std::int64_t row)
{
    return static_cast<double*>(buf(c, kSlotAux)) + row * ld(c, kSlotAux);
}
const double* deviceWeights(const gigacheck::cuda::OpContext& c) { return auxRow(c, 4); }
double* rowResiduals(const gigacheck::cuda::OpContext& c) { return auxRow(c, 4 + inputsOf(c.request).checksums); }
double* colResiduals(const gigacheck::cuda::OpContext& c) { return auxRow(c, 4 + 2 * inputsOf(c.request).checksums); }

// A host copy of a whole buffer slot (rows x ld elements), made on stream s and waited for.
template <class T> T* mirror(const gigacheck::cuda::OpContext& c, int slot, PinnedBuffer& into, cudaStream_t s)
{
    const BufferSpec& b = bufferOf(c.schedule, slot);
    const std::size_t bytes = std::size_t(b.rows) * std::size_t(b.ld) * sizeof(T);
    if (into.bytes() < bytes)
        into = PinnedBuffer(bytes);
    CUDA_CHECK(cudaMemcpyAsync(into.get(), buf(c, slot), bytes, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    return into.as<T>();
}

// Element (row, col) of a host copy back to its slot on the device (ordered on s; the pinned copy
// stays as it is until the next host step, which waits for s first).
template <class T>
void writeBack(const gigacheck::cuda::OpContext& c, int slot, const T* host, std::int64_t row, std::int64_t col,
               cudaStream_t s)
{
    const std::int64_t l = ld(c, slot);
    CUDA_CHECK(cudaMemcpyAsync(static_cast<T*>(buf(c, slot)) + row * l + col, host + row * l + col, sizeof(T),
                               cudaMemcpyHostToDevice, s));
}
// Rows [row, row + n) (every column of the slot) / columns [col, col + n) (every row) of a host copy
// back to the device: a recomputed line of C, or its rebuilt checksum rows and columns.
template <class T>
void writeBackRows(const gigacheck::cuda::OpContext& c, int slot, const T* host, std::int64_t row, std::int64_t n,
                   cudaStream_t s)
{
    const std::int64_t l = ld(c, slot);
    CUDA_CHECK(cudaMemcpyAsync(static_cast<T*>(buf(c, slot)) + row * l, host + row * l,
                               std::size_t(n) * std::size_t(l) * sizeof(T), cudaMemcpyHostToDevice, s));
}
template <class T>
void writeBackCols(const gigacheck::cuda::OpContext& c, int slot, const T* host, std::int64_t col, std::int64_t n,
                   cudaStream_t s)
{
    const std::size_t pitch = std::size_t(ld(c, slot)) * sizeof(T);
    CUDA_CHECK(cudaMemcpy2DAsync(static_cast<T*>(buf(c, slot)) + col, pitch, host + col, pitch, std::size_t(n) * sizeof(T),
                                 std::size_t(bufferOf(c.schedule, slot).rows), cudaMemcpyHostToDevice, s));
}

// Encoding: the faults planned before the checksums, the inputs against their sums taken where
// they were made (the device's sums in the host's order: equal bits unless an element changed;
// then the host locates and restores with the CPU's code on a copy), the K weighted checksums of
// A and B, and the plain sums kept for locating a later fault.
template <class T> void hostCheckedEncodeOf(const gigacheck::cuda::OpContext& c, cudaStream_t s)
{
    OnlineInputs& in = inputsOf(c.request);
    HostSide& h = hostOf(c);
    const Shape& sh = in.shape;
    const int k = in.checksums;
    const std::int64_t auxLd = ld(c, kSlotAux), lda = ld(c, kSlotA), ldb = ld(c, kSlotB);
    CUDA_CHECK(cudaMemcpyAsync(auxRow(c, 4), h.weights.get(), h.weights.bytes(), cudaMemcpyHostToDevice, s));

    const std::vector<std::size_t> early = faultsAfter(in, -1);
    for (std::size_t n = 0; n < early.size(); ++n) {
        const PlannedFault& f = in.faults[early[n]];
        DeviceInjection d;
        d.row = f.at.row;
        d.col = f.at.col;
        d.bitFlip = f.model == FaultModel::BitFlip ? 1 : 0;
        d.bit = f.bit;
        d.bit2 = f.bit2;
        d.delta = f.delta;
        const int slot = f.at.target == OnlineTarget::B ? kSlotB : kSlotA;
        gigacheck::cuda::inject(in.precision, buf(c, slot), ld(c, slot), &d, 1, h.encodeOut.as<double>() + 2 * n, s);
    }

    // Input sums: A's rows and columns, then B's, through the residual rows of aux.
    double* scratch = rowResiduals(c);
    double* sums = h.sums.as<double>();
    double* rowsA = sums;
    double* colsA = rowsA + sh.m;
    double* rowsB = colsA + sh.n;
    double* colsB = rowsB + sh.n;
    cuda::inputSums(in.precision, buf(c, kSlotA), sh.m, sh.n, lda, scratch, scratch + sh.m, s);
    CUDA_CHECK(cudaMemcpyAsync(rowsA, scratch, sizeof(double) * std::size_t(sh.m + sh.n), cudaMemcpyDeviceToHost, s));
    cuda::inputSums(in.precision, buf(c, kSlotB), sh.n, sh.q, ldb, scratch, scratch + sh.n, s);
    CUDA_CHECK(cudaMemcpyAsync(rowsB, scratch, sizeof(double) * std::size_t(sh.n + sh.q), cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    for (std::size_t n = 0; n < early.size(); ++n) {
        PlannedFault& f = in.faults[early[n]];
        f.before = h.encodeOut.as<double>()[2 * n];
        f.after = h.encodeOut.as<double>()[2 * n + 1];
        f.applied = true;
    }

    const auto vec = [](const double* p, std::int64_t n) { return std::vector<double>(p, p + n); };
    const auto checkInput = [&](int slot, PinnedBuffer& into, std::int64_t rows, std::int64_t cols, std::int64_t l,
                                OnlineTarget operand, const double* devRows, const double* devCols,
                                const std::vector<double>& goodRows, const std::vector<double>& goodCols,
                                std::vector<double>& keptRows, std::vector<double>& keptCols) {
        keptRows = vec(devRows, rows);
        keptCols = vec(devCols, cols);
        if (goodRows.empty() || (keptRows == goodRows && keptCols == goodCols))
            return;
        // Something differs: the CPU's location and restore on a host copy, the restored
        // elements back to the device, and the sums kept from the copy as it now is.
        T* x = mirror<T>(c, slot, into, s);
        for (const Located& l2 : checkInputAtEncoding(in, x, rows, cols, l, operand, goodRows, goodCols))
            writeBack(c, slot, x, l2.row, l2.col, s);
        plainSums(x, rows, cols, l, keptRows, keptCols);
    };
    checkInput(kSlotA, h.mirrorA, sh.m, sh.n, lda, OnlineTarget::A, rowsA, colsA, in.hostRowSumsA, in.hostColSumsA,
               h.check.rowSumsA, h.check.colSumsA);
    checkInput(kSlotB, h.mirrorB, sh.n, sh.q, ldb, OnlineTarget::B, rowsB, colsB, in.hostRowSumsB, in.hostColSumsB,
               h.check.rowSumsB, h.check.colSumsB);

    cuda::weightedChecksumsA(in.precision, buf(c, kSlotA), sh.m, sh.n, lda, k, deviceWeights(c), auxLd, s);
    cuda::weightedChecksumsB(in.precision, buf(c, kSlotB), sh.n, sh.q, ldb, k, deviceWeights(c), auxLd, s);
}

// A check: the device's residuals and bound to the host (K (m + q + 2K) + m + q + 2K doubles),
// the CPU's thresholds and rule on them; when something mismatches, C_f to the host and the CPU's
// check on it (and on A_c / B_r for an input fault), what it changed back to the device.
template <class T> void hostCheckedCheckOf(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    OnlineInputs& in = inputsOf(c.request);
    HostSide& h = hostOf(c);
    const Shape& sh = in.shape;
    const int k = in.checksums;
    const std::int64_t augRows = sh.m + k, augCols = sh.q + k;
    cuda::weightedResiduals(in.precision, buf(c, kSlotC), sh.m, sh.q, ld(c, kSlotC), k, deviceWeights(c),
                            ld(c, kSlotAux), rowResiduals(c), colResiduals(c), s);
    double* rowRes = h.sums.as<double>();
    double* colRes = rowRes + augRows * k;
    double* rowScale = colRes + augCols * k;
    double* colScale = rowScale + augRows;
    const auto d2h = [&](double* to, const double* from, std::int64_t n) {
        CUDA_CHECK(cudaMemcpyAsync(to, from, sizeof(double) * std::size_t(n), cudaMemcpyDeviceToHost, s));
    };
    d2h(rowRes, rowResiduals(c), augRows * k);
    d2h(colRes, colResiduals(c), augCols * k);
    d2h(rowScale, auxRow(c, 0), augRows);
    d2h(colScale, auxRow(c, 1), augCols);
    CUDA_CHECK(cudaStreamSynchronize(s));

    CheckState& st = h.check;
    if (k == 1) {
        st.plainBound.rowScale.assign(rowScale, rowScale + augRows);
        st.plainBound.colScale.assign(colScale, colScale + augCols);
        st.plainBound.depth = st.consumed;
    } else {
        st.weightedBound.rowScale.assign(rowScale, rowScale + augRows);
        st.weightedBound.colScale.assign(colScale, colScale + augCols);
        st.weightedBound.depth = st.consumed;
    }
    const Thresholds thresholds = checkThresholds(in, st);
    ResidualVerdict v = classifyResiduals(std::vector<double>(rowRes, rowRes + augRows * k),
                                          std::vector<double>(colRes, colRes + augCols * k), k, thresholds);
    VerifyResult& out = h.results[std::size_t(stateOf(c).slotOf[std::size_t(op.id)])];
    // Clean with an overflowed threshold proves nothing: the host check looks at the operands.
    if (v.clean && thresholdsFinite(thresholds)) {
        out = std::move(v.result);
        return;
    }

    HostOperands<T> ops;
    ops.c = mirror<T>(c, kSlotC, h.mirrorC, s);
    ops.ldc = ld(c, kSlotC);
    T* a = nullptr;
    T* b = nullptr;
    ops.a = [&] { return a ? a : (a = mirror<T>(c, kSlotA, h.mirrorA, s)); };
    ops.b = [&] { return b ? b : (b = mirror<T>(c, kSlotB, h.mirrorB, s)); };
    ops.lda = ld(c, kSlotA);
    ops.ldb = ld(c, kSlotB);
    const std::size_t reportsBefore = in.inputFaults.size();
    out = checkOnHost(in, st, ops, op.block.k);
    bool operandRestored = false;

    // What the host changed goes back, and only that: the restored input elements and the line of
    // C each repair computed again (a row of C_f for A, a column for B), the checksum rows and
    // columns when they were rebuilt, and the corrected cells (their values as the host copy
    // holds them now).
    for (std::size_t x = reportsBefore; x < in.inputFaults.size(); ++x) {
        const InputFaultReport& f = in.inputFaults[x];
        const bool inA = f.operand == OnlineTarget::A;
        if (f.row >= 0 && (inA ? a : b)) {
            writeBack(c, inA ? kSlotA : kSlotB, inA ? a : b, f.row, f.col, s);
            operandRestored = true;
        }
        if (f.row >= 0 && f.cellsOff > 0) {
            if (inA)
                writeBackRows(c, kSlotC, ops.c, f.row, 1, s);
            else
                writeBackCols(c, kSlotC, ops.c, f.col, 1, s);
        }
    }
    if (out.checksumsRecomputed) {
        writeBackRows(c, kSlotC, ops.c, sh.m, k, s);
        writeBackCols(c, kSlotC, ops.c, sh.q, k, s);
    }
    for (const Correction& x : out.corrections)
        writeBack(c, kSlotC, ops.c, x.row, x.col, s);
    // The device's bound taken again from the restored operands, panel by panel as the steps took
    // it (the host did the same for this check): later checks see finite thresholds again.
    if (operandRestored) {
        CUDA_CHECK(cudaMemsetAsync(auxRow(c, 0), 0, 2 * sizeof(double) * std::size_t(ld(c, kSlotAux)), s));
        for (std::int64_t offset = 0; offset < st.consumed; offset += in.panel)
            cuda::weightedBound(in.precision, at(c, kSlotA, 0, offset), ld(c, kSlotA), at(c, kSlotB, offset, 0),
                                ld(c, kSlotB), sh.m + k, std::min(in.panel, st.consumed - offset), sh.q + k,
                                auxRow(c, 0), auxRow(c, 1), auxRow(c, 2), s);
    }
}

}  // namespace

// A panel product on the augmented panels (the checksum rows of A and columns of B ride along, as
// on the CPU), then its round-off bound.
void hostCheckedPanelProduct(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OnlineInputs& in = inputsOf(c.request);
    HostSide& h = hostOf(c);
    const Shape& sh = in.shape;
    const std::int64_t k = in.checksums, offset = std::int64_t(op.block.k) * in.panel;
    GemmCall g;
    g.variant = in.gemm;
    g.precision = in.precision;
    g.m = sh.m + k;
    g.n = op.depth;
    g.q = sh.q + k;
    g.a = at(c, kSlotA, 0, offset);
    g.lda = ld(c, kSlotA);
    g.b = at(c, kSlotB, offset, 0);
    g.ldb = ld(c, kSlotB);
    g.c = buf(c, kSlotC);
    g.ldc = ld(c, kSlotC);
    g.accumulate = op.accumulate;
    gigacheck::cuda::gemm(g, handleOf(c), s);
    if (!op.accumulate)
        CUDA_CHECK(cudaMemsetAsync(auxRow(c, 0), 0, 2 * sizeof(double) * std::size_t(ld(c, kSlotAux)), s));
    cuda::weightedBound(in.precision, g.a, g.lda, g.b, g.ldb, sh.m + k, op.depth, sh.q + k, auxRow(c, 0), auxRow(c, 1),
                        auxRow(c, 2), s);
    h.check.consumed = offset + op.depth;
}

void setUpHostChecked(State& state, const gigacheck::cuda::OpContext& c, std::size_t checks)
{
    const OnlineInputs& in = inputsOf(c.request);
    HostSide& h = state.host;
    const Shape& s = in.shape;
    const std::int64_t k = in.checksums, auxLd = ld(c, kSlotAux);
    if (bufferOf(c.schedule, kSlotAux).rows < auxRows(in) || auxLd < std::max({s.m, s.q, s.n}) + k + 1)
        throw BackendError("online ABFT on the GPU: the plan's aux buffer is too small for the host-checked path");
    h.on = true;
    h.check.reset(s, int(k));
    h.weights = PinnedBuffer(std::size_t(k * auxLd) * sizeof(double));
    for (int t = 0; t < int(k); ++t)
        for (std::int64_t x = 0; x < auxLd; ++x)
            h.weights.as<double>()[t * auxLd + x] = checksumWeight(t, x);
    const std::int64_t inputSums = s.m + 2 * s.n + s.q;
    const std::int64_t checkSums = (s.m + k + s.q + k) * (k + 1);
    h.sums = PinnedBuffer(std::size_t(std::max(inputSums, checkSums)) * sizeof(double));
    h.encodeOut = PinnedBuffer(std::max<std::size_t>(1, faultsAfter(in, -1).size()) * 2 * sizeof(double));
    h.results.resize(std::max<std::size_t>(1, checks));
}

void hostCheckedEncode(const gigacheck::cuda::OpContext& c, cudaStream_t s)
{
    if (inputsOf(c.request).precision == Precision::F64)
        hostCheckedEncodeOf<double>(c, s);
    else
        hostCheckedEncodeOf<float>(c, s);
}

void hostCheckedCheck(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    if (inputsOf(c.request).precision == Precision::F64)
        hostCheckedCheckOf<double>(c, op, s);
    else
        hostCheckedCheckOf<float>(c, op, s);
}

}  // namespace gigacheck::online_abft::device_ops
