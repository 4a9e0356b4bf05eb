// The strassen family's CPU op table: in-place sums of blocks, products with OpenBLAS (beta = 1
// into every target, alpha = its sign), the workspace scatter, faults, and the host copies. The
// CPU executor (core/cpu) runs these on its compute and copy threads.
#include "families/strassen/ops.hpp"

#include "families/strassen/inputs.hpp"

#include <cblas.h>

#include <cstring>

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

void product(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) {
        const OperandRegion& ra = op.operands[0];
        const OperandRegion& rb = op.operands[1];
        for (std::size_t i = 2; i < op.operands.size(); ++i) {
            const OperandRegion& t = op.operands[i];
            const bool workspace = t.access == Access::Write;
            gemm(at<T>(c, ra), int(ldOf(c, ra.slot)), at<T>(c, rb), int(ldOf(c, rb.slot)), at<T>(c, t),
                 int(ldOf(c, t.slot)), int(ra.rows), int(rb.cols), int(ra.cols), workspace ? 1.0 : t.coefficient,
                 workspace ? 0.0 : 1.0);
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

void inject(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    inPrecision(c, [&]<class T>(T) { *at<T>(c, op.operands[0]) += T(op.operands[0].coefficient); });
}

}  // namespace

const cpu::OpTable& cpuOps()
{
    static const cpu::OpTable table{
        nullptr,
        {{kLoad, load},
         {kRestore, load},
         {kAdd, add},
         {kProduct, product},
         {kScatter, scatter},
         {kInject, inject},
         {kCopy, copy},
         {kStore, store}},
    };
    return table;
}

}  // namespace gigacheck::strassen
