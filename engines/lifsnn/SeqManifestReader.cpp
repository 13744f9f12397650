#include "lifsnn/SeqManifestReader.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "core/PathUtil.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace pl::lifsnn {

namespace {

constexpr int64_t kMaxValues = 50'000'000;
constexpr int kMinSteps = 16; // the CNN baseline's kernel is 9 frames

std::string resolve(const std::string& baseDir, const std::string& p) {
    const std::filesystem::path fp(p);
    return fp.is_absolute() || baseDir.empty() ? p : (std::filesystem::path(baseDir) / fp).string();
}

std::string relPath(const nlohmann::json& v, const std::string& name, const char* key) {
    if (!v.is_string() || v.get<std::string>().empty())
        throw InputError(name, std::string("\"") + key + "\" must be a file name (a non-empty string)");
    return v.get<std::string>();
}

/// (T, C) of a [T, C] / [T] array (per-sequence form) or (N, T, C) of [N, T, C] / [N, T].
void shapeOf(const NpyArray& a, bool perSequence, const std::string& name, int64_t& n, int64_t& t,
             int64_t& c) {
    const size_t dims = a.shape.size();
    if (perSequence) {
        if (dims != 1 && dims != 2)
            throw InputError(name,
                             "a sequence must be [T, C] or [T], got " + std::to_string(dims) + " dimensions");
        n = 1;
        t = a.shape[0];
        c = dims == 2 ? a.shape[1] : 1;
    } else {
        if (dims != 2 && dims != 3)
            throw InputError(name,
                             "x must be [N, T, C] or [N, T], got " + std::to_string(dims) + " dimensions");
        n = a.shape[0];
        t = a.shape[1];
        c = dims == 3 ? a.shape[2] : 1;
    }
    if (t < kMinSteps)
        throw InputError(name, "sequences need at least " + std::to_string(kMinSteps) + " frames, got " +
                                   std::to_string(t));
    if (c < 1 || n < 1)
        throw InputError(name, "empty array (no sequences or no channels)");
}

} // namespace

SeqManifest parseSeqManifest(const std::string& text, const std::string& name, const std::string& baseDir) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(name, std::string("not valid JSON: ") + e.what(), 0, 0, int64_t(e.byte));
    } catch (const nlohmann::json::exception& e) { // e.g. a number too large for a double
        throw InputError(name, std::string("not valid JSON: ") + e.what());
    }
    if (!j.is_object())
        throw InputError(name, "the manifest must be a JSON object {\"x\": ..., \"y\": ..., \"fs\": ...}");
    for (const char* key : {"x", "y", "fs"})
        if (!j.contains(key))
            throw InputError(name, std::string("missing \"") + key + "\"");
    SeqManifest m;
    const nlohmann::json& x = j["x"];
    if (x.is_array()) {
        if (x.empty())
            throw InputError(name, "\"x\" lists no sequence files");
        if (x.size() > 1'000'000)
            throw InputError(name, "\"x\" lists more than 1000000 files");
        m.perSequence = true;
        for (const auto& e : x)
            m.xFiles.push_back(resolve(baseDir, relPath(e, name, "x")));
    } else {
        m.xFiles.push_back(resolve(baseDir, relPath(x, name, "x")));
    }
    m.yFile = resolve(baseDir, relPath(j["y"], name, "y"));
    if (!j["fs"].is_number() || !std::isfinite(j["fs"].get<double>()) || !(j["fs"].get<double>() > 0))
        throw InputError(name, "\"fs\" must be a positive number (sampling rate in Hz)");
    m.fs = j["fs"].get<double>();
    return m;
}

SeqData assembleSequences(const std::vector<NpyArray>& xs, bool perSequence, const NpyArray& y, double fs,
                          const std::vector<std::string>& xNames, const std::string& yName) {
    SeqData d;
    d.fs = fs;
    int64_t n = 0, t = 0, c = 0;
    shapeOf(xs.at(0), perSequence, xNames.at(0), n, t, c);
    if (perSequence) {
        n = int64_t(xs.size());
        for (size_t i = 1; i < xs.size(); ++i) {
            int64_t ni = 0, ti = 0, ci = 0;
            shapeOf(xs[i], true, xNames[i], ni, ti, ci);
            if (ti != t || ci != c)
                throw InputError(xNames[i], "ragged sequences: " + std::to_string(ti) + " frames x " +
                                                std::to_string(ci) + " channels, but " + baseName(xNames[0]) +
                                                " has " + std::to_string(t) + " x " + std::to_string(c));
        }
    }
    if (n * t * c > kMaxValues)
        throw InputError(xNames[0], "more than 50 million values");
    const size_t dimsY = y.shape.size();
    if (!(dimsY == 1 || (dimsY == 2 && y.shape[1] == 1)) || y.rows() != n)
        throw InputError(yName, "y must hold one label per sequence ([" + std::to_string(n) + "]), got " +
                                    std::to_string(y.size()) + " values");
    d.n = int(n);
    d.steps = int(t);
    d.channels = int(c);
    d.x.reserve(size_t(n * t * c));
    for (size_t k = 0; k < xs.size(); ++k)
        for (size_t i = 0; i < xs[k].data.size(); ++i) {
            const double v = xs[k].data[i];
            if (std::isinf(v)) {
                const int64_t flat = int64_t(d.x.size());
                throw InputError(xNames[k], "infinite value at sequence " + std::to_string(flat / (t * c)) +
                                                ", frame " + std::to_string((flat / c) % t) + ", channel " +
                                                std::to_string(flat % c));
            }
            d.x.push_back(v);
        }
    std::map<double, int> classes;
    for (int64_t i = 0; i < n; ++i) {
        const double v = y.data[size_t(i)];
        if (!std::isfinite(v) || v != std::floor(v))
            throw InputError(yName, "label " + std::to_string(i) + " is not an integer");
        classes.emplace(v, 0);
    }
    if (classes.size() < 2)
        throw InputError(yName, "a single class: classification needs at least two distinct labels");
    int next = 0;
    for (auto& [value, index] : classes) {
        index = next++;
        d.labelValues.push_back(value);
    }
    d.classes = next;
    for (int64_t i = 0; i < n; ++i)
        d.y.push_back(classes.at(y.data[size_t(i)]));
    for (int i = 0; i < d.n; ++i)
        d.droppedFrames += holdDroppedFrames(d, i);
    return d;
}

SeqData readSeqManifest(const std::string& path, std::vector<std::string>* arrays) {
    const std::string text = readFileChecked(path, 1ll << 24);
    const std::string base = std::filesystem::path(path).parent_path().string();
    const SeqManifest m = parseSeqManifest(text, path, base);
    if (arrays) {
        *arrays = m.xFiles;
        arrays->push_back(m.yFile);
    }
    try {
        std::vector<NpyArray> xs;
        for (const auto& f : m.xFiles)
            xs.push_back(NpyReader::readFile(f));
        const NpyArray y = NpyReader::readFile(m.yFile);
        return assembleSequences(xs, m.perSequence, y, m.fs, m.xFiles, m.yFile);
    } catch (const InputError& e) {
        // The array's own error, with the manifest that listed it.
        throw InputError(e.file(), e.reason() + " (listed in " + baseName(path) + ")", e.line(), e.column(),
                         e.byteOffset());
    }
}

} // namespace pl::lifsnn
