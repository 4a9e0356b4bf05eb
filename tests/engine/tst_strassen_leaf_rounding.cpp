// The round-off scales of TF32 leaves from the stage sums they multiply (families/strassen/run/
// leaf_rounding.hpp): the symbolic pass follows every variant's schedule, a single product gives
// the conventional scales, and one level of msmes gives, per cell of C0, the four products of
// Strassen's formula C0 = M0 + M3 - M4 + M6 with their operand sums.
#include "gigacheck/strassen.hpp"

#include "families/strassen/plan/schedule_builder.hpp"
#include "families/strassen/run/leaf_rounding.hpp"

#include <QtTest>

#include <cmath>

using namespace gigacheck;

namespace {

StrassenConfig config(Shape shape, int levels, StrassenVariant v)
{
    StrassenConfig c;
    c.shape = shape;
    c.levels = levels;
    c.variant = v;
    c.tf32 = true;
    c.backend = BackendKind::Cpu;
    return c;
}

HostMatrix randomMatrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed)
{
    HostMatrix m(Precision::F32, rows, cols);
    fillRandom(m, Distribution::Normal, seed, 0);
    return m;
}

std::optional<strassen::LeafRoundingScales> scalesOf(const StrassenConfig& c, const HostMatrix& a, const HostMatrix& b)
{
    const int levels = strassen::scheduleLevels(c);
    return strassen::leafRoundingScales(buildStrassenSchedule(c), a, b, strassen::coreShape(c.shape, levels), levels,
                                        true);
}

bool near(double got, double want)
{
    return std::abs(got - want) <= 1e-12 * std::max(1.0, std::abs(want));
}

}  // namespace

class TestStrassenLeafRounding : public QObject {
    Q_OBJECT
private slots:
    // No level: one product of A and B, so the scales are the conventional ones.
    void oneProductGivesTheConventionalScales()
    {
        const Shape s{7, 5, 6};
        const HostMatrix a = randomMatrix(s.m, s.n, 1), b = randomMatrix(s.n, s.q, 2);
        const auto scales = scalesOf(config(s, 0, StrassenVariant::Msmes), a, b);
        QVERIFY(scales.has_value());
        for (std::int64_t i = 0; i < s.m; ++i) {
            double want = 0;
            for (std::int64_t k = 0; k < s.n; ++k) {
                double norm2 = 0, sum = 0;
                for (std::int64_t j = 0; j < s.q; ++j) {
                    norm2 += b.at(k, j) * b.at(k, j);
                    sum += b.at(k, j);
                }
                want += a.at(i, k) * a.at(i, k) * (norm2 + sum * sum);
            }
            QVERIFY2(near(scales->rowQ[std::size_t(i)], want), qPrintable(QString::number(i)));
        }
        for (std::int64_t j = 0; j < s.q; ++j) {
            double want = 0;
            for (std::int64_t k = 0; k < s.n; ++k) {
                double norm2 = 0, sum = 0;
                for (std::int64_t i = 0; i < s.m; ++i) {
                    norm2 += a.at(i, k) * a.at(i, k);
                    sum += a.at(i, k);
                }
                want += b.at(k, j) * b.at(k, j) * (norm2 + sum * sum);
            }
            QVERIFY2(near(scales->colQ[std::size_t(j)], want), qPrintable(QString::number(j)));
        }
        for (std::int64_t i = 0; i < s.m; ++i)
            for (std::int64_t j = 0; j < s.q; ++j) {
                double want = 0;
                for (std::int64_t k = 0; k < s.n; ++k)
                    want += a.at(i, k) * a.at(i, k) * b.at(k, j) * b.at(k, j);
                QVERIFY(near(scales->cellQ[std::size_t(i * s.q + j)], want));
            }
    }

    // One level of msmes: a cell (r, c) of C0 receives M0 = (A0 + A3)(B0 + B3), M3 = A3 (B2 - B0),
    // M4 = (A0 + A1) B3 and M6 = (A1 - A3)(B2 + B3), each with coefficient +-1.
    void oneLevelOfMsmesFollowsStrassensProducts()
    {
        const std::int64_t h = 3;  // block side
        const Shape s{2 * h, 2 * h, 2 * h};
        const HostMatrix a = randomMatrix(s.m, s.n, 3), b = randomMatrix(s.n, s.q, 4);
        const auto scales = scalesOf(config(s, 1, StrassenVariant::Msmes), a, b);
        QVERIFY(scales.has_value());
        auto A = [&](int block, std::int64_t r, std::int64_t k) { return a.at((block / 2) * h + r, (block % 2) * h + k); };
        auto B = [&](int block, std::int64_t k, std::int64_t c) { return b.at((block / 2) * h + k, (block % 2) * h + c); };
        for (std::int64_t r = 0; r < h; ++r)
            for (std::int64_t c = 0; c < h; ++c) {
                double want = 0;
                for (std::int64_t k = 0; k < h; ++k) {
                    const double m0 = (A(0, r, k) + A(3, r, k)) * (B(0, k, c) + B(3, k, c));
                    const double m3 = A(3, r, k) * (B(2, k, c) - B(0, k, c));
                    const double m4 = (A(0, r, k) + A(1, r, k)) * B(3, k, c);
                    const double m6 = (A(1, r, k) - A(3, r, k)) * (B(2, k, c) + B(3, k, c));
                    want += m0 * m0 + m3 * m3 + m4 * m4 + m6 * m6;
                }
                QVERIFY2(near(scales->cellQ[std::size_t(r * s.q + c)], want),
                         qPrintable(QStringLiteral("cell %1,%2: %3 against %4")
                                        .arg(r)
                                        .arg(c)
                                        .arg(scales->cellQ[std::size_t(r * s.q + c)])
                                        .arg(want)));
            }
    }

    // Every variant, level and decomposition (odd shapes: the peeled fringe too) is followed, and
    // every line and cell has a positive scale; otherwise the run would fall back to 4^L.
    void everyScheduleIsFollowed()
    {
        const Shape s{67, 45, 53};
        const HostMatrix a = randomMatrix(s.m, s.n, 5), b = randomMatrix(s.n, s.q, 6);
        for (StrassenVariant v : {StrassenVariant::Msmes, StrassenVariant::Winograd, StrassenVariant::Workspace,
                                  StrassenVariant::Accumulate})
            for (int levels = 1; levels <= 4; ++levels)
                for (int layout = 0; layout < 3; ++layout) {
                    StrassenConfig c = config(s, levels, v);
                    if (layout > 0) {
                        c.devices = 2;
                        c.decomposition = layout == 1 ? StrassenDecomposition::TwoD : StrassenDecomposition::Winograd;
                    }
                    const QString what = QStringLiteral("%1 L%2 layout %3").arg(toString(v).data()).arg(levels).arg(layout);
                    const auto scales = scalesOf(c, a, b);
                    QVERIFY2(scales.has_value(), qPrintable(what));
                    for (double x : scales->rowQ)
                        QVERIFY2(x > 0 && std::isfinite(x), qPrintable(what));
                    for (double x : scales->colQ)
                        QVERIFY2(x > 0 && std::isfinite(x), qPrintable(what));
                    for (double x : scales->cellQ)
                        QVERIFY2(x > 0 && std::isfinite(x), qPrintable(what));
                }
    }
};

QTEST_APPLESS_MAIN(TestStrassenLeafRounding)
#include "tst_strassen_leaf_rounding.moc"
