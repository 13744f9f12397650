#include "RagInputs.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "prefetchrag/Bm25.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace pl::prefetchrag {

int64_t firstInvalidUtf8(const std::string& s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
        const unsigned c = p[i];
        size_t len = 0;
        unsigned cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if ((c & 0xE0) == 0xC0)
            len = 2, cp = c & 0x1F;
        else if ((c & 0xF0) == 0xE0)
            len = 3, cp = c & 0x0F;
        else if ((c & 0xF8) == 0xF0)
            len = 4, cp = c & 0x07;
        else
            return int64_t(i);
        if (i + len > n)
            return int64_t(i);
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80)
                return int64_t(i);
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        const bool overlong =
            (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return int64_t(i);
        i += len;
    }
    return -1;
}

namespace {

/// Calls \a fn(object, line) for every non-blank line of \a text.
template <class Fn> void forEachJsonLine(const std::string& text, const std::string& name, Fn fn) {
    const int64_t bad = firstInvalidUtf8(text);
    if (bad >= 0)
        throw InputError(name, "not valid UTF-8", 0, 0, bad);
    int64_t lineNo = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos)
            continue;
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded())
            throw InputError(name, "not valid JSON", lineNo);
        if (!j.is_object())
            throw InputError(name, "a line must hold one JSON object", lineNo);
        fn(j, lineNo);
    }
}

std::string field(const nlohmann::json& j, const char* key, bool required, const std::string& name,
                  int64_t line) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        if (required)
            throw InputError(name, std::string("missing \"") + key + "\" (a string)", line);
        return {};
    }
    if (it->is_string())
        return it->get<std::string>();
    if (it->is_number_integer() || it->is_number_unsigned())
        return it->dump();
    throw InputError(name, std::string("\"") + key + "\" must be a string", line);
}

bool blank(const std::string& s) {
    return bm25Tokens(s).empty() && s.find_first_not_of(" \t\r\n") == std::string::npos;
}

} // namespace

std::shared_ptr<CorpusInput> parseCorpusJsonl(const std::string& text, const std::string& name) {
    auto in = std::make_shared<CorpusInput>();
    std::map<std::string, int64_t> seen;
    forEachJsonLine(text, name, [&](const nlohmann::json& j, int64_t line) {
        const std::string id = field(j, "id", true, name, line);
        const std::string text = field(j, "text", true, name, line);
        const std::string domain = field(j, "domain", false, name, line);
        if (!seen.emplace(id, line).second)
            throw InputError(
                name, "duplicate id \"" + id + "\" (first on line " + std::to_string(seen[id]) + ")", line);
        if (blank(text)) {
            ++in->emptySkipped;
            return;
        }
        in->ids.push_back(id);
        in->domains.push_back(domain.empty() ? "default" : domain);
        in->texts.push_back(text);
        if (in->ids.size() > 2'000'000)
            throw InputError(name, "more than 2,000,000 documents", line);
    });
    if (in->ids.empty())
        throw InputError(name, "no non-empty documents");
    in->path = name;
    in->kind = "corpus";
    in->summary = std::to_string(in->ids.size()) + " documents (" + std::to_string(in->emptySkipped) +
                  " empty skipped)";
    return in;
}

std::shared_ptr<QuestionsInput> parseQuestionsJsonl(const std::string& text, const std::string& name) {
    auto in = std::make_shared<QuestionsInput>();
    std::map<std::string, int64_t> seen;
    forEachJsonLine(text, name, [&](const nlohmann::json& j, int64_t line) {
        QuestionSpec q;
        q.id = field(j, "id", true, name, line);
        q.entity = field(j, "entity", true, name, line);
        q.attribute = field(j, "attribute", true, name, line);
        q.value = field(j, "value", true, name, line);
        q.doc = field(j, "doc", false, name, line);
        q.query = field(j, "query", false, name, line);
        q.line = line;
        if (!seen.emplace(q.id, line).second)
            throw InputError(name, "duplicate id \"" + q.id + "\"", line);
        if (bm25Tokens(q.value).empty())
            throw InputError(name, "\"value\" needs a letter or digit", line);
        if (bm25Tokens(q.entity).empty() && bm25Tokens(q.attribute).empty() && bm25Tokens(q.query).empty())
            throw InputError(name, "no query terms (entity, attribute and query hold no letter or digit)",
                             line);
        in->questions.push_back(std::move(q));
        if (in->questions.size() > 100'000)
            throw InputError(name, "more than 100,000 questions", line);
    });
    if (in->questions.empty())
        throw InputError(name, "no questions");
    in->path = name;
    in->kind = "questions";
    in->summary = std::to_string(in->questions.size()) + " questions";
    return in;
}

std::shared_ptr<const LoadedInput> loadRagInput(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(path, ec))
            if (e.is_regular_file() && e.path().extension() == ".txt")
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
        if (files.empty())
            throw InputError(path, "no .txt files in the folder");
        auto in = std::make_shared<CorpusInput>();
        for (const auto& f : files) {
            const std::string text = readFileChecked(f.string(), 64ll << 20);
            const int64_t bad = firstInvalidUtf8(text);
            if (bad >= 0)
                throw InputError(f.string(), "not valid UTF-8", 0, 0, bad);
            if (blank(text)) {
                ++in->emptySkipped;
                continue;
            }
            in->ids.push_back(f.filename().string());
            in->domains.push_back("txt");
            in->texts.push_back(text);
        }
        if (in->ids.empty())
            throw InputError(path, "no non-empty documents");
        in->path = path;
        in->kind = "corpus";
        in->summary = std::to_string(in->ids.size()) + " .txt documents (" +
                      std::to_string(in->emptySkipped) + " empty skipped)";
        return in;
    }
    const std::string text = readFileChecked(path, 1ll << 30);
    // corpus or questions: the first object's keys decide
    const size_t nl = text.find('\n');
    const nlohmann::json first = nlohmann::json::parse(text.substr(0, nl), nullptr, false);
    if (first.is_object() && first.contains("entity"))
        return parseQuestionsJsonl(text, path);
    return parseCorpusJsonl(text, path);
}

RagWorld worldFromInputs(const CorpusInput& corpus, const QuestionsInput& qs) {
    RagWorld w;
    w.synthetic = false;
    w.emptySkipped = corpus.emptySkipped;
    std::map<std::string, int> domainIndex, docIndex, entityIndex;
    for (size_t i = 0; i < corpus.ids.size(); ++i) {
        const auto d = domainIndex.emplace(corpus.domains[i], int(w.domains.size()));
        if (d.second)
            w.domains.push_back(corpus.domains[i]);
        docIndex.emplace(corpus.ids[i], int(i));
        w.docs.push_back({corpus.ids[i], d.first->second, bm25Tokens(corpus.texts[i])});
    }
    std::vector<std::vector<std::string>> tokens;
    for (const RagDoc& d : w.docs)
        tokens.push_back(d.tokens);
    const Bm25Index index(tokens);
    w.values.assign(w.domains.size(), {});
    for (const QuestionSpec& s : qs.questions) {
        RagFact f;
        f.entity = bm25Tokens(s.entity);
        f.attribute = bm25Tokens(s.attribute);
        f.value = s.value;
        f.entityKey = entityIndex.emplace(s.entity, int(entityIndex.size())).first->second;
        RagQuestion q;
        q.id = s.id;
        q.query = s.query.empty() ? f.entity : bm25Tokens(s.query);
        if (s.query.empty())
            q.query.insert(q.query.end(), f.attribute.begin(), f.attribute.end());
        if (!s.doc.empty()) {
            const auto it = docIndex.find(s.doc);
            if (it == docIndex.end())
                throw InputError(qs.path,
                                 "\"doc\" \"" + s.doc + "\" is not a (non-empty) document of " + corpus.path,
                                 s.line);
            q.doc = f.doc = it->second;
        } else
            f.doc = index.topK(q.query, 1).front().doc;
        f.domain = w.docs[size_t(f.doc)].domain;
        auto& vals = w.values[size_t(f.domain)];
        if (std::find(vals.begin(), vals.end(), f.value) == vals.end())
            vals.push_back(f.value);
        q.fact = int(w.facts.size());
        w.facts.push_back(std::move(f));
        w.questions.push_back(std::move(q));
    }
    return w;
}

} // namespace pl::prefetchrag
