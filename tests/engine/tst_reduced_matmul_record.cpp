// A reduced matmul record someone sent may claim anything (issue 15): N = 0 was printed as "C 0x0".
// What the record claims is checked when it is read, naming the field (and, from a file, the file);
// every record a run writes — finished or cancelled — still reads.
#include "gigacheck/reduced_matmul.hpp"

#include "core/record/envelope_json.hpp"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <fstream>
#include <functional>

using namespace gigacheck;
using namespace gigacheck::reduced_matmul;

namespace {

Record smallRun(Variant v, std::int64_t n, int reps = 2, Precision p = Precision::F32)
{
    Config c;
    c.n = n;
    c.variant = v;
    c.precision = p;
    c.backend = BackendKind::Cpu;
    c.reps = reps;
    return runReduced(c);
}

// A CPU run's record: N = 32, naivep, 3 timed calls (12 ops: copy in, reduce, 4 GEMMs, the clear,
// 4 kernel calls, copy out).
const std::string& sampleText()
{
    static const std::string text = toJson(smallRun(Variant::NaiveP, 32, 3));
    return text;
}

nlohmann::json valueOf(const QString& value, const nlohmann::json& doc)
{
    if (value == QStringLiteral("<a span repeated>"))  // 13 spans for the sample's 12 ops
        return doc["spans"][1];
    if (value == QStringLiteral("<an injection>"))
        return nlohmann::json::parse(recordjson::write(InjectEvent{}).dump());
    if (value == QStringLiteral("<a verification>"))
        return nlohmann::json::parse(recordjson::write(VerifyEvent{}).dump());
    return nlohmann::json::parse(value.toStdString());
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

class TestReducedMatmulRecord : public QObject {
    Q_OBJECT

private slots:
    // Every field of the section away from its default comes back equal: a field the record's
    // field table misses or misreads shows here. A verified run and a failed one with wrong elements.
    void everyFieldRoundTrips()
    {
        Record verified = smallRun(Variant::NaiveP, 32, 4, Precision::F64);
        Record failed = verified;
        failed.status = "failed";
        failed.verified = false;
        failed.wrong = 3;
        for (Record* r : {&verified, &failed}) {
            r->config.seed = 0x123456789abcdefULL;  // past 32 bits
            r->backend = "cuda";
            r->spans.clear();  // of the CPU's schedule
            r->kernelMs = 0.25;
            r->libraryMs = 0.375;
            r->h2dMs = 1.5;
            r->d2hMs = 1.75;
            r->gflops = 12.5;
            r->maxRelError = 1.0 / 3;
            r->tolerance = 1e-12;
            r->counts.threads = 4096;
            r->counts.loadsPerThread = 8.5;
            r->counts.loadBytesRequested = 1e6;
        }
        QVERIFY(verified.verified && verified.checked > 0);
        QVERIFY(verified.config.variant != Config{}.variant && verified.config.precision != Config{}.precision);

        for (const Record* sent : {&verified, &failed}) {
            const Record back = recordFromJson(toJson(*sent));
            QCOMPARE(back.status, sent->status);
            QCOMPARE(back.config.n, sent->config.n);
            QVERIFY(back.config.variant == sent->config.variant);
            QVERIFY(back.config.precision == sent->config.precision);
            QCOMPARE(back.config.reps, sent->config.reps);
            QCOMPARE(back.config.seed, sent->config.seed);
            QCOMPARE(back.backend, sent->backend);
            QCOMPARE(back.kernelMs, sent->kernelMs);
            QCOMPARE(back.libraryMs, sent->libraryMs);
            QCOMPARE(back.h2dMs, sent->h2dMs);
            QCOMPARE(back.d2hMs, sent->d2hMs);
            QCOMPARE(back.gflops, sent->gflops);
            QCOMPARE(back.verified, sent->verified);
            QCOMPARE(back.checked, sent->checked);
            QCOMPARE(back.wrong, sent->wrong);
            QCOMPARE(back.maxRelError, sent->maxRelError);
            QCOMPARE(back.tolerance, sent->tolerance);
            const Counts &a = back.counts, &b = sent->counts;
            QCOMPARE(a.multiplications, b.multiplications);
            QCOMPARE(a.loadsPerThread, b.loadsPerThread);
            QCOMPARE(a.threads, b.threads);
            QCOMPARE(a.loadBytesRequested, b.loadBytesRequested);
            QCOMPARE(a.footprintBytes, b.footprintBytes);
            QCOMPARE(a.flops, b.flops);
        }
    }

    // Every CPU variant, both precisions, the smallest N: read back to the same record, and the
    // same text once written again.
    void runsRecordsReadBack()
    {
        const std::vector<Record> runs = {smallRun(Variant::Naive4p, 32), smallRun(Variant::NaiveP, 64, 1, Precision::F64),
                                          smallRun(Variant::ReduceBlas, 48), smallRun(Variant::ReduceBlas, 2, 0)};
        for (const Record& run : runs) {
            QVERIFY(run.verified);
            const std::string json = toJson(run);
            const Record back = recordFromJson(json);
            QCOMPARE(back.config.n, run.config.n);
            QVERIFY(back.config.variant == run.config.variant);
            QCOMPARE(back.spans.size(), run.spans.size());
            QCOMPARE(back.spans.size(), std::size_t(plannedOpsOf(run)));
            QCOMPARE(back.checked, run.checked);
            QCOMPARE(toJson(back), json);
            QCOMPARE(report(back), report(run));
        }
    }

    // The CUDA kernels' records (no CPU run makes them): the same checks accept them.
    void cudaVariantsAreAccepted()
    {
        for (Variant v : {Variant::Naive4p, Variant::NaiveP, Variant::Tiled8, Variant::Tiled16, Variant::Tiled32, Variant::ReduceBlas})
            for (std::int64_t n : {std::int64_t(2), std::int64_t(100), std::int64_t(16384), std::int64_t(1) << 20}) {
                nlohmann::json doc = nlohmann::json::parse(sampleText());
                nlohmann::json& s = doc["reduced_matmul"];
                const Counts c = countsOf(v, n, Precision::F32);
                s["n"] = n;
                s["variant"] = std::string(toString(v));
                s["backend"] = "cuda";
                s["counts"] = {{"multiplications", c.multiplications},   {"loads_per_thread", c.loadsPerThread},
                               {"threads", c.threads},                   {"load_bytes_requested", c.loadBytesRequested},
                               {"footprint_bytes", c.footprintBytes},    {"flops", c.flops}};
                s["checked"] = 1;  // N = 2 has one element
                doc["spans"] = nlohmann::json::array();  // the sample's spans are of naivep's schedule
                const QString error = inputErrorOf([&] { recordFromJson(doc.dump()); });
                QVERIFY2(error.isEmpty(),
                         qPrintable(QStringLiteral("%1 N = %2: %3").arg(QString::fromUtf8(toString(v).data())).arg(n).arg(error)));
            }
    }

    // A cancelled run's partial record reads back as cancelled, and its report says what ran.
    void cancelledRecordReadsBack()
    {
        Config c;
        c.n = 64;
        c.variant = Variant::Naive4p;
        c.backend = BackendKind::Cpu;
        std::atomic<bool> stop{true};
        c.cancel = &stop;
        const Record back = recordFromJson(toJson(runReduced(c)));
        QCOMPARE(back.status, std::string("cancelled"));
        QVERIFY(!back.verified);
        const QString text = QString::fromStdString(report(back));
        QVERIFY2(text.contains(QStringLiteral("cancelled   the run was stopped after 0 of its 12 ops")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("verdict")), qPrintable(text));
    }

    void implausibleClaimsAreRefused_data()
    {
        QTest::addColumn<QString>("pointer");  // JSON pointer to replace
        QTest::addColumn<QString>("value");    // by this JSON text
        QTest::addColumn<QString>("named");
        const QString s = QStringLiteral("/reduced_matmul");
        QTest::newRow("N = 0") << s + "/n" << "0" << "reduced_matmul.n";
        QTest::newRow("N = -2") << s + "/n" << "-2" << "reduced_matmul.n";
        QTest::newRow("odd N") << s + "/n" << "33" << "reduced_matmul.n";
        QTest::newRow("N 2^32") << s + "/n" << "4294967296" << "reduced_matmul.n";
        QTest::newRow("negative reps") << s + "/reps" << "-1" << "reduced_matmul.reps";
        QTest::newRow("reps above the CLI's") << s + "/reps" << "1000001" << "reduced_matmul.reps";
        QTest::newRow("unknown variant") << s + "/variant" << "\"tiled64\"" << "reduced_matmul.variant";
        QTest::newRow("GPU-only variant on the CPU") << s + "/variant" << "\"tiled16\"" << "reduced_matmul.variant";
        QTest::newRow("unknown backend") << s + "/backend" << "\"tpu\"" << "reduced_matmul.backend";
        QTest::newRow("unknown precision") << s + "/precision" << "\"f16\"" << "reduced_matmul.precision";
        QTest::newRow("negative kernel time") << s + "/kernel_ms" << "-1.0" << "reduced_matmul.kernel_ms";
        QTest::newRow("NaN library time") << s + "/library_ms" << "\"nan\"" << "reduced_matmul.library_ms";
        QTest::newRow("infinite copy") << s + "/copy_out_ms" << "\"inf\"" << "reduced_matmul.copy_out_ms";
        QTest::newRow("negative rate") << s + "/gflops" << "-3.0" << "reduced_matmul.gflops";
        QTest::newRow("negative tolerance") << s + "/tolerance" << "-1e-5" << "reduced_matmul.tolerance";
        QTest::newRow("NaN error") << s + "/max_rel_error" << "\"nan\"" << "reduced_matmul.max_rel_error";
        QTest::newRow("negative error") << s + "/max_rel_error" << "-1.0" << "reduced_matmul.max_rel_error";
        QTest::newRow("more checked than C has") << s + "/checked" << "257" << "reduced_matmul.checked";
        QTest::newRow("negative wrong") << s + "/wrong" << "-1" << "reduced_matmul.wrong";
        QTest::newRow("more wrong than checked") << s + "/wrong" << "300" << "reduced_matmul.wrong";
        QTest::newRow("verified with wrong elements") << s + "/wrong" << "2" << "reduced_matmul.verified";
        QTest::newRow("verified with none checked") << s + "/checked" << "0" << "reduced_matmul.verified";
        QTest::newRow("not verified but ok") << s + "/verified" << "false" << "reduced_matmul.verified";
        QTest::newRow("unknown status") << "/status" << "\"fine\"" << "status";
        QTest::newRow("flops of another N") << s + "/counts/flops" << "1.0" << "reduced_matmul.counts.flops";
        QTest::newRow("4p's multiplications") << s + "/counts/multiplications" << "32768.0" << "reduced_matmul.counts.multiplications";
        QTest::newRow("footprint of another N") << s + "/counts/footprint_bytes" << "0.0" << "reduced_matmul.counts.footprint_bytes";
        QTest::newRow("negative threads") << s + "/counts/threads" << "-1" << "reduced_matmul.counts.threads";
        QTest::newRow("NaN loads") << s + "/counts/loads_per_thread" << "\"nan\"" << "reduced_matmul.counts.loads_per_thread";
        QTest::newRow("span of no op") << "/spans/1/op_id" << "12" << "spans[1].op_id";
        QTest::newRow("span of a call never made") << "/spans/1/block/k" << "4" << "spans[1].block.k";
        QTest::newRow("span of no caller") << "/spans/1/block/i" << "3" << "spans[1].block.i";
        QTest::newRow("span on no device") << "/spans/1/device" << "1" << "spans[1].device";
        QTest::newRow("span of another family") << "/spans/1/kind" << "\"transpose\"" << "spans[1].kind";
        QTest::newRow("span ending before it starts") << "/spans/1/end" << "-1.0" << "spans[1].end";
        QTest::newRow("span of negative flops") << "/spans/1/flops" << "-1.0" << "spans[1].flops";
        QTest::newRow("more spans than ops") << "/spans/-" << "<a span repeated>" << "spans";
        QTest::newRow("a fault event") << "/events/injections/-" << "<an injection>" << "events.injections";
        QTest::newRow("a checksum check") << "/events/verifications/-" << "<a verification>" << "events.verifications";
    }

    void implausibleClaimsAreRefused()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, named);
        const std::string json = withEdits([&](nlohmann::json& d) {
            d[nlohmann::json::json_pointer(pointer.toStdString())] = valueOf(value, d);
        });
        const QString error = inputErrorOf([&] { recordFromJson(json); });
        QVERIFY2(error.contains(QLatin1Char('\'') + named + QLatin1Char('\'')), qPrintable(error));
    }

    void fileErrorsNameTheFileAndTheField()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("reduced-n.json")).toStdString();
        std::ofstream(path) << withEdits([](nlohmann::json& d) { d["reduced_matmul"]["n"] = 0; });
        const QString error = inputErrorOf([&] { loadRecord(path); });
        QVERIFY2(error.startsWith(QString::fromStdString(path) + QStringLiteral(": ")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("'reduced_matmul.n' is 0")), qPrintable(error));
        const QString missing = inputErrorOf([&] { loadRecord(path + ".none"); });
        QCOMPARE(missing.count(QString::fromStdString(path)), 1);
    }

private:
    static std::int64_t plannedOpsOf(const Record& r)
    {
        // copy in, the reference's reduce and 1 + max(reps, 1) GEMMs, the clear, as many variant
        // calls (reduce-blas: reduce + GEMM each), copy out
        const std::int64_t calls = 1 + std::max(r.config.reps, 1);
        return 4 + calls + calls * (r.config.variant == Variant::ReduceBlas ? 2 : 1);
    }
};

QTEST_GUILESS_MAIN(TestReducedMatmulRecord)
#include "tst_reduced_matmul_record.moc"
