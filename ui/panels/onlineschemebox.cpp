#include "onlineschemebox.hpp"

#include <gigacheck/weighted_checksums.hpp>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace gigacheck::ui {

namespace {
QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}
}  // namespace

OnlineSchemeBox::OnlineSchemeBox(QWidget* parent) : QWidget(parent)
{
    scheme_ = new QComboBox(this);
    scheme_->setObjectName(QStringLiteral("scheme"));
    scheme_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    scheme_->setMinimumContentsLength(7);
    for (const auto& row : enumTable<Scheme>().rows) {
        scheme_->addItem(qs(labelOf(row.value)), int(row.value));
        scheme_->setItemData(scheme_->count() - 1, qs(row.description), Qt::ToolTipRole);
    }
    panel_ = new QSpinBox(this);
    panel_->setObjectName(QStringLiteral("panelWidth"));
    panel_->setRange(0, 99999);
    panel_->setSpecialValueText(QStringLiteral("auto"));
    panel_->setToolTip(QStringLiteral("Panel width b of the outer products C += A_j B_j (auto: min(n, 1024)); S = ⌈n / b⌉ steps"));
    checkEvery_ = new QSpinBox(this);
    checkEvery_->setObjectName(QStringLiteral("checkEvery"));
    checkEvery_->setRange(1, 999);
    checkEvery_->setToolTip(QStringLiteral("fq: a check after every fq-th step and after the last"));
    checksums_ = new QSpinBox(this);
    checksums_->setObjectName(QStringLiteral("checksums"));
    checksums_->setRange(1, kMaxChecksums);
    checksums_->setToolTip(QStringLiteral("K weighted checksum vectors per axis: up to K errors in one row or column are corrected"));

    columnBlocks_ = new QSpinBox(this);
    columnBlocks_->setObjectName(QStringLiteral("columnBlocks"));
    columnBlocks_->setRange(0, 8);
    columnBlocks_->setSpecialValueText(QStringLiteral("auto"));
    columnBlocks_->setToolTip(QStringLiteral(
        "G column blocks of C on the GPU, each with its own checksum column, built and checked on its own stream: one "
        "block's check runs beside the other's GEMM (auto: 2 when C has 4096 columns or more, K = 1, faults in C; the "
        "CPU builds C as one block)"));

    // Two short rows, the explanation in the tooltip: the plan below stays in view on a 768-pixel
    // screen and the dock no wider (tests/ui/tst_layoutfit.cpp).
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(QStringLiteral("Scheme"), this));
    top->addWidget(scheme_, 1);
    auto* params = new QHBoxLayout;
    const auto add = [&](const QString& label, QSpinBox* box) {
        auto* l = new QLabel(label, this);
        l->setBuddy(box);
        l->setToolTip(box->toolTip());
        params->addWidget(l);
        params->addWidget(box, 1);
    };
    add(QStringLiteral("b"), panel_);
    add(QStringLiteral("fq"), checkEvery_);
    add(QStringLiteral("K"), checksums_);
    add(QStringLiteral("G"), columnBlocks_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addLayout(params);

    connect(scheme_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        updateEnabled();
        emit changed();
    });
    for (QSpinBox* box : {panel_, checkEvery_, checksums_, columnBlocks_})
        connect(box, qOverload<int>(&QSpinBox::valueChanged), this, &OnlineSchemeBox::changed);
    updateEnabled();
}

OnlineSchemeSettings OnlineSchemeBox::settings() const
{
    OnlineSchemeSettings s;
    s.scheme = Scheme(scheme_->currentData().toInt());
    s.panel = panel_->value();
    s.checkEvery = checkEvery_->value();
    s.checksums = checksums_->value();
    s.columnBlocks = columnBlocks_->value();
    return s;
}

void OnlineSchemeBox::setSettings(const OnlineSchemeSettings& s)
{
    scheme_->setCurrentIndex(scheme_->findData(int(s.scheme)));
    panel_->setValue(int(s.panel));
    checkEvery_->setValue(std::max(1, s.checkEvery));
    checksums_->setValue(s.checksums);
    columnBlocks_->setValue(s.columnBlocks);
}

void OnlineSchemeBox::updateEnabled()
{
    const Scheme s = Scheme(scheme_->currentData().toInt());
    const bool abft = s == Scheme::Online || s == Scheme::Offline;
    panel_->setEnabled(abft);
    checkEvery_->setEnabled(s == Scheme::Online);
    checksums_->setEnabled(abft);
    columnBlocks_->setEnabled(abft);
    // The explanation is the combo's tooltip: the plan below stays in view on a 768-pixel screen.
    scheme_->setToolTip(scheme_->currentData(Qt::ToolTipRole).toString() +
                        (s == Scheme::Blocked ? QString() : QStringLiteral(" The strategies below apply to blocked ABFT only.")));
}

}  // namespace gigacheck::ui
