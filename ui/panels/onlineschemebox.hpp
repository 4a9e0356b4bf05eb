// The scheme of a run: blocked ABFT (the strategies below it, the Gigacheck report) or the online
// ABFT family's online / offline / TMR (the online-ABFT paper) with its panel width b, check frequency fq and
// number of weighted checksums K, and (GPU) its column blocks G. Part of the Strategy panel.
#pragma once

#include <gigacheck/online_abft.hpp>

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace gigacheck::ui {

struct OnlineSchemeSettings {
    Scheme scheme = Scheme::Blocked;
    std::int64_t panel = 0;  // 0: min(n, 1024)
    int checkEvery = 1;
    int checksums = 1;
    int columnBlocks = 0;  // 0: auto (2 on the GPU when q >= 4096, else 1)
    bool operator==(const OnlineSchemeSettings&) const = default;
};

class OnlineSchemeBox : public QWidget {
    Q_OBJECT
public:
    explicit OnlineSchemeBox(QWidget* parent = nullptr);
    OnlineSchemeSettings settings() const;
    void setSettings(const OnlineSchemeSettings& settings);

signals:
    void changed();

private:
    void updateEnabled();

    QComboBox* scheme_ = nullptr;
    QSpinBox* panel_ = nullptr;
    QSpinBox* checkEvery_ = nullptr;
    QSpinBox* checksums_ = nullptr;
    QSpinBox* columnBlocks_ = nullptr;
};

}  // namespace gigacheck::ui
