#include "TeacherTrajectories.h"

#include "BbobFunctions.h"
#include "core/Errors.h"

#include <Eigen/Cholesky>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace pl::search {

namespace {

int64_t lineAt(const std::string& text, size_t offset) {
    if (offset == std::string::npos)
        return 0;
    int64_t line = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i)
        line += text[i] == '\n';
    return line;
}

/// Line of the k-th (0-based) occurrence of \a key ("\"mean\"") in \a text; 0 when absent.
int64_t lineOfOccurrence(const std::string& text, const std::string& key, int k) {
    size_t pos = text.find(key);
    for (int i = 0; i < k && pos != std::string::npos; ++i)
        pos = text.find(key, pos + 1);
    return lineAt(text, pos);
}

double number(const nlohmann::json& v, const std::string& name, const std::string& what, int64_t line) {
    if (!v.is_number())
        throw InputError(name, what + ": expected a number, got " + v.dump().substr(0, 40), line);
    const double x = v.get<double>();
    if (!std::isfinite(x))
        throw InputError(name, what + ": non-finite number", line);
    return x;
}

} // namespace

std::shared_ptr<const TeacherTrajectoriesInput> parseTeacherTrajectories(const std::string& text,
                                                                         const std::string& name) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(name, std::string("not JSON: ") + e.what(), lineAt(text, e.byte), 0,
                         int64_t(e.byte));
    } catch (const nlohmann::json::exception& e) {
        throw InputError(name, std::string("not JSON: ") + e.what());
    }
    if (!j.is_object() || !j.contains("dim") || !j.contains("functions"))
        throw InputError(name, "expected an object with \"dim\" and \"functions\"", 1);
    const nlohmann::json& jd = j["dim"];
    if (!jd.is_number_integer() || jd.get<int64_t>() < 2 || jd.get<int64_t>() > 50)
        throw InputError(name, "\"dim\" must be an integer in [2, 50]", lineAt(text, text.find("\"dim\"")));
    auto in = std::make_shared<TeacherTrajectoriesInput>();
    in->path = name;
    in->kind = "teacher trajectories";
    in->dim = int(jd.get<int64_t>());
    const int d = in->dim;
    const nlohmann::json& fs = j["functions"];
    if (!fs.is_array() || fs.empty())
        throw InputError(name, "\"functions\" must be a non-empty list",
                         lineAt(text, text.find("\"functions\"")));
    int occurrence = 0; // running index of "mean" keys, for line numbers
    int total = 0;
    for (size_t fi = 0; fi < fs.size(); ++fi) {
        const nlohmann::json& jf = fs[fi];
        const int64_t fline = lineOfOccurrence(text, "\"function\"", int(fi));
        if (!jf.is_object() || !jf.contains("function") || !jf["function"].is_string() ||
            !jf.contains("generations") || !jf["generations"].is_array())
            throw InputError(name,
                             "function entry " + std::to_string(fi + 1) +
                                 ": needs \"function\" (a name) and \"generations\" (a list)",
                             fline);
        TeacherTrajectory t;
        t.function = jf["function"].get<std::string>();
        if (bbobId(t.function) < 0)
            throw InputError(name, "unknown function '" + t.function.substr(0, 40) + "'", fline);
        const nlohmann::json& gs = jf["generations"];
        if (gs.size() < 2)
            throw InputError(name, t.function + ": needs at least two generations", fline);
        for (const nlohmann::json& jg : gs) {
            const int64_t line = lineOfOccurrence(text, "\"mean\"", occurrence++);
            if (!jg.is_object() || !jg.contains("generation") || !jg.contains("mean") ||
                !jg.contains("covariance"))
                throw InputError(
                    name, t.function + ": a generation needs \"generation\", \"mean\", \"covariance\"", line);
            if (!jg["generation"].is_number_integer())
                throw InputError(name, t.function + ": \"generation\" must be an integer", line);
            const int g = int(jg["generation"].get<int64_t>());
            if (!t.generations.empty() && g <= t.generations.back())
                throw InputError(name,
                                 t.function + ": non-monotone generations (" + std::to_string(g) + " after " +
                                     std::to_string(t.generations.back()) + ")",
                                 line);
            const nlohmann::json& jm = jg["mean"];
            const nlohmann::json& jc = jg["covariance"];
            if (!jm.is_array() || int(jm.size()) != d)
                throw InputError(name,
                                 t.function + " generation " + std::to_string(g) +
                                     ": dimension mismatch (mean of length " +
                                     std::to_string(jm.is_array() ? jm.size() : 0) + ", dim " +
                                     std::to_string(d) + ")",
                                 line);
            if (!jc.is_array() || int(jc.size()) != d)
                throw InputError(name,
                                 t.function + " generation " + std::to_string(g) +
                                     ": dimension mismatch (covariance needs " + std::to_string(d) + " rows)",
                                 line);
            Eigen::VectorXd m(d);
            Eigen::MatrixXd C(d, d);
            for (int a = 0; a < d; ++a) {
                m[a] = number(jm[size_t(a)], name, t.function + " mean", line);
                if (!jc[size_t(a)].is_array() || int(jc[size_t(a)].size()) != d)
                    throw InputError(name,
                                     t.function + " generation " + std::to_string(g) +
                                         ": dimension mismatch (covariance row " + std::to_string(a + 1) +
                                         " needs " + std::to_string(d) + " entries)",
                                     line);
                for (int b = 0; b < d; ++b)
                    C(a, b) = number(jc[size_t(a)][size_t(b)], name, t.function + " covariance", line);
            }
            const double scale = C.cwiseAbs().maxCoeff();
            const bool symmetric = (C - C.transpose()).cwiseAbs().maxCoeff() <= 1e-9 * scale;
            Eigen::LLT<Eigen::MatrixXd> llt(C);
            bool spd = symmetric && scale > 0 && llt.info() == Eigen::Success;
            if (spd) {
                const Eigen::VectorXd diag = llt.matrixL().toDenseMatrix().diagonal();
                spd = diag.minCoeff() > 0 && diag.allFinite();
            }
            if (!spd)
                throw InputError(name,
                                 t.function + ": the covariance of generation " + std::to_string(g) +
                                     " is not symmetric positive definite (first such generation)",
                                 line);
            t.generations.push_back(g);
            t.means.push_back(m);
            t.covariances.push_back(C);
            ++total;
        }
        in->trajectories.push_back(std::move(t));
    }
    std::ostringstream s;
    s << in->trajectories.size() << " teacher trajectories, d = " << d << ", " << total << " generations";
    in->summary = s.str();
    return in;
}

std::shared_ptr<const TeacherTrajectoriesInput> loadTeacherTrajectories(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw InputError(path, "cannot open the file");
    std::ostringstream ss;
    ss << f.rdbuf();
    return parseTeacherTrajectories(ss.str(), path);
}

} // namespace pl::search
