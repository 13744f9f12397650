#pragma once
/// Parsed command line of the headless commands (docs/cli-contract.md).

#include <QStringList>
#include <optional>

namespace pl::cli {

/// Exit codes of the contract.
enum ExitCode { Ok = 0, Usage = 1, UnknownId = 2, BadInput = 3, EngineFailed = 4, ExportFailed = 5 };

struct CliOptions {
    QString command;                     ///< list | params | run | figure | report | replay | sweep
    QStringList positional;              ///< PANEL, FIGURE_ID, SESSION
    QList<QPair<QString, QString>> sets; ///< --set KEY=VALUE in order
    QString preset;
    std::optional<quint64> seed;
    QStringList inputs;
    QStringList formats; ///< --format png,svg,pdf
    int dpi = 300;
    int threads = 1;
    QString backend = QStringLiteral("auto");
    QString out;
    QString tour;
    QStringList grids;   ///< sweep: --grid K=v1,v2,... | K=lo:hi:n[:log], in order
    QString seeds;       ///< sweep: --seeds A..B | N (empty: 1..10)
    int jobs = 1;        ///< sweep: worker threads
    QString sweepDir;    ///< report --sweep DIR: the robustness report of a finished sweep
    QStringList compare; ///< report --compare A.json B.json: the A/B comparison of two results
    bool json = false;

    /// Parses argv after the command word. Returns false with *error on a usage error.
    static bool parse(const QStringList& args, CliOptions* out, QString* error);
};

} // namespace pl::cli
