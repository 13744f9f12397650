#include "CliOptions.h"

namespace pl::cli {

bool CliOptions::parse(const QStringList& args, CliOptions* out, QString* error) {
    CliOptions o;
    auto fail = [&](const QString& why) {
        *error = why;
        return false;
    };
    if (args.isEmpty())
        return fail(QStringLiteral("missing command (try --help)"));
    o.command = args.first();
    for (int i = 1; i < args.size(); ++i) {
        const QString a = args[i];
        auto value = [&](QString* v) {
            if (i + 1 >= args.size())
                return false;
            *v = args[++i];
            return true;
        };
        QString v;
        if (a == QLatin1String("--json")) {
            o.json = true;
        } else if (a.startsWith(QLatin1String("--"))) {
            QString name = a;
            const int eq = a.indexOf(QLatin1Char('='));
            if (eq > 0 && a != QLatin1String("--set")) {
                name = a.left(eq);
                v = a.mid(eq + 1);
            } else if (!value(&v)) {
                return fail(QStringLiteral("option %1 needs a value").arg(a));
            }
            if (name == QLatin1String("--set")) {
                const int e = v.indexOf(QLatin1Char('='));
                if (e <= 0)
                    return fail(QStringLiteral("--set needs KEY=VALUE, got '%1'").arg(v));
                o.sets.append({v.left(e), v.mid(e + 1)});
            } else if (name == QLatin1String("--preset")) {
                o.preset = v;
            } else if (name == QLatin1String("--seed")) {
                bool ok = false;
                const quint64 s = v.toULongLong(&ok);
                if (!ok)
                    return fail(
                        QStringLiteral("--seed needs a non-negative 64-bit integer, got '%1'").arg(v));
                o.seed = s;
            } else if (name == QLatin1String("--input")) {
                o.inputs << v;
            } else if (name == QLatin1String("--format")) {
                for (const QString& f : v.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                    const QString lf = f.trimmed().toLower();
                    if (lf != QLatin1String("png") && lf != QLatin1String("svg") &&
                        lf != QLatin1String("pdf"))
                        return fail(QStringLiteral("--format takes png, svg and/or pdf, got '%1'").arg(f));
                    o.formats << lf;
                }
            } else if (name == QLatin1String("--dpi")) {
                bool ok = false;
                o.dpi = v.toInt(&ok);
                if (!ok || o.dpi < 24 || o.dpi > 2400)
                    return fail(QStringLiteral("--dpi must be an integer in [24, 2400], got '%1'").arg(v));
            } else if (name == QLatin1String("--threads")) {
                bool ok = false;
                o.threads = v.toInt(&ok);
                if (!ok || o.threads < 1 || o.threads > 256)
                    return fail(QStringLiteral("--threads must be an integer in [1, 256], got '%1'").arg(v));
            } else if (name == QLatin1String("--backend")) {
                if (v != QLatin1String("auto") && v != QLatin1String("cpu") && v != QLatin1String("cuda"))
                    return fail(QStringLiteral("--backend takes auto, cpu or cuda, got '%1'").arg(v));
                o.backend = v;
            } else if (name == QLatin1String("--out")) {
                o.out = v;
            } else if (name == QLatin1String("--tour")) {
                o.tour = v;
            } else if (name == QLatin1String("--grid")) {
                o.grids << v;
            } else if (name == QLatin1String("--compare")) {
                QString second;
                if (!value(&second))
                    return fail(QStringLiteral("--compare needs two result files: --compare A.json B.json"));
                o.compare = {v, second};
            } else if (name == QLatin1String("--sweep")) {
                o.sweepDir = v;
            } else if (name == QLatin1String("--seeds")) {
                o.seeds = v;
            } else if (name == QLatin1String("--jobs")) {
                bool ok = false;
                o.jobs = v.toInt(&ok);
                if (!ok || o.jobs < 1 || o.jobs > 256)
                    return fail(QStringLiteral("--jobs must be an integer in [1, 256], got '%1'").arg(v));
            } else {
                return fail(QStringLiteral("unknown option '%1'").arg(name));
            }
        } else {
            o.positional << a;
        }
    }
    *out = o;
    return true;
}

} // namespace pl::cli
