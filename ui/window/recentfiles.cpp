#include "recentfiles.hpp"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace gigacheck::ui {

RecentFiles::RecentFiles(QMenu* menu, std::function<void(const QString&)> open)
    : QObject(menu), menu_(menu), open_(std::move(open))
{
    rebuild();
}

void RecentFiles::add(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMax)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuild();
}

void RecentFiles::rebuild()
{
    menu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent)
        menu_->addAction(QFileInfo(path).fileName() + QStringLiteral("  (") + path + QLatin1Char(')'), this,
                         [this, path] { open_(path); });
    menu_->setEnabled(!recent.isEmpty());
}

}  // namespace gigacheck::ui
