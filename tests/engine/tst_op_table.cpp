// An open set of operations: a family that exists only in this test brings op kinds of its own
// (not C = AB, with operand regions and coefficients) and runs them through the unchanged CPU
// executor, looked up in its own op table. Nothing in the engine knows these kinds.
#include "gigacheck/backend.hpp"
#include "gigacheck/schedule.hpp"

#include "../../engine/src/core/cpu/device_copy.hpp"
#include "../../engine/src/core/op_table.hpp"

#include <algorithm>
#include <set>

#include <QtTest>

using namespace gigacheck;

namespace {

// Kinds from a range no family of the engine uses.
constexpr OpKind kLoad = OpKind(40 * kOpKindsPerFamily + 0);
constexpr OpKind kAxpy = OpKind(40 * kOpKindsPerFamily + 1);  // dst += coefficient * src
constexpr OpKind kStore = OpKind(40 * kOpKindsPerFamily + 2);
constexpr OpKind kCopy = OpKind(40 * kOpKindsPerFamily + 3);  // dst = src, across devices

// The toy family's own inputs: a host matrix to load and one to store into.
struct ToyInputs final : FamilyInputs {
    HostMatrix* in = nullptr;
    HostMatrix* out = nullptr;
};

ToyInputs& toyInputs(const cpu::OpContext& c) { return familyInputs<ToyInputs>(c.request, "toy"); }

double* slot(cpu::OpContext& c, int s) { return static_cast<double*>(c.buffers[std::size_t(s)]); }

void load(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const OperandRegion& dst = op.operands.at(0);
    const HostMatrix& in = *toyInputs(c).in;
    for (std::int64_t e = 0; e < in.rows() * in.cols(); ++e)
        slot(c, dst.slot)[e] = in.as<double>()[e];
}

void axpy(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    const OperandRegion& dst = op.operands.at(0);
    for (std::size_t n = 1; n < op.operands.size(); ++n) {
        const OperandRegion& src = op.operands[n];
        for (std::int64_t r = 0; r < src.rows; ++r)
            for (std::int64_t col = 0; col < src.cols; ++col)
                slot(c, dst.slot)[(dst.row + r) * 2 + dst.col + col] +=
                    src.coefficient * slot(c, src.slot)[(src.row + r) * 2 + src.col + col];
    }
}

void store(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    double* out = toyInputs(c).out->as<double>();
    for (int e = 0; e < 4; ++e)
        out[e] = slot(c, op.operands.at(0).slot)[e];
}

void copy(cpu::OpContext& c, const Operation& op, OpOutcome&)
{
    cpu::copyBetweenDevices(c, op.operands.at(0), op.operands.at(1), sizeof(double));
}

const cpu::OpTable kCpuOps{nullptr, {{kLoad, load}, {kAxpy, axpy}, {kStore, store}, {kCopy, copy}}};
const OpKindName kNames[] = {{kLoad, "toy-load"}, {kAxpy, "toy-axpy"}, {kStore, "toy-store"}, {kCopy, "toy-copy"}};
// Refuses a request without its inputs before the executor allocates anything.
void checkToyInputs(const ExecutionRequest& request, const std::string& backendName)
{
    const auto* inputs = dynamic_cast<const ToyInputs*>(request.inputs);
    if (!inputs || !inputs->in || !inputs->out)
        throw BackendError(backendName + ": the toy family needs its two matrices");
}

const FamilyOps kToyFamily{"toy", kNames, &kCpuOps, nullptr, checkToyInputs};

Operation op(int id, OpKind kind, Queue queue, std::vector<OperandRegion> operands, std::vector<int> deps)
{
    Operation o;
    o.id = id;
    o.kind = kind;
    o.queue = queue;
    o.operands = std::move(operands);
    o.deps = std::move(deps);
    return o;
}

// X = A (2 x 2, slot 0), Y = 0 (slot 1); Y(row 0) += 3 X(row 1); Y(row 1) -= X(row 0); C = Y.
Schedule toySchedule()
{
    Schedule s;
    s.family = "toy";
    s.capBytes = 1024;
    s.buffers = {BufferSpec{"X", BufferRole::Other, 2, 2, 2, 32}, BufferSpec{"Y", BufferRole::Other, 2, 2, 2, 32}};
    s.ops.push_back(op(0, kLoad, Queue::H2D, {{0, Access::Write}}, {}));
    s.ops.push_back(op(1, kAxpy, Queue::Compute, {{1, Access::ReadWrite, 0, 0, 1, 2}, {0, Access::Read, 1, 0, 1, 2, 3.0}}, {0}));
    s.ops.push_back(op(2, kAxpy, Queue::Compute, {{1, Access::ReadWrite, 1, 0, 1, 2}, {0, Access::Read, 0, 0, 1, 2, -1.0}}, {0, 1}));
    s.ops.push_back(op(3, kStore, Queue::D2H, {{1, Access::Read}}, {2}));
    return s;
}

// ---- several emulated devices --------------------------------------------------------------

// X_d on device d (4 doubles, 2 x 2). X_0 = A on device 0; on each device d: X_d = X_{d-1} (a copy
// across devices, from d's compute queue), then X_d(row 0) += X_d(row 1); C = X_{G-1} from the
// last device. So C(row 0) = A(row 0) + G A(row 1), C(row 1) = A(row 1).
Schedule chainSchedule(int devices)
{
    Schedule s;
    s.family = "toy";
    s.devices = devices;
    s.capBytes = 32;  // one buffer per device
    for (int d = 0; d < devices; ++d)
        s.buffers.push_back(BufferSpec{"X" + std::to_string(d), BufferRole::Other, 2, 2, 2, 32, d});
    auto add = [&s](OpKind kind, Queue queue, int device, std::vector<OperandRegion> operands, std::vector<int> deps) {
        Operation o = op(int(s.ops.size()), kind, queue, std::move(operands), std::move(deps));
        o.device = device;
        s.ops.push_back(o);
        return o.id;
    };
    int last = add(kLoad, Queue::H2D, 0, {{0, Access::Write}}, {});
    for (int d = 0; d < devices; ++d) {
        if (d > 0)
            last = add(kCopy, Queue::Compute, d, {{d, Access::Write}, {d - 1, Access::Read}}, {last});
        last = add(kAxpy, Queue::Compute, d, {{d, Access::ReadWrite, 0, 0, 1, 2}, {d, Access::Read, 1, 0, 1, 2, 1.0}},
                   {last});
    }
    add(kStore, Queue::D2H, devices - 1, {{devices - 1, Access::Read}}, {last});
    return s;
}

// Runs the chain on a CPU backend of `devices` emulated devices; c gets the result.
ExecutionResult runChain(const Schedule& s, int devices, HostMatrix& a, HostMatrix& c)
{
    ToyInputs inputs;
    inputs.in = &a;
    inputs.out = &c;
    ExecutionRequest req;
    req.schedule = &s;
    req.family = &kToyFamily;
    req.inputs = &inputs;
    return makeCpuBackend(devices)->execute(req);
}

const Span& spanOfOp(const ExecutionResult& r, int opId)
{
    return *std::find_if(r.spans.begin(), r.spans.end(), [opId](const Span& s) { return s.opId == opId; });
}

}  // namespace

class TestOpTable : public QObject {
    Q_OBJECT
private slots:
    void aFamilyOfItsOwnRunsOnTheCpuExecutor()
    {
        const Schedule s = toySchedule();
        QCOMPARE(QString::fromStdString(validateOperations(s)), QString());
        HostMatrix a(Precision::F64, 2, 2), c(Precision::F64, 2, 2);
        a.set(0, 0, 1);
        a.set(0, 1, 2);
        a.set(1, 0, 3);
        a.set(1, 1, 4);
        ToyInputs inputs;
        inputs.in = &a;
        inputs.out = &c;
        ExecutionRequest req;
        req.schedule = &s;
        req.family = &kToyFamily;
        req.inputs = &inputs;
        const ExecutionResult result = makeCpuBackend()->execute(req);
        QCOMPARE(c.at(0, 0), 9.0);   // 3 * 3
        QCOMPARE(c.at(0, 1), 12.0);  // 3 * 4
        QCOMPARE(c.at(1, 0), -1.0);
        QCOMPARE(c.at(1, 1), -2.0);
        QCOMPARE(result.spans.size(), std::size_t(4));
        int axpys = 0;
        for (const Span& span : result.spans)
            axpys += span.kind == kAxpy ? 1 : 0;
        QCOMPARE(axpys, 2);
    }

    void accessAndRacesComeFromTheOperands()
    {
        Schedule s = toySchedule();
        const OpAccess access = accessOf(s.ops[1]);
        QCOMPARE(access.reads, (std::vector<int>{1, 0}));
        QCOMPARE(access.writes, (std::vector<int>{1}));
        s.ops[2].deps = {0};  // both updates of Y unordered
        QVERIFY(QString::fromStdString(validateOperations(s)).contains(QStringLiteral("races")));
    }

    void aKindWithoutImplementationIsRefused()
    {
        Schedule s = toySchedule();
        s.ops[1].kind = OpKind(40 * kOpKindsPerFamily + 9);
        HostMatrix a(Precision::F64, 2, 2), c(Precision::F64, 2, 2);
        ToyInputs inputs;
        inputs.in = &a;
        inputs.out = &c;
        ExecutionRequest req;
        req.schedule = &s;
        req.family = &kToyFamily;
        req.inputs = &inputs;
        QVERIFY_THROWS_EXCEPTION(BackendError, makeCpuBackend()->execute(req));
    }

    void theFamilyChecksItsOwnInputs()
    {
        const Schedule s = toySchedule();
        ExecutionRequest req;
        req.schedule = &s;
        req.family = &kToyFamily;
        try {
            makeCpuBackend()->execute(req);  // no inputs at all
            QFAIL("a request without the family's inputs ran");
        } catch (const BackendError& e) {
            QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("toy family needs")));
        }
    }

    void runsOnSeveralEmulatedDevices_data()
    {
        QTest::addColumn<int>("devices");
        QTest::newRow("2 devices") << 2;
        QTest::newRow("3 devices") << 3;
    }

    void runsOnSeveralEmulatedDevices()
    {
        QFETCH(int, devices);
        const Schedule s = chainSchedule(devices);
        QCOMPARE(QString::fromStdString(validateOperations(s)), QString());
        HostMatrix a(Precision::F64, 2, 2), c(Precision::F64, 2, 2);
        a.set(0, 0, 1);
        a.set(0, 1, 2);
        a.set(1, 0, 3);
        a.set(1, 1, 4);
        const ExecutionResult r = runChain(s, devices, a, c);
        QCOMPARE(c.at(0, 0), 1.0 + devices * 3.0);
        QCOMPARE(c.at(0, 1), 2.0 + devices * 4.0);
        QCOMPARE(c.at(1, 0), 3.0);
        QCOMPARE(c.at(1, 1), 4.0);
        // Every op ran on its own device, and each span says which.
        QCOMPARE(r.spans.size(), s.ops.size());
        std::set<int> seen;
        for (const Span& span : r.spans) {
            QCOMPARE(span.device, s.ops[std::size_t(span.opId)].device);
            seen.insert(span.device);
        }
        QCOMPARE(int(seen.size()), devices);
        // Each copy waited for the previous device's update: a dependency across devices.
        for (const Operation& o : s.ops)
            if (o.kind == kCopy) {
                QVERIFY(s.ops[std::size_t(o.deps.front())].device != o.device);
                QVERIFY(spanOfOp(r, o.id).start >= spanOfOp(r, o.deps.front()).end);
            }
        // One buffer on each device: each device's pool held exactly its own.
        QCOMPARE(r.devicePeakBytes, std::vector<std::size_t>(std::size_t(devices), 32));
        QCOMPARE(r.peakBufferBytes, std::size_t(32));
    }

    void eachDeviceHasItsOwnCap()
    {
        // A cap of 64 bytes per device: 96 bytes of buffers run when device 0 holds 64 and device 1
        // 32, and are refused when device 1 would hold 96.
        Schedule s = chainSchedule(2);
        s.capBytes = 64;
        s.buffers.push_back(BufferSpec{"spare", BufferRole::Other, 2, 2, 2, 32, 0});
        HostMatrix a(Precision::F64, 2, 2), c(Precision::F64, 2, 2);
        const ExecutionResult spread = runChain(s, 2, a, c);
        QCOMPARE(spread.devicePeakBytes, (std::vector<std::size_t>{64, 32}));
        s.buffers.back().device = 1;
        s.buffers.push_back(BufferSpec{"spare2", BufferRole::Other, 2, 2, 2, 32, 1});
        try {
            runChain(s, 2, a, c);
            QFAIL("a device over its cap ran");
        } catch (const BackendError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("device 1")), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("exceed the cap")), e.what());
        }
    }

    void aScheduleNeedsItsDevices()
    {
        const Schedule s = chainSchedule(3);
        HostMatrix a(Precision::F64, 2, 2), c(Precision::F64, 2, 2);
        QVERIFY_THROWS_EXCEPTION(BackendError, runChain(s, 2, a, c));  // 3 devices on a backend of 2
        Schedule wrong = chainSchedule(2);
        wrong.ops.back().device = 2;  // a device the schedule does not have
        QVERIFY(QString::fromStdString(validateOperations(wrong)).contains(QStringLiteral("device 2")));
        Schedule urgent = chainSchedule(2);
        urgent.urgentStreams = {0};  // priorities are the CUDA backend's; the CPU runs it the same
        QCOMPARE(QString::fromStdString(validateOperations(urgent)), QString());
        urgent.urgentStreams = {1};  // a stream the schedule does not have
        QVERIFY(QString::fromStdString(validateOperations(urgent)).contains(QStringLiteral("urgent stream 1")));
        QVERIFY_THROWS_EXCEPTION(BackendError, runChain(wrong, 3, a, c));
        const std::vector<DeviceInfo> infos = makeCpuBackend(3)->devices();
        QCOMPARE(infos.size(), std::size_t(3));
        for (int d = 0; d < 3; ++d) {
            QCOMPARE(infos[std::size_t(d)].index, d);
            QVERIFY(QString::fromStdString(infos[std::size_t(d)].name).contains(QStringLiteral("emulated device")));
        }
        QVERIFY(!QString::fromStdString(makeCpuBackend()->device().name).contains(QStringLiteral("emulated")));
        QVERIFY_THROWS_EXCEPTION(InputError, makeCpuBackend(0));
    }

    void theEngineFamiliesNameTheirKinds()
    {
        QCOMPARE(QString::fromUtf8(toString(OpKind::CopyH2D).data()), QStringLiteral("copy-h2d"));
        QVERIFY(opKindFromString("verify") == OpKind::Verify);
        QCOMPARE(QString::fromUtf8(toString(kAxpy).data()), QStringLiteral("?"));  // the toy family is not the engine's
        QVERIFY_THROWS_EXCEPTION(InputError, opKindFromString("toy-axpy"));
        QVERIFY(familyOps("blocked_gemm").cpu != nullptr);
        QVERIFY_THROWS_EXCEPTION(BackendError, familyOps("no-such-family"));
    }

    // Every family says what its kinds do, so the views colour them without knowing the family:
    // a load, a product, a check look the same in blocked GEMM, online ABFT, Strassen and the gallery.
    void theFamiliesGiveTheirKindsRoles()
    {
        const auto role = [](const char* name) { return int(roleOf(opKindFromString(name))); };
        QCOMPARE(role("copy-h2d"), int(OpRole::Load));
        QCOMPARE(role("load-inputs"), int(OpRole::Load));
        QCOMPARE(role("strassen-load"), int(OpRole::Load));
        QCOMPARE(role("transpose-copy-in"), int(OpRole::Load));
        QCOMPARE(role("panel-product"), int(OpRole::Product));
        QCOMPARE(role("strassen-product"), int(OpRole::Product));
        QCOMPARE(role("reduced-gemm"), int(OpRole::Product));
        QCOMPARE(role("check"), int(OpRole::Verify));
        QCOMPARE(role("strassen-leaf-verify"), int(OpRole::Verify));
        QCOMPARE(role("encode"), int(OpRole::Checksum));
        QCOMPARE(role("strassen-add"), int(OpRole::Sums));
        QCOMPARE(role("inject-fault"), int(OpRole::Inject));
        QCOMPARE(role("store-result"), int(OpRole::Store));
        QCOMPARE(role("recompute"), int(OpRole::Recompute));
        QCOMPARE(int(roleOf(kAxpy)), int(OpRole::Other));  // a kind no engine family names
    }
};

QTEST_GUILESS_MAIN(TestOpTable)
#include "tst_op_table.moc"
