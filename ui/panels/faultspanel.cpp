#include "faultspanel.hpp"

#include "onlinefaultbox.hpp"
#include "seededit.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gigacheck::ui {

namespace {
QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}
}  // namespace

FaultsPanel::FaultsPanel(QWidget* parent) : QWidget(parent)
{
    count_ = new QSpinBox(this);
    count_->setRange(0, 64);
    count_->setToolTip(QStringLiteral("Random faults per chosen block product"));
    collinear_ = new QComboBox(this);
    for (const auto& row : enumTable<Collinearity>().rows)
        collinear_->addItem(qs(labelOf(row.value)), int(row.value));
    model_ = new QComboBox(this);
    for (const auto& row : enumTable<FaultModel>().rows)
        model_->addItem(qs(labelOf(row.value)), int(row.value));
    bit_ = new QSpinBox(this);
    bit_->setRange(-1, 63);
    bit_->setValue(-1);
    bit_->setSpecialValueText(QStringLiteral("top exponent bit"));
    bit2_ = new QSpinBox(this);
    bit2_->setObjectName(QStringLiteral("secondBit"));
    bit2_->setRange(-1, 63);
    bit2_->setValue(-1);
    bit2_->setSpecialValueText(QStringLiteral("none"));
    bit2_->setToolTip(QStringLiteral("A second bit of the same word flipped at once (--fault bitflip:B+B2): two bits of "
                                     "one value, as a wider upset strikes them"));
    target_ = new QComboBox(this);
    for (const auto& row : enumTable<FaultTarget>().rows)
        target_->addItem(qs(labelOf(row.value)), int(row.value));
    scope_ = new QComboBox(this);
    for (const auto& row : enumTable<FaultScope>().rows)
        scope_->addItem(qs(labelOf(row.value)), int(row.value));
    seed_ = new SeedEdit(1, this);
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("explicitFaults"));
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list_->setMaximumHeight(76);
    auto* remove = new QPushButton(QStringLiteral("Remove"), this);
    auto* clear = new QPushButton(QStringLiteral("Clear"), this);
    // The list with its buttons beside it on one form row: no title row above it, so that the
    // online schemes' two extra rows (target, step) leave the panel no taller than a 1366 x 768
    // screen's Faults dock.
    auto* placed = new QHBoxLayout;
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(remove);
    buttons->addWidget(clear);
    buttons->addStretch(1);
    placed->addWidget(list_, 1);
    placed->addLayout(buttons);
    auto* placedLabel = new QLabel(QStringLiteral("Placed"), this);
    placedLabel->setToolTip(QStringLiteral("The faults placed on the heatmap, as (row, col)"));
    list_->setToolTip(placedLabel->toolTip());

    // The form at the top and the panel's spare height below it: in a taller dock (presentation
    // mode) the rows keep their height, no label floats above its fields.
    auto* outer = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    outer->addLayout(form);
    outer->addStretch(1);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);  // a narrow dock puts a field under its label, never cuts it
    form->addRow(QStringLiteral("Random faults"), count_);
    form->addRow(QStringLiteral("Arrangement"), collinear_);
    form->addRow(QStringLiteral("Model"), model_);
    // The second bit beside the first (one row: the dock's height is the Matrix setup's too).
    auto* bits = new QHBoxLayout;
    bits->addWidget(bit_, 1);
    bits->addWidget(new QLabel(QStringLiteral("+"), this));
    bits->addWidget(bit2_);
    form->addRow(QStringLiteral("Bit"), bits);
    form->addRow(QStringLiteral("Target"), target_);
    form->addRow(QStringLiteral("Blocks"), scope_);
    form->addRow(QStringLiteral("Fault seed"), seed_);
    online_ = new OnlineFaultBox(this);
    online_->addRowsTo(form);
    connect(online_, &OnlineFaultBox::changed, this, &FaultsPanel::changed);
    form->addRow(placedLabel, placed);

    for (QSpinBox* box : {count_, bit_, bit2_})
        connect(box, qOverload<int>(&QSpinBox::valueChanged), this, &FaultsPanel::changed);
    connect(seed_, &QLineEdit::textChanged, this, &FaultsPanel::changed);
    for (QComboBox* box : {collinear_, model_, target_, scope_})
        connect(box, qOverload<int>(&QComboBox::currentIndexChanged), this, &FaultsPanel::changed);
    connect(model_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this] {
                const bool flip = FaultModel(model_->currentData().toInt()) == FaultModel::BitFlip;
                bit_->setEnabled(flip);
                bit2_->setEnabled(flip);
            });
    bit_->setEnabled(false);
    bit2_->setEnabled(false);
    connect(clear, &QPushButton::clicked, this, [this] {
        setExplicitFaults({});
        emit explicitFaultsEdited(faults_);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        std::vector<FaultAt> kept;
        // Faults past the listed ones (see setExplicitFaults) cannot be selected: they stay.
        for (std::size_t i = 0; i < faults_.size(); ++i)
            if (i >= std::size_t(list_->count()) || !list_->item(int(i))->isSelected())
                kept.push_back(faults_[i]);
        setExplicitFaults(kept);
        emit explicitFaultsEdited(faults_);
    });
}

void FaultsPanel::apply(FaultSpec& spec) const
{
    spec.count = count_->value();
    spec.collinear = Collinearity(collinear_->currentData().toInt());
    spec.model = FaultModel(model_->currentData().toInt());
    spec.bit = bit_->value();
    spec.bit2 = bit2_->value();
    spec.target = FaultTarget(target_->currentData().toInt());
    spec.scope = FaultScope(scope_->currentData().toInt());
    spec.seed = seed_->value();
    spec.at = faults_;
}

void FaultsPanel::load(const FaultSpec& spec)
{
    count_->setValue(spec.count);
    collinear_->setCurrentIndex(collinear_->findData(int(spec.collinear)));
    model_->setCurrentIndex(model_->findData(int(spec.model)));
    bit_->setValue(spec.bit);
    bit2_->setValue(spec.bit2);
    target_->setCurrentIndex(target_->findData(int(spec.target)));
    scope_->setCurrentIndex(scope_->findData(int(spec.scope)));
    seed_->setValue(spec.seed);
    setExplicitFaults(spec.at);
}

void FaultsPanel::setExplicitFaults(const std::vector<FaultAt>& faults)
{
    faults_ = faults;
    list_->clear();
    // A list nobody can read costs as much as its items: show the first kMaxListed and a count.
    constexpr std::size_t kMaxListed = 1000;
    for (std::size_t i = 0; i < faults_.size() && i < kMaxListed; ++i)
        list_->addItem(QStringLiteral("(%1, %2)").arg(faults_[i].row).arg(faults_[i].col));
    if (faults_.size() > kMaxListed) {
        auto* more = new QListWidgetItem(QStringLiteral("… and %1 more").arg(faults_.size() - kMaxListed), list_);
        more->setFlags(Qt::ItemIsEnabled);  // not selectable: Remove selected keeps those faults
    }
    emit changed();
}

}  // namespace gigacheck::ui
