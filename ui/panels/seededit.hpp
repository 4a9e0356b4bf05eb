// A seed field for the full 64-bit range of RunConfig::seed / FaultSpec::seed (a QSpinBox stops at
// 2^31 - 1, so a record made with a larger seed would come back as a different run).
#pragma once

#include <QLineEdit>

#include <cstdint>

namespace gigacheck::ui {

class SeedEdit : public QLineEdit {
    Q_OBJECT
public:
    explicit SeedEdit(std::uint64_t value, QWidget* parent = nullptr);
    // The typed number; an empty field counts as 0.
    std::uint64_t value() const;
    void setValue(std::uint64_t value);
};

}  // namespace gigacheck::ui
