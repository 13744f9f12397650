#include "TaskData.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace pl::smallnets {

Eigen::MatrixXd orthonormalMeans(int d, int tasks, Rng rng) {
    Eigen::MatrixXd g(d, 2 * tasks);
    for (Eigen::Index c = 0; c < g.cols(); ++c)
        for (Eigen::Index r = 0; r < g.rows(); ++r)
            g(r, c) = rng.normal();
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
    return qr.householderQ() * Eigen::MatrixXd::Identity(d, 2 * tasks);
}

TaskSet makeXorTasks(const XorTaskSpec& s, const Eigen::MatrixXd& means, Rng rng) {
    TaskSet out;
    for (int k = 0; k < s.tasks; ++k) {
        TaskBatch b{Eigen::MatrixXd(s.n, s.d), Eigen::VectorXd(s.n)};
        for (int i = 0; i < s.n; ++i) {
            const auto c = int(rng.uniformInt(4)); // 0: +mu1, 1: -mu1, 2: +mu2, 3: -mu2
            const double sign = (c % 2 == 0) ? 1.0 : -1.0;
            b.y(i) = c < 2 ? 1.0 : -1.0;
            const Eigen::VectorXd mu = means.col(2 * k + c / 2);
            for (int j = 0; j < s.d; ++j)
                b.X(i, j) = sign * s.muNorm * mu(j) + s.sigma * rng.normal();
        }
        out.tasks.push_back(std::move(b));
        out.ids.push_back(k + 1);
        out.directions.push_back(means.middleCols(2 * k, 2));
    }
    return out;
}

namespace {

std::string trim(std::string_view v) {
    size_t a = 0, b = v.size();
    while (a < b && (v[a] == ' ' || v[a] == '\t' || v[a] == '\r'))
        ++a;
    while (b > a && (v[b - 1] == ' ' || v[b - 1] == '\t' || v[b - 1] == '\r'))
        --b;
    return std::string(v.substr(a, b - a));
}

bool toNumber(const std::string& f, double& out) {
    if (f.empty())
        return false;
    const char* first = f.data();
    if (*first == '+')
        ++first;
    const auto r = std::from_chars(first, f.data() + f.size(), out);
    return r.ec == std::errc() && r.ptr == f.data() + f.size() && std::isfinite(out);
}

struct Row {
    int64_t line;
    int64_t task;
    double y;
    std::vector<double> x;
};

} // namespace

TaskSet parseTaskCsv(const std::string& text, const std::string& name) {
    std::vector<Row> rows;
    size_t pos = 0, width = 0;
    int64_t line = 0;
    bool seenRow = false;
    constexpr size_t kMaxCells = 50'000'000;
    size_t cells = 0;
    while (pos <= text.size()) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        const std::string l = trim(std::string_view(text).substr(pos, end - pos));
        pos = end + 1;
        ++line;
        if (l.empty() || l[0] == '#')
            continue;
        std::vector<std::string> fields;
        for (size_t a = 0;;) {
            const size_t c = l.find(',', a);
            fields.push_back(
                trim(std::string_view(l).substr(a, (c == std::string::npos ? l.size() : c) - a)));
            if (c == std::string::npos)
                break;
            a = c + 1;
        }
        if (!seenRow && !fields.empty()) {
            std::string f0 = fields[0];
            std::transform(f0.begin(), f0.end(), f0.begin(),
                           [](unsigned char ch) { return char(std::tolower(ch)); });
            seenRow = true;
            if (f0 == "task") {
                width = fields.size();
                if (width < 3)
                    throw InputError(name, "the header needs task, y and at least one feature column", line,
                                     0);
                continue;
            }
        }
        if (fields.size() < 3)
            throw InputError(name, "a row needs task, y and at least one feature (x1..xd)", line, 0);
        if (width == 0)
            width = fields.size();
        if (fields.size() != width)
            throw InputError(name,
                             "ragged row: " + std::to_string(fields.size()) + " fields, expected " +
                                 std::to_string(width),
                             line, 0);
        cells += width;
        if (cells > kMaxCells)
            throw InputError(name, "more than 50 million cells", line, 0);
        Row r{line, 0, 0, std::vector<double>(width - 2)};
        double task = 0;
        for (size_t c = 0; c < width; ++c) {
            double v = 0;
            if (!toNumber(fields[c], v))
                throw InputError(name, "non-numeric cell '" + fields[c].substr(0, 40) + "'", line,
                                 int64_t(c) + 1);
            if (c == 0)
                task = v;
            else if (c == 1)
                r.y = v;
            else
                r.x[c - 2] = v;
        }
        if (task != std::floor(task) || std::abs(task) > 1e15)
            throw InputError(name, "task id must be an integer", line, 1);
        if (r.y != 1.0 && r.y != -1.0)
            throw InputError(name, "y must be -1 or 1", line, 2);
        r.task = int64_t(task);
        rows.push_back(std::move(r));
    }
    if (rows.empty())
        throw InputError(name, "no data rows (expected task,y,x1..xd)", line, 0);
    std::map<int64_t, std::vector<const Row*>> byTask;
    for (const Row& r : rows)
        byTask[r.task].push_back(&r);
    if (byTask.size() < 2)
        throw InputError(name,
                         "only one task (id " + std::to_string(rows.front().task) +
                             "): forgetting needs at least two",
                         rows.front().line, 1);
    TaskSet s;
    const auto d = Eigen::Index(width - 2);
    for (const auto& [id, list] : byTask) {
        TaskBatch b{Eigen::MatrixXd(Eigen::Index(list.size()), d),
                    Eigen::VectorXd(Eigen::Index(list.size()))};
        for (size_t i = 0; i < list.size(); ++i) {
            b.y(Eigen::Index(i)) = list[i]->y;
            for (Eigen::Index j = 0; j < d; ++j)
                b.X(Eigen::Index(i), j) = list[i]->x[size_t(j)];
        }
        s.tasks.push_back(std::move(b));
        s.ids.push_back(id);
    }
    return s;
}

TaskSet readTaskCsv(const std::string& path) {
    TaskSet s = parseTaskCsv(readFileChecked(path, 256ll << 20), path);
    estimateDirections(s);
    return s;
}

Eigen::MatrixXd taskOverlap(const TaskSet& s) {
    const auto K = Eigen::Index(s.tasks.size());
    std::vector<Eigen::MatrixXd> M;
    for (const TaskBatch& b : s.tasks)
        M.push_back(b.X.transpose() * b.X / double(std::max<Eigen::Index>(1, b.X.rows())));
    Eigen::MatrixXd o(K, K);
    for (Eigen::Index i = 0; i < K; ++i)
        for (Eigen::Index j = 0; j < K; ++j) {
            const double den = M[size_t(i)].norm() * M[size_t(j)].norm();
            o(i, j) = den > 0 ? (M[size_t(i)].cwiseProduct(M[size_t(j)])).sum() / den : 0.0;
        }
    return o;
}

void estimateDirections(TaskSet& s) {
    s.directions.clear();
    const int d = s.dim();
    Eigen::MatrixXd taken(d, 0);
    for (const TaskBatch& b : s.tasks) {
        Eigen::MatrixXd M = b.X.transpose() * b.X / double(std::max<Eigen::Index>(1, b.X.rows()));
        const Eigen::MatrixXd P = Eigen::MatrixXd::Identity(d, d) - taken * taken.transpose();
        M = P * M * P;
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(M);
        const int r = std::min<int>(2, d - int(taken.cols()));
        Eigen::MatrixXd dir(d, 0);
        for (int k = 0; k < r; ++k) {
            const Eigen::Index col = d - 1 - k; // eigenvalues ascending
            if (es.eigenvalues()(col) <= 1e-12 * std::max(1.0, es.eigenvalues()(d - 1)))
                break;
            dir.conservativeResize(d, dir.cols() + 1);
            dir.col(dir.cols() - 1) = es.eigenvectors().col(col);
        }
        s.directions.push_back(dir);
        Eigen::MatrixXd t(d, taken.cols() + dir.cols());
        t << taken, dir;
        taken = t;
    }
}

} // namespace pl::smallnets
