// The views of the lab as one family at a time: a family selector at the left of the view tabs
// and only that family's views as tabs, so that the tab bar never needs scroll arrows (eight
// tabs overflowed a 1366-pixel screen). A page may belong to several families (the campaign view
// is every family's); showing a page of another family switches the family.
#pragma once

#include <QTabWidget>

#include <initializer_list>
#include <vector>

class QComboBox;

namespace gigacheck::ui {

enum class LabFamily { AbftGemm, Strassen, Gallery };

class FamilyViews : public QTabWidget {
    Q_OBJECT
public:
    explicit FamilyViews(QWidget* parent = nullptr);

    // Pages are added in a fixed order: their index is the window's View.
    int addView(QWidget* page, const QString& label, std::initializer_list<LabFamily> families);
    void setFamily(LabFamily family);
    LabFamily family() const { return family_; }
    bool belongsTo(int index, LabFamily family) const;
    // Shows the page, switching to its first family when the current one does not have it.
    void showPage(int index);
    QComboBox* selector() const { return selector_; }
    // At normal text size at least as wide as the selector and the family's tabs, so that they
    // never need scroll arrows; larger text (presentation mode) may scroll them instead of pushing
    // the docks off a small screen.
    QSize minimumSizeHint() const override;

signals:
    void familyChanged(gigacheck::ui::LabFamily family);

private:
    QComboBox* selector_ = nullptr;
    LabFamily family_ = LabFamily::AbftGemm;
    std::vector<std::vector<LabFamily>> families_;  // per page
    std::vector<int> lastPage_ = std::vector<int>(3, -1);  // per family: its page shown last
};

}  // namespace gigacheck::ui
