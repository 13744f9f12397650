#include "SessionController.h"

#include "GuiLog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>

namespace pl::gui {

namespace {
const QString kRecentKey = QStringLiteral("sessions/recent");
const QRegularExpression kAutosaveName(QStringLiteral("^autosave-(\\d+)\\.paperlab\\.json$"));
} // namespace

SessionController::SessionController(SessionHost* host, QObject* parent) : QObject(parent), m_host(host) {
    m_autosaveDir = QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
                        .absoluteFilePath(QStringLiteral("autosave"));
    m_timer.setSingleShot(true);
    m_timer.setInterval(30000);
    connect(&m_timer, &QTimer::timeout, this, [this] { autosaveNow(); });
}

SessionController::~SessionController() = default;

void SessionController::setDirty(bool dirty) {
    if (dirty == m_dirty)
        return;
    m_dirty = dirty;
    emit dirtyChanged(dirty);
}

void SessionController::setPath(const QString& path) {
    if (path == m_path)
        return;
    m_path = path;
    emit currentPathChanged(path);
}

void SessionController::markDirty() {
    setDirty(true);
    if (!m_shutDown && !m_timer.isActive())
        m_timer.start();
}

bool SessionController::save(const QString& path, QString* error) {
    const Session s = m_host->captureSession();
    if (!s.write(path, error)) {
        qCWarning(lcSession).noquote() << "saving failed:" << (error ? *error : QString());
        return false;
    }
    qCInfo(lcSession).noquote() << "saved session" << path << "with" << s.panels.size() << "panel(s)";
    setPath(QFileInfo(path).absoluteFilePath());
    setDirty(false);
    addRecent(m_path);
    return true;
}

bool SessionController::open(const QString& path, QString* error) {
    Session s;
    QString err;
    if (!Session::read(path, &s, &err) || !m_host->restoreSession(s, QFileInfo(path).absolutePath(), &err)) {
        if (!err.startsWith(path))
            err = QStringLiteral("%1: %2").arg(path, err);
        qCWarning(lcSession).noquote() << "refused session:" << err;
        if (error)
            *error = err;
        return false;
    }
    qCInfo(lcSession).noquote() << "opened session" << path << "with" << s.panels.size() << "panel(s)";
    setPath(QFileInfo(path).absoluteFilePath());
    setDirty(false);
    addRecent(m_path);
    return true;
}

void SessionController::reset() {
    setPath(QString());
    setDirty(false);
}

QStringList SessionController::recentSessions() const {
    QStringList list = QSettings().value(kRecentKey).toStringList();
    list.erase(
        std::remove_if(list.begin(), list.end(), [](const QString& p) { return !QFileInfo::exists(p); }),
        list.end());
    return list;
}

void SessionController::addRecent(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = QSettings().value(kRecentKey).toStringList();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(kRecentKey, list);
    emit recentChanged();
}

void SessionController::clearRecent() {
    QSettings().remove(kRecentKey);
    emit recentChanged();
}

void SessionController::setAutosaveDirectory(const QString& dir) {
    m_autosaveDir = dir;
}

QString SessionController::autosavePath() const {
    return QDir(m_autosaveDir)
        .absoluteFilePath(
            QStringLiteral("autosave-%1.paperlab.json").arg(QCoreApplication::applicationPid()));
}

void SessionController::setAutosaveInterval(int ms) {
    m_timer.setInterval(std::max(1, ms));
}

bool SessionController::autosaveNow(QString* error) {
    m_timer.stop();
    const Session s = m_host->captureSession();
    const QString path = autosavePath();
    if (s.panels.isEmpty()) {
        QFile::remove(path);
        return true;
    }
    QString err;
    if (!QDir().mkpath(m_autosaveDir)) {
        err = QStringLiteral("%1: cannot create the autosave folder").arg(m_autosaveDir);
    } else if (s.write(path, &err)) {
        qCDebug(lcSession).noquote() << "autosaved to" << path;
        emit autosaved(path, QString());
        return true;
    }
    qCWarning(lcSession).noquote() << "autosave failed:" << err;
    emit autosaved(path, err);
    if (error)
        *error = err;
    return false;
}

bool SessionController::processAlive(qint64 pid) {
    if (pid <= 0)
        return false;
    if (pid == QCoreApplication::applicationPid())
        return true;
    return QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid));
}

QStringList SessionController::recoverableFiles() const {
    QDir dir(m_autosaveDir);
    QFileInfoList entries =
        dir.entryInfoList({QStringLiteral("autosave-*.paperlab.json")}, QDir::Files, QDir::Time);
    QStringList out;
    for (const QFileInfo& fi : entries) {
        const QRegularExpressionMatch m = kAutosaveName.match(fi.fileName());
        if (m.hasMatch() && !processAlive(m.captured(1).toLongLong()))
            out << fi.absoluteFilePath();
    }
    return out;
}

bool SessionController::recover(const QString& autosaveFile, QString* error) {
    Session s;
    QString err;
    if (!Session::read(autosaveFile, &s, &err) ||
        !m_host->restoreSession(s, QFileInfo(autosaveFile).absolutePath(), &err)) {
        qCWarning(lcSession).noquote() << "recovery failed:" << err;
        if (error)
            *error = err;
        return false;
    }
    qCInfo(lcSession).noquote() << "recovered" << s.panels.size() << "panel(s) from" << autosaveFile;
    QFile::remove(autosaveFile);
    setPath(QString());
    markDirty();
    autosaveNow();
    return true;
}

void SessionController::discardRecovery(const QStringList& files) {
    const QStringList list = files.isEmpty() ? recoverableFiles() : files;
    for (const QString& f : list)
        QFile::remove(f);
}

void SessionController::shutdown() {
    m_shutDown = true;
    m_timer.stop();
    QFile::remove(autosavePath());
}

} // namespace pl::gui
