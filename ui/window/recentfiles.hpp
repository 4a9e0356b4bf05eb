// File › Open recent: the last opened or saved records, kept in QSettings ("recentFiles").
#pragma once

#include <QObject>

#include <functional>

class QMenu;

namespace gigacheck::ui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 8;
    // open is called with the path of the entry the user picks.
    RecentFiles(QMenu* menu, std::function<void(const QString&)> open);
    void add(const QString& path);

private:
    void rebuild();

    QMenu* menu_;
    std::function<void(const QString&)> open_;
};

}  // namespace gigacheck::ui
