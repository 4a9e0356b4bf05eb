// The strassen family's CUDA op table: block sums and scatters as kernels (cuda/kernels.cu),
// products as cuBLAS GEMMs on sub-blocks (leading dimensions of the whole matrices, beta = 1 into
// each target with alpha = its sign; beta = 0 into the workspace) or, with --leaf cutlass, as calls
// of the CUTLASS TF32 kernel on the same sub-blocks, copies of whole matrices.
// The run state holds one cuBLAS handle per GPU of the run (a handle belongs to the device current
// when it was made), each with no workspace of its own (cublasSetWorkspace(0)): the family
// promises no device memory beyond its schedule's buffers, and the cap's pool counts only those.
// Copies between devices (the multi-device decomposition) go through core's copyBetweenDevices:
// peer copies between distinct GPUs, device-to-device copies between logical devices of one GPU.
#include "families/strassen/ops.hpp"

#include "families/strassen/injection_event.hpp"
#include "families/strassen/inputs.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/device_copy.hpp"
#include "core/cuda/op_table.hpp"
#include "core/cuda/resources.hpp"
#include "families/strassen/cuda/kernels.hpp"
#include "families/strassen/cuda/multi_target_gemm.hpp"
#include "families/strassen/leaf_check.hpp"
#include "gemm/cutlass/cutlass_tf32_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace gigacheck::strassen {

namespace {

struct State final : cuda::RunState {
    std::vector<int> gpus;  // the CUDA ordinal of each handle
    std::vector<std::unique_ptr<cuda::CublasHandle>> handles;
    bool tf32 = false;
    // --leaf cutlass: why the CUTLASS kernel failed on a call it fits (no Hopper device, a launch
    // error); later leaves go straight to cuBLAS TF32 instead of trying again.
    std::string cutlassUnavailable;
    // Each kInject's cell before and after it (two 8-byte slots, the element in the first bytes),
    // copied in its stream's order and read by reportInject once the op is done.
    cuda::PinnedBuffer injectOut;
    std::vector<int> injectSlotOf;  // by op id; -1 for the other ops

    cublasHandle_t handleFor(int gpu) const
    {
        for (std::size_t i = 0; i < gpus.size(); ++i)
            if (gpus[i] == gpu)
                return handles[i]->get();
        throw BackendError("strassen: no cuBLAS handle for CUDA device " + std::to_string(gpu));
    }
};

State& stateOf(const cuda::OpContext& c) { return *static_cast<State*>(c.state); }
std::size_t elemSize(const cuda::OpContext& c) { return inputsOf(c.request).precision == Precision::F64 ? 8 : 4; }
std::int64_t ldOf(const cuda::OpContext& c, int slot) { return c.schedule.buffers[std::size_t(slot)].ld; }
template <class T> T* at(const cuda::OpContext& c, const OperandRegion& r)
{
    return static_cast<T*>(c.buffers[std::size_t(r.slot)]) + r.row * ldOf(c, r.slot) + r.col;
}

// One handle per distinct GPU, each made with its GPU current; device 0's GPU is current again
// on return (the executor expects it).
std::unique_ptr<cuda::RunState> makeState(const cuda::OpContext& c)
{
    auto state = std::make_unique<State>();
    state->tf32 = inputsOf(c.request).tf32;
    for (int gpu : c.ordinals) {
        if (std::find(state->gpus.begin(), state->gpus.end(), gpu) != state->gpus.end())
            continue;
        CUDA_CHECK(cudaSetDevice(gpu));
        auto handle = std::make_unique<cuda::CublasHandle>();
        CUBLAS_CHECK(cublasSetWorkspace(handle->get(), nullptr, 0));
        CUBLAS_CHECK(cublasSetMathMode(handle->get(), state->tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
        state->gpus.push_back(gpu);
        state->handles.push_back(std::move(handle));
    }
    CUDA_CHECK(cudaSetDevice(c.ordinals.front()));
    state->injectSlotOf.assign(c.schedule.ops.size(), -1);
    int injects = 0;
    for (const Operation& op : c.schedule.ops)
        if (op.kind == kInject)
            state->injectSlotOf[std::size_t(op.id)] = injects++;
    if (injects > 0)
        state->injectOut = cuda::PinnedBuffer(std::size_t(injects) * 2 * sizeof(double));
    return state;
}

HostMatrix& hostOf(const cuda::OpContext& c, Operand m)
{
    const Inputs& in = inputsOf(c.request);
    return m == Operand::A ? *in.a : m == Operand::B ? *in.b : *in.c;
}

void issueLoad(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const HostMatrix& h = hostOf(c, op.host.matrix);
    CUDA_CHECK(cudaMemcpyAsync(c.buffers[std::size_t(op.operands[0].slot)], h.data(), h.bytes(), cudaMemcpyHostToDevice, s));
}

void issueStore(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    HostMatrix& h = hostOf(c, op.host.matrix);
    CUDA_CHECK(cudaMemcpyAsync(h.data(), c.buffers[std::size_t(op.operands[0].slot)], h.bytes(), cudaMemcpyDeviceToHost, s));
}

void issueAdd(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OperandRegion& d = op.operands[0];
    const OperandRegion& src = op.operands[1];
    if (inputsOf(c.request).precision == Precision::F64)
        device::launchAdd<double>(at<double>(c, d), at<double>(c, src), ldOf(c, d.slot), ldOf(c, src.slot), d.rows, d.cols,
                                  src.coefficient, s);
    else
        device::launchAdd<float>(at<float>(c, d), at<float>(c, src), ldOf(c, d.slot), ldOf(c, src.slot), d.rows, d.cols,
                                 float(src.coefficient), s);
}

// Row-major C (m x q) += alpha A (m x n) B (n x q) is column-major C^T = B^T A^T: cuBLAS gets B first.
void gemm(const cuda::OpContext& c, int device, const OperandRegion& ra, const OperandRegion& rb,
          const OperandRegion& rc, double alpha, double beta, cudaStream_t s)
{
    cublasHandle_t h = stateOf(c).handleFor(c.ordinals.at(std::size_t(device)));
    CUBLAS_CHECK(cublasSetStream(h, s));
    const int m = int(ra.rows), n = int(ra.cols), q = int(rb.cols);
    if (inputsOf(c.request).precision == Precision::F64) {
        CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, q, m, n, &alpha, at<double>(c, rb), int(ldOf(c, rb.slot)),
                                 at<double>(c, ra), int(ldOf(c, ra.slot)), &beta, at<double>(c, rc), int(ldOf(c, rc.slot))));
    } else {
        const float fa = float(alpha), fb = float(beta);
        CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, q, m, n, &fa, at<float>(c, rb), int(ldOf(c, rb.slot)),
                                 at<float>(c, ra), int(ldOf(c, ra.slot)), &fb, at<float>(c, rc), int(ldOf(c, rc.slot))));
    }
}

// The seed's primitive: one kernel, the product added into every target (--leaf kernel).
template <class T> void multiTarget(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    device::Targets<T> targets;
    for (std::size_t i = 2; i < op.operands.size(); ++i) {
        const OperandRegion& t = op.operands[i];
        targets.c[targets.count] = at<T>(c, t);
        targets.ldc[targets.count] = ldOf(c, t.slot);
        targets.sign[targets.count] = T(t.coefficient);
        ++targets.count;
    }
    const OperandRegion& ra = op.operands[0];
    const OperandRegion& rb = op.operands[1];
    device::launchMultiTargetGemm<T>(ra.rows, ra.cols, rb.cols, at<T>(c, ra), ldOf(c, ra.slot), at<T>(c, rb),
                                     ldOf(c, rb.slot), targets, s);
}

// --leaf cutlass: C (+)= sign A B on the CUTLASS TF32 kernel, which has no alpha: a target taking
// -A B is negated, accumulated into and negated back (negation is exact; the target is the
// product's own, no other op touches it meanwhile). False, with the reason, when the kernel cannot
// take the call; nothing has been changed then.
bool cutlassLeaf(const cuda::OpContext& c, const Operation& op, const OperandRegion& t, std::string& why, cudaStream_t s)
{
    const OperandRegion& ra = op.operands[0];
    const OperandRegion& rb = op.operands[1];
    cuda::CutlassTf32Call call;
    call.m = ra.rows;
    call.n = ra.cols;
    call.q = rb.cols;
    call.a = at<float>(c, ra);
    call.lda = ldOf(c, ra.slot);
    call.b = at<float>(c, rb);
    call.ldb = ldOf(c, rb.slot);
    call.c = at<float>(c, t);
    call.ldc = ldOf(c, t.slot);
    call.accumulate = t.access != Access::Write;  // the workspace M is written (beta = 0)
    std::string& unavailable = stateOf(c).cutlassUnavailable;
    if (!unavailable.empty()) {
        why = unavailable;
        return false;
    }
    if (!cuda::cutlassTf32Fits(call)) {
        why = "the CUTLASS kernel needs the inner dimension, the width, the leading dimensions and the addresses in "
              "whole 16 bytes";
        return false;
    }
    if (call.accumulate && std::abs(t.coefficient) != 1.0) {
        why = "a target coefficient other than +-1 (the CUTLASS kernel has no alpha)";
        return false;
    }
    const bool negate = call.accumulate && t.coefficient < 0;
    cublasHandle_t h = stateOf(c).handleFor(c.ordinals.at(std::size_t(op.device)));
    auto negateTarget = [&] {
        const float minusOne = -1.0f, zero = 0.0f;
        CUBLAS_CHECK(cublasSetStream(h, s));
        // In place (C = -C + 0 C): cuBLAS's geam allows C = A with the same leading dimension.
        CUBLAS_CHECK(cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, int(t.cols), int(t.rows), &minusOne, call.c, int(call.ldc),
                                 &zero, call.c, int(call.ldc), call.c, int(call.ldc)));
    };
    if (negate)
        negateTarget();
    if (const char* error = cuda::cutlassTf32Gemm(call, s)) {
        if (negate)
            negateTarget();
        why = unavailable = error;
        return false;
    }
    if (negate)
        negateTarget();
    return true;
}

void issueProduct(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    Inputs& in = inputsOf(c.request);
    if (in.cutlassLeaves && in.precision == Precision::F32) {
        for (std::size_t i = 2; i < op.operands.size(); ++i) {
            const OperandRegion& t = op.operands[i];
            std::string why;
            if (cutlassLeaf(c, op, t, why, s)) {
                if (in.leafGemms)
                    ++in.leafGemms->cutlass;
                continue;
            }
            if (in.leafGemms && in.leafGemms->fallback++ == 0)
                in.leafGemms->fallbackReason = std::to_string(op.operands[0].rows) + " x " + std::to_string(op.operands[0].cols) +
                                               " x " + std::to_string(op.operands[1].cols) + ": " + why;
            const bool workspace = t.access == Access::Write;
            gemm(c, op.device, op.operands[0], op.operands[1], t, workspace ? 1.0 : t.coefficient, workspace ? 0.0 : 1.0, s);
        }
        return;
    }
    const bool intoC = op.operands.size() > 2 && op.operands[2].access == Access::ReadWrite;
    if (inputsOf(c.request).multiTarget && intoC && op.operands.size() - 2 <= std::size_t(device::kMaxTargets)) {
        if (inputsOf(c.request).precision == Precision::F64)
            multiTarget<double>(c, op, s);
        else
            multiTarget<float>(c, op, s);
        return;
    }
    for (std::size_t i = 2; i < op.operands.size(); ++i) {
        const OperandRegion& t = op.operands[i];
        const bool workspace = t.access == Access::Write;
        gemm(c, op.device, op.operands[0], op.operands[1], t, workspace ? 1.0 : t.coefficient, workspace ? 0.0 : 1.0, s);
    }
}

void issueScatter(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OperandRegion& m = op.operands[0];
    for (std::size_t i = 1; i < op.operands.size(); ++i) {
        const OperandRegion& t = op.operands[i];
        if (inputsOf(c.request).precision == Precision::F64)
            device::launchAdd<double>(at<double>(c, t), at<double>(c, m), ldOf(c, t.slot), ldOf(c, m.slot), m.rows, m.cols,
                                      t.coefficient, s);
        else
            device::launchAdd<float>(at<float>(c, t), at<float>(c, m), ldOf(c, t.slot), ldOf(c, m.slot), m.rows, m.cols,
                                     float(t.coefficient), s);
    }
}

// operands: [source region, destination region], on any devices of the run.
void issueCopy(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    cuda::copyBetweenDevices(c, op.operands[1], op.operands[0], elemSize(c), s);
}

void issueZero(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OperandRegion& d = op.operands[0];
    const std::size_t es = elemSize(c);
    CUDA_CHECK(cudaMemset2DAsync(static_cast<char*>(c.buffers[std::size_t(d.slot)]) + (std::size_t(d.row) * std::size_t(ldOf(c, d.slot)) + std::size_t(d.col)) * es,
                                 std::size_t(ldOf(c, d.slot)) * es, 0, std::size_t(d.cols) * es, std::size_t(d.rows), s));
}

// The fault itself: its bit flip, or adding the region's coefficient.
void issueFault(const cuda::OpContext& c, const Operation& op, const OperandRegion& r, bool f64, cudaStream_t s)
{
    if (const Injection how = injectionOf(c.request, op); how.model == FaultModel::BitFlip) {
        // The bits were checked against the precision when the run resolved them.
        const std::uint64_t mask = (std::uint64_t(1) << how.bit) | (how.bit2 >= 0 ? std::uint64_t(1) << how.bit2 : 0);
        if (f64)
            device::launchFlipBits<double>(at<double>(c, r), mask, s);
        else
            device::launchFlipBits<float>(at<float>(c, r), mask, s);
    } else if (f64) {
        device::launchInject<double>(at<double>(c, r), r.coefficient, s);
    } else {
        device::launchInject<float>(at<float>(c, r), float(r.coefficient), s);
    }
}

double* injectSlot(const cuda::OpContext& c, const Operation& op)
{
    return stateOf(c).injectOut.as<double>() + 2 * stateOf(c).injectSlotOf[std::size_t(op.id)];
}

void issueInject(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const OperandRegion& r = op.operands[0];
    const bool f64 = inputsOf(c.request).precision == Precision::F64;
    void* cell = f64 ? static_cast<void*>(at<double>(c, r)) : static_cast<void*>(at<float>(c, r));
    double* values = injectSlot(c, op);
    CUDA_CHECK(cudaMemcpyAsync(values, cell, elemSize(c), cudaMemcpyDeviceToHost, s));  // before
    issueFault(c, op, r, f64, s);
    CUDA_CHECK(cudaMemcpyAsync(values + 1, cell, elemSize(c), cudaMemcpyDeviceToHost, s));  // after
}

// The cell's values, copied by issueInject, into the run's events (the reporting thread runs this
// once the op's stream has passed them).
void reportInject(const cuda::OpContext& c, const Operation& op, Span&, OpOutcome& outcome)
{
    const double* values = injectSlot(c, op);
    const auto value = [&](const double* slot) {
        if (inputsOf(c.request).precision == Precision::F64)
            return *slot;
        float f;
        std::memcpy(&f, slot, sizeof f);
        return double(f);
    };
    if (const std::optional<InjectEvent> event = injectEventOf(c.request, op, value(values), value(values + 1)))
        outcome.injections.push_back(*event);
}

// Leaf checks (leaf_check.hpp): the aux slot as doubles and its layout.
double* leafAux(const cuda::OpContext& c, const Operation& op) { return static_cast<double*>(c.buffers[std::size_t(op.operands.back().slot)]); }
LeafCheckLayout leafLayout(const cuda::OpContext& c, const Operation& op) { return {ldOf(c, op.operands.back().slot) / 2}; }

template <class T> void columnSums(const cuda::OpContext& c, const OperandRegion& r, const double* w, const double* wAbs,
                                   double* sum, double* abs, cudaStream_t s)
{
    device::launchColumnSums<T>(at<T>(c, r), ldOf(c, r.slot), r.rows, r.cols, w, wAbs, sum, abs, s);
}

template <class T> void leafSums(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const LeafCheckLayout l = leafLayout(c, op);
    double* aux = leafAux(c, op);
    for (std::size_t t = 0; t + 1 < op.operands.size(); ++t)
        columnSums<T>(c, op.operands[t], nullptr, nullptr, aux + l.before(int(t)), aux + l.before(int(t)) + l.half, s);
}

template <class T> void leafVerify(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    const LeafCheckLayout l = leafLayout(c, op);
    double* aux = leafAux(c, op);
    const OperandRegion& ra = op.operands[0];
    const OperandRegion& rb = op.operands[1];
    double* w = aux + l.weights();
    double* e = aux + l.expected();
    columnSums<T>(c, ra, nullptr, nullptr, w, w + l.half, s);
    columnSums<T>(c, rb, w, w + l.half, e, e + l.half, s);
    double* result = aux + l.results() + op.aux;
    double* code = aux + l.results() + l.half + op.aux;
    CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(double), s));
    CUDA_CHECK(cudaMemsetAsync(code, 0, sizeof(double), s));
    const double u = std::numeric_limits<T>::epsilon() / 2,
                 uIn = leafOperandRoundoff(inputsOf(c.request).tf32);
    for (std::size_t t = 2; t + 1 < op.operands.size(); ++t) {
        const OperandRegion& target = op.operands[t];
        double* after = aux + l.after();
        columnSums<T>(c, target, nullptr, nullptr, after, after + l.half, s);
        const double* before = aux + l.before(int(t - 2));
        const device::LeafColumns in{before, before + l.half, after, after + l.half, e, e + l.half,
                                     target.coefficient, double(ra.cols), u, uIn};
        device::launchLeafCompare(in, target.cols, result, code, s);
    }
}

void issueLeafSums(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    if (inputsOf(c.request).precision == Precision::F64)
        leafSums<double>(c, op, s);
    else
        leafSums<float>(c, op, s);
}
void issueLeafVerify(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    if (inputsOf(c.request).precision == Precision::F64)
        leafVerify<double>(c, op, s);
    else
        leafVerify<float>(c, op, s);
}
// The leaves' results to the host vector (pageable: the copy completes before the call returns
// its data to the run, which reads it after the executor finished).
void issueStoreLeafChecks(const cuda::OpContext& c, const Operation& op, cudaStream_t s)
{
    std::vector<double>* out = inputsOf(c.request).leafResults;
    if (!out)
        return;
    const LeafCheckLayout l = leafLayout(c, op);
    const std::int64_t cells = 2 * l.half;  // ratios, then column codes
    out->assign(std::size_t(cells), 0.0);
    CUDA_CHECK(cudaMemcpyAsync(out->data(), static_cast<const double*>(c.buffers[std::size_t(op.operands[0].slot)]) + l.results(),
                               std::size_t(cells) * sizeof(double), cudaMemcpyDeviceToHost, s));
}

// The family's own kernels loaded before anything is timed (cuBLAS loads its GEMM kernels on the
// first call of each shape class; the bench times cuBLAS first). GIGACHECK_NO_WARMUP=1 measures
// what a cold first run costs, as for the blocked GEMM family.
void warmUp(int device)
{
    if (std::getenv("GIGACHECK_NO_WARMUP"))
        return;
    CUDA_CHECK(cudaSetDevice(device));
    device::loadKernels();
    device::loadMultiTargetKernels();
}

}  // namespace

const cuda::OpTable& cudaOps()
{
    static const cuda::OpTable table = [] {
        cuda::OpTable t{
            makeState,
            nullptr,  // checkInputs: no CUDA-only limits
            warmUp,
            nullptr,
            opEntries<cuda::OpEntry>(OpImplementations<cuda::IssueFunction>{
                .load = issueLoad, .add = issueAdd, .product = issueProduct, .scatter = issueScatter,
                .inject = issueInject, .copy = issueCopy, .zero = issueZero, .store = issueStore,
                .leafSums = issueLeafSums, .leafVerify = issueLeafVerify, .storeLeafChecks = issueStoreLeafChecks}),
        };
        for (cuda::OpEntry& entry : t.ops)  // the cell's values into the run's events
            if (entry.kind == kInject)
                entry.report = reportInject;
        return t;
    }();
    return table;
}

}  // namespace gigacheck::strassen
