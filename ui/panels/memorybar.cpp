#include "memorybar.hpp"

#include "models/sizetext.hpp"
#include "views/plotstyle.hpp"

#include <QPainter>

namespace gigacheck::ui {

MemoryBar::MemoryBar(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void MemoryBar::setPlan(const Plan* plan)
{
    buffers_ = plan ? plan->buffers : std::vector<BufferSpec>{};
    cap_ = plan ? plan->capBytes : 0;
    updateToolTip();
    update();
}

void MemoryBar::setBinaryUnits(bool binary)
{
    if (binary_ == binary)
        return;
    binary_ = binary;
    updateToolTip();  // the tooltip again, in the new units
    update();
}

void MemoryBar::setWholeDevice(bool whole)
{
    if (wholeDevice_ == whole)
        return;
    wholeDevice_ = whole;
    updateToolTip();
    update();
}

void MemoryBar::updateToolTip()
{
    std::size_t used = 0;
    QStringList tip;
    for (const auto& b : buffers_) {
        used += b.bytes;
        if (b.role == BufferRole::Workspace)
            tip << QStringLiteral("%1: the GEMM's copies of the blocks and partial sums (%2)")
                       .arg(QString::fromStdString(b.name), sizeText(double(b.bytes), binary_));
        else
            tip << QStringLiteral("%1: %2 × %3 (%4)").arg(QString::fromStdString(b.name)).arg(b.rows).arg(b.cols)
                       .arg(sizeText(double(b.bytes), binary_));
    }
    tip << QStringLiteral("total %1 of cap %2").arg(sizeText(double(used), binary_), capText());
    setToolTip(cap_ ? tip.join(QLatin1Char('\n')) : QString());
}

QString MemoryBar::capText() const
{
    const QString size = sizeText(double(cap_), binary_);
    return wholeDevice_ ? QStringLiteral("%1, the whole device").arg(size) : size;
}

QString MemoryBar::usageText() const
{
    if (cap_ == 0)
        return {};
    std::size_t used = 0;
    for (const auto& b : buffers_)
        used += b.bytes;
    return QStringLiteral("%1 of %2 (%3%)")
        .arg(sizeText(double(used), binary_), capText())
        .arg(100.0 * double(used) / double(cap_), 0, 'f', 1);
}

void MemoryBar::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRectF bar(1, 1, width() - 2, 18);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(palette().color(QPalette::Base));
    p.drawRect(bar);
    if (cap_ == 0)
        return;
    double x = bar.left();
    int index = 0;
    for (const auto& b : buffers_) {
        const double w = bar.width() * double(b.bytes) / double(cap_);
        QColor c = b.role == BufferRole::A ? kindColor(OpKind::CopyH2D)
                   : b.role == BufferRole::B ? kindColor(OpKind::Checksum)
                   : b.role == BufferRole::C ? kindColor(OpKind::Product)
                   : b.role == BufferRole::Workspace ? palette().color(QPalette::Mid)
                                             : kindColor(OpKind::Verify);
        if (b.name.find('\'') != std::string::npos)
            c = c.lighter(130);  // the second buffer of a pair
        p.setBrush(c);
        p.setPen(palette().color(QPalette::Base));
        const QRectF seg(x, bar.top(), std::min(w, bar.right() - x), bar.height());
        p.drawRect(seg);
        if (seg.width() > 22) {
            p.setPen(Qt::white);
            p.drawText(seg, Qt::AlignCenter, QString::fromStdString(b.name));
        }
        x += w;
        ++index;
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRectF(0, 20, width(), 14), Qt::AlignLeft | Qt::AlignVCenter, usageText());
}

}  // namespace gigacheck::ui
