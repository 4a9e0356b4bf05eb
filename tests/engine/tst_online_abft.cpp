// The online ABFT family (seed 002) on the CPU backend: the checksum relation after every step,
// faults caught at the step they strike, online against offline, weighted checksums, input
// faults, TMR, clean runs of every scheme, the schedule and the record.
#include "test_helpers.hpp"

#include "core/op_table.hpp"
#include "gemm/cuda/tuning_choice.hpp"
#include "families/online_abft/inputs.hpp"
#include "families/online_abft/ops.hpp"
#include "families/online_abft/plan/schedule_builder.hpp"

#include "gigacheck/online_abft.hpp"
#include "engine/online_run_helpers.hpp"
#include "gigacheck/weighted_checksums.hpp"

#include <QtTest>

#include <cstring>
#include <random>


using namespace gigacheck;
using gigacheck::test::inputErrorOf;
using gigacheck::test::qs;
using test::at;
using test::checkAt;

namespace {

// Enums compared by their names, which QTest can print.
template <class E> QString name(E value) { return qs(toString(value)); }

OnlineConfig config(Shape shape, Scheme scheme = Scheme::Online, std::int64_t panel = 0, int fq = 1, int k = 1)
{
    OnlineConfig c;
    c.shape = shape;
    c.backend = BackendKind::Cpu;
    c.scheme = scheme;
    c.panel = panel;
    c.checkEvery = scheme == Scheme::Offline ? 0 : fq;
    c.checksums = k;
    c.reference = ReferenceMode::Full;
    return c;
}

int countVerdict(const OnlineRecord& r, Verdict v)
{
    int n = 0;
    for (const VerifyEvent& e : r.verifications)
        n += e.result.verdict == v;
    return n;
}

}  // namespace

class TestOnlineAbft : public QObject {
    Q_OBJECT
private slots:
    void checksumRelationAfterEveryStep_data();
    void checksumRelationAfterEveryStep();
    void faultAtStepCorrectedAtThatStep();
    void twoFaultsOnlineAgainstOffline();
    void twoFaultsInOneRow();
    void weightedChecksumsCorrectKAndFlagKPlusOne_data();
    void weightedChecksumsCorrectKAndFlagKPlusOne();
    void weightedVerifierOnItsOwn();
    void checksumFaultsRebuilt();
    void inputFaultsReportedAsSuch();
    void tmrOutvotesOneReplica();
    void twoBitFlipsStrikeOneWordTwice();
    void noFalsePositivesOverCleanRuns_data();
    void noFalsePositivesOverCleanRuns();
    void scheduleShape();
    void columnBlockScheduleRunsBlocksApart();
    void columnBlocksWhereTheyRun();
    void mergedStepsSchedule();
    void mergedStepsEndLikeEveryStep();
    void inconsistentSettingsRefused();
    void recordRoundTrip();
    void panelTuningKeepsAPreferredTileOnlyWithinItsMargin();
};

void TestOnlineAbft::checksumRelationAfterEveryStep_data()
{
    QTest::addColumn<qint64>("m");
    QTest::addColumn<qint64>("n");
    QTest::addColumn<qint64>("q");
    QTest::addColumn<qint64>("panel");
    QTest::addColumn<int>("k");
    QTest::addColumn<bool>("f64");
    QTest::newRow("1x1x1 b1") << qint64(1) << qint64(1) << qint64(1) << qint64(1) << 1 << false;
    QTest::newRow("7x13x5 b3") << qint64(7) << qint64(13) << qint64(5) << qint64(3) << 1 << false;
    QTest::newRow("33x100x17 b7 K2") << qint64(33) << qint64(100) << qint64(17) << qint64(7) << 2 << false;
    QTest::newRow("64x65x63 b64") << qint64(64) << qint64(65) << qint64(63) << qint64(64) << 1 << true;
    QTest::newRow("129x200x3 b199 K3") << qint64(129) << qint64(200) << qint64(3) << qint64(199) << 3 << false;
    QTest::newRow("1x300x250 b17 f64 K2") << qint64(1) << qint64(300) << qint64(250) << qint64(17) << 2 << true;
    QTest::newRow("300x1x2 b1") << qint64(300) << qint64(1) << qint64(2) << qint64(1) << 1 << false;
}

// A check after every step, each clean and well inside its threshold: the full-checksum relation
// holds after every panel product, whatever the shape, the panel width or K.
void TestOnlineAbft::checksumRelationAfterEveryStep()
{
    QFETCH(qint64, m);
    QFETCH(qint64, n);
    QFETCH(qint64, q);
    QFETCH(qint64, panel);
    QFETCH(int, k);
    QFETCH(bool, f64);
    OnlineConfig c = config({m, n, q}, Scheme::Online, panel, 1, k);
    c.precision = f64 ? Precision::F64 : Precision::F32;
    const OnlineRecord r = runOnline(c);
    QCOMPARE(r.status, std::string("ok"));
    QCOMPARE(r.steps, int((n + panel - 1) / panel));
    QCOMPARE(int(r.verifications.size()), r.steps);
    for (int j = 0; j < r.steps; ++j) {
        const VerifyEvent* e = checkAt(r, j);
        QVERIFY2(e, qPrintable(QStringLiteral("no check after step %1").arg(j)));
        QCOMPARE(name(e->result.verdict), name(Verdict::Clean));
        QVERIFY2(e->result.maxCleanResidualRatio < 0.5, qPrintable(QString::number(e->result.maxCleanResidualRatio)));
    }
    QVERIFY(r.reference.passed);
    QVERIFY(r.verifiedCorrect());
}

void TestOnlineAbft::faultAtStepCorrectedAtThatStep()
{
    for (int j : {0, 2, 5, 7}) {
        OnlineConfig c = config({96, 130, 80}, Scheme::Online, 16, 1);  // 9 steps
        c.faults = {at(40, 33, j)};
        const OnlineRecord r = runOnline(c);
        QCOMPARE(r.steps, 9);
        const VerifyEvent* e = checkAt(r, j);
        QVERIFY(e);
        QCOMPARE(name(e->result.verdict), name(Verdict::Corrected));
        QCOMPARE(int(e->result.corrections.size()), 1);
        QCOMPARE(e->result.corrections[0].row, std::int64_t(40));
        QCOMPARE(e->result.corrections[0].col, std::int64_t(33));
        QCOMPARE(countVerdict(r, Verdict::Corrected), 1);
        QCOMPARE(countVerdict(r, Verdict::Uncorrectable), 0);
        QCOMPARE(int(r.injections.size()), 1);
        QCOMPARE(r.injections[0].injection.block.k, j);
        QVERIFY(r.verifiedCorrect());
    }
    // With fq = 4 a fault after step 1 waits for the check after step 3.
    OnlineConfig c = config({96, 130, 80}, Scheme::Online, 16, 4);
    c.faults = {at(5, 6, 1)};
    const OnlineRecord r = runOnline(c);
    QCOMPARE(r.checkSteps, (std::vector<int>{3, 7, 8}));
    QCOMPARE(name(checkAt(r, 3)->result.verdict), name(Verdict::Corrected));
    QVERIFY(r.verifiedCorrect());
}

// Seed 002 Table III: two faults at different steps in different rows and columns. Online (fq = 1)
// corrects each at its step; offline sees both at the end (2 x 2 candidates), flags them and
// recomputes.
void TestOnlineAbft::twoFaultsOnlineAgainstOffline()
{
    OnlineConfig online = config({100, 120, 90}, Scheme::Online, 20, 1);
    online.faults = {at(10, 20, 1), at(70, 55, 4)};
    const OnlineRecord r = runOnline(online);
    QCOMPARE(name(checkAt(r, 1)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(name(checkAt(r, 4)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(countVerdict(r, Verdict::Uncorrectable), 0);
    QVERIFY(!r.recomputed);
    QVERIFY(r.verifiedCorrect());

    OnlineConfig offline = online;
    offline.scheme = Scheme::Offline;
    offline.checkEvery = 0;
    const OnlineRecord o = runOnline(offline);
    QCOMPARE(int(o.verifications.size()), 1);
    QCOMPARE(o.verifications[0].block.k, 5);
    QCOMPARE(name(o.verifications[0].result.verdict), name(Verdict::Uncorrectable));
    QCOMPARE(int(o.verifications[0].result.mismatchRows.size()), 2);
    QCOMPARE(int(o.verifications[0].result.mismatchCols.size()), 2);
    QVERIFY(o.recomputed);
    QVERIFY(o.recomputeClean);
    QVERIFY(o.verifiedCorrect());  // by recompute
}

// The literal case: two faults in one row at different steps. Online corrects each at its step;
// at the end they are row-collinear, which one plain checksum still corrects (documented).
void TestOnlineAbft::twoFaultsInOneRow()
{
    OnlineConfig online = config({64, 100, 64}, Scheme::Online, 25, 1);
    online.faults = {at(9, 3, 0), at(9, 40, 2)};
    const OnlineRecord r = runOnline(online);
    QCOMPARE(name(checkAt(r, 0)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(name(checkAt(r, 2)->result.verdict), name(Verdict::Corrected));
    QVERIFY(r.verifiedCorrect());
    OnlineConfig offline = online;
    offline.scheme = Scheme::Offline;
    const OnlineRecord o = runOnline(offline);
    QCOMPARE(int(o.verifications.size()), 1);
    QCOMPARE(name(o.verifications[0].result.verdict), name(Verdict::Corrected));
    QCOMPARE(int(o.verifications[0].result.mismatchRows.size()), 1);
    QCOMPARE(int(o.verifications[0].result.corrections.size()), 2);
    QVERIFY(o.verifiedCorrect());
}

void TestOnlineAbft::weightedChecksumsCorrectKAndFlagKPlusOne_data()
{
    QTest::addColumn<int>("k");
    QTest::addColumn<bool>("f64");
    QTest::newRow("K=2 f32") << 2 << false;
    QTest::newRow("K=3 f32") << 3 << false;
    QTest::newRow("K=4 f64") << 4 << true;
}

// K errors in one check, each in its own row and column, are located by the K weighted sums of
// each row (a K x K system) and corrected; K + 1 are flagged (and recomputed), C left as it was.
void TestOnlineAbft::weightedChecksumsCorrectKAndFlagKPlusOne()
{
    QFETCH(int, k);
    QFETCH(bool, f64);

    std::vector<OnlineFault> faults;
    for (int e = 0; e <= k; ++e)
        faults.push_back(at(7 + 23 * e, 3 + 19 * e, 2));
    OnlineConfig c = config({150, 96, 140}, Scheme::Online, 32, 1, k);
    c.precision = f64 ? Precision::F64 : Precision::F32;
    c.faults.assign(faults.begin(), faults.begin() + k);
    const OnlineRecord r = runOnline(c);
    QCOMPARE(name(checkAt(r, 2)->result.verdict), name(Verdict::Corrected));
    QCOMPARE(int(checkAt(r, 2)->result.corrections.size()), k);
    QVERIFY(!r.recomputed);
    QVERIFY(r.verifiedCorrect());

    c.faults = faults;
    const OnlineRecord flagged = runOnline(c);
    QCOMPARE(name(checkAt(flagged, 2)->result.verdict), name(Verdict::Uncorrectable));
    QVERIFY(flagged.recomputed && flagged.recomputeClean);
    QVERIFY(flagged.verifiedCorrect());

    // The plain checksum (K = 1) flags two such errors.
    OnlineConfig plain = config({150, 96, 140}, Scheme::Online, 32, 1, 1);
    plain.faults.assign(faults.begin(), faults.begin() + 2);
    QCOMPARE(name(checkAt(runOnline(plain), 2)->result.verdict), name(Verdict::Uncorrectable));
}

// verifyWeighted on a full-checksum matrix built by hand: K errors in one row are found by the
// row's K weighted sums and corrected to within round-off; the weights stay in [-1, 1].
void TestOnlineAbft::weightedVerifierOnItsOwn()
{
    const std::int64_t rows = 40, cols = 50;
    for (int k = 2; k <= 4; ++k) {
        const std::int64_t ld = cols + k;
        std::vector<double> c(static_cast<std::size_t>((rows + k) * ld));
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> u(-1, 1);
        for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t j = 0; j < cols; ++j)
                c[std::size_t(i * ld + j)] = u(rng);
        // Checksums: columns from the rows, then the rows over all columns.
        for (std::int64_t i = 0; i < rows; ++i)
            for (int t = 0; t < k; ++t) {
                double s = 0;
                for (std::int64_t j = 0; j < cols; ++j)
                    s += checksumWeight(t, j) * c[std::size_t(i * ld + j)];
                c[std::size_t(i * ld + cols + t)] = s;
            }
        for (int t = 0; t < k; ++t)
            for (std::int64_t j = 0; j < cols + k; ++j) {
                double s = 0;
                for (std::int64_t i = 0; i < rows; ++i)
                    s += checksumWeight(t, i) * c[std::size_t(i * ld + j)];
                c[std::size_t((rows + t) * ld + j)] = s;
            }
        const std::vector<double> good = c;
        Thresholds t;
        t.row.assign(std::size_t(rows + k), 1e-9);
        t.col.assign(std::size_t(cols + k), 1e-9);
        // K errors in row 11 and one more in other rows would exceed K candidate columns: K only.
        for (int e = 0; e < k; ++e)
            c[std::size_t(11 * ld + 5 + 9 * e)] += 3.0 + e;
        VerifyResult r = verifyWeighted(c.data(), rows, cols, ld, k, t);
        QCOMPARE(name(r.verdict), name(Verdict::Corrected));
        QCOMPARE(int(r.corrections.size()), k);
        for (std::size_t x = 0; x < c.size(); ++x)
            QVERIFY(std::fabs(c[x] - good[x]) < 1e-10);
        for (std::int64_t j = 0; j < 1000; ++j)
            QVERIFY(std::fabs(checksumWeight(k - 1, j)) <= 1.0);
    }
}

void TestOnlineAbft::checksumFaultsRebuilt()
{
    for (int k : {1, 2}) {
        OnlineConfig c = config({50, 60, 40}, Scheme::Online, 20, 1, k);
        c.faults = {at(0, 7, 0, OnlineTarget::ChecksumRow), at(12, k - 1, 1, OnlineTarget::ChecksumCol)};
        const OnlineRecord r = runOnline(c);
        QCOMPARE(name(checkAt(r, 0)->result.verdict), name(Verdict::Corrected));
        QVERIFY(checkAt(r, 0)->result.checksumsRecomputed);
        QCOMPARE(name(checkAt(r, 1)->result.verdict), name(Verdict::Corrected));
        QCOMPARE(name(checkAt(r, 2)->result.verdict), name(Verdict::Clean));
        QVERIFY(r.verifiedCorrect());
    }
}

// A fault in A after its checksums spreads along a row of C, one in B along a column: reported as
// an input fault (found at the first check after its panel was used, corrected in the input and
// in C), not as a pile of uncorrectable cells. One before the checksums is found at encoding.
void TestOnlineAbft::inputFaultsReportedAsSuch()
{
    struct Case {
        OnlineTarget target;
        std::int64_t row, col;
        int step, k, caughtAt;
    };
    // 4 steps of 25 (n = 100): A(17, 60) is in panel 2, B(80, 9) in panel 3.
    for (const Case& x : {Case{OnlineTarget::A, 17, 60, 0, 1, 2}, Case{OnlineTarget::B, 80, 9, 1, 1, 3},
                          Case{OnlineTarget::A, 17, 60, 0, 2, 2}, Case{OnlineTarget::B, 80, 9, 1, 3, 3}}) {
        OnlineConfig c = config({70, 100, 60}, Scheme::Online, 25, 1, x.k);
        OnlineFault f = at(x.row, x.col, x.step, x.target);
        f.delta = 4.0;
        c.faults = {f};
        const OnlineRecord r = runOnline(c);
        QCOMPARE(int(r.inputFaults.size()), 1);
        const InputFaultReport& in = r.inputFaults[0];
        QCOMPARE(name(in.operand), name(x.target));
        QCOMPARE(in.row, x.row);
        QCOMPARE(in.col, x.col);
        QCOMPARE(in.caughtAtStep, x.caughtAt);
        QVERIFY(!in.beforeChecksum);
        QVERIFY(in.corrected);
        QCOMPARE(in.cellsOff, x.target == OnlineTarget::A ? std::int64_t(60) : std::int64_t(70));
        QVERIFY(std::fabs(in.delta - 4.0) < 1e-5);
        QCOMPARE(countVerdict(r, Verdict::Uncorrectable), 0);
        QVERIFY(!r.recomputed);
        QVERIFY(r.verifiedCorrect());
    }
    // Before the checksums (no @STEP): found at encoding against the sums taken where it was made.
    for (OnlineTarget target : {OnlineTarget::A, OnlineTarget::B}) {
        OnlineConfig c = config({70, 100, 60}, Scheme::Online, 25, 1);
        OnlineFault f = at(3, 4, 0, target);
        f.step.reset();
        c.faults = {f};
        const OnlineRecord r = runOnline(c);
        QCOMPARE(int(r.inputFaults.size()), 1);
        QVERIFY(r.inputFaults[0].beforeChecksum);
        QCOMPARE(r.inputFaults[0].caughtAtStep, -1);
        QCOMPARE(countVerdict(r, Verdict::Clean), 4);
        QVERIFY(r.verifiedCorrect());
    }
    // A bit flip of the top exponent bit (a value of ~1e38): the row of C is computed again, not
    // corrected by subtraction, so nothing is lost to cancellation.
    for (OnlineTarget target : {OnlineTarget::A, OnlineTarget::B}) {
        OnlineConfig c = config({70, 100, 60}, Scheme::Online, 25, 1);
        c.model = FaultModel::BitFlip;
        // The inner index (A's column, B's row) 30 lies in panel 1: used after the fault strikes.
        c.faults = {target == OnlineTarget::A ? at(17, 30, 0, target) : at(30, 17, 0, target)};
        const OnlineRecord r = runOnline(c);
        QCOMPARE(int(r.inputFaults.size()), 1);
        QVERIFY(r.inputFaults[0].corrected);
        QCOMPARE(r.inputFaults[0].caughtAtStep, 1);
        QVERIFY2(r.verifiedCorrect(), qPrintable(QString::number(r.reference.maxRelError)));
    }
    // After its panel was used: C never sees it (nothing to report, the product is right).
    OnlineConfig late = config({70, 100, 60}, Scheme::Online, 25, 1);
    late.faults = {at(3, 4, 2, OnlineTarget::A)};
    const OnlineRecord r = runOnline(late);
    QVERIFY(r.inputFaults.empty());
    QVERIFY(r.verifiedCorrect());
}

// --fault bitflip:B+B2: both bits of the struck word flip at once, in C (corrected at its step),
// in A before its checksums, and in a TMR replica; the record and the report keep both bits.
void TestOnlineAbft::twoBitFlipsStrikeOneWordTwice()
{
    const std::uint32_t mask = (1u << 20) | (1u << 29);
    for (Scheme scheme : {Scheme::Online, Scheme::Tmr}) {
        OnlineConfig c = config({48, 64, 40}, scheme, 16, 1);
        c.model = FaultModel::BitFlip;
        c.bit = 20;
        c.bit2 = 29;
        c.faults = {at(5, 7, scheme == Scheme::Tmr ? 1 : 2)};
        const OnlineRecord r = runOnline(c);
        QCOMPARE(int(r.injections.size()), 1);
        const Injection& inj = r.injections[0].injection;
        QVERIFY(inj.applied);
        QCOMPARE(inj.bit, 20);
        QCOMPARE(inj.bit2, 29);
        QCOMPARE(test::flippedBitsF32(inj.before, inj.after), mask);
        QVERIFY2(r.verifiedCorrect(), qPrintable(name(scheme)));
        QVERIFY(formatOnlineReport(r).find("bit 20+29 flipped") != std::string::npos);
        const OnlineRecord back = onlineRecordFromJson(onlineToJson(r));
        QCOMPARE(back.config.bit2, 29);
        QCOMPARE(back.injections[0].injection.bit2, 29);
    }
    // One bit twice is no two-bit flip; a bit past the element is refused before anything runs.
    OnlineConfig same = config({48, 64, 40});
    same.model = FaultModel::BitFlip;
    same.bit = same.bit2 = 7;
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(same, BackendKind::Cpu); }).contains(QStringLiteral("two different bits")));
    same.bit2 = 32;
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(same, BackendKind::Cpu); }).contains(QStringLiteral("bits 0-31")));
}

void TestOnlineAbft::tmrOutvotesOneReplica()
{
    OnlineConfig c = config({60, 70, 50}, Scheme::Tmr);
    c.faults = {at(3, 4, 0), at(10, 11, 1), at(20, 21, 2)};
    OnlineRecord r = runOnline(c);
    QVERIFY(r.vote);
    QCOMPARE(r.vote->cellsOutvoted, std::int64_t(3));
    QCOMPARE(r.vote->cellsWithoutMajority, std::int64_t(0));
    QVERIFY(r.verifiedCorrect());

    QCOMPARE(r.vote->cellsRecomputed, std::int64_t(3));
    QCOMPARE(r.vote->majorityOverruled, std::int64_t(0));

    // No majority: the cell is computed again from A and B, and C is right.
    c.faults = {at(3, 4, 0), at(3, 4, 2)};
    r = runOnline(c);
    QCOMPARE(r.vote->cellsWithoutMajority, std::int64_t(1));
    QCOMPARE(r.vote->noMajority[0], (std::pair<std::int64_t, std::int64_t>{3, 4}));
    QCOMPARE(r.vote->cellsRecomputed, std::int64_t(1));
    QVERIFY(r.vote->settled());
    QVERIFY(r.reference.passed);
    QVERIFY(r.verifiedCorrect());
}

void TestOnlineAbft::noFalsePositivesOverCleanRuns_data()
{
    QTest::addColumn<int>("scheme");
    QTest::addColumn<int>("fq");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("dist");
    QTest::addColumn<bool>("f64");
    int row = 0;
    for (Scheme s : {Scheme::Online, Scheme::Offline, Scheme::Tmr})
        for (int k : {1, 2, 3})
            for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Wide})
                for (bool f64 : {false, true}) {
                    if (s == Scheme::Tmr && k > 1)
                        continue;
                    QTest::addRow("%d %s K%d %s %s", row++, toString(s).data(), k, toString(d).data(), f64 ? "f64" : "f32")
                        << int(s) << (row % 3) + 1 << k << int(d) << f64;
                }
}

void TestOnlineAbft::noFalsePositivesOverCleanRuns()
{
    QFETCH(int, scheme);
    QFETCH(int, fq);
    QFETCH(int, k);
    QFETCH(int, dist);
    QFETCH(bool, f64);
    OnlineConfig c = config({97, 211, 83}, Scheme(scheme), 32, fq, k);
    c.distribution = Distribution(dist);
    c.precision = f64 ? Precision::F64 : Precision::F32;
    c.seed = std::uint64_t(3 + dist + 10 * k);
    const OnlineRecord r = runOnline(c);
    QCOMPARE(r.status, std::string("ok"));
    QCOMPARE(countVerdict(r, Verdict::Clean), int(r.verifications.size()));
    for (const VerifyEvent& e : r.verifications)
        QVERIFY2(e.result.maxCleanResidualRatio < 0.5, qPrintable(QString::number(e.result.maxCleanResidualRatio)));
    QVERIFY(r.inputFaults.empty());
    QVERIFY(!r.recomputed);
    if (r.vote)
        QCOMPARE(r.vote->cellsOutvoted, std::int64_t(0));
    QVERIFY(r.verifiedCorrect());
}

void TestOnlineAbft::scheduleShape()
{
    OnlineConfig c = config({40, 100, 30}, Scheme::Online, 30, 2, 2);  // steps of 30, 30, 30, 10
    c.faults = {at(1, 1, 1)};
    online_abft::OnlineInputs in;
    in.scheme = c.scheme;
    in.checksums = 2;
    in.panel = c.panelWidth();
    in.steps = c.steps();
    in.checkEvery = 2;
    online_abft::PlannedFault f;
    f.at = c.faults[0];
    in.faults = {f};
    const online_abft::OnlinePlan plan = online_abft::makeOnlinePlan(c.shape, c.precision, in);
    const Schedule s = online_abft::buildOnlineSchedule(plan, in, c);
    QCOMPARE(QString::fromStdString(validateOperations(s)), QString());
    QStringList kinds;
    for (const Operation& op : s.ops)
        kinds << qs(toString(op.kind)) + (op.kind == online_abft::kPanelProduct || op.kind == online_abft::kCheck ||
                                                  op.kind == online_abft::kInjectFault
                                              ? QString::number(op.block.k)
                                              : QString());
    QCOMPARE(kinds.join(QLatin1Char(' ')),
             QStringLiteral("load-inputs load-inputs encode panel-product0 panel-product1 inject-fault1 check1 "
                            "panel-product2 panel-product3 check3 store-result"));
    QCOMPARE(s.ops[3].depth, std::int64_t(30));
    QCOMPARE(s.ops[8].depth, std::int64_t(10));
    QCOMPARE(plan.buffers[online_abft::kSlotC].rows, std::int64_t(42));
    QCOMPARE(plan.buffers[online_abft::kSlotC].cols, std::int64_t(32));
    QCOMPARE(name(opKindFromString("panel-product")), name(online_abft::kPanelProduct));
}

// G column blocks (README "Column blocks"): each block's chain on its own stream, depending on no
// other block's op but the inputs' loads (every encode waits for A and every block's B); faults land in the block of their column; the loads and
// stores of the blocks cover B and C exactly.
void TestOnlineAbft::columnBlockScheduleRunsBlocksApart()
{
    OnlineConfig c = config({40, 100, 300}, Scheme::Online, 30, 2);  // 4 steps, checks after 1 and 3
    c.backend = BackendKind::Cuda;
    c.columnBlocks = 3;
    online_abft::OnlineInputs in;
    in.scheme = c.scheme;
    in.shape = c.shape;
    in.columnBlocks = resolvedColumnBlocks(c, BackendKind::Cuda);
    QCOMPARE(in.columnBlocks, 3);
    in.panel = c.panelWidth();
    in.steps = c.steps();
    in.checkEvery = 2;
    const auto planned = [](OnlineFault f) {
        online_abft::PlannedFault p;
        p.at = f;
        return p;
    };
    in.faults = {planned(at(1, 250, 1)), planned(at(0, 2, 0, OnlineTarget::ChecksumCol)),
                 planned(at(0, 70, 3, OnlineTarget::ChecksumRow))};
    QCOMPARE(online_abft::blockOf(in, in.faults[0].at), 2);
    QCOMPARE(online_abft::blockOf(in, in.faults[1].at), 2);
    QCOMPARE(online_abft::blockOf(in, in.faults[2].at), 1);
    std::int64_t covered = 0;
    for (int b = 0; b < 3; ++b) {
        const online_abft::ColumnBlock cb = online_abft::columnBlock(in, b);
        QCOMPARE(cb.col, covered);
        QVERIFY(cb.cols >= 64);
        covered += cb.cols;
    }
    QCOMPARE(covered, std::int64_t(300));

    const online_abft::OnlinePlan plan = online_abft::makeOnlinePlan(c.shape, c.precision, in);
    const Schedule s = online_abft::buildOnlineSchedule(plan, in, c);
    QCOMPARE(QString::fromStdString(validateOperations(s)), QString());
    QCOMPARE(s.streams, 3);
    QCOMPARE(plan.buffers.size(), std::size_t(1 + 3 * 3));
    QCOMPARE(plan.buffers[std::size_t(online_abft::slotC(1))].cols, online_abft::columnBlock(in, 1).cols + 1);
    const int loadA = 0;
    QCOMPARE(name(s.ops[loadA].kind), name(online_abft::kLoadInputs));
    std::vector<QStringList> chains(3);
    std::vector<std::int64_t> stored(3), loaded(3);
    for (const Operation& op : s.ops) {
        if (op.id == loadA)
            continue;
        const int b = op.block.j;
        QCOMPARE(op.stream, b);
        // Only the inputs' loads are shared: every encode waits for all of them.
        for (int d : op.deps)
            QVERIFY2(d == loadA || s.ops[std::size_t(d)].block.j == b ||
                         (op.kind == online_abft::kEncode && s.ops[std::size_t(d)].kind == online_abft::kLoadInputs),
                     qPrintable(QStringLiteral("op %1").arg(op.id)));
        if (op.kind == online_abft::kEncode)
            QCOMPARE(op.deps.size(), std::size_t(1 + 3));
        if (op.kind == online_abft::kPanelProduct || op.kind == online_abft::kCheck || op.kind == online_abft::kInjectFault)
            chains[std::size_t(b)] << name(op.kind) + QString::number(op.block.k);
        if (op.kind == online_abft::kStoreResult)
            stored[std::size_t(b)] = op.host.col;
        if (op.kind == online_abft::kLoadInputs)
            loaded[std::size_t(b)] = op.host.col;
    }
    QCOMPARE(chains[0].join(QLatin1Char(' ')),
             QStringLiteral("panel-product0 panel-product1 check1 panel-product2 panel-product3 check3"));
    QCOMPARE(chains[1].join(QLatin1Char(' ')),
             QStringLiteral("panel-product0 panel-product1 check1 panel-product2 panel-product3 inject-fault3 check3"));
    QCOMPARE(chains[2].join(QLatin1Char(' ')),
             QStringLiteral("panel-product0 inject-fault0 panel-product1 inject-fault1 check1 panel-product2 "
                            "panel-product3 check3"));
    for (int b = 0; b < 3; ++b) {
        QCOMPARE(stored[std::size_t(b)], online_abft::columnBlock(in, b).col);
        QCOMPARE(loaded[std::size_t(b)], online_abft::columnBlock(in, b).col);
    }
}

// Auto: two blocks on the GPU's device path for q >= 4096, one elsewhere; more than one is
// refused where C is checked whole, with the reason.
void TestOnlineAbft::columnBlocksWhereTheyRun()
{
    OnlineConfig c = config({64, 64, 4096});
    QCOMPARE(resolvedColumnBlocks(c, BackendKind::Cuda), 2);
    QCOMPARE(resolvedColumnBlocks(c, BackendKind::Cpu), 1);
    OnlineConfig narrow = config({64, 64, 4000});
    QCOMPARE(resolvedColumnBlocks(narrow, BackendKind::Cuda), 1);
    OnlineConfig weighted = config({64, 64, 4096}, Scheme::Online, 0, 1, 2);
    QCOMPARE(resolvedColumnBlocks(weighted, BackendKind::Cuda), 1);
    OnlineConfig tf32 = c;
    tf32.gemm = GemmVariant::CublasTf32;
    QCOMPARE(resolvedColumnBlocks(tf32, BackendKind::Cuda), 1);

    OnlineConfig two = config({64, 64, 256});
    two.columnBlocks = 2;
    validateOnlineConfig(two, BackendKind::Cuda);
    QVERIFY(inputErrorOf([&] { runOnline(two); }).contains(QStringLiteral("the CPU backend builds C as one block")));
    weighted.columnBlocks = 2;
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(weighted, BackendKind::Cuda); }).contains(QStringLiteral("host-checked")));
    tf32.columnBlocks = 2;
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(tf32, BackendKind::Cuda); }).contains(QStringLiteral("cublas-tf32")));
    OnlineConfig tooNarrow = config({64, 64, 100});
    tooNarrow.columnBlocks = 2;
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(tooNarrow, BackendKind::Cuda); }).contains(QStringLiteral("64 columns")));
    two.columnBlocks = 9;
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(two, BackendKind::Cuda); }).contains(QStringLiteral("--column-blocks")));
    // checksum-col names the block's checksum column: 0..G-1 with K = 1.
    OnlineConfig sums = config({64, 64, 256});
    sums.columnBlocks = 2;
    sums.faults = {at(3, 1, 0, OnlineTarget::ChecksumCol)};
    validateOnlineConfig(sums, BackendKind::Cuda);
    sums.faults[0].col = 2;
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(sums, BackendKind::Cuda); }).contains(QStringLiteral("outside")));
}

// Merged steps (README "Merged steps"): the steps between two checks as one product op of their
// panels together; a fault after a step inside a group splits it there, per column block.
void TestOnlineAbft::mergedStepsSchedule()
{
    OnlineConfig c = config({40, 100, 300}, Scheme::Online, 30, 2);  // steps 30, 30, 30, 10; checks after 1, 3
    c.backend = BackendKind::Cuda;
    c.columnBlocks = 3;
    online_abft::OnlineInputs in;
    in.scheme = c.scheme;
    in.shape = c.shape;
    in.columnBlocks = 3;
    in.panel = c.panelWidth();
    in.steps = c.steps();
    in.checkEvery = 2;
    in.mergeSteps = true;
    const auto planned = [](OnlineFault f) {
        online_abft::PlannedFault p;
        p.at = f;
        return p;
    };
    in.faults = {planned(at(1, 250, 0)), planned(at(0, 70, 2, OnlineTarget::ChecksumRow))};  // blocks 2 and 1
    const online_abft::OnlinePlan plan = online_abft::makeOnlinePlan(c.shape, c.precision, in);
    const Schedule s = online_abft::buildOnlineSchedule(plan, in, c);
    QCOMPARE(QString::fromStdString(validateOperations(s)), QString());
    std::vector<QStringList> chains(3);
    for (const Operation& op : s.ops)
        if (op.kind == online_abft::kPanelProduct)
            chains[std::size_t(op.block.j)] << QStringLiteral("product%1+%2").arg(op.block.k).arg(op.depth);
        else if (op.kind == online_abft::kCheck || op.kind == online_abft::kInjectFault)
            chains[std::size_t(op.block.j)] << name(op.kind) + QString::number(op.block.k);
    QCOMPARE(chains[0].join(QLatin1Char(' ')), QStringLiteral("product0+60 check1 product2+40 check3"));
    QCOMPARE(chains[1].join(QLatin1Char(' ')),
             QStringLiteral("product0+60 check1 product2+30 inject-fault2 product3+10 check3"));
    QCOMPARE(chains[2].join(QLatin1Char(' ')),
             QStringLiteral("product0+30 inject-fault0 product1+30 check1 product2+40 check3"));
    for (const Operation& op : s.ops)
        if (op.kind == online_abft::kPanelProduct)
            QCOMPARE(op.accumulate, op.block.k > 0);

    // Offline, one block: one product of the whole inner dimension, then the check.
    OnlineConfig off = config({40, 100, 30}, Scheme::Offline, 30);
    online_abft::OnlineInputs one;
    one.scheme = off.scheme;
    one.shape = off.shape;
    one.panel = off.panelWidth();
    one.steps = off.steps();
    one.checkEvery = 0;
    one.mergeSteps = true;
    const Schedule o = online_abft::buildOnlineSchedule(online_abft::makeOnlinePlan(off.shape, off.precision, one), one, off);
    QStringList kinds;
    for (const Operation& op : o.ops)
        kinds << qs(toString(op.kind));
    QCOMPARE(kinds.join(QLatin1Char(' ')), QStringLiteral("load-inputs load-inputs encode panel-product check store-result"));
    QCOMPARE(o.ops[3].depth, std::int64_t(100));
}

// A merged run finds, corrects and reports what the run with a product per step does: the same
// checks, the same corrected cells at the same steps, the result within the reference.
void TestOnlineAbft::mergedStepsEndLikeEveryStep()
{
    struct Case {
        Scheme scheme;
        int fq;
        std::vector<OnlineFault> faults;
        int products;  // with merged steps
    };
    const std::vector<Case> cases{
        {Scheme::Online, 4, {at(5, 6, 1)}, 4},                 // groups 0-1 | 2-3 | 4-7 | 8
        {Scheme::Online, 2, {at(70, 3, 4), at(2, 50, 6)}, 7},    // 0-1 | 2-3 | 4 | 5 | 6 | 7 | 8
        {Scheme::Offline, 0, {at(11, 12, 8)}, 1},
        {Scheme::Online, 3, {}, 3},
    };
    for (const Case& k : cases) {
        OnlineConfig c = config({96, 130, 80}, k.scheme, 16, k.fq);  // 9 steps
        c.faults = k.faults;
        c.mergeSteps = StepMerge::Off;
        const OnlineRecord every = runOnline(c);
        c.mergeSteps = StepMerge::On;
        const OnlineRecord merged = runOnline(c);
        QVERIFY(!every.mergedSteps);
        QCOMPARE(every.panelProducts, 9);
        QVERIFY(merged.mergedSteps);
        QCOMPARE(merged.panelProducts, k.products);
        QVERIFY(merged.verifiedCorrect());
        QCOMPARE(merged.checkSteps, every.checkSteps);
        QCOMPARE(merged.verifications.size(), every.verifications.size());
        for (std::size_t i = 0; i < every.verifications.size(); ++i) {
            const VerifyResult& a = every.verifications[i].result;
            const VerifyResult& b = merged.verifications[i].result;
            QCOMPARE(merged.verifications[i].block.k, every.verifications[i].block.k);
            QCOMPARE(name(b.verdict), name(a.verdict));
            QCOMPARE(b.corrections.size(), a.corrections.size());
            for (std::size_t x = 0; x < a.corrections.size(); ++x) {
                QCOMPARE(b.corrections[x].row, a.corrections[x].row);
                QCOMPARE(b.corrections[x].col, a.corrections[x].col);
            }
        }
        QCOMPARE(merged.injections.size(), k.faults.size());
    }
    // Auto merges on the GPU's device path only: the CPU keeps a product per step (the step view).
    OnlineConfig c = config({96, 130, 80}, Scheme::Online, 16, 4);
    QVERIFY(!resolvedMergeSteps(c, BackendKind::Cpu));
    QVERIFY(resolvedMergeSteps(c, BackendKind::Cuda));
    QCOMPARE(runOnline(c).panelProducts, 9);
    c.checksums = 2;  // the host-checked path: a product per step
    QVERIFY(!resolvedMergeSteps(c, BackendKind::Cuda));
    c.mergeSteps = StepMerge::On;
    QVERIFY(inputErrorOf([&] { runOnline(c); }).contains(QStringLiteral("--merge-steps on")));
    OnlineConfig tmr = config({10, 10, 10}, Scheme::Tmr);
    tmr.mergeSteps = StepMerge::On;
    QVERIFY(inputErrorOf([&] { runOnline(tmr); }).contains(QStringLiteral("TMR")));
}

void TestOnlineAbft::inconsistentSettingsRefused()
{
    OnlineConfig c = config({40, 100, 30}, Scheme::Online, 30);
    c.faults = {at(1, 1, 4)};
    QVERIFY(inputErrorOf([&] { runOnline(c); }).contains(QStringLiteral("beyond the 4 step(s)")));
    c.faults = {at(40, 1, 0)};
    QVERIFY(inputErrorOf([&] { runOnline(c); }).contains(QStringLiteral("outside its matrix")));
    c.faults = {at(1, 1, 0, OnlineTarget::ChecksumRow)};
    c.faults[0].row = 1;  // K = 1: only checksum row 0 exists
    QVERIFY(inputErrorOf([&] { runOnline(c); }).contains(QStringLiteral("outside its matrix")));
    c.faults.clear();
    c.checksums = kMaxChecksums + 1;
    QVERIFY(inputErrorOf([&] { runOnline(c); }).contains(QStringLiteral("--checksums")));
    OnlineConfig t = config({10, 10, 10}, Scheme::Tmr);
    t.faults = {at(1, 1, 3)};
    QVERIFY(inputErrorOf([&] { runOnline(t); }).contains(QStringLiteral("replica")));
    t.faults = {at(1, 1, 0, OnlineTarget::A)};
    QVERIFY(inputErrorOf([&] { runOnline(t); }).contains(QStringLiteral("TMR")));
    // The device runs K weighted checksums and faults in A / B (the host-checked path), but not
    // with TF32, whose threshold is derived for one checksum row and column only.
    validateOnlineConfig(config({8, 8, 8}, Scheme::Online, 4, 1, 2), BackendKind::Cuda);
    OnlineConfig input = config({8, 8, 8}, Scheme::Online, 4, 1, 1);
    input.faults = {at(1, 1, 0, OnlineTarget::A)};
    validateOnlineConfig(input, BackendKind::Cuda);
    OnlineConfig tf32 = config({8, 8, 8}, Scheme::Online, 4, 1, 2);
    tf32.gemm = GemmVariant::CublasTf32;
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(tf32, BackendKind::Cuda); })
                .contains(QStringLiteral("derived for FP32 / FP64 products only")));
    input.gemm = GemmVariant::CublasTf32;
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(input, BackendKind::Cuda); }).contains(QStringLiteral("--target a|b")));
    // More panel steps than a run keeps (n = 2^21 in panels of 1): refused before anything is
    // allocated, with the way out; at the limit it is accepted.
    OnlineConfig many = config({8, std::int64_t(1) << 21, 8}, Scheme::Online, 1);
    QVERIFY(inputErrorOf([&] { validateOnlineConfig(many, BackendKind::Cpu); }).contains(QStringLiteral("wider --panel")));
    many.panel = 2;
    validateOnlineConfig(many, BackendKind::Cpu);
}

void TestOnlineAbft::recordRoundTrip()
{
    OnlineConfig c = config({30, 40, 20}, Scheme::Online, 16, 2, 2);
    c.faults = {at(2, 3, 0), at(5, 6, 1, OnlineTarget::B)};
    OnlineRecord r = runOnline(c);
    QVERIFY(r.panelGemm.empty());  // the CPU multiplies with OpenBLAS: no device kernel to name
    // A device run names its panel GEMMs' kernel (the report's "panel GEMM:" line); it travels.
    r.panelGemm = "cuBLASLt algo 55, tile 24, stages 31, swizzle 1, option 0: 1.338 ms per GEMM against 1.377 ms";
    const OnlineRecord back = onlineRecordFromJson(onlineToJson(r));
    QCOMPARE(back.panelGemm, r.panelGemm);
    QVERIFY(formatOnlineReport(back).find("panel GEMM: cuBLASLt algo 55") != std::string::npos);
    QCOMPARE(name(back.config.scheme), name(Scheme::Online));
    QCOMPARE(back.config.panel, std::int64_t(16));
    QCOMPARE(back.config.checkEvery, 2);
    QCOMPARE(back.config.checksums, 2);
    QCOMPARE(back.config.faults, r.config.faults);
    QCOMPARE(back.steps, r.steps);
    QCOMPARE(back.checkSteps, r.checkSteps);
    QCOMPARE(back.columnBlocks, 1);
    QCOMPARE(back.config.columnBlocks, 0);  // as asked: auto
    QCOMPARE(name(back.config.mergeSteps), name(StepMerge::Auto));
    QCOMPARE(back.mergedSteps, r.mergedSteps);
    QCOMPARE(back.panelProducts, r.panelProducts);
    QCOMPARE(back.verifications.size(), r.verifications.size());
    for (std::size_t i = 0; i < r.verifications.size(); ++i) {
        QCOMPARE(name(back.verifications[i].result.verdict), name(r.verifications[i].result.verdict));
        QCOMPARE(back.verifications[i].result.corrections.size(), r.verifications[i].result.corrections.size());
    }
    QCOMPARE(back.inputFaults.size(), r.inputFaults.size());
    QCOMPARE(back.spans.size(), r.spans.size());
    QCOMPARE(name(back.spans[3].kind), name(online_abft::kPanelProduct));
    QCOMPARE(back.verifiedCorrect(), r.verifiedCorrect());
}

// The GPU tuner's rule (tuning_choice.hpp), as the online family uses it for its panel GEMMs: the
// fastest configuration alone, unless one of a preferred tile is at most `within` slower.
void TestOnlineAbft::panelTuningKeepsAPreferredTileOnlyWithinItsMargin()
{
    using gigacheck::cuda::chooseConfiguration;
    // Lone times of the H200's finals at 16384: 128 x 128 5.397 ms, 256 x 128 5.462 ms (1.2 % slower).
    const std::vector<double> ms{5.397, 5.420, 5.462, 5.500};
    const std::vector<bool> wide{false, false, true, false};
    QCOMPARE(chooseConfiguration(ms, wide, 0.03), 2);
    QCOMPARE(chooseConfiguration(ms, wide, 0.01), 0);  // 1.2 % is more than 1 %
    QCOMPARE(chooseConfiguration(ms, {}, 0.03), 0);    // nothing preferred: the fastest
    QCOMPARE(chooseConfiguration(ms, wide, 0.0), 0);
    // A preferred configuration that is the fastest anyway, refused ones (<= 0) skipped, none at all.
    QCOMPARE(chooseConfiguration({5.5, -1.0, 5.2}, {false, true, true}, 0.03), 2);
    QCOMPARE(chooseConfiguration({-1.0, 5.0}, {true, false}, 0.5), 1);
    QCOMPARE(chooseConfiguration({-1.0, -1.0}, {true, true}, 0.5), -1);
    QCOMPARE(chooseConfiguration({}, {}, 0.03), -1);
    // Of two preferred, the faster one.
    QCOMPARE(chooseConfiguration({5.0, 5.1, 5.05}, {false, true, true}, 0.03), 2);
}

QTEST_GUILESS_MAIN(TestOnlineAbft)
#include "tst_online_abft.moc"
