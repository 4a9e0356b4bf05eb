// The plan's buffers stacked against the memory cap, one coloured segment per buffer.
#pragma once

#include <gigacheck/blocked_gemm/plan.hpp>

#include <QWidget>

namespace gigacheck::ui {

class MemoryBar : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBar(QWidget* parent = nullptr);
    void setPlan(const Plan* plan);  // nullptr: empty bar
    // Sizes in KiB / MiB / GiB (the cap was typed so) rather than kB / MB / GB.
    void setBinaryUnits(bool binary);
    // The cap is the whole device (the run has none of its own): said in words beside its size.
    void setWholeDevice(bool whole);
    // The line under the bar ("768 KiB of 1 MiB (75.0%)"); empty without a plan.
    QString usageText() const;
    QString capText() const;  // "1 GiB", or "1 GiB, the whole device"
    QSize sizeHint() const override { return {320, 34}; }
    QSize minimumSizeHint() const override { return {120, 34}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void updateToolTip();

    std::vector<BufferSpec> buffers_;
    std::uint64_t cap_ = 0;
    bool binary_ = false;
    bool wholeDevice_ = false;
};

}  // namespace gigacheck::ui
