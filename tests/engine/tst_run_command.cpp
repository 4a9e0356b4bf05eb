// Every verb ends through runCommand (gigacheck/family.hpp): a run that verified exits 0, a run
// whose result is wrong exits 1 with the family's words -- never 0, never "failed" (exit 2) --
// and a configuration the family refuses is an InputError before anything runs. The kernel
// gallery files a wrong result as status "failed": its configured run says the record still has
// a verdict (a wrong transpose used to end "verified correct", exit 0).
#include <QtTest>

#include "families/cli/option_groups.hpp"
#include "families/transpose/run/transpose_run.hpp"
#include "gigacheck/family.hpp"
#include "gigacheck/transpose.hpp"

#include <atomic>
#include <sstream>

using namespace gigacheck;

namespace {

class CapturedIo final : public CommandIo {
public:
    std::ostream& out() override { return out_; }
    std::ostream& err() override { return err_; }
    void beginCancellable() override {}
    const std::atomic<bool>& cancel() const override { return cancel_; }
    void holdSignals() override {}
    void release(bool) override {}
    std::string interruptWords() const override { return "interrupted"; }
    QString outText() const { return QString::fromStdString(out_.str()); }
    QString errText() const { return QString::fromStdString(err_.str()); }

private:
    std::ostringstream out_, err_;
    std::atomic<bool> cancel_{false};
};

transpose::Config smallTranspose()
{
    transpose::Config c;
    c.m = 16;
    c.n = 8;
    c.backend = BackendKind::Cpu;
    c.reps = 1;
    return c;
}

// The real transpose, then three elements found out of place, as runTranspose files it.
transpose::Record wrongTranspose(const transpose::Config& config)
{
    transpose::Record r = transpose::runTranspose(config);
    r.mismatches = 3;
    r.verified = false;
    r.status = "failed";
    r.error = "3 elements not at their transposed place";
    return r;
}

using WrongTranspose = gallery::GalleryRun<transpose::Config, transpose::Record, &wrongTranspose,
                                           &transpose::describeConfig, &transpose::familyContract>;

std::unique_ptr<FamilyRun> configureWrong(const CommandOptions&)
{
    return std::make_unique<WrongTranspose>(smallTranspose());
}

std::unique_ptr<FamilyRun> configureRight(const CommandOptions&)
{
    return std::make_unique<transpose::ConfiguredRun>(smallTranspose());
}

std::vector<OptionSpec> optionsOfTheVerb()
{
    return {cli::jsonOption(), cli::quietOption()};
}

int runVerb(std::unique_ptr<FamilyRun> (*configure)(const CommandOptions&), CapturedIo& io, bool quiet = false)
{
    const FamilyCommand command{"test", {}, "test", &optionsOfTheVerb, configure};
    CommandOptions options(optionsOfTheVerb());
    if (quiet)
        options.add("quiet");
    return runCommand(command, "transpose", options, io);
}

}  // namespace

class TestRunCommand : public QObject {
    Q_OBJECT
private slots:
    void aRightRunExitsZero()
    {
        CapturedIo io;
        QCOMPARE(runVerb(&configureRight, io, true), kExitVerified);
        QCOMPARE(io.outText(), QStringLiteral("verified correct\n"));
        QVERIFY2(io.errText().isEmpty(), qPrintable(io.errText()));
    }

    void aWrongRunExitsOneInTheFamilysWords()
    {
        CapturedIo io;
        QCOMPARE(runVerb(&configureWrong, io), kExitUncorrectable);
        QVERIFY2(io.errText().contains(QLatin1String("3 element(s) are not at their transposed place")), qPrintable(io.errText()));
        QVERIFY2(!io.errText().contains(QLatin1String("failed")), qPrintable(io.errText()));
        CapturedIo quiet;
        QCOMPARE(runVerb(&configureWrong, quiet, true), kExitUncorrectable);
        QCOMPARE(quiet.outText(), QStringLiteral("NOT verified correct\n"));
    }

    void aRecordRunAgainKeepsItsVerdict()
    {
        // configureFromRecord of a wrong record: the gallery's run still judges it.
        const transpose::Record wrong = wrongTranspose(smallTranspose());
        const std::unique_ptr<FamilyRun> again = transpose::familyContract().configureFromRecord(wrong);
        QVERIFY(again->hasVerdict(wrong));
        QVERIFY(!verdictOf(wrong).verified);
        QVERIFY(again->describe().find("transpose 16x8") != std::string::npos);
    }

    void badInputIsRefusedBeforeAnythingRuns()
    {
        CapturedIo io;
        const auto refused = [](const CommandOptions&) -> std::unique_ptr<FamilyRun> {
            throw InputError("--shape 0x3: '0' is out of range");
        };
        const FamilyCommand command{"test", {}, "test", &optionsOfTheVerb, refused};
        QVERIFY_THROWS_EXCEPTION(InputError, runCommand(command, "transpose", CommandOptions(optionsOfTheVerb()), io));
        QVERIFY(io.outText().isEmpty());
    }
};

QTEST_MAIN(TestRunCommand)
#include "tst_run_command.moc"
