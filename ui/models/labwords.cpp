#include "models/labwords.hpp"

#include "models/sizetext.hpp"

#include <gigacheck/blocked_gemm/record.hpp>

#include <QRegularExpression>

namespace gigacheck::ui {

QString inLabWords(QString text)
{
    static const QRegularExpression requested(QStringLiteral("--backend (\\w+): requested"));
    static const QRegularExpression device(QStringLiteral("--device (\\d+): requested"));
    text.replace(requested, QStringLiteral("backend \\1 chosen in Matrix setup"));
    text.replace(device, QStringLiteral("GPU \\1 chosen in Matrix setup"));
    text.replace(QStringLiteral("--backend auto"), QStringLiteral("backend auto"));
    text.replace(QStringLiteral("--backend cuda"), QStringLiteral("backend cuda"));
    text.replace(QStringLiteral("raise --mem"), QStringLiteral("raise the memory cap"));
    // The lab has no control that measures the rate tables: name the command as what it is.
    text.replace(QStringLiteral("(run gigacheck devices --measure)"),
                 QStringLiteral("(not measured on this machine: the command gigacheck devices --measure measures them)"));
    text.replace(QStringLiteral("no rate tables: devices --measure again"),
                 QStringLiteral("no rate tables: the command gigacheck devices --measure measures them"));
    return text;
}

QString labReportText(const RunRecord& record)
{
    const bool binary = looksBinary(record.plan.capBytes);
    QString text = withSizesIn(QString::fromStdString(formatReport(record)),
                               {double(record.plan.capBytes), double(record.config.memCapBytes), double(record.plan.bytesNeeded),
                                double(record.metrics.peakBufferBytes)},
                               binary);
    for (const BufferSpec& b : record.plan.buffers)
        text = withSizesIn(text, {double(b.bytes)}, binary);
    return inLabWords(text);
}

}  // namespace gigacheck::ui
