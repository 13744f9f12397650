#include "ResponseSet.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "core/NpyReader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

namespace pl::embedgeo {

namespace {

/// The label of one line, or false with the value's text for an unknown one.
bool parseLabel(const nlohmann::json& v, int& out, std::string& bad) {
    if (v.is_null()) {
        out = -1;
        return true;
    }
    if (v.is_number_integer() || v.is_number_unsigned()) {
        const auto i = v.get<int64_t>();
        if (i == 0 || i == 1) {
            out = int(i);
            return true;
        }
    } else if (v.is_string()) {
        std::string s = v.get<std::string>();
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (s == "hallucinated" || s == "genuine") {
            out = s == "hallucinated" ? 1 : 0;
            return true;
        }
    }
    bad = v.dump();
    if (bad.size() > 40)
        bad.replace(40, std::string::npos, "...");
    return false;
}

} // namespace

ResponseSet parseResponseJsonl(const std::string& text, const std::string& name) {
    ResponseSet set;
    std::map<std::string, int> promptIndex;
    std::vector<std::string> unknown;
    int64_t lineNo = 0, firstUnknownLine = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) {
            if (end == text.size())
                break;
            continue;
        }
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded())
            throw InputError(name, "not valid JSON", lineNo);
        if (!j.is_object())
            throw InputError(name, "a line must hold one JSON object", lineNo);
        const auto pid = j.find("prompt_id");
        if (pid == j.end() || !(pid->is_string() || pid->is_number_integer() || pid->is_number_unsigned()))
            throw InputError(name, "missing \"prompt_id\" (a string or an integer)", lineNo);
        const auto resp = j.find("response");
        if (resp == j.end() || !resp->is_string())
            throw InputError(name, "missing \"response\" (a string)", lineNo);
        int label = -1;
        const auto lab = j.find("label");
        if (lab != j.end()) {
            std::string bad;
            if (!parseLabel(*lab, label, bad)) {
                if (std::find(unknown.begin(), unknown.end(), bad) == unknown.end())
                    unknown.push_back(bad);
                if (!firstUnknownLine)
                    firstUnknownLine = lineNo;
            }
        }
        const std::string key = pid->is_string() ? pid->get<std::string>() : pid->dump();
        auto it = promptIndex.find(key);
        if (it == promptIndex.end()) {
            it = promptIndex.emplace(key, int(set.promptNames.size())).first;
            set.promptNames.push_back(key);
        }
        set.prompt.push_back(it->second);
        set.text.push_back(resp->get<std::string>());
        set.label.push_back(label);
        set.line.push_back(lineNo);
        if (set.text.size() > 2'000'000)
            throw InputError(name, "more than 2,000,000 responses", lineNo);
        if (end == text.size())
            break;
    }
    if (!unknown.empty()) {
        std::string list;
        for (const auto& u : unknown)
            list += (list.empty() ? "" : ", ") + u;
        throw InputError(name,
                         "unknown label values (use 1/\"hallucinated\", 0/\"genuine\" or null): " + list,
                         firstUnknownLine);
    }
    if (set.text.empty())
        throw InputError(name, "no responses");
    return set;
}

std::shared_ptr<const LoadedInput> loadAporiaFile(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".npy" || ext == ".csv") {
        auto in = std::make_shared<EmbeddingInput>();
        in->path = path;
        in->kind = ext.substr(1);
        if (ext == ".npy") {
            const NpyArray a = NpyReader::readFile(path);
            if (a.shape.size() != 2)
                throw InputError(path, "embeddings must be a 2-d array (responses x d)");
            in->emb.resize(a.rows(), a.cols());
            for (Eigen::Index i = 0; i < a.rows(); ++i)
                for (Eigen::Index j = 0; j < a.cols(); ++j) {
                    const double v = a.data[size_t(i * a.cols() + j)];
                    if (!std::isfinite(v))
                        throw InputError(path, "NaN or infinite value in row " + std::to_string(i));
                    in->emb(i, j) = v;
                }
        } else {
            in->emb = CsvReader::readFile(path).values;
        }
        in->summary =
            std::to_string(in->emb.rows()) + " embeddings of dimension " + std::to_string(in->emb.cols());
        return in;
    }
    auto in = std::make_shared<ResponseJsonlInput>();
    in->path = path;
    in->kind = "jsonl";
    in->set = parseResponseJsonl(readFileChecked(path, 1ll << 30), path);
    int labelled = 0;
    for (int l : in->set.label)
        labelled += l >= 0;
    in->summary = std::to_string(in->set.text.size()) + " responses to " + std::to_string(in->set.prompts()) +
                  " prompts, " + std::to_string(labelled) + " labelled";
    return in;
}

} // namespace pl::embedgeo
