#include "window/dockpages.hpp"

#include <QVBoxLayout>

namespace gigacheck::ui {

DockPages::DockPages(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addStretch(1);  // a page sits at the top of its dock, however tall the dock
}

void DockPages::addPage(LabFamily family, QWidget* page)
{
    // Adding takes the page out of the layout it was in (the view that built it); the pages go
    // before the stretch.
    auto* box = static_cast<QVBoxLayout*>(layout());
    box->insertWidget(box->count() - 1, page);
    pages_[family] = page;
    if (!first_)
        first_ = page;
    page->setVisible(page == first_);
}

QWidget* DockPages::page(LabFamily family) const
{
    const auto it = pages_.find(family);
    return it == pages_.end() ? first_ : it->second;
}

void DockPages::showFamily(LabFamily family)
{
    QWidget* shown = page(family);
    // Hide first: two pages visible at once would widen the dock for a moment.
    for (const auto& [f, p] : pages_)
        if (p != shown)
            p->hide();
    if (shown) {
        shown->ensurePolished();  // a page never shown yet has its fonts (the display scale's) from now
        shown->show();
    }
    // Lay the page out at this widget's width now: a page hidden while the dock was resized keeps
    // its old width until the next layout pass, wider than the dock.
    layout()->invalidate();
    layout()->activate();
    updateGeometry();
}

QWidget* DockPages::shownPage() const
{
    for (const auto& [f, p] : pages_)
        if (p->isVisibleTo(this))
            return p;
    return first_;
}

}  // namespace gigacheck::ui

namespace gigacheck::ui {

std::vector<QWidget*> DockPages::pages() const
{
    std::vector<QWidget*> out;
    for (const auto& [f, p] : pages_)
        out.push_back(p);
    return out;
}

}  // namespace gigacheck::ui
