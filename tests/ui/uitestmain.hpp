// Shared start-up of the ui tests (as Hotspot's testutils.h): offscreen when no platform is set,
// settings isolated from the user's, fixed organisation so QSettings has a home.
#pragma once

#include <QApplication>
#include <QStandardPaths>
#include <QtTest>

#define GIGACHECK_UI_TEST_MAIN(TestClass)                                            \
    int main(int argc, char** argv)                                                  \
    {                                                                                \
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))                          \
            qputenv("QT_QPA_PLATFORM", "offscreen");                                 \
        QStandardPaths::setTestModeEnabled(true);                                    \
        QApplication app(argc, argv);                                                \
        QApplication::setOrganizationName(QStringLiteral("gigacheck-tests"));        \
        QApplication::setApplicationName(QStringLiteral(#TestClass));                \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                     \
        TestClass test;                                                              \
        QTEST_SET_MAIN_SOURCE_PATH                                                   \
        return QTest::qExec(&test, argc, argv);                                      \
    }
