// A transpose record someone sent may claim anything (issue 15): m = -3 was printed as "median of
// the -3x32 calls". What the record claims is checked when it is read, naming the field (and, from a
// file, the file); every record a run writes — finished or cancelled — still reads.
#include "gigacheck/transpose.hpp"

#include "core/record/envelope_json.hpp"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <fstream>
#include <functional>

using namespace gigacheck;
using namespace gigacheck::transpose;

namespace {

Record smallRun(Variant v, std::int64_t m, std::int64_t n, int reps = 2, ElementType type = ElementType::F32)
{
    Config c;
    c.m = m;
    c.n = n;
    c.variant = v;
    c.type = type;
    c.backend = BackendKind::Cpu;
    c.reps = reps;
    return runTranspose(c);
}

// A CPU run's record: 48 x 32 in place (C2R: 3 passes, calls back between the timed ones).
const std::string& sampleText()
{
    static const std::string text = toJson(smallRun(Variant::InPlace, 48, 32, 3));
    return text;
}

std::string withEdits(const std::function<void(nlohmann::json&)>& edit)
{
    nlohmann::json doc = nlohmann::json::parse(sampleText());
    edit(doc);
    return doc.dump();
}

// The JSON a row puts in: its text, or one of the envelope's elements made whole.
nlohmann::json valueOf(const QString& value, const nlohmann::json& doc)
{
    if (value == QStringLiteral("<a span repeated>"))  // 8 spans: the sample schedules 7 ops (2 copies, 5 calls)
        return doc["spans"][1];
    if (value == QStringLiteral("<an injection>"))
        return nlohmann::json::parse(recordjson::write(InjectEvent{}).dump());
    if (value == QStringLiteral("<a verification>"))
        return nlohmann::json::parse(recordjson::write(VerifyEvent{}).dump());
    return nlohmann::json::parse(value.toStdString());
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

class TestTransposeRecord : public QObject {
    Q_OBJECT

private slots:
    // Every CPU variant, square, rectangular (ratio 2:1 and C2R), both types, one cold call:
    // read back to the same record, and the same text once written again.
    void runsRecordsReadBack()
    {
        const std::vector<Record> runs = {
            smallRun(Variant::Naive, 33, 33),        smallRun(Variant::Blocked, 64, 64, 1, ElementType::I32),
            smallRun(Variant::OutOfPlace, 100, 37),  smallRun(Variant::InPlace, 64, 32),
            smallRun(Variant::InPlace, 48, 32),      smallRun(Variant::InPlace, 40, 40),
            smallRun(Variant::Library, 17, 1),       smallRun(Variant::Naive, 16, 16, 0),
        };
        for (const Record& run : runs) {
            QVERIFY(run.verified);
            const std::string json = toJson(run);
            const Record back = recordFromJson(json);
            QCOMPARE(back.config.m, run.config.m);
            QCOMPARE(back.config.n, run.config.n);
            QVERIFY(back.config.variant == run.config.variant);
            QCOMPARE(back.spans.size(), run.spans.size());
            QCOMPARE(back.kernelMs, run.kernelMs);
            QCOMPARE(back.counts.passes, run.counts.passes);
            QCOMPARE(toJson(back), json);
            QCOMPARE(report(back), report(run));
        }
    }

    // Every field of the section away from its default comes back equal: a field the record's
    // field table misses or misreads shows here. Two records: a verified rectangle in place
    // (calls back timed) and a failed square with swaps and misplaced elements.
    void everyFieldRoundTrips()
    {
        Record rectangle = smallRun(Variant::InPlace, 48, 32, 3, ElementType::I32);
        Record square = smallRun(Variant::Naive, 32, 32, 4);
        square.status = "failed";
        square.verified = false;
        square.mismatches = 5;
        for (Record* r : {&rectangle, &square}) {
            r->config.seed = 0x123456789abcdefULL;  // past 32 bits
            r->backend = "cuda";
            r->spans.clear();  // of the CPU's schedule
            r->kernelMs = 0.25;
            r->h2dMs = 1.5;
            r->d2hMs = 1.75;
            r->gbps = 12.5;
            r->copyGbps = 20.25;
            r->peakGbps = 933;
            Counts& k = r->counts;
            k.passes = 2;
            k.trafficBytes = 3 * k.bytesRead;
            k.threads = 4096;
            k.activeThreads = 2048;
            k.loadsPerThread = 1.5;
            k.sectorsPerWarpLoad = 4;
            k.sectorsPerWarpStore = 8;
            k.sharedConflictWays = 2;
        }
        rectangle.backMs = 0.125;
        QVERIFY(square.counts.swaps > 0);
        QVERIFY(rectangle.verified);
        QVERIFY(square.config.variant != Config{}.variant && rectangle.config.type != Config{}.type);

        for (const Record* sent : {&rectangle, &square}) {
            const Record back = recordFromJson(toJson(*sent));
            QCOMPARE(back.status, sent->status);
            QCOMPARE(back.config.m, sent->config.m);
            QCOMPARE(back.config.n, sent->config.n);
            QVERIFY(back.config.variant == sent->config.variant);
            QVERIFY(back.config.type == sent->config.type);
            QCOMPARE(back.config.reps, sent->config.reps);
            QCOMPARE(back.config.seed, sent->config.seed);
            QCOMPARE(back.backend, sent->backend);
            QCOMPARE(back.kernelMs, sent->kernelMs);
            QCOMPARE(back.backMs, sent->backMs);
            QCOMPARE(back.h2dMs, sent->h2dMs);
            QCOMPARE(back.d2hMs, sent->d2hMs);
            QCOMPARE(back.gbps, sent->gbps);
            QCOMPARE(back.copyGbps, sent->copyGbps);
            QCOMPARE(back.peakGbps, sent->peakGbps);
            QCOMPARE(back.verified, sent->verified);
            QCOMPARE(back.mismatches, sent->mismatches);
            const Counts &a = back.counts, &b = sent->counts;
            QCOMPARE(a.moves, b.moves);
            QCOMPARE(a.swaps, b.swaps);
            QCOMPARE(a.bytesRead, b.bytesRead);
            QCOMPARE(a.bytesWritten, b.bytesWritten);
            QCOMPARE(a.trafficBytes, b.trafficBytes);
            QCOMPARE(a.passes, b.passes);
            QCOMPARE(a.threads, b.threads);
            QCOMPARE(a.activeThreads, b.activeThreads);
            QCOMPARE(a.loadsPerThread, b.loadsPerThread);
            QCOMPARE(a.sectorsPerWarpLoad, b.sectorsPerWarpLoad);
            QCOMPARE(a.sectorsPerWarpStore, b.sectorsPerWarpStore);
            QCOMPARE(a.sharedConflictWays, b.sharedConflictWays);
        }
    }

    // The kernel model's figures of the CUDA-only kernels (no CPU run makes them) are accepted too.
    void cudaCountsAreAccepted()
    {
        for (Variant v : {Variant::Naive, Variant::Coalesced, Variant::InPlace, Variant::Padded, Variant::Library})
            for (const auto& [m, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                     {16384, 16384}, {129, 129}, {16384, 8192}, {4096, 16384}, {12288, 4096}, {10000, 7000}, {1, 17}}) {
                if (squareOnly(v) && m != n)
                    continue;
                nlohmann::json doc = nlohmann::json::parse(sampleText());
                nlohmann::json& t = doc["transpose"];
                const Counts c = countsOf(v, m, n, ElementType::F32);
                t["m"] = m;
                t["n"] = n;
                t["variant"] = std::string(toString(v));
                t["backend"] = "cuda";
                t["back_ms"] = inPlace(v) && m != n ? 0.5 : 0.0;
                t["counts"] = {{"moves", c.moves},
                               {"swaps", c.swaps},
                               {"bytes_read", c.bytesRead},
                               {"bytes_written", c.bytesWritten},
                               {"traffic_bytes", c.trafficBytes},
                               {"passes", c.passes},
                               {"threads", c.threads},
                               {"active_threads", c.activeThreads},
                               {"loads_per_thread", c.loadsPerThread},
                               {"sectors_per_warp_load", c.sectorsPerWarpLoad},
                               {"sectors_per_warp_store", c.sectorsPerWarpStore},
                               {"shared_conflict_ways", c.sharedConflictWays}};
                doc["spans"] = nlohmann::json::array();  // the sample's spans are of its own schedule
                const QString error = inputErrorOf([&] { recordFromJson(doc.dump()); });
                QVERIFY2(error.isEmpty(), qPrintable(QStringLiteral("%1 %2x%3: %4")
                                                         .arg(QString::fromUtf8(toString(v).data()))
                                                         .arg(m)
                                                         .arg(n)
                                                         .arg(error)));
            }
    }

    // A cancelled run's partial record reads back as cancelled, and its report says what ran.
    void cancelledRecordReadsBack()
    {
        Config c;
        c.m = c.n = 64;
        c.variant = Variant::Naive;
        c.backend = BackendKind::Cpu;
        c.reps = 4;
        std::atomic<bool> stop{true};
        c.cancel = &stop;
        const Record back = recordFromJson(toJson(runTranspose(c)));
        QCOMPARE(back.status, std::string("cancelled"));
        QVERIFY(!back.verified);
        const QString text = QString::fromStdString(report(back));
        QVERIFY2(text.contains(QStringLiteral("cancelled   the run was stopped after 0 of its 5 transposes")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("verdict")), qPrintable(text));
    }

    void implausibleClaimsAreRefused_data()
    {
        QTest::addColumn<QString>("pointer");  // JSON pointer to replace
        QTest::addColumn<QString>("value");    // by this JSON text
        QTest::addColumn<QString>("named");
        const QString t = QStringLiteral("/transpose");
        QTest::newRow("m = -3") << t + "/m" << "-3" << "transpose.m";
        QTest::newRow("n = 0") << t + "/n" << "0" << "transpose.n";
        QTest::newRow("m 2^31") << t + "/m" << "2147483648" << "transpose.m";
        QTest::newRow("negative reps") << t + "/reps" << "-1" << "transpose.reps";
        QTest::newRow("reps above the CLI's") << t + "/reps" << "1000001" << "transpose.reps";
        QTest::newRow("unknown variant") << t + "/variant" << "\"diagonal\"" << "transpose.variant";
        QTest::newRow("GPU-only variant on the CPU") << t + "/variant" << "\"padded\"" << "transpose.variant";
        QTest::newRow("square-only variant on a rectangle") << t + "/variant" << "\"naive\"" << "transpose.variant";
        QTest::newRow("unknown backend") << t + "/backend" << "\"fpga\"" << "transpose.backend";
        QTest::newRow("unknown type") << t + "/type" << "\"f16\"" << "transpose.type";
        QTest::newRow("negative kernel time") << t + "/kernel_ms" << "-1.0" << "transpose.kernel_ms";
        QTest::newRow("infinite kernel time") << t + "/kernel_ms" << "\"inf\"" << "transpose.kernel_ms";
        QTest::newRow("NaN rate") << t + "/gbps" << "\"nan\"" << "transpose.gbps";
        QTest::newRow("negative copy") << t + "/copy_in_ms" << "-0.5" << "transpose.copy_in_ms";
        QTest::newRow("negative peak") << t + "/datasheet_peak_gbps" << "-1" << "transpose.datasheet_peak_gbps";
        QTest::newRow("negative mismatches") << t + "/mismatches" << "-1" << "transpose.mismatches";
        QTest::newRow("more mismatches than elements") << t + "/mismatches" << "1537" << "transpose.mismatches";
        QTest::newRow("verified with mismatches") << t + "/mismatches" << "3" << "transpose.verified";
        QTest::newRow("not verified but ok") << t + "/verified" << "false" << "transpose.verified";
        QTest::newRow("unknown status") << "/status" << "\"great\"" << "status";
        QTest::newRow("moves of another shape") << t + "/counts/moves" << "99" << "transpose.counts.moves";
        QTest::newRow("swaps on a rectangle") << t + "/counts/swaps" << "5" << "transpose.counts.swaps";
        QTest::newRow("bytes read of another shape") << t + "/counts/bytes_read" << "1.0" << "transpose.counts.bytes_read";
        QTest::newRow("no pass") << t + "/counts/passes" << "0" << "transpose.counts.passes";
        QTest::newRow("traffic below the bytes") << t + "/counts/traffic_bytes" << "10.0" << "transpose.counts.traffic_bytes";
        QTest::newRow("negative threads") << t + "/counts/threads" << "-1" << "transpose.counts.threads";
        QTest::newRow("more active threads than threads") << t + "/counts/active_threads" << "49153" << "transpose.counts.active_threads";
        QTest::newRow("33 sectors") << t + "/counts/sectors_per_warp_load" << "33.0" << "transpose.counts.sectors_per_warp_load";
        QTest::newRow("33-way conflicts") << t + "/counts/shared_conflict_ways" << "33" << "transpose.counts.shared_conflict_ways";
        QTest::newRow("span of no op") << "/spans/1/op_id" << "2147483647" << "spans[1].op_id";
        QTest::newRow("span of a call never made") << "/spans/1/block/k" << "9" << "spans[1].block.k";
        QTest::newRow("span on no device") << "/spans/1/device" << "3" << "spans[1].device";
        QTest::newRow("span of another family") << "/spans/1/kind" << "\"reduced-kernel\"" << "spans[1].kind";
        QTest::newRow("span ending before it starts") << "/spans/1/end" << "-1.0" << "spans[1].end";
        QTest::newRow("span of infinite bytes") << "/spans/1/bytes" << "\"inf\"" << "spans[1].bytes";
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

    // Calls back are timed only in place on a rectangle.
    void backTimeOnlyInPlaceOnARectangle()
    {
        const std::string square = toJson(smallRun(Variant::InPlace, 32, 32));
        nlohmann::json doc = nlohmann::json::parse(square);
        doc["transpose"]["back_ms"] = 0.25;
        const QString error = inputErrorOf([&] { recordFromJson(doc.dump()); });
        QVERIFY2(error.contains(QStringLiteral("'transpose.back_ms'")), qPrintable(error));
    }

    void fileErrorsNameTheFileAndTheField()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("transpose-m.json")).toStdString();
        std::ofstream(path) << withEdits([](nlohmann::json& d) { d["transpose"]["m"] = -3; });
        const QString error = inputErrorOf([&] { loadRecord(path); });
        QVERIFY2(error.startsWith(QString::fromStdString(path) + QStringLiteral(": ")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("'transpose.m' is -3")), qPrintable(error));
        // A file that is not there is named once.
        const QString missing = inputErrorOf([&] { loadRecord(path + ".none"); });
        QCOMPARE(missing.count(QString::fromStdString(path)), 1);
    }
};

QTEST_GUILESS_MAIN(TestTransposeRecord)
#include "tst_transpose_record.moc"
