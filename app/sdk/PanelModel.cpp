#include "PanelModel.h"

#include "PaperPlugin.h"
#include "core/Errors.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace pl {

namespace {
/// A job-runner channel unique to this panel instance ("latest wins" per channel). GUI thread.
QString nextChannel(const QString& panelId) {
    static quint64 counter = 0;
    return QStringLiteral("%1#%2").arg(panelId).arg(++counter);
}
} // namespace

PanelModel::PanelModel(const PluginInfo& info, IPaperPlugin* plugin, JobRunner* runner, QObject* parent)
    : QObject(parent), m_info(info), m_plugin(plugin), m_runner(runner),
      m_engine(std::shared_ptr<const Engine>(plugin->createEngine().release())), m_params(m_engine->params()),
      m_channel(nextChannel(info.id)) {
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(120);
    connect(&m_debounce, &QTimer::timeout, this, &PanelModel::startRun);
    connect(m_runner, &JobRunner::progress, this, [this](quint64 id, double f, const QString& s) {
        if (id == m_jobId)
            emit progress(f, s);
    });
    connect(m_runner, &JobRunner::finished, this, [this](quint64 id, const JobOutcome& out) {
        if (id != m_jobId)
            return; // an older request: latest wins
        m_jobId = 0;
        emit runningChanged(false);
        if (out.status == JobOutcome::Status::Done) {
            m_result = out.result;
            emit resultChanged();
        } else if (out.status != JobOutcome::Status::Cancelled) {
            emit errorOccurred(QStringLiteral("%1: %2").arg(m_info.id, out.message));
        }
    });
}

PanelModel::~PanelModel() {
    if (m_jobId)
        m_runner->cancel(m_jobId);
}

void PanelModel::setParam(const QString& key, const ParamValue& value, bool interactive) {
    ParamSet next = m_params;
    next.set(key.toStdString(), value); // throws UsageError; nothing changed then
    if (next == m_params)
        return;
    m_params = next;
    m_preset.clear();
    emit paramsChanged();
    requestRun(interactive);
}

void PanelModel::setParams(const ParamSet& params) {
    ParamSet next(m_engine->params());
    for (const auto& [k, v] : params.values())
        next.set(k, v);
    m_params = next;
    emit paramsChanged();
}

const PresetInfo* PanelModel::presetInfo(const QString& name) const {
    if (const PresetInfo* p = m_info.preset(name))
        return p;
    for (const auto& p : m_userPresets)
        if (p.name == name)
            return &p;
    return nullptr;
}

void PanelModel::restoreParams(const ParamSet& params, const QString& preset) {
    if (params == m_params && preset == m_preset)
        return;
    m_params = params;
    m_preset = preset;
    emit paramsChanged();
}

bool PanelModel::applyPreset(const QString& name, QString* error) {
    const PresetInfo* p = presetInfo(name);
    if (!p) {
        if (error) {
            QStringList names;
            for (const auto& pr : m_info.presets)
                names << pr.name;
            for (const auto& pr : m_userPresets)
                names << pr.name;
            *error =
                QStringLiteral("unknown preset '%1' (known: %2)").arg(name, names.join(QStringLiteral(", ")));
        }
        return false;
    }
    ParamSet next(m_engine->params());
    try {
        for (auto it = p->params.begin(); it != p->params.end(); ++it) {
            const ParamSpec* spec = next.spec(it.key().toStdString());
            ParamValue v;
            if (!spec || !paramFromJson(*spec, it.value(), &v))
                throw UsageError("preset '" + name.toStdString() + "' sets unknown or malformed parameter '" +
                                 it.key().toStdString() + "'");
            next.set(it.key().toStdString(), v);
        }
    } catch (const UsageError& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    m_params = next;
    m_preset = name;
    emit paramsChanged();
    return true;
}

void PanelModel::setSeed(uint64_t seed) {
    if (seed == m_seed)
        return;
    m_seed = seed;
    emit seedChanged();
}

QString PanelModel::sha256OfFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return QString::fromLatin1(h.result().toHex());
}

bool PanelModel::loadInput(const QString& path, QString* error, bool append) {
    if (m_engine->maxInputs() == 0) {
        if (error)
            *error = QStringLiteral("%1: panel '%2' takes no input files").arg(path, m_info.id);
        return false;
    }
    InputFile f;
    try {
        f.data = m_engine->load(path.toStdString());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        emit errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
    f.path = path;
    f.sha256 = sha256OfFile(path);
    if (!append || m_inputs.size() >= m_engine->maxInputs())
        m_inputs.clear();
    m_inputs << f;
    emit inputsChanged();
    return true;
}

void PanelModel::clearInputs() {
    if (m_inputs.isEmpty())
        return;
    m_inputs.clear();
    emit inputsChanged();
}

InputList PanelModel::inputList() const {
    InputList l;
    for (const auto& f : m_inputs)
        l.push_back(f.data);
    return l;
}

void PanelModel::requestRun(bool debounce) {
    if (debounce) {
        m_debounce.start();
        return;
    }
    m_debounce.stop();
    startRun();
}

void PanelModel::cancel() {
    m_debounce.stop();
    if (m_jobId)
        m_runner->cancel(m_jobId);
}

ResultDocument PanelModel::runBlocking(RunContext& ctx) const {
    return runWith(m_params, ctx);
}

ResultDocument PanelModel::runWith(const ParamSet& params, RunContext& ctx) const {
    return snapshot()(params, ctx);
}

PanelModel::RunFn PanelModel::snapshot() const {
    std::shared_ptr<const Engine> engine = m_engine;
    InputList inputs = inputList();
    std::vector<InputRecord> records;
    for (const auto& f : m_inputs)
        records.push_back({QFileInfo(f.path).fileName().toStdString(), f.sha256.toStdString()});
    const Backend backend = m_backend;
    // Values only (never `this`): the function may run on a pool thread after the model changed.
    return [engine, inputs, records, backend](const ParamSet& params, RunContext& ctx) {
        ctx.setBackend(backend);
        ResultDocument d = runEngine(*engine, inputs, params, ctx);
        d.inputs = records;
        return d;
    };
}

void PanelModel::startRun() {
    const RunFn run = snapshot();
    const ParamSet params = m_params;
    auto work = [run, params](RunContext& ctx) { return run(params, ctx); };
    const bool wasRunning = m_jobId != 0;
    m_jobId = m_runner->submit(m_channel, m_info.title, m_seed, m_threads, work);
    if (!wasRunning)
        emit runningChanged(true);
    emit runStarted();
}

bool PanelModel::figure(const QString& figureId, gui::FigureSpec* out, QString* error) const {
    if (!m_result) {
        if (error)
            *error = QStringLiteral("no result yet");
        return false;
    }
    try {
        *out = m_plugin->buildFigure(figureId, *m_result);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QStringLiteral("figure '%1': %2").arg(figureId, QString::fromStdString(e.what()));
        return false;
    }
}

QString PanelModel::paramToText(const ParamValue& v) {
    return QString::fromStdString(toString(v));
}

bool PanelModel::paramFromJson(const ParamSpec& spec, const QJsonValue& v, ParamValue* out) {
    try {
        switch (spec.type) {
        case ParamType::Int:
            if (!v.isDouble())
                return false;
            *out = spec.validate(int64_t(v.toDouble()));
            return double(int64_t(v.toDouble())) == v.toDouble();
        case ParamType::Double:
            if (!v.isDouble())
                return false;
            *out = spec.validate(v.toDouble());
            return true;
        case ParamType::Bool:
            if (!v.isBool())
                return false;
            *out = v.toBool();
            return true;
        case ParamType::Choice:
        case ParamType::String:
            if (!v.isString())
                return false;
            *out = spec.validate(v.toString().toStdString());
            return true;
        }
    } catch (const UsageError&) {
        return false;
    }
    return false;
}

static QJsonValue paramToJson(const ParamValue& v) {
    if (auto i = std::get_if<int64_t>(&v))
        return double(*i);
    if (auto d = std::get_if<double>(&v))
        return *d;
    if (auto b = std::get_if<bool>(&v))
        return *b;
    return QString::fromStdString(std::get<std::string>(v));
}

QJsonObject PanelModel::saveState() const {
    QJsonObject params;
    for (const auto& [k, v] : m_params.values())
        params[QString::fromStdString(k)] = paramToJson(v);
    QJsonArray inputs;
    for (const auto& f : m_inputs)
        inputs.append(QJsonObject{{"path", f.path}, {"sha256", f.sha256}});
    QJsonObject o{{"plugin", m_info.id}, {"pluginVersion", m_info.version},
                  {"stateVersion", 1},   {"seed", QString::number(m_seed)},
                  {"params", params},    {"inputs", inputs}};
    if (!m_preset.isEmpty())
        o["preset"] = m_preset;
    return o;
}

bool PanelModel::restoreState(const QJsonObject& state, const QString& sessionDir, QString* error) {
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (state.value("plugin").toString() != m_info.id)
        return fail(QStringLiteral("record is for plugin '%1', not '%2'")
                        .arg(state.value("plugin").toString(), m_info.id));
    if (state.value("stateVersion").toInt(1) > 1)
        return fail(QStringLiteral("panel state version %1 is newer than this Paperlab understands")
                        .arg(state.value("stateVersion").toInt()));
    bool ok = false;
    const uint64_t seed = state.value("seed").toString().toULongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("seed must be a decimal string"));
    ParamSet next(m_engine->params());
    const QJsonObject params = state.value("params").toObject();
    for (auto it = params.begin(); it != params.end(); ++it) {
        const ParamSpec* spec = next.spec(it.key().toStdString());
        ParamValue v;
        if (!spec)
            return fail(QStringLiteral("unknown parameter '%1'").arg(it.key()));
        if (!paramFromJson(*spec, it.value(), &v))
            return fail(QStringLiteral("parameter '%1' has a bad value (allowed: %2)")
                            .arg(it.key(), QString::fromStdString(spec->allowedText())));
        next.set(spec->key, v);
    }
    // Stage every input before touching the model.
    QList<InputFile> staged;
    for (const auto& iv : state.value("inputs").toArray()) {
        const QJsonObject io = iv.toObject();
        QString path = io.value("path").toString();
        if (QFileInfo(path).isRelative() && !sessionDir.isEmpty())
            path = QDir(sessionDir).absoluteFilePath(path);
        InputFile f;
        try {
            f.data = m_engine->load(path.toStdString());
        } catch (const std::exception& e) {
            return fail(QString::fromStdString(e.what()));
        }
        f.path = path;
        f.sha256 = sha256OfFile(path);
        const QString want = io.value("sha256").toString();
        if (!want.isEmpty() && want != f.sha256)
            return fail(
                QStringLiteral("%1: content changed since the session was saved (sha256 differs)").arg(path));
        staged << f;
    }
    m_params = next;
    m_seed = seed;
    m_inputs = staged;
    m_preset = state.value("preset").toString();
    emit paramsChanged();
    emit seedChanged();
    emit inputsChanged();
    return true;
}

} // namespace pl
