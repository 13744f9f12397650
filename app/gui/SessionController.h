#pragma once
/// Opening and saving sessions (*.paperlab.json through pl::Session, written atomically), the
/// recent-sessions list (QSettings "sessions/recent"), autosave and crash recovery.
///
/// Autosave: while the workspace is dirty, the state is written every autosaveInterval() to
/// <autosave dir>/autosave-<pid>.paperlab.json; a clean shutdown() removes that file. A file
/// whose process is no longer running is what a crashed instance left behind:
/// recoverableFiles() lists those, recover() opens one, discardRecovery() deletes them.
/// GUI thread; the host (not owned) must outlive the controller.

#include "sdk/Session.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace pl::gui {

/// What the controller saves and restores: implemented by the main window.
class SessionHost {
public:
    virtual ~SessionHost() = default;
    /// The current workspace (panel records in order, layout).
    virtual Session captureSession() const = 0;
    /// Replaces the workspace by `session`. Must validate everything before changing anything:
    /// on failure return false with *error set and leave the workspace untouched.
    virtual bool restoreSession(const Session& session, const QString& sessionDir, QString* error) = 0;
};

class SessionController : public QObject {
    Q_OBJECT
public:
    explicit SessionController(SessionHost* host, QObject* parent = nullptr);
    ~SessionController() override;

    static constexpr int kMaxRecent = 10;

    /// The file of the open session ("" for an unsaved workspace).
    QString currentPath() const { return m_path; }
    bool isDirty() const { return m_dirty; }

    /// Writes the workspace to `path` atomically; on success it becomes the current session.
    bool save(const QString& path, QString* error);
    /// Reads `path` and restores it. A corrupted, foreign or newer-format file is refused with a
    /// message naming the file, and nothing changes.
    bool open(const QString& path, QString* error);
    /// Forgets the current path (after closing every panel); not dirty.
    void reset();

    /// Recent session files, most recent first (files that no longer exist are dropped).
    QStringList recentSessions() const;
    void addRecent(const QString& path);
    void clearRecent();

    // Autosave and crash recovery.
    /// Folder of autosave files (default: AppLocalDataLocation/autosave). For tests.
    void setAutosaveDirectory(const QString& dir);
    QString autosaveDirectory() const { return m_autosaveDir; }
    /// This process's autosave file.
    QString autosavePath() const;
    void setAutosaveInterval(int ms);
    int autosaveInterval() const { return m_timer.interval(); }
    /// Writes the autosave file now (or removes it when the workspace is empty). Returns false
    /// with *error when it cannot be written.
    bool autosaveNow(QString* error = nullptr);
    /// Autosave files left by processes that are no longer running, newest first.
    QStringList recoverableFiles() const;
    /// Restores an autosave file (the workspace becomes dirty and unnamed) and deletes it.
    bool recover(const QString& autosaveFile, QString* error);
    /// Deletes the given recoverable files (all of them when `files` is empty).
    void discardRecovery(const QStringList& files = {});
    /// Clean exit: stops autosave and removes this process's autosave file.
    void shutdown();

public slots:
    /// Something in the workspace changed: becomes dirty and schedules an autosave.
    void markDirty();

signals:
    void dirtyChanged(bool dirty);
    void currentPathChanged(const QString& path);
    void recentChanged();
    /// An autosave was written (path) or failed (error non-empty).
    void autosaved(const QString& path, const QString& error);

private:
    void setDirty(bool dirty);
    void setPath(const QString& path);
    static bool processAlive(qint64 pid);

    SessionHost* m_host;
    QString m_path;
    bool m_dirty = false;
    QString m_autosaveDir;
    QTimer m_timer;
    bool m_shutDown = false;
};

} // namespace pl::gui
