// Matrix setup: shape m x n x q, precision, distribution, seed, backend and GPU, the CUDA GEMM and
// how its block loads leave the host, memory cap, ABFT.
#pragma once

#include <gigacheck/blocked_gemm/record.hpp>

#include <vector>

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace gigacheck::ui {

class SeedEdit;

class SetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit SetupPanel(QWidget* parent = nullptr);
    // Writes the panel's fields into config; false with a reason when a field is invalid.
    bool apply(RunConfig& config, QString* error) const;
    void load(const RunConfig& config);
    void setDeviceText(const QString& text);
    // The cap was typed in binary units (64MiB): sizes are shown in KiB / MiB / GiB then.
    bool capInBinaryUnits() const;
    // The GPUs a run can pick (CUDA entries of listDevices); whyNoCuda explains an empty list.
    void setDevices(const std::vector<DeviceInfo>& devices, const QString& whyNoCuda);
    // Lists the devices (probing CUDA can take a moment) into the GPU chooser; listed in the device
    // text too when showList (an opened record shows its own device there instead).
    void probeDevices(bool showList);
    // The device the Backend and GPU fields pick, as listed (for "Measure this machine…"): the CPU,
    // the chosen GPU, or with auto the first GPU, else the CPU. False with a reason when the
    // chosen GPU is not on this machine (lists the devices first when that has not happened yet).
    bool selectedDevice(DeviceInfo* device, QString* why);

signals:
    void changed();

private:
    void updateHostMemory();
    void updateGpuEnabled();
    void selectGpu(int device);

    QSpinBox* m_ = nullptr;
    QSpinBox* n_ = nullptr;
    QSpinBox* q_ = nullptr;
    QComboBox* precision_ = nullptr;
    QComboBox* distribution_ = nullptr;
    SeedEdit* seed_ = nullptr;
    QComboBox* backend_ = nullptr;
    QComboBox* gpu_ = nullptr;  // data: CUDA device ordinal, -1 = the first
    QComboBox* gemm_ = nullptr;
    QComboBox* staging_ = nullptr;  // --h2d-staging: how the CUDA backend's block loads leave the host
    QLineEdit* cap_ = nullptr;
    QCheckBox* abft_ = nullptr;
    QLabel* device_ = nullptr;
    QLabel* hostMemory_ = nullptr;
    std::vector<DeviceInfo> devices_;  // as setDevices last heard of them (the CPU last)
    QString whyNoCuda_;
};

}  // namespace gigacheck::ui
