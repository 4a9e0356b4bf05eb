// GPU test support (testing_hooks.hpp): a schedule over two devices through the unchanged CUDA
// executor, with a family of its own that exists only here: load on device 0, a copy to device 1
// (copyBetweenDevices), store from device 1.
#include "core/cuda/testing_hooks.hpp"

#include "core/cuda/check.hpp"
#include "core/cuda/device_copy.hpp"
#include "core/cuda/op_table.hpp"

namespace gigacheck::cuda::testing {

namespace {

constexpr OpKind kLoad = OpKind(41 * kOpKindsPerFamily + 0);
constexpr OpKind kCopy = OpKind(41 * kOpKindsPerFamily + 1);
constexpr OpKind kStore = OpKind(41 * kOpKindsPerFamily + 2);

struct Inputs final : FamilyInputs {
    const std::vector<double>* in = nullptr;
    std::vector<double>* out = nullptr;
};

Inputs& inputs(const OpContext& c) { return familyInputs<Inputs>(c.request, "device-copy-test"); }

void issueLoad(const OpContext& c, const Operation& op, cudaStream_t s)
{
    const std::vector<double>& in = *inputs(c).in;
    CUDA_CHECK(cudaMemcpyAsync(c.buffers[std::size_t(op.operands.at(0).slot)], in.data(), in.size() * sizeof(double),
                               cudaMemcpyHostToDevice, s));
}

void issueCopy(const OpContext& c, const Operation& op, cudaStream_t s)
{
    copyBetweenDevices(c, op.operands.at(0), op.operands.at(1), sizeof(double), s);
}

void issueStore(const OpContext& c, const Operation& op, cudaStream_t s)
{
    std::vector<double>& out = *inputs(c).out;
    CUDA_CHECK(cudaMemcpyAsync(out.data(), c.buffers[std::size_t(op.operands.at(0).slot)], out.size() * sizeof(double),
                               cudaMemcpyDeviceToHost, s));
}

const OpTable kCudaOps{nullptr, nullptr, nullptr, nullptr, {{kLoad, issueLoad}, {kCopy, issueCopy}, {kStore, issueStore}}};
const OpKindName kNames[] = {{kLoad, "test-load", OpRole::Load}, {kCopy, "test-copy", OpRole::Other}, {kStore, "test-store", OpRole::Store}};
const FamilyOps kFamily{"device-copy-test", kNames, nullptr, &kCudaOps, nullptr};

Operation op(int id, OpKind kind, Queue queue, int device, std::vector<OperandRegion> operands, std::vector<int> deps)
{
    Operation o;
    o.id = id;
    o.kind = kind;
    o.queue = queue;
    o.device = device;
    o.operands = std::move(operands);
    o.deps = std::move(deps);
    return o;
}

}  // namespace

CopyAcrossDevices copyAcrossDevices(const std::vector<double>& in, int ordinal0, int ordinal1)
{
    // Rows of 4 columns; the copy moves the middle two columns of every row but the first (a
    // strided region) to the same place of device 1's buffer, whose other cells are never written
    // (device memory is not zeroed): only that region of `out` is defined.
    const std::int64_t cols = 4, rows = std::int64_t(in.size()) / cols;
    const std::size_t bytes = in.size() * sizeof(double);
    Schedule s;
    s.family = "device-copy-test";
    s.devices = 2;
    s.capBytes = bytes;
    s.buffers = {BufferSpec{"X0", BufferRole::Other, rows, cols, cols, bytes, 0},
                 BufferSpec{"X1", BufferRole::Other, rows, cols, cols, bytes, 1}};
    s.ops.push_back(op(0, kLoad, Queue::H2D, 0, {{0, Access::Write}}, {}));
    s.ops.push_back(op(1, kCopy, Queue::Compute, 1,
                       {{1, Access::Write, 1, 1, rows - 1, 2}, {0, Access::Read, 1, 1, rows - 1, 2}}, {0}));
    s.ops.push_back(op(2, kStore, Queue::D2H, 1, {{1, Access::Read}}, {1}));
    const std::string problem = validateOperations(s);
    if (!problem.empty())
        throw BackendError("copyAcrossDevices: " + problem);

    std::string why;
    std::unique_ptr<Backend> backend = makeCudaBackend(&why, std::vector<int>{ordinal0, ordinal1});
    if (!backend)
        throw BackendError("copyAcrossDevices: " + why);
    CopyAcrossDevices result;
    result.out.assign(in.size(), -1.0);
    Inputs inputs;
    inputs.in = &in;
    inputs.out = &result.out;
    ExecutionRequest request;
    request.schedule = &s;
    request.family = &kFamily;
    request.inputs = &inputs;
    ExecutionResult run = backend->execute(request);
    result.spans = std::move(run.spans);
    result.devicePeakBytes = std::move(run.devicePeakBytes);
    return result;
}

}  // namespace gigacheck::cuda::testing
