// Draws one step of an access pattern (accesspattern.hpp): one or two 16 x 16 grids in 4 x 4
// tiles, the cells of this step coloured by role (read, swap partner, write), the sectors they
// cost outlined, the cells of earlier steps faintly shaded.
#pragma once

#include "views/gallery/accesspattern.hpp"

#include <QWidget>

namespace gigacheck::ui::gallery {

class AccessPatternWidget : public QWidget {
    Q_OBJECT
public:
    explicit AccessPatternWidget(QWidget* parent = nullptr);
    void setPattern(const PatternInfo& info, const std::vector<AccessStep>* steps);
    void setStep(int index);
    QSize sizeHint() const override { return {560, 300}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    PatternInfo info_{Pattern::TransposeCpuNaive, {}, {}, {}};
    const std::vector<AccessStep>* steps_ = nullptr;
    int step_ = -1;
};

}  // namespace gigacheck::ui::gallery
