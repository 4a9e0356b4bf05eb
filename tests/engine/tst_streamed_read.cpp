// The readers that take a record's spans and events, and a campaign's runs, one element at a time
// as the file is parsed (core/record/streamed_dom.hpp): the same values and the same refusals as a
// whole-document read, whatever the order of the keys; a file whose keys come in another order
// (format_version after the spans, runs before the config) is read from the DOM as before.
#include "engine/test_helpers.hpp"

#include "gigacheck/campaign.hpp"
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/record_envelope.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace gigacheck;
using gigacheck::test::inputErrorOf;
using Json = nlohmann::ordered_json;

namespace {

RunRecord smallRun()
{
    RunConfig c;
    c.shape = {24, 20, 16};
    c.backend = BackendKind::Cpu;
    c.memCapBytes = 4096;  // a few blocks: several spans and verifications
    c.faults.at.push_back({3, 4, 50.0, std::nullopt});
    return runGemm(c);
}

// The document with key moved to the end of the top-level object.
std::string withKeyLast(const std::string& text, const char* key)
{
    Json doc = Json::parse(text);
    const Json value = doc[key];
    doc.erase(key);
    doc[key] = value;
    return doc.dump(1);
}

}  // namespace

class TestStreamedRead : public QObject {
    Q_OBJECT

private slots:
    void recordReadsTheSameInAnyKeyOrder()
    {
        const RunRecord r = smallRun();
        QVERIFY(r.spans.size() > 4 && !r.verifications.empty() && !r.injections.empty());
        const std::string text = toJson(r);
        QCOMPARE(toJson(recordFromJson(text)), text);
        // format_version after the lists: they are read from the DOM; the same record.
        const std::string late = withKeyLast(text, "format_version");
        QCOMPARE(toJson(recordFromJson(late)), text);
        QCOMPARE(recordFamilyOf(late), std::string("blocked_gemm"));
    }

    void recordRefusalsNameTheElement()
    {
        const std::string text = toJson(smallRun());
        Json doc = Json::parse(text);
        doc["events"]["verifications"][1]["time"] = "soon";
        doc["spans"][2]["kind"] = 7;
        // The events are read before the spans, so their refusal comes first, as it always did.
        const QString both = inputErrorOf([&] { recordFromJson(doc.dump()); });
        QVERIFY2(both.contains(QStringLiteral("events.verifications[1].time")), qPrintable(both));
        doc["events"]["verifications"][1]["time"] = 0.5;
        const QString span = inputErrorOf([&] { recordFromJson(doc.dump()); });
        QVERIFY2(span.contains(QStringLiteral("spans[2].kind")), qPrintable(span));
        doc["spans"][2] = 5;  // not an object
        const QString notObject = inputErrorOf([&] { recordFromJson(doc.dump()); });
        QVERIFY2(notObject.contains(QStringLiteral("spans[2]")) && notObject.contains(QStringLiteral("object")),
                 qPrintable(notObject));
        doc["events"]["injections"][0]["injection"].erase("local_row");
        const QString injection = inputErrorOf([&] { recordFromJson(doc.dump()); });
        QVERIFY2(injection.contains(QStringLiteral("events.injections[0].injection.local_row")), qPrintable(injection));
    }

    void recordNestingIsBounded()
    {
        Json doc = Json::parse(toJson(smallRun()));
        Json deep = 1;
        for (int i = 0; i < 40; ++i)
            deep = Json::array({deep});
        doc["spans"][0]["bytes"] = deep;  // inside a streamed element
        QVERIFY(inputErrorOf([&] { recordFromJson(doc.dump()); }).contains(QStringLiteral("nested deeper")));
    }

    void campaignReadsTheSameInAnyKeyOrder()
    {
        CampaignConfig c;
        c.runs = 6;
        c.shape = {24, 20, 16};
        c.backend = BackendKind::Cpu;
        c.seed = 3;
        const std::string text = campaignToJson(runCampaign(c));
        QCOMPARE(campaignToJson(campaignFromJson(text)), text);
        // The runs before the config: read from the DOM, the same campaign.
        Json doc = Json::parse(text);
        const Json config = doc["config"];
        doc.erase("config");
        doc["config"] = config;
        QCOMPARE(campaignToJson(campaignFromJson(doc.dump(1))), text);
    }

    void campaignRefusalsNameTheRun()
    {
        CampaignConfig c;
        c.runs = 4;
        c.shape = {24, 20, 16};
        c.backend = BackendKind::Cpu;
        Json doc = Json::parse(campaignToJson(runCampaign(c)));
        doc["runs"][2].erase("seed");
        const QString why = inputErrorOf([&] { campaignFromJson(doc.dump()); });
        QVERIFY2(why.contains(QStringLiteral("missing field 'runs[2].seed'")), qPrintable(why));
        doc["format"] = "something else";  // the file's kind is judged before its runs, as always
        QVERIFY(inputErrorOf([&] { campaignFromJson(doc.dump()); }).contains(QStringLiteral("not a gigacheck campaign")));
    }
};

QTEST_GUILESS_MAIN(TestStreamedRead)
#include "tst_streamed_read.moc"
