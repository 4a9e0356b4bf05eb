// MainWindow's own-matrices files: File > Import A / B from NumPy .npy files
// and File > Export C, the residuals and the injected-error map as .npy (engine: gigacheck/npy.hpp).
#include "mainwindow.hpp"

#include "models/layermatrices.hpp"
#include "panels/runpanel.hpp"
#include "panels/setuppanel.hpp"
#include "views/heatmapview.hpp"
#include "window/filedialogs.hpp"

#include <gigacheck/npy.hpp>
#include <gigacheck/operands.hpp>

#include <QFileInfo>
#include <QMenu>
#include <QSignalBlocker>
#include <QStatusBar>

#include <new>

namespace gigacheck::ui {

namespace {

// The largest dimension the setup panel's fields take.
constexpr std::int64_t kMaxFieldDimension = 200000;

QString describe(const HostMatrix& m)
{
    return QStringLiteral("%1 × %2, %3").arg(m.rows()).arg(m.cols())
        .arg(m.precision() == Precision::F32 ? QStringLiteral("float32") : QStringLiteral("float64"));
}

const char* operandName(MainWindow::Operand which)
{
    return which == MainWindow::Operand::A ? "A" : "B";
}

}  // namespace

bool MainWindow::importOperand(Operand which, const QString& path, QString* error)
{
    const auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    RunConfig c;
    if (!currentConfig(&c, error))
        return false;
    HostMatrix m;
    try {
        m = readNpy(path.toStdString());
        requireFinite(m, QFileInfo(path).fileName().toStdString());
    } catch (const std::exception& e) {  // InputError, or no memory for a (genuine) huge file
        return fail(QString::fromStdString(e.what()));
    }
    if (m.rows() > kMaxFieldDimension || m.cols() > kMaxFieldDimension)
        return fail(QStringLiteral("%1 is %2; the lab's shape fields go up to %3 (gigacheck run --load-a / --load-b "
                                   "takes any size)")
                        .arg(QFileInfo(path).fileName(), describe(m))
                        .arg(kMaxFieldDimension));

    // The shape follows the file. An operand that does not fit the other imported one is refused,
    // naming both shapes: what was imported stays as it was.
    RunOperands operands = session_->operands();
    const QString name = QString::fromLatin1(operandName(which));
    const QString file = QFileInfo(path).fileName();
    if (which == Operand::A && operands.b && operands.b->rows() != m.cols())
        return fail(QStringLiteral("%1 is %2, but the imported B is %3: A needs as many columns as B has rows (%4 ≠ %5). "
                                   "The imported A and B are kept; import a matching A, or File › Forget imported A and B "
                                   "first")
                        .arg(file, describe(m), describe(*operands.b))
                        .arg(m.cols())
                        .arg(operands.b->rows()));
    if (which == Operand::B && operands.a && operands.a->cols() != m.rows())
        return fail(QStringLiteral("%1 is %2, but the imported A is %3: B needs as many rows as A has columns (%4 ≠ %5). "
                                   "The imported A and B are kept; import a matching B, or File › Forget imported A and B "
                                   "first")
                        .arg(file, describe(m), describe(*operands.a))
                        .arg(m.rows())
                        .arg(operands.a->cols()));
    InputMatrix info;
    try {
        info = inputMatrixOfFile(name.toStdString(), path.toStdString());  // its order, from the header
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    auto shared = std::make_shared<const HostMatrix>(std::move(m));
    if (which == Operand::A) {
        c.shape.m = shared->rows();
        c.shape.n = shared->cols();
        operands.a = shared;
        operands.aFile = info;
    } else {
        c.shape.n = shared->rows();
        c.shape.q = shared->cols();
        operands.b = shared;
        operands.bFile = info;
    }
    // The run computes in the files' precision (float64 when either is); the field can change it.
    const bool f32 = (!operands.a || operands.a->precision() == Precision::F32) &&
                     (!operands.b || operands.b->precision() == Precision::F32);
    c.precision = f32 ? Precision::F32 : Precision::F64;
    session_->setOperands(operands);

    updateOperandActions();
    QString text = QStringLiteral("%1 imported from %2 (%3)").arg(name, file, describe(*shared));
    if (!operands.present())
        text += QStringLiteral("; import %1 too, then run").arg(which == Operand::A ? QStringLiteral("B") : QStringLiteral("A"));
    else
        text += QStringLiteral("; the next runs multiply your A and B");
    run_->log(text);
    statusBar()->showMessage(text, 10000);
    {
        const QSignalBlocker block(setup_);
        setup_->load(c);
    }
    updatePlan();  // the heatmap takes the new shape: faults outside it are dropped, with a message
    return true;
}

void MainWindow::forgetOperands()
{
    if (!session_->operands().a && !session_->operands().b)
        return;
    session_->setOperands({});
    updateOperandActions();
    // The shape stays, so every placed fault is still inside C and stays placed.
    const QString text = QStringLiteral("Imported A and B forgotten: runs generate their inputs again (same shape, %1 "
                                        "placed fault(s) kept)")
                             .arg(heatmap_->faults().size());
    run_->log(text);
    statusBar()->showMessage(text, 10000);
}

void MainWindow::updateOperandActions()
{
    if (forgetOperandsAction_)
        forgetOperandsAction_->setEnabled(session_->operands().a || session_->operands().b);
}

void MainWindow::dropOperandsNotFitting(const Shape& shape)
{
    RunOperands operands = session_->operands();
    QStringList gone;
    if (operands.a && (operands.a->rows() != shape.m || operands.a->cols() != shape.n)) {
        gone << QStringLiteral("A (%1)").arg(describe(*operands.a));
        operands.a.reset();
    }
    if (operands.b && (operands.b->rows() != shape.n || operands.b->cols() != shape.q)) {
        gone << QStringLiteral("B (%1)").arg(describe(*operands.b));
        operands.b.reset();
    }
    if (gone.isEmpty())
        return;
    session_->setOperands(operands);
    updateOperandActions();
    const QString text = QStringLiteral("The shape %1 × %2 × %3 no longer fits the imported %4: forgotten, runs generate "
                                        "it; File › Import brings it back")
                             .arg(shape.m).arg(shape.n).arg(shape.q).arg(gone.join(QStringLiteral(" and ")));
    run_->log(text);
    statusBar()->showMessage(text, 10000);
}

bool MainWindow::operandsReady(QString* why) const
{
    const RunOperands& o = session_->operands();
    if (bool(o.a) == bool(o.b))
        return true;
    if (why)
        *why = QStringLiteral("Only %1 is imported: import %2 too (File › Import %2…), or File › Forget imported A and B "
                              "to run on generated values")
                   .arg(o.a ? QStringLiteral("A") : QStringLiteral("B"), o.a ? QStringLiteral("B") : QStringLiteral("A"));
    return false;
}

bool MainWindow::exportMatrix(MatrixExport what, const QString& path, QString* error) const
{
    const auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    const RecordPtr& record = lastRecord();
    try {
        switch (what) {
        case MatrixExport::C:
            if (session_->result().empty())
                return fail(record ? QStringLiteral("a record opened from a file holds no matrix: run it to get C")
                                   : QStringLiteral("no C yet: run first"));
            writeNpy(session_->result(), path.toStdString());
            return true;
        case MatrixExport::Residuals:
        case MatrixExport::InjectedError: {
            if (!record)
                return fail(QStringLiteral("no run yet: run first or open a record"));
            const Shape s = resultShapeOf(*record);
            writeNpy(what == MatrixExport::Residuals ? residualMatrix(s.m, s.q, record->verifications)
                                                     : injectedErrorMatrix(s.m, s.q, record->injections),
                     path.toStdString());
            return true;
        }
        }
    } catch (const std::bad_alloc&) {
        return fail(QStringLiteral("not enough memory for a matrix of C's shape"));
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    return false;
}

void MainWindow::addMatrixActions(QMenu* file)
{
    const QString filter = QStringLiteral("NumPy arrays (*.npy);;All files (*)");
    for (Operand which : {Operand::A, Operand::B}) {
        const QString name = QString::fromLatin1(operandName(which));
        QAction* a = file->addAction(QStringLiteral("&Import %1 (.npy)…").arg(name), this, [this, which, name, filter] {
            askPath(this, QStringLiteral("importDialog"), QStringLiteral("Import %1 from a NumPy file").arg(name),
                    QStringLiteral("matrices"), QString(), filter, false, [this, which](const QString& path) {
                        QString error;
                        if (!importOperand(which, path, &error))
                            reportError(QStringLiteral("Cannot import %1: %2").arg(path, error));
                    });
        });
        a->setObjectName(QStringLiteral("import%1Action").arg(name));
    }
    forgetOperandsAction_ = file->addAction(QStringLiteral("&Forget imported A and B"), this, &MainWindow::forgetOperands);
    forgetOperandsAction_->setObjectName(QStringLiteral("forgetOperandsAction"));
    forgetOperandsAction_->setToolTip(QStringLiteral("Runs generate A and B again; the shape and the placed faults stay"));
    updateOperandActions();
    struct Export {
        MatrixExport what;
        const char* label;
        const char* stem;
    };
    for (const Export& e : {Export{MatrixExport::C, "Export &C (.npy)…", "C"},
                            Export{MatrixExport::Residuals, "Export the checksum residuals (.npy)…", "residuals"},
                            Export{MatrixExport::InjectedError, "Export the injected-error map (.npy)…", "injected-error"}}) {
        const MatrixExport what = e.what;
        const QString stem = QString::fromLatin1(e.stem);
        file->addAction(QString::fromUtf8(e.label), this, [this, what, stem, filter] {
            askPath(this, QStringLiteral("exportMatrixDialog"), QStringLiteral("Export %1 as a NumPy file").arg(stem),
                    QStringLiteral("matrices"), QStringLiteral("%1-%2.npy").arg(stem, defaultFileStem()), filter, true,
                    [this, what](const QString& path) {
                        QString error;
                        if (!exportMatrix(what, path, &error))
                            reportError(QStringLiteral("Export failed: %1").arg(error));
                        else
                            statusBar()->showMessage(QStringLiteral("Wrote %1").arg(path), 5000);
                    });
        });
    }
}

}  // namespace gigacheck::ui
