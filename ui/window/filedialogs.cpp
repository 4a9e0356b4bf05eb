#include "filedialogs.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace gigacheck::ui {

QString rememberedFolder(const QString& kind)
{
    const QString folder = QSettings().value(QStringLiteral("folders/") + kind).toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir())
        return folder;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return documents.isEmpty() ? QDir::homePath() : documents;
}

void rememberFolder(const QString& kind, const QString& chosenPath)
{
    QSettings().setValue(QStringLiteral("folders/") + kind, QFileInfo(chosenPath).absolutePath());
}

void askPath(QWidget* parent, const QString& name, const QString& title, const QString& kind,
             const QString& defaultName, const QString& filter, bool save, std::function<void(const QString&)> done)
{
    auto* dialog = new QFileDialog(parent, title, rememberedFolder(kind), filter);
    dialog->setObjectName(name);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(save ? QFileDialog::AcceptSave : QFileDialog::AcceptOpen);
    dialog->setFileMode(save ? QFileDialog::AnyFile : QFileDialog::ExistingFile);
    // Qt's own dialog: the same on every desktop, and answerable from a test.
    dialog->setOption(QFileDialog::DontUseNativeDialog, true);
    if (!defaultName.isEmpty())
        dialog->selectFile(defaultName);
    QObject::connect(dialog, &QFileDialog::fileSelected, dialog, [kind, done = std::move(done)](const QString& path) {
        if (path.isEmpty())
            return;
        rememberFolder(kind, path);
        done(path);
    });
    dialog->open();
}

}  // namespace gigacheck::ui
