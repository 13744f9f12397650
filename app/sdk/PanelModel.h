#pragma once
/// The non-visual state of one open panel: its plugin, engine, parameters, seed, inputs and
/// latest result. The GUI panel is a view of it; the CLI and `replay` use it without widgets.
/// Thread affinity: main thread. Computation goes through the JobRunner (never blocks).

#include "JobRunner.h"
#include "PluginInfo.h"
#include "core/Backend.h"

#include "core/Engine.h"
#include "core/ParamSpec.h"
#include <functional>

#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <memory>

namespace pl {

class IPaperPlugin;

/// A loaded input file with its content hash (for sessions and provenance).
struct InputFile {
    QString path;
    QString sha256;
    std::shared_ptr<const LoadedInput> data;
};

class PanelModel : public QObject {
    Q_OBJECT
public:
    /// `plugin` and `runner` are not owned and must outlive the model.
    PanelModel(const PluginInfo& info, IPaperPlugin* plugin, JobRunner* runner, QObject* parent = nullptr);
    ~PanelModel() override;

    const PluginInfo& info() const { return m_info; }
    IPaperPlugin* plugin() const { return m_plugin; }
    const Engine& engine() const { return *m_engine; }
    std::shared_ptr<const Engine> sharedEngine() const { return m_engine; }

    const ParamSet& params() const { return m_params; }
    /// Sets one parameter; throws UsageError for bad values (nothing changes then).
    /// interactive = true (slider drag) debounces the recompute.
    void setParam(const QString& key, const ParamValue& value, bool interactive = false);
    /// Replaces all parameters (validated against the engine's specs first).
    void setParams(const ParamSet& params);
    /// Applies a preset (paper.json or a user preset); returns false with *error for an unknown name.
    bool applyPreset(const QString& name, QString* error = nullptr);
    QString activePreset() const { return m_preset; }
    /// Replaces parameters and the active preset name at once (undo/redo, tours, pasted state).
    /// `params` must be built on this engine's specs. Emits paramsChanged; does not run.
    void restoreParams(const ParamSet& params, const QString& preset);
    /// The user's own presets (shown after the paper's; a paper preset of the same name wins).
    const QList<PresetInfo>& userPresets() const { return m_userPresets; }
    void setUserPresets(const QList<PresetInfo>& presets) { m_userPresets = presets; }
    /// A paper.json preset or else a user preset; nullptr when unknown.
    const PresetInfo* presetInfo(const QString& name) const;

    uint64_t seed() const { return m_seed; }
    void setSeed(uint64_t seed);
    int engineThreads() const { return m_threads; }
    void setEngineThreads(int n) { m_threads = std::max(1, n); }
    /// Backend passed to the engine's RunContext (CLI --backend; default auto).
    Backend backend() const { return m_backend; }
    void setBackend(Backend b) { m_backend = b; }

    const QList<InputFile>& inputs() const { return m_inputs; }
    /// Parses and validates a file synchronously (staging); on success it replaces the inputs
    /// (or is appended when the engine takes several). On failure nothing changes and *error
    /// names the file, line and reason. Returns false on failure.
    bool loadInput(const QString& path, QString* error, bool append = false);
    void clearInputs();

    /// Requests a run (latest wins). With debounce, waits ~120 ms of quiet first.
    void requestRun(bool debounce = false);
    void cancel();
    bool isRunning() const { return m_jobId != 0; }
    std::shared_ptr<const ResultDocument> result() const { return m_result; }
    /// Builds a figure from the latest result; returns false when there is none.
    bool figure(const QString& figureId, gui::FigureSpec* out, QString* error = nullptr) const;

    /// Session record: plugin id/version, state version, seed (string), params, inputs, preset.
    QJsonObject saveState() const;
    /// Restores a session record. Validates everything first; on failure nothing changes.
    bool restoreState(const QJsonObject& state, const QString& sessionDir, QString* error);

    /// Synchronous run on the calling thread (CLI). Throws like Engine::run.
    ResultDocument runBlocking(RunContext& ctx) const;
    /// The same with other parameters: reads only the engine, inputs and backend, so several
    /// threads may call it at once while nobody changes the model.
    ResultDocument runWith(const ParamSet& params, RunContext& ctx) const;
    /// Runs the engine on a snapshot of this model's engine, inputs and backend (copied now), for
    /// work that outlives changes to the model (background runs, robustness checks). Thread-safe.
    using RunFn = std::function<ResultDocument(const ParamSet& params, RunContext& ctx)>;
    RunFn snapshot() const;

    static QString sha256OfFile(const QString& path);
    static QString paramToText(const ParamValue& v);
    static bool paramFromJson(const ParamSpec& spec, const QJsonValue& v, ParamValue* out);

signals:
    void paramsChanged();
    void inputsChanged();
    void seedChanged();
    void runStarted();
    void progress(double fraction, const QString& status);
    void resultChanged();
    /// A run failed or an input was refused. Also written to the log.
    void errorOccurred(const QString& message);
    void runningChanged(bool running);

private:
    void startRun();
    InputList inputList() const;

    PluginInfo m_info;
    IPaperPlugin* m_plugin;
    JobRunner* m_runner;
    std::shared_ptr<const Engine> m_engine;
    ParamSet m_params;
    QString m_preset;
    QList<PresetInfo> m_userPresets;
    uint64_t m_seed = 42;
    int m_threads = 1;
    Backend m_backend = Backend::Auto;
    QList<InputFile> m_inputs;
    std::shared_ptr<const ResultDocument> m_result;
    quint64 m_jobId = 0;
    QTimer m_debounce;
    QString m_channel;
};

} // namespace pl
