// Sizes in the units the user typed (item 6: a cap typed as 1MiB reads "1 MiB", never
// "1.05 MB"): the memory bar, the plan text, the buffers table and the run log.
#pragma once

#include <QString>

#include <cstdint>
#include <initializer_list>

namespace gigacheck::ui {

// True when a size was typed in binary units ("64MiB", "1.5 GiB", "512kib").
bool typedInBinaryUnits(const QString& text);
// Without the typed text (a record, the log): binary when the cap is a whole number of KiB that is
// not a whole number of decimal kilobytes (1 MiB = 1 048 576 B), decimal otherwise.
bool looksBinary(std::uint64_t capBytes);

// binary: "1 MiB", "1.5 GiB", "976.56 KiB", "512 B" (trailing zeros dropped); otherwise the
// engine's formatBytes ("1.05 MB").
QString sizeText(double bytes, bool binary);

// The engine's texts (plan explanation, planner refusals) name sizes with formatBytes: each of
// `sizes` written that way in `text` is rewritten with sizeText(size, binary).
QString withSizesIn(QString text, std::initializer_list<double> sizes, bool binary);

}  // namespace gigacheck::ui
