// BF16 and FP16 inputs end to end on the CPU backend, which emulates `--gemm cublas-bf16 / cublas-f16`
// as the CUDA backend computes them (operands rounded to BF16 / FP16 before their checksums, FP32
// products and C; gigacheck/input_rounding.hpp): the rounding is the IEEE one, clean runs of odd
// shapes raise no alarm, every single fault of the result is corrected, a flip of any bit of a
// cell is corrected or masked, and FP16 refuses an operand beyond its range.
#include "gigacheck/campaign.hpp"
#include "gigacheck/input_rounding.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

#include "engine/gemm_run_helpers.hpp"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace gigacheck;

namespace {

const char* nameOf(InputFormat f) { return f == InputFormat::Bf16 ? "bf16" : "f16"; }
GemmVariant gemmOf(InputFormat f) { return f == InputFormat::Bf16 ? GemmVariant::CublasBf16 : GemmVariant::CublasF16; }
CampaignType campaignTypeOf(InputFormat f) { return f == InputFormat::Bf16 ? CampaignType::Bf16 : CampaignType::F16; }

RunConfig sixteenBitRun(InputFormat f, Shape shape, StrategyKind s)
{
    RunConfig cfg;
    cfg.shape = shape;
    cfg.backend = BackendKind::Cpu;
    cfg.strategy = s;
    cfg.gemm = gemmOf(f);
    cfg.reference = ReferenceMode::Full;
    cfg.memCapBytes = s == StrategyKind::None ? 0 : 3 * 256 * 256 * 4 / 4;  // s1-s4: several blocks
    return cfg;
}

CampaignConfig sixteenBitCampaign(InputFormat f, int runs)
{
    CampaignConfig c;
    c.runs = runs;
    c.shape = {160, 200, 144};
    c.type = campaignTypeOf(f);
    c.backend = BackendKind::Cpu;
    c.strategies = {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4};
    c.seed = 21;
    return c;
}

void addFormats()
{
    QTest::addColumn<InputFormat>("format");
    QTest::addRow("bf16") << InputFormat::Bf16;
    QTest::addRow("f16") << InputFormat::F16;
}

// The value of the 16-bit number nearest to x, ties to even, found by bisection over the doubles'
// exact arithmetic: the format's grid spacing at x (mantissa bits p, smallest normal exponent emin).
double nearestOnGrid(float x, int p, int emin)
{
    const double v = double(x);
    if (v == 0)
        return v;
    int e = std::ilogb(v);
    if (e < emin)
        e = emin;
    const double spacing = std::ldexp(1.0, e - p);
    const double lo = std::floor(v / spacing) * spacing, hi = lo + spacing;
    if (v - lo < hi - v)
        return lo;
    if (hi - v < v - lo)
        return hi;
    return std::fmod(lo / spacing, 2.0) == 0 ? lo : hi;  // tie: the even neighbour
}

}  // namespace

Q_DECLARE_METATYPE(InputFormat)

class Test16BitRuns : public QObject {
    Q_OBJECT
private slots:
    void roundingIsIeeeNearestEven();
    void unitRoundoffsAndThresholdModel();
    void emulationRoundsTheOperands_data() { addFormats(); }
    void emulationRoundsTheOperands();
    void cleanRunsRaiseNoFalseAlarm_data() { addFormats(); }
    void cleanRunsRaiseNoFalseAlarm();
    void everySingleResultFaultIsCorrected_data() { addFormats(); }
    void everySingleResultFaultIsCorrected();
    void flipOfAnyBitIsCorrectedOrMasked_data() { addFormats(); }
    void flipOfAnyBitIsCorrectedOrMasked();
    void f16RefusesOperandsBeyondItsRange();
};

// Random and edge values against the grid's nearest-even neighbour; FP16 also against _Float16.
void Test16BitRuns::roundingIsIeeeNearestEven()
{
    std::mt19937 gen(7);
    std::uniform_int_distribution<std::uint32_t> bits;
    int checked = 0;
    for (int i = 0; i < 200000; ++i) {
        std::uint32_t u = bits(gen);
        float x = 0;
        std::memcpy(&x, &u, sizeof x);
        if (!std::isfinite(x))
            continue;
        const float b = roundToBf16(x);
        if (std::isfinite(b)) {  // a carry past BF16's largest value gives infinity
            QCOMPARE(double(b), nearestOnGrid(x, 7, -126));
            QCOMPARE(roundToBf16(b), b);
        }
        const float h = roundToF16(x);
        if (std::fabs(x) < 65520.0f) {
            QCOMPARE(double(h), nearestOnGrid(x, 10, -14));
            QCOMPARE(roundToF16(h), h);
        } else {
            QVERIFY(std::isinf(h) && std::signbit(h) == std::signbit(x));
        }
#ifdef __FLT16_MAX__
        QCOMPARE(h, float(static_cast<_Float16>(x)));
#endif
        ++checked;
    }
    QVERIFY(checked > 190000);
    QCOMPARE(roundToBf16(1.0f + std::ldexp(1.0f, -8)), 1.0f);  // tie to even: down
    QCOMPARE(roundToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 1.0f + std::ldexp(1.0f, -6));  // tie to even: up
    QCOMPARE(roundToF16(65504.0f), 65504.0f);
    QCOMPARE(roundToF16(65519.0f), 65504.0f);
    QVERIFY(std::isinf(roundToF16(65520.0f)));
    QCOMPARE(roundToF16(std::ldexp(1.0f, -25)), 0.0f);  // half the smallest subnormal: tie to even (0)
    QCOMPARE(roundToF16(std::ldexp(1.5f, -25)), std::ldexp(1.0f, -24));
    QVERIFY(std::isnan(roundToBf16(std::numeric_limits<float>::quiet_NaN())));
    QVERIFY(std::isnan(roundToF16(std::numeric_limits<float>::quiet_NaN())));
}

// u_in of the formats; the blocked product's model is FP32's (the checksums see the rounded inputs).
void Test16BitRuns::unitRoundoffsAndThresholdModel()
{
    QCOMPARE(inputUnitRoundoff(InputFormat::Bf16), std::ldexp(1.0, -8));
    QCOMPARE(inputUnitRoundoff(InputFormat::F16), std::ldexp(1.0, -11));
    QCOMPARE(inputUnitRoundoff(InputFormat::Tf32), std::ldexp(1.0, -11));
    QCOMPARE(inputUnitRoundoff(InputFormat::F32), std::ldexp(1.0, -24));
    for (InputFormat f : {InputFormat::Bf16, InputFormat::F16}) {
        const RoundoffModel m = roundoffModel(Precision::F32, f);
        const RoundoffModel tf32 = roundoffModel(Precision::F32, true);
        QCOMPARE(m.uAccumulate, tf32.uAccumulate);
        QCOMPARE(m.uInput, 0.0);
        QVERIFY(m.tf32Operands);
        QVERIFY(m.operands == f);
        QVERIFY(roundoffModel(Precision::F64, f).operands == InputFormat::F32);  // doubles are never rounded
    }
    QVERIFY(inputFormatOf(GemmVariant::CublasBf16) == InputFormat::Bf16);
    QVERIFY(inputFormatOf(GemmVariant::CublasF16) == InputFormat::F16);
    QVERIFY(inputFormatOf(GemmVariant::CutlassTf32) == InputFormat::Tf32);
    QVERIFY(!roundsOperands(GemmVariant::Cublas));
    QCOMPARE(QString::fromLatin1(toString(GemmVariant::CublasBf16).data()), QStringLiteral("cublas-bf16"));
    QVERIFY(gemmFromString("cublas-f16") == GemmVariant::CublasF16);
    QVERIFY(campaignTypeFromString("bf16") == CampaignType::Bf16);
    QVERIFY(campaignTypeFromString("f16") == CampaignType::F16);
}

// The emulated product equals the FP32 product of the rounded inputs, not that of the inputs.
void Test16BitRuns::emulationRoundsTheOperands()
{
    QFETCH(InputFormat, format);
    RunConfig cfg = sixteenBitRun(format, {33, 70, 21}, StrategyKind::None);
    HostMatrix a, b;
    const test::FinishedRun run = test::runKeepingC(cfg, test::copyInputsTo(a, b));
    const RunRecord& r = run.record;
    QCOMPARE(QString::fromStdString(r.status), QStringLiteral("ok"));
    QVERIFY(r.reference.passed);
    QVERIFY(r.verifiedCorrect());
    const test::ModelGaps off =
        test::gapsToRoundedProduct(a, b, run.c, [format](float v) { return roundToInput(v, format); });
    qInfo("%s: largest difference to the rounded-input model %.3g, to the FP32 product %.3g", nameOf(format),
          off.toRounded, off.toPlain);
    QVERIFY(off.toRounded < 1e-5);               // FP32 accumulation only
    QVERIFY(off.toPlain > 10 * off.toRounded);  // the input rounding shows
}

// Clean products of odd, skinny and 1-wide shapes, three distributions, every strategy.
void Test16BitRuns::cleanRunsRaiseNoFalseAlarm()
{
    QFETCH(InputFormat, format);
    const Shape shapes[] = {{1, 1, 1}, {1, 300, 77}, {300, 1, 25}, {33, 17, 1}, {129, 3, 65}, {257, 129, 31}, {61, 470, 53}};
    int runs = 0;
    for (const Shape& shape : shapes)
        for (Distribution dist : {Distribution::Uniform, Distribution::Normal, Distribution::Wide}) {
            CampaignConfig c = sixteenBitCampaign(format, 10);
            c.shape = shape;
            c.distribution = dist;
            c.inject = false;
            c.seed = std::uint64_t(runs + 3);
            const CampaignResult r = runCampaign(c);
            runs += int(r.runs.size());
            QVERIFY2(r.summary.all[Outcome::Masked] == std::int64_t(r.runs.size()), formatCampaignReport(r).c_str());
        }
    QCOMPARE(runs, 7 * 3 * 10);
}

// One random fault of the result per run (deltas and bit flips), every strategy: detected and
// corrected, the corrected C within the reference's tolerance.
void Test16BitRuns::everySingleResultFaultIsCorrected()
{
    QFETCH(InputFormat, format);
    for (StrategyKind s : {StrategyKind::None, StrategyKind::S1, StrategyKind::S2, StrategyKind::S3, StrategyKind::S4})
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            RunConfig cfg = sixteenBitRun(format, {200, 131, 97}, s);
            cfg.seed = seed;
            cfg.faults.count = 1;
            cfg.faults.model = seed % 2 ? FaultModel::Delta : FaultModel::BitFlip;
            const RunRecord r = runGemm(cfg);
            const QByteArray where = QStringLiteral("%1 %2 seed %3").arg(nameOf(format), toString(s).data()).arg(seed).toLatin1();
            QVERIFY2(r.status == "ok", r.error.c_str());
            QCOMPARE(r.faults.injected, 1);
            QVERIFY2(r.faults.detected == 1 && r.faults.corrected + r.faults.correctedByRecompute == 1, where.constData());
            QCOMPARE(r.faults.falsePositives, 0);
            QVERIFY2(r.verifiedCorrect(), where.constData());
        }
}

// A holdout: one cell of a product, each of its 32 bits flipped in turn, and a campaign of flips of
// any bit of any cell (checksums included): corrected or masked, never silent, never a false alarm.
void Test16BitRuns::flipOfAnyBitIsCorrectedOrMasked()
{
    QFETCH(InputFormat, format);
    for (int bit = 0; bit < 32; ++bit) {
        RunConfig cfg = sixteenBitRun(format, {96, 160, 80}, bit % 2 ? StrategyKind::S2 : StrategyKind::None);
        cfg.faults.model = FaultModel::BitFlip;
        cfg.faults.bit = bit;
        cfg.faults.at.push_back({41, 23, std::nullopt, std::nullopt});
        const RunRecord r = runGemm(cfg);
        QVERIFY2(r.status == "ok", r.error.c_str());
        QCOMPARE(r.faults.injected, 1);
        QCOMPARE(r.faults.falsePositives, 0);
        QVERIFY2(r.reference.passed, qPrintable(QStringLiteral("%1 bit %2").arg(nameOf(format)).arg(bit)));
        if (bit >= 23)  // exponent and sign flips of a cell of ~1-10 are far above the threshold
            QVERIFY2(r.faults.detected == 1 && r.verifiedCorrect(), qPrintable(QStringLiteral("bit %1").arg(bit)));
    }
    CampaignConfig c = sixteenBitCampaign(format, 60);
    c.target = CampaignTarget::Any;
    const CampaignResult r = runCampaign(c);
    QCOMPARE(int(r.runs.size()), 60);
    for (const CampaignRun& run : r.runs) {
        if (run.operand)  // a fault of an operand before its checksums: invisible to ABFT by construction
            continue;
        QVERIFY2(run.outcome != Outcome::SilentCorruption && run.outcome != Outcome::DetectedUncorrectable &&
                     run.outcome != Outcome::FalseAlarm,
                 reproduceCommand(c, run).c_str());
    }
}

// FP16 holds nothing beyond 65504: the run refuses such an operand and names it; BF16 takes it.
void Test16BitRuns::f16RefusesOperandsBeyondItsRange()
{
    HostMatrix a(Precision::F32, 8, 6), b(Precision::F32, 6, 5);
    for (std::int64_t i = 0; i < a.rows() * a.cols(); ++i)
        a.as<float>()[i] = 0.5f;
    for (std::int64_t i = 0; i < b.rows() * b.cols(); ++i)
        b.as<float>()[i] = 2.0f;
    b.as<float>()[2 * 5 + 3] = 70000.0f;
    RunHooks hooks;
    hooks.givenA = &a;
    hooks.givenB = &b;
    RunConfig cfg = sixteenBitRun(InputFormat::F16, {8, 6, 5}, StrategyKind::None);
    bool refused = false;
    try {
        runGemm(cfg, hooks);
    } catch (const InputError& e) {
        refused = true;
        const QString why = QString::fromUtf8(e.what());
        QVERIFY2(why.contains(QStringLiteral("B(2, 3)")) && why.contains(QStringLiteral("65504")), e.what());
    }
    QVERIFY(refused);
    b.as<float>()[2 * 5 + 3] = 65504.0f;  // the largest FP16 value itself is taken
    QVERIFY(runGemm(cfg, hooks).verifiedCorrect());
    b.as<float>()[2 * 5 + 3] = 70000.0f;
    cfg.gemm = GemmVariant::CublasBf16;
    QVERIFY(runGemm(cfg, hooks).verifiedCorrect());
}

QTEST_GUILESS_MAIN(Test16BitRuns)
#include "tst_16bit_runs.moc"
