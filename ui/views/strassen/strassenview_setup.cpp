// StrassenView's set-up as plain text, for Edit › Undo / Redo (MainWindow's ConfigHistory): every
// set-up control's state in a fixed order, put back control by control, and one signal when any
// of them changes.
#include "views/strassen/strassenview.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>

namespace gigacheck::ui::strassenlab {

namespace {
// Between the controls' states; typed text never holds it.
constexpr QChar kSeparator(0x1f);
}  // namespace

QList<QWidget*> StrassenView::setupControls() const
{
    QList<QWidget*> controls{shapeEdit_, levelsBox_, variantBox_, typeBox_, backendBox_, devicesBox_,
                             decompositionBox_, exactBox_, besideBox_, leavesBox_, leafBox_, distBox_,
                             faultsEdit_, faultModelEdit_, seedEdit_, referenceBox_};
    controls.removeAll(nullptr);
    return controls;
}

QString StrassenView::controlsState() const
{
    QStringList state;
    for (QWidget* w : setupControls()) {
        if (auto* edit = qobject_cast<QLineEdit*>(w))
            state << edit->text();
        else if (auto* spin = qobject_cast<QSpinBox*>(w))
            state << QString::number(spin->value());
        else if (auto* box = qobject_cast<QComboBox*>(w))
            state << QString::number(box->currentIndex());
        else if (auto* check = qobject_cast<QCheckBox*>(w))
            state << (check->isChecked() ? QStringLiteral("1") : QStringLiteral("0"));
    }
    return state.join(kSeparator);
}

void StrassenView::restoreControls(const QString& text)
{
    const QStringList state = text.split(kSeparator);
    const QList<QWidget*> controls = setupControls();
    if (state.size() != controls.size())
        return;  // not a state of these controls: nothing to put back
    for (qsizetype i = 0; i < controls.size(); ++i) {
        QWidget* w = controls[i];
        if (auto* edit = qobject_cast<QLineEdit*>(w))
            edit->setText(state[i]);
        else if (auto* spin = qobject_cast<QSpinBox*>(w))
            spin->setValue(state[i].toInt());
        else if (auto* box = qobject_cast<QComboBox*>(w))
            box->setCurrentIndex(state[i].toInt());
        else if (auto* check = qobject_cast<QCheckBox*>(w))
            check->setChecked(state[i] == QLatin1String("1"));
    }
}

void StrassenView::noteSetupEdits()
{
    for (QWidget* w : setupControls()) {
        if (auto* edit = qobject_cast<QLineEdit*>(w))
            connect(edit, &QLineEdit::textChanged, this, &StrassenView::setupEdited);
        else if (auto* spin = qobject_cast<QSpinBox*>(w))
            connect(spin, &QSpinBox::valueChanged, this, &StrassenView::setupEdited);
        else if (auto* box = qobject_cast<QComboBox*>(w))
            connect(box, &QComboBox::currentIndexChanged, this, &StrassenView::setupEdited);
        else if (auto* check = qobject_cast<QCheckBox*>(w))
            connect(check, &QCheckBox::toggled, this, &StrassenView::setupEdited);
    }
}

}  // namespace gigacheck::ui::strassenlab
