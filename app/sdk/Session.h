#pragma once
/// A saved workspace (*.paperlab.json): every open panel's state (plugin, parameters, seed,
/// inputs with sha256) and the window layout. Versioned JSON, written atomically (QSaveFile).
/// Records of plugins that are not installed are kept verbatim. Plain value type.

#include <QJsonObject>
#include <QList>
#include <QString>

namespace pl {

class Session {
public:
    static constexpr int kFormatVersion = 1;
    static constexpr const char* kFormatName = "paperlab-session";

    QList<QJsonObject> panels; ///< PanelModel::saveState() records (or unknown plugins' records)
    QJsonObject layout;        ///< window geometry, open tab, detached panels (GUI-defined)

    /// Reads a session. Refuses corrupted files, other formats and newer versions with a
    /// message naming the file; *out is untouched then.
    static bool read(const QString& path, Session* out, QString* error);
    /// Writes atomically: either the complete new file or the previous one stays. Input paths
    /// inside the session's folder are stored relative to it.
    bool write(const QString& path, QString* error) const;
    QJsonObject toJson(const QString& sessionDir = {}) const;
};

} // namespace pl
