#include "Prompts.h"

#include "core/Errors.h"

#include <fstream>
#include <sstream>

namespace pl::tinylm {

PromptSet parsePrompts(const std::string& text, const std::string& name) {
    PromptSet p;
    p.path = name;
    size_t pos = 0;
    int line = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        ++line;
        std::string l = text.substr(pos, end - pos);
        pos = end + 1;
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
        std::vector<int> seq, cols;
        size_t i = 0;
        while (i < l.size()) {
            if (l[i] == ' ' || l[i] == '\t') {
                ++i;
                continue;
            }
            const size_t start = i;
            long long v = 0;
            while (i < l.size() && l[i] != ' ' && l[i] != '\t') {
                if (l[i] < '0' || l[i] > '9')
                    throw InputError(name,
                                     "token ids must be non-negative integers, found '" +
                                         l.substr(start, std::min<size_t>(16, l.size() - start)) + "'",
                                     line, int64_t(start + 1));
                v = v * 10 + (l[i] - '0');
                if (v > 1'000'000'000)
                    throw InputError(name, "token id too large", line, int64_t(start + 1));
                ++i;
            }
            seq.push_back(int(v));
            cols.push_back(int(start + 1));
            if (seq.size() > 100'000)
                throw InputError(name, "more than 100 000 ids on one line", line, int64_t(start + 1));
        }
        if (seq.empty()) {
            if (pos >= text.size())
                break; // a trailing blank line
            throw InputError(name, "empty line (one prompt per line)", line, 1);
        }
        p.seqs.push_back(std::move(seq));
        p.columns.push_back(std::move(cols));
        p.lines.push_back(line);
        if (p.seqs.size() > 10'000)
            throw InputError(name, "more than 10 000 prompts", line, 1);
    }
    if (p.seqs.empty())
        throw InputError(name, "no prompts in the file", 1, 1);
    return p;
}

PromptSet readPrompts(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open file");
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string s = ss.str();
    if (s.size() > (size_t(64) << 20))
        throw InputError(path, "file too large");
    return parsePrompts(s, path);
}

void checkPromptIds(const PromptSet& p, int vocab) {
    for (size_t s = 0; s < p.seqs.size(); ++s)
        for (size_t i = 0; i < p.seqs[s].size(); ++i)
            if (p.seqs[s][i] >= vocab)
                throw InputError(p.path,
                                 "token id " + std::to_string(p.seqs[s][i]) + " >= vocabulary size " +
                                     std::to_string(vocab),
                                 p.lines[s], p.columns[s][i]);
}

void checkPromptLengths(const PromptSet& p, int genLen, int maxPositions) {
    for (size_t s = 0; s < p.seqs.size(); ++s)
        if (int(p.seqs[s].size()) + genLen > maxPositions)
            throw InputError(p.path,
                             "prompt of " + std::to_string(p.seqs[s].size()) + " tokens + " +
                                 std::to_string(genLen) + " generated exceeds the model's " +
                                 std::to_string(maxPositions) + " positions",
                             p.lines[s], 1);
}

} // namespace pl::tinylm
