// The one fault grammar: --inject-at [TARGET:]R,C[:DELTA][@WHEN] (and Strassen's quadrant and
// product forms) and --fault delta|bitflip[:B[+B2]], read, refused with the accepted forms, written
// back; Strassen's mapping of it.
#include "gigacheck/fault_grammar.hpp"
#include "gigacheck/strassen.hpp"

#include "engine/test_helpers.hpp"
#include "families/strassen/ops.hpp"

#include <QtTest>

#include <cmath>

using namespace gigacheck;

namespace {

using test::inputErrorOf;
using test::qs;

InjectSpec cell(std::int64_t row, std::int64_t col)
{
    InjectSpec s;
    s.row = row;
    s.col = col;
    return s;
}

}  // namespace

Q_DECLARE_METATYPE(gigacheck::InjectSpec)

class TestFaultGrammar : public QObject {
    Q_OBJECT
private slots:
    void readsEveryForm_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<InjectSpec>("expected");
        QTest::addColumn<QString>("canonical");

        QTest::newRow("cell") << "3,4" << cell(3, 4) << "3,4";
        InjectSpec delta = cell(3, 4);
        delta.delta = -2.5;
        QTest::newRow("delta") << "3,4:-2.5" << delta << "3,4:-2.5";
        InjectSpec zero = cell(0, 0);
        zero.delta = 0.0;
        QTest::newRow("zero delta") << "0,0:0" << zero << "0,0:0";
        InjectSpec step = cell(5, 6);
        step.delta = 50.0;
        step.when = 3;
        QTest::newRow("delta and step") << "5,6:50@3" << step << "5,6:50@3";
        InjectSpec inC = cell(3, 4);
        inC.targetGiven = true;
        QTest::newRow("c prefix") << "c:3,4" << inC << "c:3,4";
        QTest::newRow("result is c") << "result:3,4" << inC << "c:3,4";
        InjectSpec inA = cell(3, 4);
        inA.target = InjectTarget::A;
        inA.targetGiven = true;
        inA.when = 0;
        QTest::newRow("a at step 0") << "a:3,4@0" << inA << "a:3,4@0";
        InjectSpec row = cell(0, 9);
        row.target = InjectTarget::ChecksumRow;
        row.targetGiven = true;
        QTest::newRow("checksum row") << "checksum-row:0,9" << row << "checksum-row:0,9";
        InjectSpec col = cell(7, 0);
        col.target = InjectTarget::ChecksumCol;
        col.targetGiven = true;
        QTest::newRow("checksum col") << "checksum-col:7,0" << col << "checksum-col:7,0";
        InjectSpec quadrant;
        quadrant.targetGiven = true;
        quadrant.quadrant = 1;
        QTest::newRow("quadrant") << "c:1" << quadrant << "c:1";
        InjectSpec quadrantDelta;
        quadrantDelta.target = InjectTarget::B;
        quadrantDelta.targetGiven = true;
        quadrantDelta.quadrant = 3;
        quadrantDelta.delta = 7.0;
        quadrantDelta.when = 2;
        QTest::newRow("quadrant, delta, when") << "b:3:7@2" << quadrantDelta << "b:3:7@2";
        InjectSpec product;
        product.target = InjectTarget::Product;
        product.targetGiven = true;
        product.product = 12;
        QTest::newRow("product") << "product:12" << product << "product:12";
        InjectSpec productDelta = product;
        productDelta.delta = 1e-9;
        QTest::newRow("product and delta") << "product:12:1e-09" << productDelta << "product:12:1e-09";
        InjectSpec productCell = product;
        productCell.row = 2;
        productCell.col = 1;
        productCell.delta = 4.0;
        QTest::newRow("product cell") << "product:12:2,1:4" << productCell << "product:12:2,1:4";
        InjectSpec plus = cell(1, 2);
        plus.delta = 8.0;
        QTest::newRow("explicit plus sign") << "1,2:+8" << plus << "1,2:8";
    }
    void readsEveryForm()
    {
        QFETCH(QString, text);
        QFETCH(InjectSpec, expected);
        QFETCH(QString, canonical);
        const InjectSpec spec = parseInjectSpec(text.toStdString());
        QCOMPARE(qs(toString(spec.target)), qs(toString(expected.target)));
        QCOMPARE(spec.targetGiven, expected.targetGiven);
        QCOMPARE(spec.product, expected.product);
        QCOMPARE(spec.quadrant, expected.quadrant);
        QCOMPARE(spec.row, expected.row);
        QCOMPARE(spec.col, expected.col);
        QCOMPARE(spec.delta, expected.delta);
        QCOMPARE(spec.when, expected.when);
        QCOMPARE(qs(toString(spec)), canonical);
        // The canonical text reads back to the same place.
        const InjectSpec again = parseInjectSpec(toString(spec));
        QCOMPARE(qs(toString(again)), canonical);
        QCOMPARE(again.row, spec.row);
        QCOMPARE(again.delta, spec.delta);
    }

    void nanDeltaIsADelta()
    {
        const InjectSpec spec = parseInjectSpec("c:1:nan");
        QVERIFY(spec.delta && std::isnan(*spec.delta));
    }

    // Every refusal names what went wrong and the accepted forms.
    void refusesWithTheAcceptedForms_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("names");
        QTest::newRow("no comma") << "1;2" << "R,C";
        QTest::newRow("bare number") << "3" << "R,C";
        QTest::newRow("negative row") << "-1,2" << "'-1' is not a row index";
        QTest::newRow("empty row") << ",2" << "row index";
        QTest::newRow("empty column") << "2," << "column index";
        QTest::newRow("empty delta") << "1,2:" << "not a number";
        QTest::newRow("word delta") << "1,2:big" << "not a number";
        QTest::newRow("unknown target") << "d:1" << "unknown target 'd'";
        QTest::newRow("quadrant 4") << "c:4" << "quadrant 0..3";
        QTest::newRow("checksum quadrant") << "checksum-row:1" << "needs a cell R,C";
        QTest::newRow("product without K") << "product" << "product:K";
        QTest::newRow("product K not a number") << "product:x" << "product:K";
        QTest::newRow("bad step") << "1,2@x" << "step or product number";
        QTest::newRow("negative step") << "1,2@-1" << "step or product number";
        QTest::newRow("too many parts") << "c:1,2:3:4" << "too many";
    }
    void refusesWithTheAcceptedForms()
    {
        QFETCH(QString, text);
        QFETCH(QString, names);
        const QString message = inputErrorOf([&] { parseInjectSpec(text.toStdString()); });
        QVERIFY2(message.contains(names), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("--inject-at '") + text + QStringLiteral("'")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("[TARGET:]R,C[:DELTA][@WHEN]")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("checksum-row")), qPrintable(message));
    }

    void readsFaultModels()
    {
        QVERIFY(parseFaultModelSpec("delta") == FaultModelSpec{});
        QVERIFY((parseFaultModelSpec("bitflip") == FaultModelSpec{FaultModel::BitFlip, -1, -1}));
        QVERIFY((parseFaultModelSpec("bitflip:30") == FaultModelSpec{FaultModel::BitFlip, 30, -1}));
        QVERIFY((parseFaultModelSpec("bitflip:3+9") == FaultModelSpec{FaultModel::BitFlip, 3, 9}));
        for (const char* text : {"delta", "bitflip", "bitflip:0", "bitflip:63", "bitflip:3+9"})
            QCOMPARE(toString(parseFaultModelSpec(text)), std::string(text));
        for (const char* bad : {"bitflop", "bitflip:", "bitflip:64", "bitflip:-1", "bitflip:x", "bitflip:3+", "Delta"}) {
            const QString message = inputErrorOf([&] { parseFaultModelSpec(bad); });
            QVERIFY2(message.contains(QStringLiteral("delta, bitflip, bitflip:B or bitflip:B+B2")), qPrintable(message));
        }
    }

    void resolvesTheBitForThePrecision()
    {
        QCOMPARE(resolvedBit(-1, Precision::F32), 30);
        QCOMPARE(resolvedBit(-1, Precision::F64), 62);
        QCOMPARE(resolvedBit(40, Precision::F64), 40);
        QVERIFY(inputErrorOf([] { resolvedBit(40, Precision::F32); }).contains(QStringLiteral("bits 0-31")));
    }

    // Strassen maps the grammar to its places: cells, quadrants, products, @K; checksums refused.
    void strassenPlacesTheGrammar()
    {
        const StrassenFault quadrant = parseStrassenFault("c:1:0");
        QCOMPARE(quadrant.where, StrassenFault::Where::C);
        QCOMPARE(quadrant.index, 1);
        QVERIFY(!quadrant.hasCell());
        QVERIFY(quadrant.deltaGiven);
        QCOMPARE(toString(quadrant), std::string("c:1:0"));

        const StrassenFault plainCell = parseStrassenFault("3,4");  // TARGET defaults to c
        QCOMPARE(plainCell.where, StrassenFault::Where::C);
        QCOMPARE(plainCell.row, std::int64_t(3));
        QCOMPARE(plainCell.col, std::int64_t(4));
        QCOMPARE(toString(plainCell), std::string("c:3,4"));

        const StrassenFault operand = parseStrassenFault("a:5,6:2@3");
        QCOMPARE(operand.where, StrassenFault::Where::A);
        QCOMPARE(operand.afterProduct, 3);
        QCOMPARE(operand.delta, 2.0);
        QCOMPARE(toString(operand), std::string("a:5,6:2@3"));
        QCOMPARE(faultPlace(operand), std::string("a:5,6@3"));

        const StrassenFault product = parseStrassenFault("product:7:1,2");
        QCOMPARE(product.where, StrassenFault::Where::Product);
        QCOMPARE(product.index, 7);
        QCOMPARE(product.row, std::int64_t(1));
        QCOMPARE(toString(product), std::string("product:7:1,2"));
        QCOMPARE(toString(parseStrassenFault("product:7:5")), std::string("product:7:5"));  // a delta, as before

        QVERIFY(inputErrorOf([] { parseStrassenFault("checksum-row:1,2"); }).contains(QStringLiteral("no checksum row")));
        QVERIFY(inputErrorOf([] { parseStrassenFault("product:3@2"); }).contains(QStringLiteral("already says when")));
        QVERIFY(inputErrorOf([] { parseStrassenFault("d:1"); }).contains(QStringLiteral("unknown target")));
    }

    // A cell outside its matrix, a leaf past the last and @K with a decomposition are refused by the
    // schedule, naming the fault.
    void strassenScheduleRefusesWhatItCannotPlace()
    {
        StrassenConfig c;
        c.shape = {64, 64, 64};
        c.levels = 1;
        c.faults = {parseStrassenFault("a:10,64")};
        QVERIFY(inputErrorOf([&] { buildStrassenSchedule(c); }).contains(QStringLiteral("outside A (64 x 64")));
        c.faults = {parseStrassenFault("c:1,2@7")};
        QVERIFY(inputErrorOf([&] { buildStrassenSchedule(c); }).contains(QStringLiteral("7 leaf products")));
        c.faults = {parseStrassenFault("product:2:40,0")};
        QVERIFY(inputErrorOf([&] { buildStrassenSchedule(c); }).contains(QStringLiteral("32 x 32")));
        c.faults = {parseStrassenFault("c:1,2@0")};
        c.devices = 2;
        c.distribute = true;
        QVERIFY(inputErrorOf([&] { buildStrassenSchedule(c); }).contains(QStringLiteral("one device")));
        c.devices = 1;
        c.distribute = false;
        QVERIFY(inputErrorOf([&] { buildStrassenSchedule(c); }).isEmpty());
        // The cell fault strikes C(1, 2) right after leaf 0, before leaf 1.
        const Schedule s = buildStrassenSchedule(c);
        int products = 0;
        bool found = false;
        for (const Operation& op : s.ops) {
            if (op.kind == strassen::kInject) {
                const OperandRegion& r = op.operands.front();
                QCOMPARE(products, 1);
                QCOMPARE(r.slot, strassen::kSlotC);
                QCOMPARE(r.row, std::int64_t(1));
                QCOMPARE(r.col, std::int64_t(2));
                found = true;
            }
            products += op.kind == strassen::kProduct;
        }
        QVERIFY(found);
    }
};

QTEST_GUILESS_MAIN(TestFaultGrammar)
#include "tst_fault_grammar.moc"
