#include "SweepFigures.h"

#include "sdk/ClaimRobustness.h"

#include <algorithm>
#include <map>

namespace pl {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;

namespace {

/// The claim ids of the sweep in order of first appearance, with their statements.
std::vector<std::pair<std::string, std::string>> claimIds(const SweepResults& s) {
    std::vector<std::pair<std::string, std::string>> ids;
    for (const ResultDocument& d : s.docs)
        for (const Claim& c : d.claims)
            if (std::none_of(ids.begin(), ids.end(), [&](const auto& p) { return p.first == c.id; }))
                ids.emplace_back(c.id, c.statement);
    return ids;
}

const Claim* findClaim(const ResultDocument& d, const std::string& id) {
    for (const Claim& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

int cellCount(const SweepResults& s) {
    return s.runs.empty() ? 0 : s.runs.back().cellIndex + 1;
}

FigureSpec claimsByCell(const SweepResults& s, const std::vector<std::pair<std::string, std::string>>& ids) {
    FigureSpec f;
    f.id = QStringLiteral("claims_by_cell");
    f.title = QStringLiteral("Claims holding per grid cell");
    f.kind = FigureKind::Heatmap;
    const int cells = cellCount(s);
    f.heatmap.rows = int(ids.size());
    f.heatmap.cols = cells;
    for (const auto& [id, st] : ids) {
        f.heatmap.rowLabels << QString::fromStdString(id);
        for (int c = 0; c < cells; ++c) {
            int holds = 0, runs = 0;
            for (const ResultDocument* d : s.cell(c))
                if (const Claim* cl = findClaim(*d, id)) {
                    ++runs;
                    holds += cl->holds ? 1 : 0;
                }
            f.heatmap.values << (runs ? double(holds) / runs : std::numeric_limits<double>::quiet_NaN());
        }
    }
    for (int c = 0; c < cells; ++c)
        f.heatmap.colLabels << s.cellLabel(c);
    f.heatmap.rowTitle = QStringLiteral("claim");
    f.heatmap.colTitle = QStringLiteral("grid cell");
    f.heatmap.unit = QStringLiteral("fraction of seeds holding");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.annotateCells = true;
    f.caption = QStringLiteral("For each grid cell, the fraction of its %1 seeds on which the claim holds.")
                    .arg(s.plan.seeds().size());
    return f;
}

/// x of each value of an axis: the number when every value is numeric, else its index.
std::vector<double> axisX(const SweepAxis& a, bool* numeric) {
    std::vector<double> x;
    *numeric = true;
    for (const std::string& v : a.values) {
        bool ok = false;
        const double d = QString::fromStdString(v).toDouble(&ok);
        *numeric = *numeric && ok;
        x.push_back(d);
    }
    if (!*numeric)
        for (size_t i = 0; i < x.size(); ++i)
            x[i] = double(i);
    return x;
}

FigureSpec claimVsSeed(const SweepResults& s, const std::string& id, const std::string& statement) {
    FigureSpec f;
    f.id = QStringLiteral("claim_") + QString::fromStdString(id);
    f.title = QStringLiteral("%1 over seeds").arg(QString::fromStdString(id));
    SeriesSpec pts;
    pts.name = QStringLiteral("observed");
    pts.style = SeriesSpec::Style::Scatter;
    double threshold = 0;
    for (size_t i = 0; i < s.docs.size(); ++i)
        if (const Claim* c = findClaim(s.docs[i], id)) {
            pts.x << double(s.runs[i].seed);
            pts.y << c->observed;
            threshold = c->threshold;
        }
    f.chart.series << pts;
    f.chart.xLabel = QStringLiteral("seed");
    f.chart.yLabel = QStringLiteral("observed value");
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, threshold, QStringLiteral("threshold")};
    f.caption = QString::fromStdString(statement);
    return f;
}

FigureSpec claimVsAxis(const SweepResults& s, const std::string& id, const std::string& statement) {
    const SweepAxis& axis = s.plan.axes().front();
    bool numeric = true;
    const std::vector<double> x = axisX(axis, &numeric);
    // Group the runs by the values of the other axes; within a group, by the first axis value.
    std::map<std::string, std::map<size_t, std::vector<double>>> groups;
    std::vector<std::string> order;
    double threshold = 0;
    for (size_t i = 0; i < s.runs.size(); ++i) {
        const Claim* c = findClaim(s.docs[i], id);
        if (!c)
            continue;
        threshold = c->threshold;
        std::string rest;
        for (size_t a = 1; a < s.runs[i].values.size(); ++a)
            rest +=
                (rest.empty() ? "" : ", ") + s.runs[i].values[a].first + " = " + s.runs[i].values[a].second;
        const size_t k =
            size_t(std::find(axis.values.begin(), axis.values.end(), s.runs[i].values[0].second) -
                   axis.values.begin());
        if (!groups.count(rest))
            order.push_back(rest);
        groups[rest][k].push_back(c->observed);
    }
    FigureSpec f;
    f.id = QStringLiteral("claim_") + QString::fromStdString(id);
    f.title =
        QStringLiteral("%1 against %2").arg(QString::fromStdString(id), QString::fromStdString(axis.key));
    int colour = 0;
    for (size_t g = 0; g < order.size() && g < 4; ++g, ++colour) {
        SeriesSpec med, lo, hi;
        const QString name =
            order[g].empty() ? QStringLiteral("median over seeds") : QString::fromStdString(order[g]);
        med.name = name;
        med.style = SeriesSpec::Style::LineWithPoints;
        // lo and hi stay unnamed: no legend entries (the caption says what the dashed lines are)
        med.colorIndex = lo.colorIndex = hi.colorIndex = colour;
        lo.dashed = hi.dashed = true;
        lo.lineWidth = hi.lineWidth = 1;
        for (auto& [k, v] : groups[order[g]]) {
            std::sort(v.begin(), v.end());
            const double m = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
            med.x << x[k];
            med.y << m;
            lo.x << x[k];
            lo.y << v.front();
            hi.x << x[k];
            hi.y << v.back();
        }
        f.chart.series << med << lo << hi;
    }
    QString xLabel = QString::fromStdString(axis.key);
    if (!numeric) {
        QStringList names;
        for (size_t i = 0; i < axis.values.size(); ++i)
            names << QStringLiteral("%1 = %2").arg(i).arg(QString::fromStdString(axis.values[i]));
        xLabel += QStringLiteral(" (") + names.join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    f.chart.xLabel = xLabel;
    f.chart.yLabel = QStringLiteral("observed value");
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, threshold, QStringLiteral("threshold")};
    f.caption =
        QString::fromStdString(statement) +
        QStringLiteral(" Median over %1 seeds, dashed: minimum and maximum.").arg(s.plan.seeds().size()) +
        (order.size() > 4 ? QStringLiteral(" First 4 of %1 combinations of the other axes.").arg(order.size())
                          : QString());
    return f;
}

FigureSpec phase(const SweepResults& s, const std::string& id) {
    const SweepAxis& a = s.plan.axes()[0];
    const SweepAxis& b = s.plan.axes()[1];
    FigureSpec f;
    f.id = QStringLiteral("phase_") + QString::fromStdString(id);
    f.title =
        QStringLiteral("%1: fraction holding over %2 and %3")
            .arg(QString::fromStdString(id), QString::fromStdString(a.key), QString::fromStdString(b.key));
    f.kind = FigureKind::Heatmap;
    f.heatmap.rows = int(a.values.size());
    f.heatmap.cols = int(b.values.size());
    for (const std::string& v : a.values)
        f.heatmap.rowLabels << QString::fromStdString(v);
    for (const std::string& v : b.values)
        f.heatmap.colLabels << QString::fromStdString(v);
    // Cells are grid-major with the last axis fastest: cell c = row · |b| + column.
    for (int c = 0; c < cellCount(s); ++c) {
        int holds = 0, runs = 0;
        for (const ResultDocument* d : s.cell(c))
            if (const Claim* cl = findClaim(*d, id)) {
                ++runs;
                holds += cl->holds ? 1 : 0;
            }
        f.heatmap.values << (runs ? double(holds) / runs : std::numeric_limits<double>::quiet_NaN());
    }
    f.heatmap.rowTitle = QString::fromStdString(a.key);
    f.heatmap.colTitle = QString::fromStdString(b.key);
    f.heatmap.unit = QStringLiteral("fraction of seeds holding");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.annotateCells = true;
    f.caption =
        QStringLiteral("A phase diagram of the claim: where in the grid it holds, and on how many seeds.");
    return f;
}

} // namespace

QVector<FigureSpec> sweepFigures(const SweepResults& s) {
    QVector<FigureSpec> out;
    const auto ids = claimIds(s);
    if (ids.empty())
        return out;
    out << claimsByCell(s, ids);
    for (const auto& [id, statement] : ids) {
        out << (s.plan.axes().empty() ? claimVsSeed(s, id, statement) : claimVsAxis(s, id, statement));
        if (s.plan.axes().size() == 2)
            out << phase(s, id);
    }
    return out;
}

} // namespace pl
