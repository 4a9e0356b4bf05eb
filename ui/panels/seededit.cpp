#include "seededit.hpp"

#include <QRegularExpressionValidator>

namespace gigacheck::ui {

namespace {

// Digits only, and no more than 2^64 - 1 (QValidator has no unsigned 64-bit range of its own).
class Uint64Validator : public QRegularExpressionValidator {
public:
    explicit Uint64Validator(QObject* parent)
        : QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,20}")), parent)
    {
    }
    State validate(QString& input, int& pos) const override
    {
        const State digits = QRegularExpressionValidator::validate(input, pos);
        if (digits != Acceptable || input.isEmpty())
            return digits;
        bool ok = false;
        input.toULongLong(&ok);
        return ok ? Acceptable : Invalid;
    }
};

}  // namespace

SeedEdit::SeedEdit(std::uint64_t value, QWidget* parent) : QLineEdit(parent)
{
    setValidator(new Uint64Validator(this));
    setToolTip(QStringLiteral("Any whole number from 0 to 18446744073709551615; same seed, same matrices"));
    setValue(value);
}

std::uint64_t SeedEdit::value() const
{
    return text().toULongLong();  // 0 when empty
}

void SeedEdit::setValue(std::uint64_t value)
{
    setText(QString::number(value));
}

}  // namespace gigacheck::ui
