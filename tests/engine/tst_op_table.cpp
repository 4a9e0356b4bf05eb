// An open set of operations: a family that exists only in this test brings op kinds of its own
// (not C = AB, with operand regions and coefficients) and runs them through the unchanged CPU
// executor, looked up in its own op table. Nothing in the engine knows these kinds.
#include "gigacheck/backend.hpp"
#include "gigacheck/schedule.hpp"

#include "../../engine/src/core/op_table.hpp"

#include <QtTest>

using namespace gigacheck;

namespace {

// Kinds from a range no family of the engine uses.
constexpr OpKind kLoad = OpKind(40 * kOpKindsPerFamily + 0);
constexpr OpKind kAxpy = OpKind(40 * kOpKindsPerFamily + 1);  // dst += coefficient * src
constexpr OpKind kStore = OpKind(40 * kOpKindsPerFamily + 2);

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

const cpu::OpTable kCpuOps{nullptr, {{kLoad, load}, {kAxpy, axpy}, {kStore, store}}};
const OpKindName kNames[] = {{kLoad, "toy-load"}, {kAxpy, "toy-axpy"}, {kStore, "toy-store"}};
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

    void theEngineFamiliesNameTheirKinds()
    {
        QCOMPARE(QString::fromUtf8(toString(OpKind::CopyH2D).data()), QStringLiteral("copy-h2d"));
        QVERIFY(opKindFromString("verify") == OpKind::Verify);
        QCOMPARE(QString::fromUtf8(toString(kAxpy).data()), QStringLiteral("?"));  // the toy family is not the engine's
        QVERIFY_THROWS_EXCEPTION(InputError, opKindFromString("toy-axpy"));
        QVERIFY(familyOps("blocked_gemm").cpu != nullptr);
        QVERIFY_THROWS_EXCEPTION(BackendError, familyOps("no-such-family"));
    }
};

QTEST_GUILESS_MAIN(TestOpTable)
#include "tst_op_table.moc"
