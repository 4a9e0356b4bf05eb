// The family verbs of the CLI come from the family registry (gigacheck/family.hpp): every
// family's verb is a command, `gigacheck --help` lists its summary and usage lines and every bench
// suite, its own --help lists every option it declares, and the unknown-command message names it.
#include "gigacheck/family.hpp"

#include <QtTest>

#include "app/cli_process.hpp"

#include <set>

using gigacheck::test::CliResult;
using gigacheck::test::gigacheckCli;

class TestCliRegistry : public QObject {
    Q_OBJECT
private slots:
    void everyFamilyVerbIsACommand()
    {
        std::set<std::string_view> commandVerbs;
        for (const gigacheck::Family* f : gigacheck::families()) {
            // A family without a command of its own runs through another family's verb.
            const gigacheck::Family* owner = gigacheck::findFamilyByVerb(f->verb);
            QVERIFY2(owner && owner->command, qPrintable(QString::fromLatin1(f->name.data(), f->name.size())));
            if (f->command) {
                QVERIFY2(commandVerbs.insert(f->verb).second, "two families declare the same verb");
                QCOMPARE(owner, f);
            }
        }
        QVERIFY(!commandVerbs.empty());
    }

    void helpListsEveryFamilyVerbFromTheRegistry()
    {
        const CliResult help = gigacheckCli({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        const CliResult unknown = gigacheckCli({QStringLiteral("frobnicate")});
        QCOMPARE(unknown.exitCode, 2);
        for (const gigacheck::Family* f : gigacheck::families()) {
            if (!f->command)
                continue;
            const QString verb = QString::fromLatin1(f->verb.data(), f->verb.size());
            const QString summary = QString::fromUtf8(f->command->summary.data(), f->command->summary.size());
            QVERIFY2(help.out.contains(QStringLiteral("\n  ") + verb + QLatin1Char(' ')), qPrintable(verb));
            QVERIFY2(help.out.contains(summary + QLatin1Char('\n')), qPrintable(summary));
            for (std::string_view line : f->command->usage)
                QVERIFY2(help.out.contains(QString::fromUtf8(line.data(), line.size()) + QLatin1Char('\n')),
                         qPrintable(verb));
            QVERIFY2(unknown.err.contains(verb), qPrintable(unknown.err));

            // The verb's own --help: its usage line and every option it declares.
            const CliResult verbHelp = gigacheckCli({verb, QStringLiteral("--help")});
            QCOMPARE(verbHelp.exitCode, 0);
            QVERIFY2(verbHelp.out.startsWith(QStringLiteral("Usage: gigacheck ") + verb), qPrintable(verbHelp.out));
            for (const gigacheck::OptionSpec& o : f->command->options()) {
                // Qt lists a one-letter option as -n (it takes --n too).
                const QString listed = (o.name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) +
                                       QString::fromStdString(o.name);
                QVERIFY2(verbHelp.out.contains(listed), qPrintable(verb + QLatin1Char(' ') + listed));
            }
        }
    }

    // `gigacheck --help` and `gigacheck bench --help` name every family's bench suites.
    void helpListsEveryBenchSuiteFromTheRegistry()
    {
        const CliResult help = gigacheckCli({QStringLiteral("--help")});
        const CliResult benchHelp = gigacheckCli({QStringLiteral("bench"), QStringLiteral("--help")});
        QCOMPARE(benchHelp.exitCode, 0);
        for (const gigacheck::Family* f : gigacheck::families())
            for (const gigacheck::BenchSuite& s : f->benchSuites) {
                const QString name = QString::fromLatin1(s.name.data(), s.name.size());
                QVERIFY2(help.out.contains(QStringLiteral("| ") + name) || help.out.contains(QStringLiteral(": ") + name),
                         qPrintable(name));
                QVERIFY2(benchHelp.out.contains(name), qPrintable(name));
            }
    }

    // An option that is not repeatable is refused when given twice; a repeatable one is a list.
    void repeatableOptionsComeFromTheDescription()
    {
        for (const gigacheck::Family* f : gigacheck::families()) {
            if (!f->command)
                continue;
            for (const gigacheck::OptionSpec& o : f->command->options()) {
                if (o.valueName.empty() || o.repeatable)
                    continue;
                const QString verb = QString::fromLatin1(f->verb.data(), f->verb.size());
                const QString option = QStringLiteral("--") + QString::fromStdString(o.name);
                const CliResult twice = gigacheckCli({verb, option, QStringLiteral("1"), option, QStringLiteral("2")});
                QCOMPARE(twice.exitCode, 2);
                QVERIFY2(twice.err.contains(option + QStringLiteral(" given 2 times")), qPrintable(twice.err));
                break;  // one per verb is enough: they share the parser
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCliRegistry)
#include "tst_cli_registry.moc"
