#pragma once
/// Finds plugins (static ones, then shared libraries in the plugin directories), reads their
/// metadata without loading them, and loads each on first use. A broken plugin (bad metadata,
/// wrong interface id, missing symbol, failing initialize) is kept in the list with its error
/// and never takes the application down. Lives on the main thread; never unloads plugins.

#include "PluginInfo.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QStringList>

class QPluginLoader;

namespace pl {

class IPaperPlugin;

class PluginManager : public QObject {
    Q_OBJECT
public:
    explicit PluginManager(QObject* parent = nullptr);
    ~PluginManager() override;

    /// Directories searched: $PAPERLAB_PLUGIN_PATH (colon-separated), then
    /// <app dir>/../lib/paperlab/plugins, then the install location.
    static QStringList defaultSearchPaths();
    /// Scans the directories (metadata only). Replaces the current list.
    void scan(const QStringList& dirs = defaultSearchPaths());

    /// All plugins found, sorted by id, broken ones included (with PluginInfo::error).
    const QList<PluginInfo>& plugins() const { return m_infos; }
    const PluginInfo* info(const QString& id) const;
    /// Loads (once) and returns the plugin, or nullptr with *error set. Main thread only.
    IPaperPlugin* load(const QString& id, QString* error = nullptr);

signals:
    /// Emitted when loading marks a plugin broken (for the Plugins dialog and the log).
    void pluginFailed(const QString& id, const QString& error);

private:
    PluginInfo* mutableInfo(const QString& id);
    QList<PluginInfo> m_infos;
    QHash<QString, QPluginLoader*> m_loaders;
    QHash<QString, IPaperPlugin*> m_loaded;
};

} // namespace pl
