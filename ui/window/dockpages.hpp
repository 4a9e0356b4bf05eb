// One dock's content for every family: the checked GEMM's panel, the Strassen view's, the kernel
// gallery's. Only the shown family's page is visible, so the dock is as wide and as tall as that
// page needs, and the docks never hide or move when the family changes (one set of docks
// drives every family).
#pragma once

#include "window/familyviews.hpp"

#include <QWidget>

#include <map>
#include <vector>

namespace gigacheck::ui {

class DockPages : public QWidget {
    Q_OBJECT
public:
    explicit DockPages(QWidget* parent = nullptr);
    // The page of a family (reparented here); a family without a page shows the first one added.
    void addPage(LabFamily family, QWidget* page);
    void showFamily(LabFamily family);
    QWidget* page(LabFamily family) const;
    QWidget* shownPage() const;
    std::vector<QWidget*> pages() const;

private:
    std::map<LabFamily, QWidget*> pages_;
    QWidget* first_ = nullptr;
};

}  // namespace gigacheck::ui
