#pragma once
// Shared by tst_inslen and tst_sae: run /usr/bin/python3 on a script of this folder and read its
// "<key> v1 v2 ..." lines.
#include "common/PythonOracle.h"

#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <map>
#include <string>
#include <vector>

namespace pl::test {

inline bool havePython() {
    return havePython("numpy, sklearn");
}

/// Runs tests/hiddenstate/<script> with \a args; empty map on failure (warning printed).
inline std::map<std::string, std::vector<double>> runOracle(const char* script, const QStringList& args) {
    QProcess py;
    py.start("/usr/bin/python3", QStringList{QStringLiteral(HIDDENSTATE_TEST_DIR "/") + script} + args);
    std::map<std::string, std::vector<double>> out;
    if (!py.waitForFinished(180000) || py.exitCode() != 0) {
        qWarning("%s", py.readAllStandardError().constData());
        return out;
    }
    for (const QString& line :
         QString::fromUtf8(py.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts)) {
        const QStringList f = line.split(' ', Qt::SkipEmptyParts);
        auto& v = out[f[0].toStdString()];
        for (int i = 1; i < f.size(); ++i)
            v.push_back(f[i].toDouble());
    }
    return out;
}

/// |a - b| <= tol * max(1, |b|) entrywise, sizes equal.
inline bool near(const std::vector<double>& a, const std::vector<double>& b, double tol, QString* why) {
    if (a.size() != b.size()) {
        *why = QStringLiteral("size %1 vs %2").arg(a.size()).arg(b.size());
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i)
        if (!(std::abs(a[i] - b[i]) <= tol * std::max(1.0, std::abs(b[i])))) {
            *why = QStringLiteral("entry %1: %2 vs %3").arg(i).arg(a[i], 0, 'g', 17).arg(b[i], 0, 'g', 17);
            return false;
        }
    return true;
}

} // namespace pl::test
