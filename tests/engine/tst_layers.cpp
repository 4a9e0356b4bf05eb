// The engine's layers run one way: core, abft, faults, gemm and the generic campaign code include
// no family; a shared header of include/gigacheck/ includes no family's header; a family includes
// only itself (and families/gallery for the gallery families). Read from the source tree, so that
// an include that reverses a layer fails here, named, before anyone builds on it.
#include <QtTest>

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

namespace {

// A family is a folder of engine/src/families/ with a family.cpp (its registration).
QStringList familiesIn(const QString& engineDir)
{
    QStringList families;
    const QDir dir(engineDir + QStringLiteral("/src/families"));
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (QFile::exists(dir.filePath(name + QStringLiteral("/family.cpp"))))
            families << name;
    return families;
}

// Code shared by a few families only, below them: the folder and the families that may use it.
const QHash<QString, QSet<QString>>& familySharedFolders()
{
    static const QHash<QString, QSet<QString>> folders{
        {QStringLiteral("gallery"), {QStringLiteral("transpose"), QStringLiteral("reduced_matmul")}}};
    return folders;
}

// The family (or family-shared folder) an include names, "" for anything else:
// "families/<f>/...", "gigacheck/<f>.hpp", "gigacheck/<f>/...".
QString familyOfInclude(const QString& include, const QStringList& families)
{
    static const QRegularExpression pattern(QStringLiteral(R"re(^(?:families|gigacheck)/([A-Za-z0-9_]+)(?:/|\.hpp$))re"));
    const QRegularExpressionMatch m = pattern.match(include);
    if (!m.hasMatch())
        return {};
    const QString name = m.captured(1);
    return families.contains(name) || familySharedFolders().contains(name) ? name : QString();
}

// What a file (path relative to engine/) may include of the families. allowed: the families it may
// name; all: it sits above the families (their registry, the CUDA module's entry, the CLI's
// family glue) and may name any.
struct Allowance {
    bool all = false;
    QSet<QString> allowed;
    QString layer;  // for the message: "core", "a shared header", "family strassen", ...
};

Allowance allowanceOf(const QString& path, const QStringList& families)
{
    const QStringList parts = path.split(QLatin1Char('/'));
    Allowance a;
    if (parts.value(0) == QLatin1String("include")) {
        // include/gigacheck/<f>.hpp and include/gigacheck/<f>/...: the family's public headers.
        const QString name = parts.value(2).endsWith(QLatin1String(".hpp")) && parts.size() == 3
                                 ? parts.value(2).chopped(4)
                                 : parts.value(2);
        if (families.contains(name)) {
            a.allowed = {name};
            a.layer = QStringLiteral("family %1's public header").arg(name);
        } else {
            a.layer = QStringLiteral("a shared header");
        }
        return a;
    }
    const QString top = parts.value(1);  // src/<top>/...
    if (top == QLatin1String("families")) {
        const QString name = parts.size() > 3 ? parts.value(2) : QString();
        if (families.contains(name)) {
            a.allowed = {name};
            for (auto it = familySharedFolders().begin(); it != familySharedFolders().end(); ++it)
                if (it.value().contains(name))
                    a.allowed << it.key();
            a.layer = QStringLiteral("family ") + name;
        } else if (familySharedFolders().contains(name)) {
            a.allowed = {name};
            a.layer = QStringLiteral("families/") + name;
        } else {
            a.all = true;  // families/*.cpp, families/cuda_module, families/cli: above the families
        }
        return a;
    }
    a.layer = top;  // core, abft, faults, gemm, the generic campaign code: below the families
    return a;
}

// "engine/<path>:<line>: <layer> includes \"<include>\"" for every include that breaks a layer.
QStringList violationsIn(const QString& engineDir)
{
    const QStringList families = familiesIn(engineDir);
    static const QRegularExpression includeLine(QStringLiteral(R"re(^\s*#\s*include\s*"([^"]+)")re"));
    QStringList violations;
    for (const QString& root : {QStringLiteral("/include"), QStringLiteral("/src")}) {
        QDirIterator it(engineDir + root,
                        {QStringLiteral("*.hpp"), QStringLiteral("*.cpp"), QStringLiteral("*.cu"), QStringLiteral("*.cuh"),
                         QStringLiteral("*.h")},
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            const QString path = file.mid(engineDir.size() + 1);
            const Allowance allowance = allowanceOf(path, families);
            if (allowance.all)
                continue;
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
                violations << QStringLiteral("engine/%1: cannot be read").arg(path);
                continue;
            }
            int lineNumber = 0;
            while (!f.atEnd()) {
                const QString line = QString::fromUtf8(f.readLine());
                ++lineNumber;
                const QRegularExpressionMatch m = includeLine.match(line);
                if (!m.hasMatch())
                    continue;
                const QString family = familyOfInclude(m.captured(1), families);
                if (!family.isEmpty() && !allowance.allowed.contains(family))
                    violations << QStringLiteral("engine/%1:%2: %3 includes \"%4\"")
                                      .arg(path)
                                      .arg(lineNumber)
                                      .arg(allowance.layer, m.captured(1));
            }
        }
    }
    violations.sort();
    return violations;
}

}  // namespace

class TestLayers : public QObject {
    Q_OBJECT

private slots:
    void theRulesNameWhatTheyShould_data();
    void theRulesNameWhatTheyShould();
    void aCrossFamilyIncludeIsNamed();
    void noIncludeRunsAgainstTheLayers();
};

void TestLayers::theRulesNameWhatTheyShould_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("include");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("core names a family") << "src/core/x.cpp" << "families/strassen/run/run.hpp" << false;
    QTest::newRow("core names a family's public header") << "src/core/x.cpp" << "gigacheck/strassen.hpp" << false;
    QTest::newRow("core names a shared header") << "src/core/x.cpp" << "gigacheck/types.hpp" << true;
    QTest::newRow("shared header names a family's") << "include/gigacheck/x.hpp" << "gigacheck/blocked_gemm/plan.hpp"
                                                    << false;
    QTest::newRow("family header names its own") << "include/gigacheck/blocked_gemm/record.hpp"
                                                 << "gigacheck/blocked_gemm/plan.hpp" << true;
    QTest::newRow("family header names another") << "include/gigacheck/online_abft.hpp"
                                                 << "gigacheck/blocked_gemm/run.hpp" << false;
    QTest::newRow("family names another") << "src/families/online_abft/run/x.cpp" << "families/blocked_gemm/ops.hpp"
                                          << false;
    QTest::newRow("family names the gemm layer") << "src/families/online_abft/run/x.cpp" << "gemm/cuda/gemm.hpp" << true;
    QTest::newRow("gallery family names the gallery") << "src/families/transpose/run/x.cpp"
                                                      << "families/gallery/run_start.hpp" << true;
    QTest::newRow("other family names the gallery") << "src/families/strassen/run/x.cpp"
                                                    << "families/gallery/run_start.hpp" << false;
    QTest::newRow("gemm layer names a family") << "src/gemm/reference.hpp" << "gigacheck/blocked_gemm/record.hpp"
                                               << false;
    QTest::newRow("generic campaign code names a family") << "src/campaign/campaign_json.cpp" << "gigacheck/strassen.hpp"
                                                          << false;
    QTest::newRow("campaign driver names its family") << "src/families/strassen/campaign/strassen_campaign.cpp"
                                                      << "gigacheck/strassen.hpp" << true;
    QTest::newRow("campaign driver names another") << "src/families/strassen/campaign/strassen_campaign.cpp"
                                                   << "gigacheck/blocked_gemm/run.hpp" << false;
    QTest::newRow("campaign driver names the campaign machinery") << "src/families/strassen/campaign/strassen_campaign.cpp"
                                                                  << "campaign/family_campaign.hpp" << true;
    QTest::newRow("family's campaign header names its family") << "include/gigacheck/blocked_gemm/campaign.hpp"
                                                                << "gigacheck/blocked_gemm/record.hpp" << true;
    QTest::newRow("family's campaign header names another") << "include/gigacheck/blocked_gemm/campaign.hpp"
                                                             << "gigacheck/strassen.hpp" << false;
    QTest::newRow("run verb's schemes from a family's folder") << "src/families/blocked_gemm/cli/run_options.hpp"
                                                               << "gigacheck/online_abft.hpp" << false;
    QTest::newRow("run verb above the families names both") << "src/families/cli/run/run_options.hpp"
                                                            << "gigacheck/online_abft.hpp" << true;
    QTest::newRow("registry names any") << "src/families/families.cpp" << "families/strassen/family.hpp" << true;
}

void TestLayers::theRulesNameWhatTheyShould()
{
    QFETCH(QString, path);
    QFETCH(QString, include);
    QFETCH(bool, allowed);
    const QStringList families{QStringLiteral("blocked_gemm"), QStringLiteral("online_abft"), QStringLiteral("strassen"),
                               QStringLiteral("reduced_matmul"), QStringLiteral("transpose")};
    const Allowance a = allowanceOf(path, families);
    const QString family = familyOfInclude(include, families);
    QVERIFY(!family.isEmpty() || allowed);
    QCOMPARE(a.all || family.isEmpty() || a.allowed.contains(family), allowed);
}

namespace {

bool writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

}  // namespace

void TestLayers::aCrossFamilyIncludeIsNamed()
{
    // A tree of five families where blocked GEMM's folder builds an online configuration (the run
    // verb's schemes before they moved above the families) and the shared run verb names both.
    QTemporaryDir tree;
    QVERIFY(tree.isValid());
    const QString engine = tree.path() + QStringLiteral("/engine");
    for (const char* family : {"blocked_gemm", "online_abft", "strassen", "reduced_matmul", "transpose"})
        QVERIFY(writeFile(engine + QStringLiteral("/src/families/%1/family.cpp").arg(QLatin1String(family)), "\n"));
    QVERIFY(writeFile(engine + QStringLiteral("/src/families/blocked_gemm/cli/run_options.hpp"),
                      "#pragma once\n#include \"gigacheck/blocked_gemm/record.hpp\"\n#include \"gigacheck/online_abft.hpp\"\n"));
    QVERIFY(writeFile(engine + QStringLiteral("/src/families/cli/run/run_options.hpp"),
                      "#include \"gigacheck/blocked_gemm/record.hpp\"\n#include \"gigacheck/online_abft.hpp\"\n"));
    QVERIFY(writeFile(engine + QStringLiteral("/src/families/strassen/campaign/strassen_campaign.cpp"),
                      "#include \"campaign/family_campaign.hpp\"\n#include \"gigacheck/strassen.hpp\"\n"));
    QCOMPARE(violationsIn(engine),
             QStringList{QStringLiteral("engine/src/families/blocked_gemm/cli/run_options.hpp:3: family blocked_gemm "
                                        "includes \"gigacheck/online_abft.hpp\"")});
}

void TestLayers::noIncludeRunsAgainstTheLayers()
{
    const QString engineDir = QStringLiteral(GIGACHECK_SOURCE_DIR "/engine");
    QVERIFY2(QFile::exists(engineDir + QStringLiteral("/src/families")), qPrintable(engineDir));
    // The tree has families to check (a wrong source dir would pass by reading nothing).
    QVERIFY(familiesIn(engineDir).size() >= 5);
    const QStringList violations = violationsIn(engineDir);
    for (const QString& v : violations)  // each on its own line: QTest cuts a long message short
        qWarning().noquote() << v;
    QVERIFY2(violations.isEmpty(),
             qPrintable(QStringLiteral("%1 include(s) against the layers (engine/src/families/README.md), the first: %2")
                            .arg(violations.size())
                            .arg(violations.value(0))));
}

QTEST_GUILESS_MAIN(TestLayers)
#include "tst_layers.moc"
