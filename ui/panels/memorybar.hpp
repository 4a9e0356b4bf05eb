// The plan's buffers stacked against the memory cap, one coloured segment per buffer.
#pragma once

#include <gigacheck/plan.hpp>

#include <QWidget>

namespace gigacheck::ui {

class MemoryBar : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBar(QWidget* parent = nullptr);
    void setPlan(const Plan* plan);  // nullptr: empty bar
    QSize sizeHint() const override { return {320, 34}; }
    QSize minimumSizeHint() const override { return {120, 34}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<BufferSpec> buffers_;
    std::uint64_t cap_ = 0;
};

}  // namespace gigacheck::ui
