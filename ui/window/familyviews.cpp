#include "familyviews.hpp"

#include <QComboBox>
#include <QTabBar>

#include "views/plotstyle.hpp"

#include <algorithm>

namespace gigacheck::ui {

FamilyViews::FamilyViews(QWidget* parent) : QTabWidget(parent)
{
    setObjectName(QStringLiteral("views"));
    selector_ = new QComboBox(this);
    selector_->setObjectName(QStringLiteral("familySelector"));
    selector_->addItem(QStringLiteral("ABFT GEMM"), int(LabFamily::AbftGemm));
    selector_->addItem(QStringLiteral("Strassen"), int(LabFamily::Strassen));
    selector_->addItem(QStringLiteral("Kernel gallery"), int(LabFamily::Gallery));
    selector_->setItemData(0, QStringLiteral("Checked GEMM: blocked under a memory cap (S1–S4), online, offline and TMR "
                                             "(the scheme is chosen above Start)"),
                           Qt::ToolTipRole);
    selector_->setItemData(1, QStringLiteral("Memory-efficient Strassen and Strassen-Winograd, step by step"), Qt::ToolTipRole);
    selector_->setItemData(2, QStringLiteral("Reduced matmul and transpose kernels, swept over sizes, with their access patterns"),
                           Qt::ToolTipRole);
    selector_->setToolTip(QStringLiteral("The family of algorithms the views show"));
    setCornerWidget(selector_, Qt::TopLeftCorner);
    // A family's tabs fit every screen at normal text size without scroll arrows (minimumSizeHint,
    // tests/ui/tst_screenfit.cpp); the arrows stay as the fallback for presentation text on a
    // small screen, where tabs that could not shrink would push the docks off it.
    tabBar()->setElideMode(Qt::ElideNone);
    connect(selector_, &QComboBox::activated, this, [this](int row) { setFamily(LabFamily(selector_->itemData(row).toInt())); });
    connect(this, &QTabWidget::currentChanged, this, [this](int index) {
        if (index >= 0 && belongsTo(index, family_))
            lastPage_[std::size_t(family_)] = index;
    });
}

int FamilyViews::addView(QWidget* page, const QString& label, std::initializer_list<LabFamily> families)
{
    const int index = addTab(page, label);
    families_.emplace_back(families);
    setTabVisible(index, belongsTo(index, family_));
    return index;
}

QSize FamilyViews::minimumSizeHint() const
{
    QSize size = QTabWidget::minimumSizeHint();
    if (plotScale() <= 1.0)
        size.setWidth(std::max(size.width(), selector_->sizeHint().width() + tabBar()->sizeHint().width()));
    return size;
}

bool FamilyViews::belongsTo(int index, LabFamily family) const
{
    if (index < 0 || std::size_t(index) >= families_.size())
        return false;
    const auto& f = families_[std::size_t(index)];
    return std::find(f.begin(), f.end(), family) != f.end();
}

void FamilyViews::setFamily(LabFamily family)
{
    const bool changed = family != family_;
    family_ = family;
    selector_->setCurrentIndex(selector_->findData(int(family)));
    int show = lastPage_[std::size_t(family)];
    // None shown yet: the family's own first page, not a page it shares (Strassen opened on an
    // empty Campaign chart instead of its steps).
    for (int i = 0; i < count() && !belongsTo(show, family); ++i)
        if (belongsTo(i, family) && families_[std::size_t(i)].size() == 1)
            show = i;
    for (int i = 0; i < count() && !belongsTo(show, family); ++i)
        show = i;
    // The page first, then the others hidden: a hidden current tab would make Qt pick a neighbour.
    setTabVisible(show, true);
    setCurrentIndex(show);
    for (int i = 0; i < count(); ++i)
        setTabVisible(i, belongsTo(i, family));
    updateGeometry();  // another family's tabs: another minimum width
    if (changed)
        emit familyChanged(family);
}

void FamilyViews::showPage(int index)
{
    if (!belongsTo(index, family_) && index >= 0 && std::size_t(index) < families_.size()) {
        lastPage_[std::size_t(families_[std::size_t(index)].front())] = index;
        setFamily(families_[std::size_t(index)].front());
    }
    setCurrentIndex(index);
}

}  // namespace gigacheck::ui
