#include "gridworld/ClipReader.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "gridworld/PngReader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

namespace pl::gridworld {

namespace fs = std::filesystem;

namespace {

constexpr int64_t kMaxFrames = 200'000;
constexpr int kMaxListed = 12;

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r\"");
    if (a == std::string::npos)
        return {};
    const size_t b = s.find_last_not_of(" \t\r\"");
    return s.substr(a, b - a + 1);
}

/// The integer after \a prefix in \a stem ("frame_12" -> 12), or −1.
long numberAfter(const std::string& stem, const std::string& prefix) {
    if (stem.size() <= prefix.size() || stem.compare(0, prefix.size(), prefix) != 0)
        return -1;
    const std::string digits = stem.substr(prefix.size());
    if (digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return -1;
    return std::stol(digits);
}

std::string joinList(const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size() && int(i) < kMaxListed; ++i)
        out += (i ? ", " : "") + items[i];
    if (int(items.size()) > kMaxListed)
        out += " and " + std::to_string(items.size() - kMaxListed) + " more";
    return out;
}

/// Reads frame_<y>.png files of one folder into a T x pixels clip.
Eigen::MatrixXd readFrames(const fs::path& dir, ClipFile& out) {
    std::vector<std::pair<long, fs::path>> frames;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (!e.is_regular_file())
            continue;
        std::string ext = e.path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        const long y = numberAfter(e.path().stem().string(), "frame_");
        if (ext == ".png" && y >= 0)
            frames.emplace_back(y, e.path());
    }
    if (frames.empty())
        throw InputError(dir.string(), "no frame_<number>.png files in the folder");
    std::sort(frames.begin(), frames.end());
    std::vector<std::string> gaps;
    for (size_t k = 0; k < frames.size(); ++k) {
        const long want = k == 0 ? frames[0].first : frames[k - 1].first + 1;
        if (k == 0 ? frames[0].first != 0 : frames[k].first != want)
            gaps.push_back(std::to_string(want) +
                           (frames[k].first - 1 > want ? "–" + std::to_string(frames[k].first - 1) : ""));
    }
    if (!gaps.empty())
        out.warnings.push_back(dir.string() + ": frame numbering has gaps (missing " + joinList(gaps) +
                               "); frames are used in order");
    Eigen::MatrixXd clip;
    bool colour = false;
    for (size_t k = 0; k < frames.size(); ++k) {
        const PngImage img = readPng(frames[k].second.string());
        colour = colour || img.colour;
        if (out.height == 0) {
            out.height = int(img.gray.rows());
            out.width = int(img.gray.cols());
        }
        if (img.gray.rows() != out.height || img.gray.cols() != out.width)
            throw InputError(frames[k].second.string(), "frame size " + std::to_string(img.gray.rows()) +
                                                            " x " + std::to_string(img.gray.cols()) +
                                                            " differs from " + std::to_string(out.height) +
                                                            " x " + std::to_string(out.width) +
                                                            " of the first frame");
        if (k == 0)
            clip.resize(Eigen::Index(frames.size()), out.height * out.width);
        for (int r = 0; r < out.height; ++r)
            for (int c = 0; c < out.width; ++c)
                clip(Eigen::Index(k), r * out.width + c) = img.gray(r, c);
    }
    if (colour)
        out.warnings.push_back(dir.string() + ": colour frames converted to gray (ITU-R 601 luma)");
    return clip;
}

} // namespace

ClipFile parseClipNpy(const std::string& bytes, const std::string& name) {
    const NpyArray a = NpyReader::parse(bytes, name);
    if (a.shape.size() != 3 && a.shape.size() != 4)
        throw InputError(name, "clips must be N x T x H x W (or T x H x W for one clip); this array has " +
                                   std::to_string(a.shape.size()) + " dimensions");
    const bool one = a.shape.size() == 3;
    const int64_t n = one ? 1 : a.shape[0], t = a.shape[one ? 0 : 1], h = a.shape[one ? 1 : 2],
                  w = a.shape[one ? 2 : 3];
    if (n < 1 || t < 1 || h < 2 || w < 2 || h > 256 || w > 256)
        throw InputError(name, "clip shape out of range (need N, T ≥ 1 and 2 ≤ H, W ≤ 256)");
    if (n * t > kMaxFrames)
        throw InputError(name, "more than 200,000 frames");
    ClipFile out;
    out.path = name;
    out.height = int(h);
    out.width = int(w);
    out.numbered = true;
    const int64_t p = h * w;
    for (int64_t i = 0; i < n; ++i) {
        Eigen::MatrixXd clip(t, p);
        for (int64_t f = 0; f < t; ++f)
            for (int64_t k = 0; k < p; ++k) {
                const double v = a.data[size_t((i * t + f) * p + k)];
                if (!std::isfinite(v))
                    throw InputError(name, "non-finite pixel (NaN or infinity) in clip " + std::to_string(i) +
                                               ", frame " + std::to_string(f) + ", pixel " +
                                               std::to_string(k));
                clip(f, k) = v;
            }
        out.clips.push_back(std::move(clip));
        out.names.push_back("clip_" + std::to_string(i));
    }
    return out;
}

ClipFile readClipNpy(const std::string& path) {
    return parseClipNpy(readFileChecked(path, 2ll << 30), path);
}

ClipFile readClipFolder(const std::string& path) {
    ClipFile out;
    out.path = path;
    std::error_code ec;
    std::vector<std::pair<long, fs::path>> sub;
    for (const auto& e : fs::directory_iterator(path, ec))
        if (e.is_directory()) {
            const long x = numberAfter(e.path().filename().string(), "clip_");
            if (x >= 0)
                sub.emplace_back(x, e.path());
        }
    if (ec)
        throw InputError(path, "cannot list the folder: " + ec.message());
    std::sort(sub.begin(), sub.end());
    if (sub.empty()) {
        out.clips.push_back(readFrames(path, out));
        out.names.push_back(fs::path(path).filename().string());
        return out;
    }
    if (int64_t(sub.size()) > kMaxFrames)
        throw InputError(path, "too many clip folders");
    for (const auto& [x, dir] : sub) {
        out.clips.push_back(readFrames(dir, out));
        out.names.push_back(dir.filename().string());
    }
    return out;
}

int parseAction(const std::string& text) {
    static const std::map<std::string, int> kNames{{"right", 0}, {"left", 1}, {"up", 2}, {"down", 3},
                                                   {"stay", 4},  {"0", 0},    {"1", 1},  {"2", 2},
                                                   {"3", 3},     {"4", 4}};
    std::string s = text;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    const auto it = kNames.find(s);
    return it == kNames.end() ? -1 : it->second;
}

LabelFile parseLabelFile(const std::string& text, const std::string& name) {
    LabelFile out;
    out.path = name;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0, columns = 0;
    bool first = true;
    while (std::getline(in, line)) {
        ++lineNo;
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#')
            continue;
        std::vector<std::string> f;
        std::stringstream ss(t);
        std::string cell;
        while (std::getline(ss, cell, ','))
            f.push_back(trim(cell));
        if (!t.empty() && t.back() == ',')
            f.emplace_back();
        if (columns == 0) {
            columns = int(f.size());
            if (columns != 2 && columns != 3)
                throw InputError(
                    name,
                    "expected clip,context (contexts.csv) or clip,t,action (actions.csv); found " +
                        std::to_string(columns) + " columns",
                    lineNo);
            out.actions = columns == 3;
        }
        if (int(f.size()) != columns)
            throw InputError(name,
                             "ragged row: " + std::to_string(f.size()) + " fields, expected " +
                                 std::to_string(columns),
                             lineNo);
        if (first) {
            first = false;
            if (f[0] == "clip") // header
                continue;
        }
        ClipLabel l;
        l.clip = f[0];
        l.line = lineNo;
        if (l.clip.empty())
            throw InputError(name, "empty clip field", lineNo, 1);
        if (out.actions) {
            char* end = nullptr;
            const long tv = std::strtol(f[1].c_str(), &end, 10);
            if (f[1].empty() || *end != '\0' || tv < 0 || tv > 1'000'000)
                throw InputError(name, "step t '" + f[1] + "' is not a non-negative integer", lineNo, 2);
            l.t = int(tv);
            if (parseAction(f[2]) < 0)
                throw InputError(name, "unknown action '" + f[2] + "' (right, left, up, down, stay or 0..4)",
                                 lineNo, 3);
            l.value = f[2];
        } else {
            if (f[1].empty())
                throw InputError(name, "empty context field", lineNo, 2);
            l.value = f[1];
        }
        out.rows.push_back(l);
        if (out.rows.size() > size_t(kMaxFrames) * 4)
            throw InputError(name, "too many rows", lineNo);
    }
    if (out.rows.empty())
        throw InputError(name, "no rows");
    return out;
}

LabelFile readLabelFile(const std::string& path) {
    return parseLabelFile(readFileChecked(path, 64ll << 20), path);
}

ClipSet assembleClips(const std::vector<const ClipFile*>& files, const std::vector<const LabelFile*>& labels,
                      int window, std::vector<std::string>& notes) {
    ClipSet s;
    std::vector<const Eigen::MatrixXd*> clips;
    for (const ClipFile* f : files) {
        if (s.height == 0) {
            s.height = f->height;
            s.width = f->width;
        }
        if (f->height != s.height || f->width != s.width)
            throw InputError(f->path, "frame size " + std::to_string(f->height) + " x " +
                                          std::to_string(f->width) + " differs from " +
                                          std::to_string(s.height) + " x " + std::to_string(s.width) +
                                          " of " + files.front()->path);
        for (size_t i = 0; i < f->clips.size(); ++i) {
            clips.push_back(&f->clips[i]);
            s.names.push_back(f->numbered ? "clip_" + std::to_string(s.names.size()) : f->names[i]);
        }
        for (const auto& w : f->warnings)
            notes.push_back("warning: " + w);
    }
    std::vector<std::string> shortClips;
    int64_t total = 0;
    for (size_t i = 0; i < clips.size(); ++i) {
        if (clips[i]->rows() < window + 1)
            shortClips.push_back(s.names[i] + " (" + std::to_string(clips[i]->rows()) + " frames)");
        total += clips[i]->rows();
    }
    if (!shortClips.empty())
        throw InputError(files.front()->path,
                         std::to_string(shortClips.size()) + " clip(s) shorter than window + 1 = " +
                             std::to_string(window + 1) + " frames: " + joinList(shortClips));
    if (total > kMaxFrames)
        throw InputError(files.front()->path, "more than 200,000 frames in all");
    s.frames.resize(total, s.height * s.width);
    s.start.push_back(0);
    for (const auto* c : clips) {
        s.frames.middleRows(s.start.back(), c->rows()) = *c;
        s.start.push_back(s.start.back() + int(c->rows()));
    }
    // clip keys: names, and 0-based indices
    std::map<std::string, int> index;
    for (int i = 0; i < s.clips(); ++i) {
        index[s.names[size_t(i)]] = i;
        index[std::to_string(i)] = i;
    }
    auto clipOf = [&](const LabelFile& f, const ClipLabel& l) {
        const auto it = index.find(l.clip);
        if (it == index.end())
            throw InputError(f.path,
                             "unknown clip '" + l.clip + "' (" + std::to_string(s.clips()) +
                                 " clips: names such as " + s.names.front() + ", or 0-based indices)",
                             l.line, 1);
        return it->second;
    };
    s.context.assign(size_t(s.clips()), -1);
    bool anyContexts = false, anyActions = false;
    std::string contextsPath;
    for (const LabelFile* f : labels) {
        if (f->actions) {
            if (!anyActions)
                s.actions.assign(size_t(s.transitions()), kUnknownAction);
            anyActions = true;
            for (const ClipLabel& l : f->rows) {
                const int c = clipOf(*f, l);
                if (l.t >= s.length(c) - 1)
                    throw InputError(f->path,
                                     "step " + std::to_string(l.t) + " is past the last transition of " +
                                         s.names[size_t(c)] + " (t < " + std::to_string(s.length(c) - 1) +
                                         ")",
                                     l.line, 2);
                s.actions[size_t(s.transitionRow(c, l.t))] = parseAction(l.value);
            }
            continue;
        }
        anyContexts = true;
        contextsPath = f->path;
        for (const ClipLabel& l : f->rows) {
            const int c = clipOf(*f, l);
            auto it = std::find(s.contextNames.begin(), s.contextNames.end(), l.value);
            if (it == s.contextNames.end()) {
                s.contextNames.push_back(l.value);
                it = s.contextNames.end() - 1;
            }
            s.context[size_t(c)] = int(it - s.contextNames.begin());
        }
    }
    if (!anyContexts) {
        s.contextNames = {"all"};
        std::fill(s.context.begin(), s.context.end(), 0);
        notes.push_back(
            "no contexts.csv: all clips form one context, so cross-context measures are not defined");
    } else {
        std::vector<std::string> missing;
        for (int i = 0; i < s.clips(); ++i)
            if (s.context[size_t(i)] < 0)
                missing.push_back(s.names[size_t(i)]);
        if (!missing.empty())
            throw InputError(contextsPath, "no context for " + std::to_string(missing.size()) +
                                               " clip(s): " + joinList(missing));
    }
    if (!anyActions)
        notes.push_back(
            "no actions.csv: latents are learnt and shown, but probes and alignment scores need actions");
    return s;
}

} // namespace pl::gridworld
