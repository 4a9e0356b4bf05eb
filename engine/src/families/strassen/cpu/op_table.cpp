// The strassen family's CPU op table: in-place sums of blocks, products with OpenBLAS (beta = 1
// into every target, alpha = its sign; TF32 leaves emulated on rounded copies of the operands), the workspace scatter, faults, and the host copies. The
// CPU executor (core/cpu) runs these on its compute and copy threads.
#include "families/strassen/ops.hpp"

#include "families/strassen/injection_event.hpp"
#include "families/strassen/inputs.hpp"
#include "families/strassen/leaf_check.hpp"
#include "gigacheck/tf32.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace gigacheck::strassen {

namespace {

template <class T> T* at(const cpu::OpContext& c, const OperandRegion& r)
{
    const std::int64_t ld = c.schedule.buffers[std::size_t(r.slot)].ld;
    return static_cast<T*>(c.buffers[std::size_t(r.slot)]) + r.row * ld + r.col;
}
std::int64_t ldOf(const cpu::OpContext& c, int slot) { return c.schedule.buffers[std::size_t(slot)].ld; }

void gemm(const float* a, int lda, const float* b, int ldb, float* c, int ldc, int m, int n, int k, double alpha,
          double beta)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, float(alpha), a, lda, b, ldb, float(beta), c, ldc);
}
void gemm(const double* a, int lda, const double* b, int ldb, double* c, int ldc, int m, int n, int k, double alpha,
          double beta)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class Body> void inPrecision(const cpu::OpContext& c, Body&& body)
{
    if (inputsOf(c.request).precision == Precision::F32)
        body(float{});
    else
        body(double{});
}

HostMatrix& hostOf(const cpu::OpContext& c, Operand m)
{
    const Inputs& in = inputsOf(c.request);
    return m == Operand::A ? *in.a : m == Operand::B ? *in.b : *in.c;
}

void load(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const HostMatrix& h = hostOf(c, op.host.matrix);
    std::memcpy(c.buffers[std::size_t(op.operands[0].slot)], h.data(), h.bytes());
}

void store(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    HostMatrix& h = hostOf(c, op.host.matrix);
    std::memcpy(h.data(), c.buffers[std::size_t(op.operands[0].slot)], h.bytes());
}

void add(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        const OperandRegion& d = op.operands[0];
        const OperandRegion& s = op.operands[1];
        const std::int64_t ld = ldOf(c, d.slot);
        T* dst = at<T>(c, d);
        const T* src = at<T>(c, s);
        const T k = T(s.coefficient);
        for (std::int64_t r = 0; r < d.rows; ++r) {
            T* x = dst + r * ld;
            const T* y = src + r * ld;
            for (std::int64_t j = 0; j < d.cols; ++j)
                x[j] += k * y[j];
        }
    });
}

// An operand block rounded to TF32 (gigacheck/tf32.hpp), as a TF32 tensor-core leaf sees it, in a
// scratch copy: A and B themselves must stay as they are, the in-place sums and their recovery
// work on the FP32 values. The CPU then multiplies exact TF32 values in FP32. Rounded to nearest
// for every TF32 leaf: cuBLAS TF32 and the CUTLASS kernel of --leaf cutlass (measured) both do.
const float* roundedToTf32(const cpu::OpContext& c, const OperandRegion& r, std::vector<float>& scratch)
{
    scratch.resize(std::size_t(r.rows * r.cols));
    const float* x = at<float>(c, r);
    const std::int64_t ld = ldOf(c, r.slot);
    for (std::int64_t i = 0; i < r.rows; ++i)
        for (std::int64_t j = 0; j < r.cols; ++j)
            scratch[std::size_t(i * r.cols + j)] = roundToTf32(x[i * ld + j]);
    return scratch.data();
}

void product(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        const OperandRegion& ra = op.operands[0];
        const OperandRegion& rb = op.operands[1];
        const T* a = at<T>(c, ra);
        const T* b = at<T>(c, rb);
        int lda = int(ldOf(c, ra.slot)), ldb = int(ldOf(c, rb.slot));
        // --type tf32 on the CPU: TF32 leaves emulated (operands rounded to nearest, FP32 products);
        // --leaf cutlass counts its leaf GEMMs as emulated CUTLASS calls.
        if constexpr (std::is_same_v<T, float>)
            if (inputsOf(c.request).tf32) {
                thread_local std::vector<float> roundedA, roundedB;
                a = roundedToTf32(c, ra, roundedA);
                b = roundedToTf32(c, rb, roundedB);
                lda = int(ra.cols);
                ldb = int(rb.cols);
            }
        if (Inputs::LeafGemmCount* count = inputsOf(c.request).leafGemms; count && inputsOf(c.request).cutlassLeaves)
            count->cutlass += int(op.operands.size()) - 2;
        for (std::size_t i = 2; i < op.operands.size(); ++i) {
            const OperandRegion& t = op.operands[i];
            const bool workspace = t.access == Access::Write;
            gemm(a, lda, b, ldb, at<T>(c, t), int(ldOf(c, t.slot)), int(ra.rows), int(rb.cols), int(ra.cols),
                 workspace ? 1.0 : t.coefficient, workspace ? 0.0 : 1.0);
        }
    });
}

void scatter(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        const OperandRegion& m = op.operands[0];
        const T* src = at<T>(c, m);
        const std::int64_t lds = ldOf(c, m.slot);
        for (std::size_t i = 1; i < op.operands.size(); ++i) {
            const OperandRegion& t = op.operands[i];
            T* dst = at<T>(c, t);
            const std::int64_t ld = ldOf(c, t.slot);
            const T k = T(t.coefficient);
            for (std::int64_t r = 0; r < m.rows; ++r)
                for (std::int64_t j = 0; j < m.cols; ++j)
                    dst[r * ld + j] += k * src[r * lds + j];
        }
    });
}

void copy(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        const OperandRegion& s = op.operands[0];
        const OperandRegion& d = op.operands[1];
        for (std::int64_t r = 0; r < s.rows; ++r)
            std::memcpy(at<T>(c, d) + r * ldOf(c, d.slot), at<T>(c, s) + r * ldOf(c, s.slot), std::size_t(s.cols) * sizeof(T));
    });
}

void zero(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        const OperandRegion& d = op.operands[0];
        for (std::int64_t r = 0; r < d.rows; ++r)
            std::fill_n(at<T>(c, d) + r * ldOf(c, d.slot), d.cols, T(0));
    });
}

// Leaf checks (leaf_check.hpp). The aux slot as doubles and its layout.
double* leafAux(const cpu::OpContext& c, const Operation& op) { return static_cast<double*>(c.buffers[std::size_t(op.operands.back().slot)]); }
LeafCheckLayout leafLayout(const cpu::OpContext& c, const Operation& op) { return {ldOf(c, op.operands.back().slot) / 2}; }

// sum and abs sum of every column of a region, optionally weighted by w / |w| per row.
template <class T>
void columnSums(const cpu::OpContext& c, const OperandRegion& r, const double* w, const double* wAbs, double* sum, double* abs)
{
    const T* x = at<T>(c, r);
    const std::int64_t ld = ldOf(c, r.slot);
    std::fill(sum, sum + r.cols, 0.0);
    std::fill(abs, abs + r.cols, 0.0);
    for (std::int64_t i = 0; i < r.rows; ++i) {
        const double wi = w ? w[i] : 1.0, wa = wAbs ? wAbs[i] : 1.0;
        for (std::int64_t j = 0; j < r.cols; ++j) {
            const double v = double(x[i * ld + j]);
            sum[j] += wi * v;
            abs[j] += wa * std::fabs(v);
        }
    }
}

void leafSums(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        const LeafCheckLayout l = leafLayout(c, op);
        double* aux = leafAux(c, op);
        for (std::size_t t = 0; t + 1 < op.operands.size(); ++t)
            columnSums<T>(c, op.operands[t], nullptr, nullptr, aux + l.before(int(t)), aux + l.before(int(t)) + l.half);
    });
}

void leafVerify(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        const LeafCheckLayout l = leafLayout(c, op);
        double* aux = leafAux(c, op);
        const OperandRegion& ra = op.operands[0];
        const OperandRegion& rb = op.operands[1];
        // w = the column sums of A_j (its checksum row), then w B_k and |w| |B_k|.
        double* w = aux + l.weights();
        columnSums<T>(c, ra, nullptr, nullptr, w, w + l.half);
        double* e = aux + l.expected();
        columnSums<T>(c, rb, w, w + l.half, e, e + l.half);
        const Inputs& in = inputsOf(c.request);
        const double u = std::numeric_limits<T>::epsilon() / 2, uIn = leafOperandRoundoff(in.tf32);
        double worst = 0, code = 0;
        for (std::size_t t = 2; t + 1 < op.operands.size(); ++t) {
            const OperandRegion& target = op.operands[t];
            double* after = aux + l.after();
            columnSums<T>(c, target, nullptr, nullptr, after, after + l.half);
            const double* before = aux + l.before(int(t - 2));
            for (std::int64_t j = 0; j < target.cols; ++j) {
                const double ratio = leafColumnRatio(before[j], before[l.half + j], after[j], after[l.half + j], e[j],
                                                     e[l.half + j], target.coefficient, double(ra.cols), u, uIn);
                worst = std::max(worst, ratio);
                if (ratio > 1)
                    code = mergeLeafColumnCode(code, double(j + 1));
            }
        }
        aux[l.results() + op.aux] = worst;
        aux[l.results() + l.half + op.aux] = code;
    });
}

void storeLeafChecks(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const LeafCheckLayout l = leafLayout(c, op);
    const double* aux = static_cast<const double*>(c.buffers[std::size_t(op.operands[0].slot)]);
    if (std::vector<double>* out = inputsOf(c.request).leafResults)
        out->assign(aux + l.results(), aux + l.results() + 2 * l.half);  // ratios, then column codes
}

void inject(cpu::OpContext& c, const Operation& op, OpOutcome& outcome)
{
    const Injection how = injectionOf(c.request, op);  // a delta, or a bit flip as run's faults flip
    double before = 0, after = 0;
    inPrecision(c, [&]<class T>(T) {
        T& cell = *at<T>(c, op.operands[0]);
        before = double(cell);
        cell = T(applyFault(how, double(cell), inputsOf(c.request).precision));
        after = double(cell);
    });
    if (const std::optional<InjectEvent> event = injectEventOf(c.request, op, before, after))
        outcome.injections.push_back(*event);
}

}  // namespace

const cpu::OpTable& cpuOps()
{
    static const cpu::OpTable table{
        nullptr,
        opEntries<cpu::OpEntry>(OpImplementations<cpu::OpFunction>{
            .load = load, .add = add, .product = product, .scatter = scatter, .inject = inject, .copy = copy,
            .zero = zero, .store = store, .leafSums = leafSums, .leafVerify = leafVerify,
            .storeLeafChecks = storeLeafChecks}),
    };
    return table;
}

}  // namespace gigacheck::strassen
