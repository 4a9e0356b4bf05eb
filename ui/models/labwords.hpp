// The engine explains itself in the CLI's words ("--backend cpu: requested", "raise --mem",
// "run gigacheck devices --measure"); the lab says the same in the words of its panels, in the
// device line of Matrix setup, the plan and the Report tab alike.
#pragma once

#include <QString>

namespace gigacheck {
struct RunRecord;
}

namespace gigacheck::ui {

// The CLI's options and commands in `text` rewritten as the lab's controls.
QString inLabWords(QString text);

// formatReport of a blocked GEMM record as the Report tab shows it: in the lab's words, and every
// size of the plan (cap, needed, peak, buffers) in the units the cap was given in (KiB / MiB /
// GiB beside a cap of 1 MiB, never "1.03 MB").
QString labReportText(const RunRecord& record);

}  // namespace gigacheck::ui
