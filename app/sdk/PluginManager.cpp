#include "PluginManager.h"

#include "PaperPlugin.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLibrary>
#include <QLoggingCategory>
#include <QPluginLoader>

Q_LOGGING_CATEGORY(lcPlugins, "paperlab.plugins")

namespace pl {

namespace {

/// Why a library with a Paperlab interface id other than ours is refused. An older version of
/// our own interface gets a message saying what to do about it.
QString interfaceError(const QString& iid) {
    const QString ours = QStringLiteral(PAPERLAB_PLUGIN_IID);
    const QString family = ours.left(ours.lastIndexOf(QLatin1Char('/')) + 1); // "org.paperlab.PaperPlugin/"
    if (iid.startsWith(family)) {
        bool ok = false;
        const int version = iid.mid(family.size()).toInt(&ok);
        if (ok && version != kPluginApiVersion)
            return QStringLiteral(
                       "wrong interface id '%1': built for plugin API %2, this Paperlab loads API %3 "
                       "plugins (%4); rebuild the panel against the current SDK "
                       "(see plugins/template/README.md)")
                .arg(iid)
                .arg(version)
                .arg(kPluginApiVersion)
                .arg(ours);
    }
    return QStringLiteral("wrong interface id '%1' (expected '%2')").arg(iid, ours);
}

} // namespace

PluginManager::PluginManager(QObject* parent) : QObject(parent) {}

PluginManager::~PluginManager() = default; // plugins are never unloaded (see architecture.md)

QStringList PluginManager::defaultSearchPaths() {
    QStringList dirs;
    const QString env = qEnvironmentVariable("PAPERLAB_PLUGIN_PATH");
    for (const QString& d : env.split(QLatin1Char(':'), Qt::SkipEmptyParts))
        dirs << d;
    const QString appDir = QCoreApplication::applicationDirPath();
    dirs << QDir(appDir).absoluteFilePath(QStringLiteral("../lib/paperlab/plugins"));
    // Installed layout: <prefix>/bin/paperlab and <prefix>/<libdir>/paperlab/plugins.
    dirs << QDir(appDir).absoluteFilePath(QStringLiteral(PAPERLAB_PLUGIN_RELDIR));
    QStringList unique;
    for (const QString& d : dirs) {
        const QString canonical = QFileInfo(d).canonicalFilePath();
        const QString key = canonical.isEmpty() ? QDir::cleanPath(d) : canonical;
        if (!unique.contains(key))
            unique << key;
    }
    return unique;
}

void PluginManager::scan(const QStringList& dirs) {
    QList<PluginInfo> found;
    QSet<QString> seenIds;
    auto addFromMeta = [&](const QJsonObject& all, const QString& lib) {
        PluginInfo info;
        QString err;
        const QString iid = all.value("IID").toString();
        const QJsonObject meta = all.value("MetaData").toObject();
        if (iid != QLatin1String(PAPERLAB_PLUGIN_IID)) {
            if (!iid.startsWith(QLatin1String("org.paperlab.")))
                return; // not one of ours
            info.id = meta.value("id").toString(QFileInfo(lib).baseName());
            info.error = interfaceError(iid);
        } else if (!PluginInfo::fromJson(meta, &info, &err)) {
            info.id = meta.value("id").toString(QFileInfo(lib).baseName());
            info.error = err;
        }
        info.libraryPath = lib;
        if (seenIds.contains(info.id)) {
            qCInfo(lcPlugins) << "ignoring duplicate plugin" << info.id << "at" << lib;
            return;
        }
        seenIds.insert(info.id);
        found << info;
    };
    for (const QStaticPlugin& sp : QPluginLoader::staticPlugins())
        addFromMeta(sp.metaData(), QString());
    for (const QString& dir : dirs) {
        QDir d(dir);
        if (!d.exists())
            continue;
        for (const QFileInfo& fi : d.entryInfoList(QDir::Files, QDir::Name)) {
            if (!QLibrary::isLibrary(fi.fileName()))
                continue;
            QPluginLoader probe(fi.absoluteFilePath());
            const QJsonObject all = probe.metaData(); // reads metadata only; does not load
            if (all.isEmpty()) {
                PluginInfo bad;
                bad.id = fi.baseName();
                bad.libraryPath = fi.absoluteFilePath();
                bad.error = QStringLiteral("not a Qt plugin or unreadable: %1").arg(probe.errorString());
                if (!seenIds.contains(bad.id) && fi.baseName().startsWith(QLatin1String("paperlab_"))) {
                    seenIds.insert(bad.id);
                    found << bad;
                }
                continue;
            }
            addFromMeta(all, fi.absoluteFilePath());
        }
    }
    std::sort(found.begin(), found.end(),
              [](const PluginInfo& a, const PluginInfo& b) { return a.id < b.id; });
    m_infos = found;
}

const PluginInfo* PluginManager::info(const QString& id) const {
    for (const auto& i : m_infos)
        if (i.id == id)
            return &i;
    return nullptr;
}

PluginInfo* PluginManager::mutableInfo(const QString& id) {
    for (auto& i : m_infos)
        if (i.id == id)
            return &i;
    return nullptr;
}

IPaperPlugin* PluginManager::load(const QString& id, QString* error) {
    if (IPaperPlugin* p = m_loaded.value(id))
        return p;
    PluginInfo* info = mutableInfo(id);
    auto fail = [&](const QString& why) -> IPaperPlugin* {
        if (info && info->error.isEmpty()) {
            info->error = why;
            emit pluginFailed(id, why);
        }
        if (error)
            *error = why;
        qCWarning(lcPlugins).noquote() << "plugin" << id << "is broken:" << why;
        return nullptr;
    };
    if (!info)
        return fail(QStringLiteral("no plugin with id '%1'").arg(id));
    if (!info->error.isEmpty())
        return fail(info->error);
    QObject* instance = nullptr;
    if (info->libraryPath.isEmpty()) {
        for (const QStaticPlugin& sp : QPluginLoader::staticPlugins())
            if (sp.metaData().value("MetaData").toObject().value("id").toString() == id)
                instance = sp.instance();
    } else {
        auto* loader = new QPluginLoader(info->libraryPath, this);
        // Resolve every symbol now: a missing symbol must fail here, not crash on first call.
        loader->setLoadHints(QLibrary::ResolveAllSymbolsHint);
        m_loaders.insert(id, loader);
        instance = loader->instance();
        if (!instance)
            return fail(QStringLiteral("cannot load %1: %2").arg(info->libraryPath, loader->errorString()));
    }
    auto* plugin = qobject_cast<IPaperPlugin*>(instance);
    if (!plugin)
        return fail(QStringLiteral("the library does not implement %1").arg(PAPERLAB_PLUGIN_IID));
    QString initError;
    bool ok = false;
    try {
        ok = plugin->initialize(*info, &initError);
    } catch (const std::exception& e) {
        initError = QString::fromStdString(e.what());
    } catch (...) {
        initError = QStringLiteral("initialize() threw an unknown exception");
    }
    if (!ok)
        return fail(QStringLiteral("initialize() failed: %1")
                        .arg(initError.isEmpty() ? QStringLiteral("no reason given") : initError));
    m_loaded.insert(id, plugin);
    return plugin;
}

} // namespace pl
