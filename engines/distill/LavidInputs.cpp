#include "LavidInputs.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

namespace pl::distill {

namespace {

constexpr int64_t kMaxBytes = 256ll << 20;

int64_t lineAt(const std::string& text, size_t offset) {
    return 1 + int64_t(std::count(text.begin(), text.begin() + int64_t(std::min(offset, text.size())), '\n'));
}

std::string stripped(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.pop_back();
    size_t a = 0;
    while (a < s.size() && (s[a] == ' ' || s[a] == '\t'))
        ++a;
    s.erase(0, a);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
        s = s.substr(1, s.size() - 2);
    return s;
}

/// Fields of one CSV line split at \a sep.
std::vector<std::string> fieldsOf(const std::string& line, char sep) {
    std::vector<std::string> f(1);
    for (char ch : line) {
        if (ch == sep)
            f.emplace_back();
        else
            f.back() += ch;
    }
    for (std::string& s : f)
        s = stripped(s);
    return f;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v)
        s += (s.empty() ? "" : ", ") + x;
    return s;
}

} // namespace

SignatureInput parseSignatures(const std::string& text, const std::string& name) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(name, std::string("not JSON: ") + e.what(), lineAt(text, e.byte), 0,
                         int64_t(e.byte));
    } catch (const nlohmann::json::exception& e) {
        throw InputError(name, std::string("not readable JSON: ") + e.what());
    }
    if (!j.is_object() || j.empty())
        throw InputError(name, "expected an object mapping class names to lists of option logits", 1);
    SignatureInput s;
    std::vector<std::vector<double>> rows;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const int64_t line = lineAt(text, text.find("\"" + it.key() + "\""));
        const nlohmann::json& v = it.value();
        if (!v.is_array() || v.empty())
            throw InputError(name, "class '" + it.key() + "': expected a list of Q lists", line);
        std::vector<double> row;
        const int Q = int(v.size());
        int O = -1;
        for (const nlohmann::json& q : v) {
            if (!q.is_array() || q.size() < 2)
                throw InputError(name, "class '" + it.key() + "': each question needs a list of >= 2 options",
                                 line);
            if (O >= 0 && int(q.size()) != O)
                throw InputError(name, "class '" + it.key() + "': questions have unequal option counts",
                                 line);
            O = int(q.size());
            for (const nlohmann::json& x : q) {
                if (!x.is_number() || !std::isfinite(x.get<double>()))
                    throw InputError(
                        name, "class '" + it.key() + "': non-finite or non-numeric logit " + x.dump(), line);
                row.push_back(x.get<double>());
            }
        }
        if (!rows.empty() && (Q != s.questions || O != s.options))
            throw InputError(name,
                             "class '" + it.key() + "' has " + std::to_string(Q) + " x " + std::to_string(O) +
                                 " logits, '" + s.classes.front() + "' has " + std::to_string(s.questions) +
                                 " x " + std::to_string(s.options) + " (unequal signature lengths)",
                             line);
        s.questions = Q;
        s.options = O;
        s.classes.push_back(it.key());
        s.lines.push_back(line);
        rows.push_back(std::move(row));
    }
    s.values.resize(Eigen::Index(rows.size()), s.questions * s.options);
    for (size_t c = 0; c < rows.size(); ++c)
        for (size_t k = 0; k < rows[c].size(); ++k)
            s.values(Eigen::Index(c), Eigen::Index(k)) = rows[c][k];
    s.path = name;
    s.kind = "signatures";
    s.summary = std::to_string(s.classes.size()) + " class signatures, " + std::to_string(s.questions) +
                " questions x " + std::to_string(s.options) + " options";
    return s;
}

QuestionsInput parseQuestions(const std::string& text, const std::string& name) {
    QuestionsInput q;
    bool inBlock = false;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = stripped(text.substr(start, end - start));
        if (line.empty())
            inBlock = false;
        else if (!inBlock) {
            q.labels.push_back(line);
            inBlock = true;
        }
        start = end + 1;
    }
    if (q.labels.empty())
        throw InputError(name, "no question blocks (blocks are separated by blank lines)", 1);
    q.path = name;
    q.kind = "questions";
    q.summary = std::to_string(q.labels.size()) + " questions";
    return q;
}

FeatureInput parseFeatureCsv(const std::string& text, const std::string& name) {
    FeatureInput f;
    std::vector<std::vector<double>> rows;
    int labelCol = -1, splitCol = -1, groupCol = -1, bgCol = -1;
    std::vector<int> featCols;
    std::vector<std::string> header;
    char sep = ',';
    int64_t lineNo = 0;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        ++lineNo;
        const std::string t = stripped(line);
        if (t.empty() || t[0] == '#')
            continue;
        if (header.empty()) {
            sep = t.find(',') != std::string::npos ? ',' : t.find(';') != std::string::npos ? ';' : '\t';
            header = fieldsOf(t, sep);
            for (int c = 0; c < int(header.size()); ++c) {
                const std::string& h = header[size_t(c)];
                if (h == "label")
                    labelCol = c;
                else if (h == "split")
                    splitCol = c;
                else if (h == "group")
                    groupCol = c;
                else if (h == "background")
                    bgCol = c;
                else {
                    featCols.push_back(c);
                    f.featureNames.push_back(h);
                }
            }
            if (labelCol < 0 || splitCol < 0 || featCols.empty())
                throw InputError(
                    name, "the header needs a `label` column, a `split` column and feature columns", lineNo);
            continue;
        }
        const std::vector<std::string> fs = fieldsOf(t, sep);
        if (fs.size() != header.size())
            throw InputError(
                name, std::to_string(fs.size()) + " fields, the header has " + std::to_string(header.size()),
                lineNo);
        std::vector<double> row;
        for (int c : featCols) {
            const std::string& s = fs[size_t(c)];
            char* stop = nullptr;
            const double v = std::strtod(s.c_str(), &stop);
            if (s.empty() || stop != s.c_str() + s.size())
                throw InputError(name, "feature '" + header[size_t(c)] + "' is not a number: '" + s + "'",
                                 lineNo, c + 1);
            if (!std::isfinite(v))
                throw InputError(name, "feature '" + header[size_t(c)] + "' is not finite: '" + s + "'",
                                 lineNo, c + 1);
            row.push_back(v);
        }
        const std::string& sp = fs[size_t(splitCol)];
        if (sp != "train" && sp != "test")
            throw InputError(name, "split must be train or test, not '" + sp + "'", lineNo, splitCol + 1);
        if (fs[size_t(labelCol)].empty())
            throw InputError(name, "empty label", lineNo, labelCol + 1);
        f.label.push_back(fs[size_t(labelCol)]);
        f.isTest.push_back(sp == "test");
        if (groupCol >= 0)
            f.group.push_back(fs[size_t(groupCol)]);
        if (bgCol >= 0)
            f.background.push_back(fs[size_t(bgCol)]);
        f.lines.push_back(lineNo);
        rows.push_back(std::move(row));
    }
    if (rows.size() < 2)
        throw InputError(name, "needs a header and at least two rows", lineNo);
    f.X.resize(Eigen::Index(rows.size()), Eigen::Index(featCols.size()));
    for (size_t r = 0; r < rows.size(); ++r)
        for (size_t c = 0; c < featCols.size(); ++c)
            f.X(Eigen::Index(r), Eigen::Index(c)) = rows[r][c];
    f.path = name;
    f.kind = "features";
    f.summary = std::to_string(rows.size()) + " rows x " + std::to_string(featCols.size()) + " features";
    return f;
}

std::shared_ptr<const LoadedInput> loadLavidInput(const std::string& path) {
    const std::string lower = [&] {
        std::string s = path;
        std::transform(s.begin(), s.end(), s.begin(),
                       [](unsigned char ch) { return char(std::tolower(ch)); });
        return s;
    }();
    auto ends = [&](const char* e) {
        const std::string x(e);
        return lower.size() >= x.size() && lower.compare(lower.size() - x.size(), x.size(), x) == 0;
    };
    if (ends(".json"))
        return std::make_shared<SignatureInput>(parseSignatures(readFileChecked(path, kMaxBytes), path));
    if (ends(".txt"))
        return std::make_shared<QuestionsInput>(parseQuestions(readFileChecked(path, kMaxBytes), path));
    if (ends(".csv"))
        return std::make_shared<FeatureInput>(parseFeatureCsv(readFileChecked(path, kMaxBytes), path));
    throw InputError(path, "expected signatures (.json), questions (.txt) or features (.csv)");
}

namespace {

/// Index of each value among the sorted distinct values; empty for an empty column.
std::vector<int> codes(const std::vector<std::string>& v) {
    const std::set<std::string> distinct(v.begin(), v.end());
    const std::vector<std::string> sorted(distinct.begin(), distinct.end());
    std::vector<int> out;
    for (const std::string& s : v)
        out.push_back(int(std::lower_bound(sorted.begin(), sorted.end(), s) - sorted.begin()));
    return out;
}

} // namespace

LavidFileData gatherLavidInputs(const InputList& inputs) {
    const SignatureInput* sig = nullptr;
    const QuestionsInput* qs = nullptr;
    const FeatureInput* feat = nullptr;
    for (const auto& in : inputs) {
        auto one = [&](auto*& slot, const LoadedInput* p) {
            if (slot)
                throw InputError(p->path, "a second " + p->kind + " file (one of each kind)");
            slot = static_cast<std::remove_reference_t<decltype(*slot)>*>(p);
        };
        if (auto* s = dynamic_cast<const SignatureInput*>(in.get()))
            one(sig, s);
        else if (auto* q = dynamic_cast<const QuestionsInput*>(in.get()))
            one(qs, q);
        else if (auto* f = dynamic_cast<const FeatureInput*>(in.get()))
            one(feat, f);
    }
    if (!sig || !feat)
        throw InputError(sig    ? sig->path
                         : feat ? feat->path
                                : qs->path,
                         "needs both a signature file (.json) and a feature file (.csv)");
    LavidFileData d;
    d.featurePath = feat->path;
    const std::set<std::string> names(feat->label.begin(), feat->label.end());
    d.classes.assign(names.begin(), names.end());
    std::vector<std::string> missing;
    std::vector<int> sigRow;
    for (const std::string& c : d.classes) {
        const auto it = std::lower_bound(sig->classes.begin(), sig->classes.end(), c);
        if (it == sig->classes.end() || *it != c)
            missing.push_back(c);
        else
            sigRow.push_back(int(it - sig->classes.begin()));
    }
    if (!missing.empty())
        throw InputError(feat->path,
                         "classes missing from the signatures " + sig->path + ": " + joined(missing));
    d.questions = sig->questions;
    d.options = sig->options;
    d.signatures.resize(Eigen::Index(d.classes.size()), sig->values.cols());
    for (size_t c = 0; c < sigRow.size(); ++c)
        d.signatures.row(Eigen::Index(c)) = sig->values.row(sigRow[c]);
    if (qs && int(qs->labels.size()) != sig->questions)
        throw InputError(qs->path, std::to_string(qs->labels.size()) +
                                       " question blocks, the signatures have " +
                                       std::to_string(sig->questions) + " questions");
    for (int q = 0; q < d.questions; ++q)
        d.questionLabels.push_back(qs ? qs->labels[size_t(q)] : "Q" + std::to_string(q + 1));
    const std::vector<int> g = codes(feat->group), b = codes(feat->background);
    std::vector<int> tr, te;
    for (int r = 0; r < int(feat->X.rows()); ++r)
        (feat->isTest[size_t(r)] ? te : tr).push_back(r);
    if (tr.empty() || te.empty())
        throw InputError(feat->path, "needs rows with split = train and rows with split = test");
    auto fill = [&](const std::vector<int>& idx, DistillData& out) {
        out.X.resize(Eigen::Index(idx.size()), feat->X.cols());
        for (size_t i = 0; i < idx.size(); ++i) {
            const int r = idx[i];
            out.X.row(Eigen::Index(i)) = feat->X.row(r);
            out.y.push_back(int(std::lower_bound(d.classes.begin(), d.classes.end(), feat->label[size_t(r)]) -
                                d.classes.begin()));
            out.group.push_back(g.empty() ? -1 : g[size_t(r)]);
            out.background.push_back(b.empty() ? -1 : b[size_t(r)]);
        }
    };
    fill(tr, d.train);
    fill(te, d.test);
    d.testFileRow = te;
    return d;
}

} // namespace pl::distill
