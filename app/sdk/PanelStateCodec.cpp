#include "PanelStateCodec.h"

#include <QStringList>
#include <QUrl>

namespace pl {

namespace {

QString enc(const std::string& s) {
    return QString::fromLatin1(QUrl::toPercentEncoding(QString::fromStdString(s)));
}

} // namespace

QString PanelStateCodec::encode(const QString& pluginId, const ParamSet& params, uint64_t seed) {
    QStringList parts{QStringLiteral("seed=%1").arg(seed)};
    for (const ParamSpec& spec : params.specs()) {
        const auto it = params.values().find(spec.key);
        if (it == params.values().end() || it->second == spec.defaultValue)
            continue;
        parts << enc(spec.key) + QLatin1Char('=') + enc(toString(it->second));
    }
    return QLatin1String(kScheme) + QString::fromLatin1(QUrl::toPercentEncoding(pluginId)) +
           QLatin1Char('?') + parts.join(QLatin1Char('&'));
}

QString PanelStateCodec::pluginIdOf(const QString& text) {
    const QString t = text.trimmed();
    if (!t.startsWith(QLatin1String(kScheme)))
        return {};
    const int q = t.indexOf(QLatin1Char('?'));
    const QString id = t.mid(int(qstrlen(kScheme)), q < 0 ? -1 : q - int(qstrlen(kScheme)));
    return QUrl::fromPercentEncoding(id.toLatin1());
}

bool PanelStateCodec::decode(const QString& text, const QString& pluginId,
                             const std::vector<ParamSpec>& specs, ParamSet* params, uint64_t* seed,
                             QString* error) {
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    const QString t = text.trimmed();
    if (!t.startsWith(QLatin1String(kScheme)))
        return fail(QStringLiteral("not a Paperlab state (it must start with \"paperlab:\")"));
    const QString id = pluginIdOf(t);
    if (id.isEmpty())
        return fail(QStringLiteral("the state names no panel"));
    if (id != pluginId)
        return fail(QStringLiteral("the state is for panel '%1', not '%2'").arg(id, pluginId));
    const int q = t.indexOf(QLatin1Char('?'));
    const QString query = q < 0 ? QString() : t.mid(q + 1);
    ParamSet next(specs);
    uint64_t nextSeed = 42;
    QStringList seen;
    for (const QString& part : query.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const int eq = part.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return fail(QStringLiteral("'%1' is not KEY=VALUE").arg(part));
        if (part.contains(QLatin1Char(' ')) || part.toLatin1() != part.toUtf8())
            return fail(QStringLiteral("'%1' is not URL-encoded").arg(part));
        const QString key = QUrl::fromPercentEncoding(part.left(eq).toLatin1());
        const QString value = QUrl::fromPercentEncoding(part.mid(eq + 1).toLatin1());
        if (seen.contains(key))
            return fail(QStringLiteral("'%1' is given twice").arg(key));
        seen << key;
        if (key == QLatin1String("seed")) {
            bool ok = false;
            nextSeed = value.toULongLong(&ok);
            if (!ok)
                return fail(QStringLiteral("seed must be a non-negative integer, not '%1'").arg(value));
            continue;
        }
        try {
            next.setText(key.toStdString(), value.toStdString());
        } catch (const std::exception& e) {
            return fail(QString::fromStdString(e.what()));
        }
    }
    *params = next;
    *seed = nextSeed;
    return true;
}

} // namespace pl
