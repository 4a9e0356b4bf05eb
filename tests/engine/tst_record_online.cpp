// An online ABFT record someone sent may claim anything (issue 15): 2^31 - 1 steps froze the lab's
// step view, a shape of -4 was printed as is. What the record claims is checked when it is read,
// naming the field (and, from a file, the file); a record a run wrote still reads.
#include "gigacheck/online_abft.hpp"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <functional>
#include <sstream>

using namespace gigacheck;

namespace {

// Written by a CPU run: 64 x 64 x 64, panel 16, 4 steps, a check after each.
const std::string kSample = GIGACHECK_TEST_DATA "/fuzz/record/online-64.json";

std::string sampleText()
{
    std::ifstream in(kSample, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string withEdits(const std::function<void(nlohmann::json&)>& edit)
{
    nlohmann::json doc = nlohmann::json::parse(sampleText());
    edit(doc);
    return doc.dump();
}

template <class F> QString inputErrorOf(F f)
{
    try {
        f();
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestRecordOnline : public QObject {
    Q_OBJECT

private slots:
    void aRunsRecordReads()
    {
        const OnlineRecord r = onlineRecordFromJson(sampleText());
        QCOMPARE(r.steps, 4);
        QCOMPARE(r.steps, r.config.steps());
        QCOMPARE(r.checkSteps, (std::vector<int>{0, 1, 2, 3}));
        // And what it writes reads again.
        QCOMPARE(onlineRecordFromJson(onlineToJson(r)).steps, 4);
        // The fault model and bit travel (they were written but not read before).
        const OnlineRecord flips = onlineRecordFromJson(withEdits([](nlohmann::json& d) {
            d["online_abft"]["config"]["fault_model"] = "bitflip";
            d["online_abft"]["config"]["bit"] = 30;
            d["online_abft"]["applied_input_faults"] = nlohmann::json::parse(R"([{"target": "a", "row": 3, "col": 4, "delta": 2.0, "step": -1}])");
        }));
        QVERIFY(flips.config.model == FaultModel::BitFlip);
        QCOMPARE(flips.config.bit, 30);
        QCOMPARE(flips.appliedInputFaults.size(), std::size_t(1));
        QCOMPARE(flips.appliedInputFaults[0].step, std::optional<int>(-1));
        // An H200 record: two column blocks, merged steps, a check per block and step.
        const OnlineRecord gpu = loadOnlineRecord(GIGACHECK_TEST_DATA "/../../resources/results/online_fq1_8192_fac901a_H200.json");
        QCOMPARE(gpu.columnBlocks, 2);
        QCOMPARE(gpu.steps, 8);
        QCOMPARE(gpu.verifications.size(), std::size_t(16));
    }

    void implausibleClaimsAreRefused_data()
    {
        QTest::addColumn<QString>("pointer");  // JSON pointer to replace
        QTest::addColumn<QString>("value");    // by this JSON text
        QTest::addColumn<QString>("named");
        const QString sec = QStringLiteral("/online_abft");
        QTest::newRow("steps 2^31 - 1") << sec + "/steps" << "2147483647" << "online_abft.steps";
        QTest::newRow("steps one short") << sec + "/steps" << "3" << "online_abft.steps";
        QTest::newRow("negative steps") << sec + "/steps" << "-1" << "online_abft.steps";
        QTest::newRow("negative m") << sec + "/config/shape/m" << "-4" << "online_abft.config.shape.m";
        QTest::newRow("zero n") << sec + "/config/shape/n" << "0" << "online_abft.config.shape.n";
        QTest::newRow("q over 2^31") << sec + "/config/shape/q" << "4294967296" << "online_abft.config.shape.q";
        QTest::newRow("panel 0") << sec + "/config/panel" << "0" << "online_abft.config.panel";
        QTest::newRow("panel wider than n") << sec + "/config/panel" << "65" << "online_abft.config.panel";
        QTest::newRow("panel that makes other steps") << sec + "/config/panel" << "32" << "online_abft.steps";
        QTest::newRow("check after no step") << sec + "/check_steps/0" << "5000" << "online_abft.check_steps[0]";
        QTest::newRow("a check left out") << sec + "/check_steps" << "[0, 1, 3]" << "online_abft.check_steps";
        QTest::newRow("negative fq") << sec + "/config/check_every" << "-1" << "online_abft.config.check_every";
        QTest::newRow("K = 0") << sec + "/config/checksums" << "0" << "online_abft.config.checksums";
        QTest::newRow("K = 9") << sec + "/config/checksums" << "9" << "online_abft.config.checksums";
        QTest::newRow("bit outside an f32") << sec + "/config/bit" << "32" << "online_abft.config.bit";
        QTest::newRow("negative random errors") << sec + "/config/random_errors" << "-1" << "online_abft.config.random_errors";
        QTest::newRow("lambda 0") << sec + "/config/threshold_lambda" << "0" << "online_abft.config.threshold_lambda";
        QTest::newRow("lambda 1e6") << sec + "/config/threshold_lambda" << "1e6" << "online_abft.config.threshold_lambda";
        QTest::newRow("fault below C")
            << sec + "/config/faults" << R"([{"target": "result", "row": 64, "col": 0}])" << "online_abft.config.faults[0].row";
        QTest::newRow("fault in checksum row K")
            << sec + "/config/faults" << R"([{"target": "checksum-row", "row": 1, "col": 0}])" << "online_abft.config.faults[0].row";
        QTest::newRow("fault in A outside A")
            << sec + "/config/faults" << R"([{"target": "a", "row": 0, "col": 64}])" << "online_abft.config.faults[0].col";
        QTest::newRow("fault after no step")
            << sec + "/config/faults" << R"([{"target": "result", "row": 0, "col": 0, "step": 4}])" << "online_abft.config.faults[0].step";
        QTest::newRow("input fault report outside B")
            << sec + "/input_faults"
            << R"([{"operand": "b", "row": 64, "col": 0, "delta": 1.0, "before_checksum": true, "caught_at_step": -1, "cells_off": 64, "corrected": true}])"
            << "online_abft.input_faults[0].row";
        QTest::newRow("input fault applied to C")
            << sec + "/applied_input_faults" << R"([{"target": "result", "row": 0, "col": 0}])" << "online_abft.applied_input_faults[0].target";
        QTest::newRow("no column block") << sec + "/column_blocks" << "0" << "online_abft.column_blocks";
        QTest::newRow("more GEMMs than steps") << sec + "/panel_products" << "5" << "online_abft.panel_products";
        QTest::newRow("rows checked beyond C") << sec + "/reference/rows_checked" << "65" << "online_abft.reference.rows_checked";
        QTest::newRow("check after no step (event)") << "/events/verifications/0/block/k" << "4" << "events.verifications[0].block.k";
        QTest::newRow("mismatch below C_f")
            << "/events/verifications/0/result/mismatch_rows" << "[65]" << "events.verifications[0].result.mismatch_rows[0]";
        QTest::newRow("correction outside C_f")
            << "/events/verifications/0/result/corrections"
            << R"([{"row": 0, "col": 65, "before": 1.0, "after": 0.0}])" << "events.verifications[0].result.corrections[0].col";
        QTest::newRow("blocked scheme") << sec + "/config/scheme" << "\"blocked\"" << "online_abft.config.scheme";
        QTest::newRow("unknown backend") << sec + "/config/backend" << "\"nan\"" << "online_abft.config.backend";
        QTest::newRow("faults not a list") << sec + "/config/faults" << "7" << "online_abft.config.faults";
        QTest::newRow("input faults not a list") << sec + "/input_faults" << "\"a\"" << "online_abft.input_faults";
    }

    void implausibleClaimsAreRefused()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, named);
        const std::string json = withEdits([&](nlohmann::json& d) {
            d[nlohmann::json::json_pointer(pointer.toStdString())] = nlohmann::json::parse(value.toStdString());
        });
        const QString error = inputErrorOf([&] { onlineRecordFromJson(json); });
        QVERIFY2(error.contains(QLatin1Char('\'') + named + QLatin1Char('\'')), qPrintable(error));
    }

    // A record consistent in itself (n = 2^31 - 1 in panels of 1 makes 2^31 - 1 steps) is still
    // Every field of the section away from its default comes back equal: a field the record's
    // field table misses or misreads shows here (the sample run's record, every field then changed
    // within what the reader accepts).
    void everyFieldRoundTrips()
    {
        OnlineRecord sent = onlineRecordFromJson(sampleText());
        OnlineConfig& c = sent.config;
        c.precision = Precision::F64;
        c.distribution = Distribution::Wide;
        c.seed = 0x123456789abcdefULL;  // past 32 bits
        c.checkEvery = 2;
        c.checksums = 2;
        c.columnBlocks = 2;
        c.faults = {OnlineFault{OnlineTarget::Result, 3, 4, 2.5, 1}, OnlineFault{OnlineTarget::A, 5, 6, {}, {}}};
        c.randomErrors = 2;
        c.model = FaultModel::BitFlip;
        c.bit = 40;
        c.gemm = GemmVariant::CublasTf32;
        c.reference = ReferenceMode::Sample;
        c.thresholdLambda = 6.5;
        c.mergeSteps = StepMerge::On;
        sent.checkSteps = {1, 3};  // check_every = 2 over 4 steps
        sent.columnBlocks = 2;
        sent.mergedSteps = true;
        sent.panelGemm = "tuned 128x128x32";
        sent.panelProducts = 3;
        sent.inputFaults = {InputFaultReport{OnlineTarget::B, 7, 8, 1.25, true, 2, 64, true}};
        sent.appliedInputFaults = {OnlineFault{OnlineTarget::A, 1, 2, 0.5, -1}};
        sent.recomputed = true;
        sent.recomputeClean = true;
        sent.recomputeSeconds = 0.125;
        sent.reference = {ReferenceMode::Sample, 32, 2, 0.75, 1.5, false};
        VoteReport vote;
        vote.cellsOutvoted = 3;
        vote.cellsWithoutMajority = 2;
        vote.noMajority = {{1, 2}, {3, 4}};
        vote.cellsRecomputed = 5;
        vote.majorityOverruled = 1;
        sent.vote = vote;

        const OnlineRecord back = onlineRecordFromJson(onlineToJson(sent));
        const OnlineConfig& b = back.config;
        QCOMPARE(b.shape.m, c.shape.m);
        QCOMPARE(b.shape.n, c.shape.n);
        QCOMPARE(b.shape.q, c.shape.q);
        QVERIFY(b.precision == c.precision);
        QVERIFY(b.distribution == c.distribution);
        QCOMPARE(b.seed, c.seed);
        QVERIFY(b.backend == c.backend);
        QVERIFY(b.scheme == c.scheme);
        QCOMPARE(b.panel, c.panel);
        QCOMPARE(b.checkEvery, c.checkEvery);
        QCOMPARE(b.checksums, c.checksums);
        QCOMPARE(b.columnBlocks, c.columnBlocks);
        QVERIFY(b.faults == c.faults);
        QCOMPARE(b.randomErrors, c.randomErrors);
        QVERIFY(b.model == c.model);
        QCOMPARE(b.bit, c.bit);
        QVERIFY(b.gemm == c.gemm);
        QVERIFY(b.reference == c.reference);
        QCOMPARE(b.thresholdLambda, c.thresholdLambda);
        QVERIFY(b.mergeSteps == c.mergeSteps);
        QCOMPARE(back.steps, sent.steps);
        QCOMPARE(back.checkSteps, sent.checkSteps);
        QCOMPARE(back.columnBlocks, sent.columnBlocks);
        QCOMPARE(back.mergedSteps, sent.mergedSteps);
        QCOMPARE(back.panelGemm, sent.panelGemm);
        QCOMPARE(back.panelProducts, sent.panelProducts);
        QCOMPARE(back.inputFaults.size(), std::size_t(1));
        const InputFaultReport &fb = back.inputFaults[0], &fs = sent.inputFaults[0];
        QVERIFY(fb.operand == fs.operand);
        QCOMPARE(fb.row, fs.row);
        QCOMPARE(fb.col, fs.col);
        QCOMPARE(fb.delta, fs.delta);
        QCOMPARE(fb.beforeChecksum, fs.beforeChecksum);
        QCOMPARE(fb.caughtAtStep, fs.caughtAtStep);
        QCOMPARE(fb.cellsOff, fs.cellsOff);
        QCOMPARE(fb.corrected, fs.corrected);
        QVERIFY(back.appliedInputFaults == sent.appliedInputFaults);
        QCOMPARE(back.recomputed, sent.recomputed);
        QCOMPARE(back.recomputeClean, sent.recomputeClean);
        QCOMPARE(back.recomputeSeconds, sent.recomputeSeconds);
        QVERIFY(back.reference.mode == sent.reference.mode);
        QCOMPARE(back.reference.rowsChecked, sent.reference.rowsChecked);
        QCOMPARE(back.reference.mismatches, sent.reference.mismatches);
        QCOMPARE(back.reference.maxAbsError, sent.reference.maxAbsError);
        QCOMPARE(back.reference.maxRelError, sent.reference.maxRelError);
        QCOMPARE(back.reference.passed, sent.reference.passed);
        QVERIFY(back.vote.has_value());
        QCOMPARE(back.vote->cellsOutvoted, vote.cellsOutvoted);
        QCOMPARE(back.vote->cellsWithoutMajority, vote.cellsWithoutMajority);
        QCOMPARE(back.vote->noMajority, vote.noMajority);
        QCOMPARE(back.vote->cellsRecomputed, vote.cellsRecomputed);
        QCOMPARE(back.vote->majorityOverruled, vote.majorityOverruled);
        // And the text it writes is the same once read back.
        QCOMPARE(onlineToJson(back), onlineToJson(sent));
    }

    // more steps than a run keeps: refused before the check steps are listed.
    void consistentButHugeStepsAreRefused()
    {
        const std::string json = withEdits([](nlohmann::json& d) {
            d["online_abft"]["config"]["shape"]["n"] = 2147483647;
            d["online_abft"]["config"]["panel"] = 1;
            d["online_abft"]["steps"] = 2147483647;
        });
        const QString error = inputErrorOf([&] { onlineRecordFromJson(json); });
        QVERIFY2(error.contains(QStringLiteral("'online_abft.steps'")) && error.contains(QStringLiteral("more than a run keeps")),
                 qPrintable(error));
    }

    // TMR has no steps: a TMR record claiming some is refused, one with none reads.
    void tmrHasNoSteps()
    {
        const auto tmr = [](int steps) {
            return [steps](nlohmann::json& d) {
                d["online_abft"]["config"]["scheme"] = "tmr";
                d["online_abft"]["steps"] = steps;
                d["online_abft"]["check_steps"] = nlohmann::json::array();
                d["online_abft"]["panel_products"] = 0;
                d["events"]["verifications"] = nlohmann::json::array();
            };
        };
        QVERIFY(inputErrorOf([&] { onlineRecordFromJson(withEdits(tmr(4))); }).contains(QStringLiteral("TMR has no steps")));
        QCOMPARE(onlineRecordFromJson(withEdits(tmr(0))).steps, 0);
    }

    void fileErrorsNameTheFileAndTheField()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("online-steps.json")).toStdString();
        std::ofstream(path) << withEdits([](nlohmann::json& d) { d["online_abft"]["steps"] = 2147483647; });
        const QString error = inputErrorOf([&] { loadOnlineRecord(path); });
        QVERIFY2(error.startsWith(QString::fromStdString(path) + QStringLiteral(": ")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("'online_abft.steps' is 2147483647")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestRecordOnline)
#include "tst_record_online.moc"
