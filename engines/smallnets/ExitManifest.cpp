#include "ExitManifest.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "core/NpyReader.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>

namespace pl::smallnets {

namespace {

std::string resolve(const std::string& dir, const std::string& p) {
    const std::filesystem::path path(p);
    return path.is_absolute() || dir.empty() ? p : (std::filesystem::path(dir) / path).string();
}

std::string field(const nlohmann::json& j, const char* key, const std::string& name, bool required) {
    if (!j.contains(key)) {
        if (required)
            throw InputError(name, std::string("missing \"") + key + "\" (a path to an .npy file)");
        return {};
    }
    if (!j.at(key).is_string() || j.at(key).get<std::string>().empty())
        throw InputError(name, std::string("\"") + key + "\" must be a non-empty path string");
    return j.at(key).get<std::string>();
}

} // namespace

ExitManifest parseExitManifest(const std::string& text, const std::string& name, const std::string& dir) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(name, std::string("not JSON: ") + e.what(), 0, 0, int64_t(e.byte));
    } catch (const nlohmann::json::exception& e) { // e.g. a number too large for a double
        throw InputError(name, std::string("not readable JSON: ") + e.what());
    }
    if (!j.is_object())
        throw InputError(name, "the manifest must be a JSON object");
    ExitManifest m;
    m.logits = resolve(dir, field(j, "logits", name, true));
    m.labels = resolve(dir, field(j, "labels", name, true));
    const std::string cal = field(j, "calibration", name, false);
    m.calibration = cal.empty() ? cal : resolve(dir, cal);
    if (!j.contains("flops") || !j.at("flops").is_array() || j.at("flops").size() < 2)
        throw InputError(name,
                         "\"flops\" must be an array of the cumulative FLOPs of each exit (at least 2)");
    for (const auto& v : j.at("flops")) {
        if (!v.is_number())
            throw InputError(name, "\"flops\" entries must be numbers");
        const double f = v.get<double>();
        if (!std::isfinite(f) || f < 0)
            throw InputError(name, "\"flops\" entries must be finite and non-negative");
        if (!m.flops.empty() && !(f > m.flops.back()))
            throw InputError(name, "\"flops\" must be strictly increasing (cumulative FLOPs per exit)");
        m.flops.push_back(f);
    }
    if (!(m.flops.back() > 0))
        throw InputError(name, "the last exit's FLOPs must be positive");
    return m;
}

ExitLogits readExitManifest(const std::string& path, ExitManifest* out) {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    const ExitManifest m = parseExitManifest(readFileChecked(path, 1 << 20), path, dir);
    for (const std::string& f : {m.logits, m.labels, m.calibration})
        if (!f.empty() && !std::filesystem::is_regular_file(f))
            throw InputError(path, "names a file that does not exist: " + f);
    const NpyArray L = NpyReader::readFile(m.logits);
    const NpyArray Y = NpyReader::readFile(m.labels);
    NpyArray M;
    if (!m.calibration.empty())
        M = NpyReader::readFile(m.calibration);
    ExitLogits e = assembleExitLogits(m, L, Y, m.calibration.empty() ? nullptr : &M, path);
    if (out)
        *out = m;
    return e;
}

ExitLogits assembleExitLogits(const ExitManifest& m, const NpyArray& L, const NpyArray& Y, const NpyArray* M,
                              const std::string& path) {
    if (L.shape.size() != 3)
        throw InputError(m.logits, "logits must be a 3-d array [N, K, C]");
    const int64_t N = L.shape[0], K = L.shape[1], C = L.shape[2];
    if (N < 2 || C < 2)
        throw InputError(m.logits, "logits need at least 2 rows and 2 classes");
    if (K != int64_t(m.flops.size()))
        throw InputError(path, "\"flops\" has " + std::to_string(m.flops.size()) +
                                   " entries but the logits have K = " + std::to_string(K) + " exits");
    for (double v : L.data)
        if (!std::isfinite(v))
            throw InputError(m.logits, "logits contain NaN or infinity");
    if (Y.shape.size() != 1 || Y.shape[0] != N)
        throw InputError(m.labels, "labels must be a 1-d array of N = " + std::to_string(N) + " entries");
    ExitLogits e;
    e.flops = m.flops;
    for (int64_t i = 0; i < N; ++i) {
        const double y = Y.data[size_t(i)];
        if (!std::isfinite(y) || y != std::floor(y) || y < 0 || y >= double(C))
            throw InputError(m.labels, "label " + std::to_string(i) + " is not an integer in [0, " +
                                           std::to_string(C) + ")");
        e.labels.push_back(int(y));
    }
    if (M) {
        if (M->shape.size() != 1 || M->shape[0] != N)
            throw InputError(m.calibration,
                             "calibration must be a 1-d array of N = " + std::to_string(N) + " entries");
        int64_t cal = 0;
        for (double v : M->data) {
            if (v != 0 && v != 1)
                throw InputError(m.calibration, "calibration entries must be 0 or 1");
            e.calibration.push_back(char(v == 1));
            cal += v == 1;
        }
        if (cal == 0 || cal == N)
            throw InputError(m.calibration, "calibration must mark some rows, but not all");
    }
    for (int64_t k = 0; k < K; ++k) {
        Eigen::MatrixXd lk(N, C);
        for (int64_t i = 0; i < N; ++i)
            for (int64_t c = 0; c < C; ++c)
                lk(i, c) = L.data[size_t((i * K + k) * C + c)];
        e.logits.push_back(std::move(lk));
    }
    return e;
}

} // namespace pl::smallnets
