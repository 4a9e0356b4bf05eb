// The CPU backend: spans reach the observer while the run goes on and describe their ops;
// cancel stops a run promptly and the next run works; a failure inside a queue thread ends the
// run with BackendError and the backend stays usable; the cap is enforced.
#include "gigacheck/blocked_gemm.hpp"
#include "gigacheck/blocked_gemm/run.hpp"
#include "gigacheck/blocked_gemm/plan_faults.hpp"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>

using namespace gigacheck;

namespace {

RunConfig blockedConfig(StrategyKind k, Shape s, int edge)
{
    RunConfig c;
    c.shape = s;
    c.strategy = k;
    c.backend = BackendKind::Cpu;
    c.reference = ReferenceMode::Full;
    c.memCapBytes = bytesForBlocks(k, c.precision, true, edge, edge, edge);
    return c;
}

// Records what the observer sees, from whichever thread.
class Recorder : public RunObserver {
public:
    void onPlan(const Schedule& s) override { schedule = s; }
    void onSpan(const Span& s) override
    {
        std::lock_guard lock(mutex);
        spans.push_back(s);
    }
    void onInject(const InjectEvent&) override { ++injects; }
    void onVerify(const VerifyEvent&) override
    {
        std::lock_guard lock(mutex);
        if (++verifies == 2)
            spansAtSecondVerify = int(spans.size());
    }
    void onProgress(double f) override
    {
        std::lock_guard lock(mutex);
        progressMonotone = progressMonotone && f >= lastProgress - 1e-12;
        lastProgress = std::max(lastProgress, f);
    }

    std::mutex mutex;
    Schedule schedule;
    std::vector<Span> spans;
    std::atomic<int> injects{0};
    int verifies = 0, spansAtSecondVerify = -1;
    double lastProgress = 0;
    bool progressMonotone = true;
};

// Sets the cancel flag after a number of spans.
class Canceller : public RunObserver {
public:
    Canceller(std::atomic<bool>& flag, int after) : flag_(flag), after_(after) {}
    void onSpan(const Span&) override
    {
        if (++seen_ == after_)
            flag_ = true;
    }

private:
    std::atomic<bool>& flag_;
    int after_;
    std::atomic<int> seen_{0};
};

// Fails inside a queue thread (the observer is called from there).
class Thrower : public RunObserver {
public:
    void onSpan(const Span& s) override
    {
        if (s.kind == OpKind::Product)
            throw std::runtime_error("observer failure for the test");
    }
};

// The CPU backend alone on a blocked schedule of the plan: A and B normal random, C written.
ExecutionResult executeOnCpu(const Plan& plan, const Schedule& s, HostMatrix& a, HostMatrix& b, HostMatrix& c,
                             FaultPlan& faults)
{
    fillRandom(a, Distribution::Normal, 3, 1);
    fillRandom(b, Distribution::Normal, 3, 2);
    blocked_gemm::Inputs inputs;
    inputs.plan = plan;
    inputs.a = &a;
    inputs.b = &b;
    inputs.c = &c;
    inputs.faults = &faults;
    ExecutionRequest req;
    req.schedule = &s;
    req.inputs = &inputs;
    return makeCpuBackend()->execute(req);
}

// Every verification at its block's offsets, clean or correcting the one cell (row, col) of C:
// how many corrected, -1 when a verification does not hold to that.
int correctionsOnlyAt(const ExecutionResult& res, const Plan& plan, std::int64_t row, std::int64_t col)
{
    int corrected = 0;
    for (const VerifyEvent& v : res.verifications) {
        if (v.rowOffset != plan.rowOffset(v.block.i) || v.colOffset != plan.colOffset(v.block.j))
            return -1;
        if (v.result.verdict == Verdict::Clean)
            continue;
        if (v.result.verdict != Verdict::Corrected || v.result.corrections.size() != 1 ||
            v.rowOffset + v.result.corrections[0].row != row || v.colOffset + v.result.corrections[0].col != col)
            return -1;
        ++corrected;
    }
    return corrected;
}

// The first cell where C differs from A B (f64, summed in order) by 1e-10 or more; empty when none.
QString productMismatch(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c)
{
    for (std::int64_t i = 0; i < c.rows(); ++i)
        for (std::int64_t j = 0; j < c.cols(); ++j) {
            double ref = 0;
            for (std::int64_t k = 0; k < a.cols(); ++k)
                ref += a.at(i, k) * b.at(k, j);
            if (!(std::abs(c.at(i, j) - ref) < 1e-10))
                return QStringLiteral("%1,%2").arg(i).arg(j);
        }
    return {};
}

}  // namespace

class TestCpuBackend : public QObject {
    Q_OBJECT
private slots:
    void spansArriveLive();
    void spansDescribeTheirOps();
    void cancelStopsPromptly();
    void failureInAQueueThread();
    void refusesPlanOverCap();
    void executesAScheduleDirectly();
    void executesTaperedPlans_data();
    void executesTaperedPlans();
    void deviceInfo();
    void deviceNumbersAreCheckedWithAReason();
};

void TestCpuBackend::spansArriveLive()
{
    Recorder rec;
    RunConfig c = blockedConfig(StrategyKind::S2, {200, 150, 180}, 40);
    c.faults.count = 1;
    RunHooks hooks;
    hooks.observer = &rec;
    const RunRecord r = runGemm(c, hooks);
    QVERIFY(r.verifiedCorrect());
    // Spans are delivered as ops finish, not at the end: some had arrived when the 2nd
    // verification was reported.
    QVERIFY(rec.spansAtSecondVerify > 0);
    QVERIFY(rec.spansAtSecondVerify < int(r.spans.size()));
    QCOMPARE(rec.spans.size(), r.spans.size());
    QCOMPARE(rec.verifies, int(r.verifications.size()));
    QCOMPARE(rec.injects.load(), 1);
    QVERIFY(rec.progressMonotone);
    QCOMPARE(rec.lastProgress, 1.0);
}

void TestCpuBackend::spansDescribeTheirOps()
{
    Recorder rec;
    RunHooks hooks;
    hooks.observer = &rec;
    const RunRecord r = runGemm(blockedConfig(StrategyKind::S4, {150, 120, 170}, 40), hooks);
    QVERIFY(r.verifiedCorrect());
    const std::vector<Operation>& ops = rec.schedule.ops;
    QCOMPARE(r.spans.size(), ops.size());
    std::map<int, int> seen;
    std::map<Queue, int> perQueue;
    for (const Span& s : r.spans) {
        ++seen[s.opId];
        const Operation& op = ops[std::size_t(s.opId)];
        QVERIFY(s.kind == op.kind);
        QVERIFY(s.queue == op.queue);
        QCOMPARE(s.stream, op.stream);
        QVERIFY(s.block == op.block);
        QCOMPARE(s.bytes, op.bytes);
        QCOMPARE(s.flops, op.flops);
        QVERIFY(s.start >= 0 && s.end >= s.start);
        ++perQueue[s.queue];
    }
    QCOMPARE(int(seen.size()), int(ops.size()));  // every op exactly once
    QCOMPARE(perQueue.size(), std::size_t(3));
    // Each span starts after every dependency ended.
    std::map<int, Span> byOp;
    for (const Span& s : r.spans)
        byOp[s.opId] = s;
    for (const Operation& op : ops)
        for (int d : op.deps)
            QVERIFY(byOp[op.id].start >= byOp[d].end);
    QVERIFY(r.metrics.peakBufferBytes <= r.plan.capBytes);
}

void TestCpuBackend::cancelStopsPromptly()
{
    std::atomic<bool> cancel{false};
    Canceller canceller(cancel, 30);
    RunHooks hooks;
    hooks.observer = &canceller;
    hooks.cancel = &cancel;
    RunConfig c = blockedConfig(StrategyKind::S3, {400, 400, 400}, 24);
    const auto t0 = std::chrono::steady_clock::now();
    const RunRecord r = runGemm(c, hooks);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("cancelled"));
    QVERIFY(!r.verifiedCorrect());
    const std::size_t total = buildSchedule(r.plan, false).ops.size();
    QVERIFY2(r.spans.size() < total / 2, qPrintable(QStringLiteral("%1 of %2 ops ran").arg(r.spans.size()).arg(total)));
    QVERIFY2(seconds < 2.0, qPrintable(QString::number(seconds)));

    // The next run works.
    cancel = false;
    RunHooks fresh;
    fresh.cancel = &cancel;
    const RunRecord next = runGemm(blockedConfig(StrategyKind::S3, {100, 100, 100}, 24), fresh);
    QCOMPARE(QString::fromStdString(next.status), QStringLiteral("ok"));
    QVERIFY(next.verifiedCorrect());
}

void TestCpuBackend::failureInAQueueThread()
{
    std::unique_ptr<Backend> backend = makeCpuBackend();
    Thrower thrower;
    RunHooks hooks;
    hooks.observer = &thrower;
    hooks.backend = backend.get();
    const RunRecord r = runGemm(blockedConfig(StrategyKind::S2, {100, 100, 100}, 30), hooks);
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("failed"));
    QVERIFY2(QString::fromStdString(r.error).contains(QStringLiteral("observer failure")), r.error.c_str());
    QVERIFY(!r.verifiedCorrect());

    RunHooks again;
    again.backend = backend.get();
    const RunRecord next = runGemm(blockedConfig(StrategyKind::S2, {100, 100, 100}, 30), again);
    QVERIFY(next.verifiedCorrect());
}

void TestCpuBackend::refusesPlanOverCap()
{
    Plan plan = makePlan({16, 16, 16}, Precision::F32, StrategyKind::S1, 1 << 20, true);
    plan.capBytes = plan.bytesNeeded - 1;  // tampered: the pool must not go over it
    const Schedule s = buildSchedule(plan);
    HostMatrix a(Precision::F32, 16, 16), b(Precision::F32, 16, 16), c(Precision::F32, 16, 16);
    blocked_gemm::Inputs inputs;
    inputs.plan = plan;
    inputs.a = &a;
    inputs.b = &b;
    inputs.c = &c;
    ExecutionRequest req;
    req.schedule = &s;
    req.inputs = &inputs;
    try {
        makeCpuBackend()->execute(req);
        QFAIL("expected BackendError");
    } catch (const BackendError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("exceed the cap")), e.what());
    }
    inputs.c = nullptr;
    QVERIFY_THROWS_EXCEPTION(BackendError, makeCpuBackend()->execute(req));
    req.inputs = nullptr;
    QVERIFY_THROWS_EXCEPTION(BackendError, makeCpuBackend()->execute(req));
}

void TestCpuBackend::executesAScheduleDirectly()
{
    // The backend alone: a blocked f64 S3 schedule with a fault at an explicit position.
    const Shape shape{70, 50, 90};
    const Plan plan = makePlan(shape, Precision::F64, StrategyKind::S3,
                               bytesForBlocks(StrategyKind::S3, Precision::F64, true, 30, 30, 30), true);
    QVERIFY(plan.productCount() > 4);
    const Schedule s = buildSchedule(plan);
    FaultSpec spec;
    spec.at.push_back({33, 44, 5.0, 0});  // in the first k step
    FaultPlan faults = planFaults(spec, plan, 1.0);
    HostMatrix a(Precision::F64, 70, 50), b(Precision::F64, 50, 90), c(Precision::F64, 70, 90);
    const ExecutionResult res = executeOnCpu(plan, s, a, b, c, faults);
    QVERIFY(!res.cancelled);
    QCOMPARE(res.peakBufferBytes, plan.bytesNeeded);
    QCOMPARE(res.spans.size(), s.ops.size());
    QVERIFY(res.wallSeconds > 0);
    QCOMPARE(res.injections.size(), std::size_t(1));
    const Injection& inj = res.injections[0].injection;
    QVERIFY(inj.applied);
    QCOMPARE(inj.after - inj.before, 5.0);
    QCOMPARE(inj.globalRow, std::int64_t(33));
    QVERIFY(faults.injections[0].applied);  // the caller's fault plan is filled in too
    QCOMPARE(correctionsOnlyAt(res, plan, 33, 44), 1);
    const QString wrong = productMismatch(a, b, c);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
}

void TestCpuBackend::executesTaperedPlans_data()
{
    QTest::addColumn<int>("strategy");
    for (StrategyKind k : {StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        QTest::newRow(std::string(toString(k)).c_str()) << int(k);
}

// The planner's unequal blocks (thin first and last block rows and columns): every strategy's
// schedule validates, covers C exactly once, and the product comes out right with a fault in a
// thin block corrected there, in C's own coordinates.
void TestCpuBackend::executesTaperedPlans()
{
    QFETCH(int, strategy);
    const Shape shape{101, 47, 95};
    const StrategyKind kind = StrategyKind(strategy);
    const Plan equal = makePlan(shape, Precision::F64, kind, bytesForBlocks(kind, Precision::F64, true, 40, 24, 40), true);
    const Plan plan = withTaperedEnds(equal, 12, 16);
    QVERIFY(plan.tapered());
    QCOMPARE(plan.rowsOf(0), std::int64_t(12));
    QCOMPARE(plan.rowsOf(plan.splitM - 1), std::int64_t(12));
    QCOMPARE(plan.colsOf(0), std::int64_t(16));
    QCOMPARE(plan.colsOf(plan.splitQ - 1), std::int64_t(16));
    QCOMPARE(plan.bytesNeeded, equal.bytesNeeded);  // the buffers are the equal plan's
    std::int64_t rows = 0, cols = 0;
    for (int i = 0; i < plan.splitM; ++i) {
        QCOMPARE(plan.rowOffset(i), rows);
        QVERIFY(plan.rowsOf(i) >= 1 && plan.rowsOf(i) <= plan.blockM);
        QCOMPARE(plan.rowBlockOf(rows), i);
        QCOMPARE(plan.rowBlockOf(rows + plan.rowsOf(i) - 1), i);
        rows += plan.rowsOf(i);
    }
    for (int j = 0; j < plan.splitQ; ++j) {
        QCOMPARE(plan.colOffset(j), cols);
        QVERIFY(plan.colsOf(j) >= 1 && plan.colsOf(j) <= plan.blockQ);
        QCOMPARE(plan.colBlockOf(cols), j);
        cols += plan.colsOf(j);
    }
    QCOMPARE(rows, shape.m);
    QCOMPARE(cols, shape.q);

    const GemmSchedule s = buildSchedule(plan);
    QCOMPARE(validateSchedule(s), std::string());
    FaultSpec spec;
    spec.at.push_back({5, 60, 7.0, {}});  // row 5: the thin first block row
    FaultPlan faults = planFaults(spec, plan, 1.0);
    QCOMPARE(faults.injections.size(), std::size_t(1));
    QCOMPARE(faults.injections[0].block.i, 0);
    QCOMPARE(faults.injections[0].block.j, plan.colBlockOf(60));
    QCOMPARE(faults.injections[0].localCol, 60 - plan.colOffset(plan.colBlockOf(60)));
    HostMatrix a(Precision::F64, shape.m, shape.n), b(Precision::F64, shape.n, shape.q), c(Precision::F64, shape.m, shape.q);
    const ExecutionResult res = executeOnCpu(plan, s, a, b, c, faults);
    QVERIFY(res.peakBufferBytes <= plan.bytesNeeded);
    QCOMPARE(correctionsOnlyAt(res, plan, 5, 60), 1);
    const QString wrong = productMismatch(a, b, c);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
}

void TestCpuBackend::deviceInfo()
{
    const DeviceInfo d = makeCpuBackend()->device();
    QVERIFY(d.backend == BackendKind::Cpu);
    QVERIFY(QString::fromStdString(d.name).startsWith(QStringLiteral("CPU: ")));
    QVERIFY(QString::fromStdString(d.name).contains(QStringLiteral("threads")));
    QVERIFY(d.memoryBytes > (64ull << 20));
    const std::unique_ptr<Backend> autoChosen = makeBackend(BackendKind::Auto);
    if (!cudaCompiledIn()) {
        QVERIFY(autoChosen->device().backend == BackendKind::Cpu);
        QVERIFY(QString::fromStdString(autoChosen->device().whyChosen).contains(QStringLiteral("auto")));
    }
}

// A device number is a CUDA request: refused with a reason on the CPU backend and where that
// device does not exist (no GPU here, or fewer than 1000 of them).
void TestCpuBackend::deviceNumbersAreCheckedWithAReason()
{
    auto inputError = [](auto&& call) -> QString {
        try {
            call();
        } catch (const InputError& e) {
            return QString::fromStdString(e.what());
        }
        return {};
    };
    const QString cpu = inputError([] { makeBackend(BackendKind::Cpu, 0); });
    QVERIFY2(cpu.contains(QStringLiteral("--device 0")) && cpu.contains(QStringLiteral("--backend cpu")), qPrintable(cpu));
    for (BackendKind kind : {BackendKind::Auto, BackendKind::Cuda}) {
        const QString missing = inputError([kind] { makeBackend(kind, 999); });
        QVERIFY2(missing.startsWith(QStringLiteral("--device 999 is not available: ")), qPrintable(missing));
    }
    std::string why;
    QVERIFY(!makeCudaBackend(&why, 999));
    QVERIFY(!why.empty());
    RunConfig config;
    config.shape = {4, 4, 4};
    config.backend = BackendKind::Cpu;
    config.device = -2;
    const QString negative = inputError([&] { runGemm(config); });
    QVERIFY2(negative.contains(QStringLiteral("0 or more")), qPrintable(negative));
}

QTEST_GUILESS_MAIN(TestCpuBackend)
#include "tst_cpu_backend.moc"
