#include "setuppanel.hpp"

#include "seededit.hpp"

#include "models/sizetext.hpp"

#include <gigacheck/bench.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace gigacheck::ui {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QSpinBox* dimensionBox(QWidget* parent, int value)
{
    auto* box = new QSpinBox(parent);
    box->setRange(1, 200000);
    box->setValue(value);
    box->setAccelerated(true);
    // Typing 8192 must not apply 8, 81 and 819 on the way (each would drop the placed faults
    // outside that C): the value counts on Enter, on leaving the field, or from the arrows.
    box->setKeyboardTracking(false);
    return box;
}

// bf16 / f16 in the precision box: FP32 values whose products read BF16 / FP16 inputs (the GEMM
// variants cublas-bf16 / cublas-f16, as `gigacheck run --type bf16|f16` chooses them).
constexpr int kBf16Inputs = 1000, kF16Inputs = 1001;
Precision precisionOfItem(int item) { return item >= kBf16Inputs ? Precision::F32 : Precision(item); }

}  // namespace

SetupPanel::SetupPanel(QWidget* parent) : QWidget(parent)
{
    m_ = dimensionBox(this, 1024);
    n_ = dimensionBox(this, 1024);
    q_ = dimensionBox(this, 1024);
    m_->setObjectName(QStringLiteral("shapeM"));
    n_->setObjectName(QStringLiteral("shapeN"));
    q_->setObjectName(QStringLiteral("shapeQ"));
    auto* shape = new QHBoxLayout;
    shape->addWidget(m_);
    shape->addWidget(new QLabel(QStringLiteral("×"), this));
    shape->addWidget(n_);
    shape->addWidget(new QLabel(QStringLiteral("×"), this));
    shape->addWidget(q_);

    precision_ = new QComboBox(this);
    for (const auto& row : enumTable<Precision>().rows)
        precision_->addItem(qs(row.name), int(row.value));
    precision_->addItem(QStringLiteral("bf16"), kBf16Inputs);
    precision_->addItem(QStringLiteral("f16"), kF16Inputs);
    precision_->setToolTip(QStringLiteral("f32 / f64: the values and the arithmetic; bf16 / f16: FP32 values whose "
                                          "products read BF16 / FP16 inputs, accumulated in FP32 (GEMM cublas-bf16 / "
                                          "cublas-f16; emulated on the CPU; f16 refuses values beyond 65504). The online and offline "
                                          "schemes take them too (one checksum vector, faults in C); TMR does not"));
    distribution_ = new QComboBox(this);
    for (const auto& row : enumTable<Distribution>().rows)
        distribution_->addItem(qs(row.name), int(row.value));
    seed_ = new SeedEdit(1, this);
    backend_ = new QComboBox(this);
    backend_->setObjectName(QStringLiteral("backend"));
    for (const auto& row : enumTable<BackendKind>().rows)
        backend_->addItem(qs(row.name), int(row.value));
    gpu_ = new QComboBox(this);
    gpu_->setObjectName(QStringLiteral("gpu"));
    gpu_->addItem(QStringLiteral("first GPU"), -1);
    gemm_ = new QComboBox(this);
    gemm_->setObjectName(QStringLiteral("gemm"));
    for (const auto& row : enumTable<GemmVariant>().rows)
        gemm_->addItem(qs(row.name), int(row.value));
    gemm_->setCurrentIndex(gemm_->findData(int(RunConfig{}.gemm)));
    gemm_->setToolTip(QStringLiteral(
        "Product kernel on the CUDA backend (gigacheck run --gemm). The online and offline schemes take "
        "cublas, cublas-tf32, cutlass-tf32 or tf32x3 on the GPU (cutlass-tf32: the product writes C's sums, "
        "so a check reads no C; with faults in C only, one kernel keeps C in its registers across all the "
        "steps and writes each step's sums; tf32x3: FP32-accurate panels from three TF32 products); a run with "
        "another kernel is refused with the reason.\n"
        "The CPU backend multiplies with OpenBLAS and emulates the TF32 kernels (operands rounded to TF32) "
        "and tf32x3 (the same split)."));
    staging_ = new QComboBox(this);
    staging_->setObjectName(QStringLiteral("h2dStaging"));
    for (const auto& row : enumTable<H2dStaging>().rows)
        staging_->addItem(qs(row.name), int(row.value));
    staging_->setCurrentIndex(staging_->findData(int(RunConfig{}.h2dStaging)));
    staging_->setToolTip(QStringLiteral(
        "How the CUDA backend's block loads leave the host (gigacheck run --h2d-staging):\n"
        "pack: host threads pack each block of A or B into pinned staging, then one contiguous copy;\n"
        "direct: one 2D copy straight out of the host matrix;\n"
        "auto: whichever the cost model predicts faster for this schedule, with the host's measured packing rate."));
    cap_ = new QLineEdit(QStringLiteral("64MiB"), this);
    cap_->setObjectName(QStringLiteral("memoryCap"));
    // Empty is the whole device, as `gigacheck run` without --mem; 0 is refused there and here.
    cap_->setPlaceholderText(QStringLiteral("whole device"));
    cap_->setToolTip(QStringLiteral("Device memory the plan may use: 10MB, 64MiB, 4GiB; empty for the whole device "
                                    "(the GPU's memory, 1 GiB on the CPU)"));
    // Beside the cap: the staging matters when the cap makes the run load blocks (out of core).
    auto* capRow = new QHBoxLayout;
    capRow->addWidget(cap_, 1);
    capRow->addWidget(new QLabel(QStringLiteral("loads"), this));
    capRow->addWidget(staging_);
    abft_ = new QCheckBox(QStringLiteral("ABFT checksums (detect and correct)"), this);
    abft_->setChecked(true);
    device_ = new QLabel(QStringLiteral("device: chosen when a run starts"), this);
    device_->setWordWrap(true);
    hostMemory_ = new QLabel(this);
    hostMemory_->setObjectName(QStringLiteral("hostMemory"));

    auto* form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);  // a narrow dock puts a field under its label, never cuts it
    form->addRow(QStringLiteral("A m×n · B n×q"), shape);
    form->addRow(QStringLiteral("Precision"), precision_);
    form->addRow(QStringLiteral("Distribution"), distribution_);
    form->addRow(QStringLiteral("Seed"), seed_);
    form->addRow(QStringLiteral("Backend"), backend_);
    form->addRow(QStringLiteral("GPU"), gpu_);
    form->addRow(QStringLiteral("GEMM (CUDA)"), gemm_);
    form->addRow(QStringLiteral("Memory cap"), capRow);
    form->addRow(abft_);
    form->addRow(hostMemory_);
    form->addRow(device_);

    for (QSpinBox* box : {m_, n_, q_})
        connect(box, qOverload<int>(&QSpinBox::valueChanged), this, &SetupPanel::changed);
    connect(seed_, &QLineEdit::textChanged, this, &SetupPanel::changed);
    for (QComboBox* box : {precision_, distribution_, backend_, gpu_, gemm_, staging_})
        connect(box, qOverload<int>(&QComboBox::currentIndexChanged), this, &SetupPanel::changed);
    connect(backend_, qOverload<int>(&QComboBox::currentIndexChanged), this, &SetupPanel::updateGpuEnabled);
    connect(cap_, &QLineEdit::textChanged, this, &SetupPanel::changed);
    connect(abft_, &QCheckBox::toggled, this, &SetupPanel::changed);
    connect(this, &SetupPanel::changed, this, &SetupPanel::updateHostMemory);
    updateHostMemory();
    updateGpuEnabled();
}

void SetupPanel::updateGpuEnabled()
{
    // The CPU backend has no device to pick; a list without GPUs has nothing to pick either.
    gpu_->setEnabled(BackendKind(backend_->currentData().toInt()) != BackendKind::Cpu && gpu_->count() > 1);
}

void SetupPanel::probeDevices(bool showList)
{
    try {
        std::string why;
        QStringList names;
        const std::vector<DeviceInfo> devices = listDevices(&why);
        for (const DeviceInfo& d : devices)
            names << (d.backend == BackendKind::Cuda ? QStringLiteral("cuda %1: %2").arg(d.index).arg(QString::fromStdString(d.name))
                                                     : QStringLiteral("%1: %2").arg(qs(toString(d.backend)), QString::fromStdString(d.name)));
        if (!why.empty())
            names << QStringLiteral("(no CUDA: %1)").arg(QString::fromStdString(why));
        setDevices(devices, QString::fromStdString(why));
        if (showList)
            setDeviceText(QStringLiteral("devices:\n") + names.join(QLatin1Char('\n')));
    } catch (const std::exception& e) {
        if (showList)
            setDeviceText(QStringLiteral("devices: %1").arg(QString::fromStdString(e.what())));
    }
}

void SetupPanel::setDevices(const std::vector<DeviceInfo>& devices, const QString& whyNoCuda)
{
    devices_ = devices;
    whyNoCuda_ = whyNoCuda;
    const int selected = gpu_->currentData().toInt();
    const QSignalBlocker block(gpu_);
    gpu_->clear();
    gpu_->addItem(QStringLiteral("first GPU"), -1);
    for (const DeviceInfo& d : devices)
        if (d.backend == BackendKind::Cuda)
            gpu_->addItem(QStringLiteral("%1: %2 (%3)")
                              .arg(d.index)
                              .arg(QString::fromStdString(d.name), QString::fromStdString(formatBytes(double(d.memoryBytes)))),
                          d.index);
    const QString gpuHelp = QStringLiteral("Which CUDA device runs the product (as `gigacheck devices` numbers them)");
    gpu_->setToolTip(gpuHelp);
    if (gpu_->count() == 1) {
        // The box shows the words that fit a dock; the reason (often a sentence from the driver)
        // is its tooltip, not a text cut at the box's edge.
        const QString why = whyNoCuda.isEmpty()                               ? QStringLiteral("no CUDA device")
                            : whyNoCuda.startsWith(QStringLiteral("no CUDA")) ? whyNoCuda
                                                                              : QStringLiteral("no CUDA device: %1").arg(whyNoCuda);
        gpu_->setItemText(0, QStringLiteral("no CUDA device"));
        gpu_->setItemData(0, why, Qt::ToolTipRole);
        gpu_->setToolTip(gpuHelp + QStringLiteral("\n") + why);
    }
    selectGpu(selected);
    updateGpuEnabled();
}

bool SetupPanel::selectedDevice(DeviceInfo* device, QString* why)
{
    if (devices_.empty())
        probeDevices(false);
    const auto backend = BackendKind(backend_->currentData().toInt());
    const int ordinal = gpu_->currentData().toInt();
    auto found = devices_.end();
    if (backend != BackendKind::Cpu)
        found = std::find_if(devices_.begin(), devices_.end(), [ordinal](const DeviceInfo& d) {
            return d.backend == BackendKind::Cuda && (ordinal < 0 || d.index == ordinal);
        });
    if (found == devices_.end() && backend == BackendKind::Cuda) {
        if (why) {
            if (ordinal >= 0)
                *why = QStringLiteral("GPU %1 is not on this machine").arg(ordinal);
            else if (whyNoCuda_.startsWith(QStringLiteral("no CUDA")))
                *why = whyNoCuda_;
            else
                *why = whyNoCuda_.isEmpty() ? QStringLiteral("no CUDA device") : QStringLiteral("no CUDA device: %1").arg(whyNoCuda_);
        }
        return false;
    }
    if (found == devices_.end())
        found = std::find_if(devices_.begin(), devices_.end(), [](const DeviceInfo& d) { return d.backend == BackendKind::Cpu; });
    if (found == devices_.end()) {
        if (why)
            *why = QStringLiteral("the devices of this machine could not be listed");
        return false;
    }
    *device = *found;
    return true;
}

// Picks the device; one this machine does not list (a record from a GPU server) stays visible as such.
void SetupPanel::selectGpu(int device)
{
    int index = gpu_->findData(device);
    if (index < 0) {
        gpu_->addItem(QStringLiteral("%1 (not on this machine)").arg(device), device);
        index = gpu_->count() - 1;
    }
    gpu_->setCurrentIndex(index);
}

void SetupPanel::updateHostMemory()
{
    const double elements = double(m_->value()) * n_->value() + double(n_->value()) * q_->value() +
                            double(m_->value()) * q_->value();
    const double bytes = elements * double(elementSize(precisionOfItem(precision_->currentData().toInt())));
    // In the cap's units: "12 MiB" beside a cap typed in MiB, never "12.58 MB".
    hostMemory_->setText(QStringLiteral("host memory for A, B, C: %1").arg(sizeText(bytes, capInBinaryUnits())));
}

bool SetupPanel::apply(RunConfig& config, QString* error) const
{
    config.shape = Shape{m_->value(), n_->value(), q_->value()};
    const int precisionItem = precision_->currentData().toInt();
    config.precision = precisionOfItem(precisionItem);
    config.distribution = Distribution(distribution_->currentData().toInt());
    config.seed = seed_->value();
    config.backend = BackendKind(backend_->currentData().toInt());
    config.device = config.backend == BackendKind::Cpu ? -1 : gpu_->currentData().toInt();
    config.gemm = GemmVariant(gemm_->currentData().toInt());
    if (precisionItem == kBf16Inputs)
        config.gemm = GemmVariant::CublasBf16;
    else if (precisionItem == kF16Inputs)
        config.gemm = GemmVariant::CublasF16;
    config.h2dStaging = H2dStaging(staging_->currentData().toInt());
    config.abft = abft_->isChecked();
    // Empty is the whole device (memCapBytes 0, as a record with no cap). A zero is refused, as
    // the CLI's --mem 0 is, with the way to ask for the whole device.
    const QString cap = cap_->text().trimmed();
    bool number = false;
    const bool zero = cap.toDouble(&number) == 0 && number;
    cap_->setStyleSheet(zero ? QStringLiteral("color: #d32f2f") : QString());
    if (zero) {
        if (error)
            *error = QStringLiteral("memory cap: 0 is refused, as gigacheck run refuses --mem 0; leave the field "
                                    "empty to use the whole device");
        return false;
    }
    try {
        config.memCapBytes = cap.isEmpty() ? 0 : parseSize(cap.toStdString());
    } catch (const std::exception& e) {
        cap_->setStyleSheet(QStringLiteral("color: #d32f2f"));
        if (error)
            *error = QStringLiteral("memory cap: %1").arg(QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

void SetupPanel::load(const RunConfig& config)
{
    const QSignalBlocker blocks[] = {QSignalBlocker(m_), QSignalBlocker(n_), QSignalBlocker(q_)};
    // A record may hold a shape beyond what the boxes offer for typing (the CLI runs up to
    // 2^31 - 1): widen a box to the record's value instead of clamping it, which would redraw
    // C smaller, re-plan and drop the record's faults outside it.
    const auto show = [](QSpinBox* box, std::int64_t v) {
        const int value = int(std::min<std::int64_t>(v, std::numeric_limits<int>::max()));
        if (value > box->maximum())
            box->setMaximum(value);
        box->setValue(value);
    };
    show(m_, config.shape.m);
    show(n_, config.shape.n);
    show(q_, config.shape.q);
    const InputFormat input = config.precision == Precision::F32 ? inputFormatOf(config.gemm) : InputFormat::F32;
    precision_->setCurrentIndex(precision_->findData(input == InputFormat::Bf16  ? kBf16Inputs
                                                     : input == InputFormat::F16 ? kF16Inputs
                                                                                 : int(config.precision)));
    distribution_->setCurrentIndex(distribution_->findData(int(config.distribution)));
    seed_->setValue(config.seed);
    backend_->setCurrentIndex(backend_->findData(int(config.backend)));
    selectGpu(config.device);
    updateGpuEnabled();
    gemm_->setCurrentIndex(gemm_->findData(int(config.gemm)));
    staging_->setCurrentIndex(staging_->findData(int(config.h2dStaging)));
    // In the largest binary unit that writes it exactly (a record's 196608 bytes reads 192KiB);
    // no cap: empty, the field then reads "whole device".
    const std::uint64_t cap = config.memCapBytes;
    cap_->setText(cap == 0                           ? QString()
                  : cap % (1024ull * 1024 * 1024) == 0 ? QStringLiteral("%1GiB").arg(cap / (1024ull * 1024 * 1024))
                  : cap % (1024 * 1024) == 0         ? QStringLiteral("%1MiB").arg(cap / (1024 * 1024))
                  : cap % 1024 == 0                  ? QStringLiteral("%1KiB").arg(cap / 1024)
                                                     : QStringLiteral("%1B").arg(cap));
    abft_->setChecked(config.abft);
    updateHostMemory();
    emit changed();
}

bool SetupPanel::capInBinaryUnits() const
{
    // The whole device: the CPU's 1 GiB or a GPU's memory, both read best in GiB.
    return cap_->text().trimmed().isEmpty() || typedInBinaryUnits(cap_->text());
}

void SetupPanel::setDeviceText(const QString& text)
{
    device_->setText(text);
}

}  // namespace gigacheck::ui
