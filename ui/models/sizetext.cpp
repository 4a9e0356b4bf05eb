#include "models/sizetext.hpp"

#include <gigacheck/types.hpp>

#include <QRegularExpression>

#include <cmath>

namespace gigacheck::ui {

bool typedInBinaryUnits(const QString& text)
{
    static const QRegularExpression binary(QStringLiteral("[kmgtp]ib\\s*$"), QRegularExpression::CaseInsensitiveOption);
    return binary.match(text.trimmed()).hasMatch();
}

bool looksBinary(std::uint64_t capBytes)
{
    return capBytes > 0 && capBytes % 1024 == 0 && capBytes % 1000 != 0;
}

QString sizeText(double bytes, bool binary)
{
    if (!binary)
        return QString::fromStdString(formatBytes(bytes));
    static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    if (!std::isfinite(bytes))
        return QStringLiteral("? B");
    const bool negative = bytes < 0;
    double v = std::fabs(bytes);
    int unit = 0;
    while (v >= 1024 && unit < 5) {
        v /= 1024;
        ++unit;
    }
    QString number = QString::number(v, 'f', unit == 0 ? 0 : 2);
    if (number.contains(QLatin1Char('.'))) {
        while (number.endsWith(QLatin1Char('0')))
            number.chop(1);
        if (number.endsWith(QLatin1Char('.')))
            number.chop(1);
    }
    return QStringLiteral("%1%2 %3").arg(negative ? QStringLiteral("-") : QString(), number, QString::fromLatin1(kUnits[unit]));
}

QString withSizesIn(QString text, std::initializer_list<double> sizes, bool binary)
{
    if (!binary)
        return text;
    for (double size : sizes)
        text.replace(QString::fromStdString(formatBytes(size)), sizeText(size, true));
    return text;
}

}  // namespace gigacheck::ui
