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
