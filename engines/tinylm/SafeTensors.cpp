#include "SafeTensors.h"

#include "core/Errors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

namespace pl::tinylm {

int64_t Tensor::size() const {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

namespace {

constexpr int64_t kMaxHeader = int64_t(100) << 20;
constexpr int64_t kMaxElements = int64_t(1) << 31;

uint64_t readLe64(const char* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | uint64_t(static_cast<unsigned char>(p[i]));
    return v;
}

struct Entry {
    std::string name;
    Tensor t;
    uint64_t begin = 0, end = 0;
};

Entry parseEntry(const std::string& key, const nlohmann::json& v, const std::string& name) {
    auto bad = [&](const std::string& why) {
        return InputError(name, "tensor '" + key + "': " + why, 0, 0, 8);
    };
    if (!v.is_object())
        throw bad("header entry is not an object");
    Entry e;
    e.name = key;
    if (!v.contains("dtype") || !v["dtype"].is_string())
        throw bad("missing dtype");
    e.t.dtype = v["dtype"].get<std::string>();
    if (e.t.dtype != "F32" && e.t.dtype != "F64")
        throw bad("unsupported dtype " + e.t.dtype + " (F32 or F64 only)");
    if (!v.contains("shape") || !v["shape"].is_array() || v["shape"].size() > 8)
        throw bad("missing or bad shape");
    int64_t n = 1;
    for (const auto& d : v["shape"]) {
        if (!d.is_number_unsigned() || d.get<uint64_t>() > uint64_t(kMaxElements))
            throw bad("shape entries must be non-negative integers");
        e.t.shape.push_back(int64_t(d.get<uint64_t>()));
        n *= e.t.shape.back();
        if (n > kMaxElements)
            throw bad("too many elements");
    }
    if (!v.contains("data_offsets") || !v["data_offsets"].is_array() || v["data_offsets"].size() != 2 ||
        !v["data_offsets"][0].is_number_unsigned() || !v["data_offsets"][1].is_number_unsigned())
        throw bad("data_offsets must be two non-negative integers");
    e.begin = v["data_offsets"][0].get<uint64_t>();
    e.end = v["data_offsets"][1].get<uint64_t>();
    const uint64_t width = e.t.dtype == "F32" ? 4 : 8;
    if (e.end < e.begin || e.end - e.begin != uint64_t(n) * width)
        throw bad("data_offsets span " + std::to_string(e.end - e.begin) + " bytes, the shape needs " +
                  std::to_string(uint64_t(n) * width));
    return e;
}

void decode(Entry& e, const char* data) {
    const int64_t n = e.t.size();
    e.t.data.resize(size_t(n));
    if (e.t.dtype == "F64") {
        for (int64_t i = 0; i < n; ++i) {
            const uint64_t bits = readLe64(data + e.begin + uint64_t(i) * 8);
            std::memcpy(&e.t.data[size_t(i)], &bits, 8);
        }
        return;
    }
    for (int64_t i = 0; i < n; ++i) {
        const char* p = data + e.begin + uint64_t(i) * 4;
        uint32_t bits = 0;
        for (int b = 3; b >= 0; --b)
            bits = (bits << 8) | uint32_t(static_cast<unsigned char>(p[b]));
        float f;
        std::memcpy(&f, &bits, 4);
        e.t.data[size_t(i)] = double(f);
    }
}

} // namespace

SafeTensorsFile parseSafeTensors(const std::string& bytes, const std::string& name) {
    if (bytes.size() < 8)
        throw InputError(name, "not a safetensors file: shorter than its 8-byte header length", 0, 0, 0);
    const uint64_t hlen = readLe64(bytes.data());
    if (hlen > uint64_t(kMaxHeader) || hlen > bytes.size() - 8)
        throw InputError(name, "header length " + std::to_string(hlen) + " exceeds the file", 0, 0, 0);
    nlohmann::json h;
    try {
        h = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + std::ptrdiff_t(hlen));
    } catch (const std::exception& ex) {
        throw InputError(name, std::string("header is not valid JSON: ") + ex.what(), 0, 0, 8);
    }
    if (!h.is_object())
        throw InputError(name, "header is not a JSON object", 0, 0, 8);
    SafeTensorsFile out;
    std::vector<Entry> entries;
    for (auto it = h.begin(); it != h.end(); ++it) {
        if (it.key() == "__metadata__") {
            if (!it.value().is_object())
                throw InputError(name, "__metadata__ is not an object", 0, 0, 8);
            for (auto m = it.value().begin(); m != it.value().end(); ++m) {
                if (!m.value().is_string())
                    throw InputError(name, "__metadata__ value '" + m.key() + "' is not a string", 0, 0, 8);
                out.metadata[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        entries.push_back(parseEntry(it.key(), it.value(), name));
    }
    const uint64_t dataLen = bytes.size() - 8 - hlen;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
    uint64_t prevEnd = 0;
    for (const Entry& e : entries) {
        if (e.end > dataLen)
            throw InputError(name,
                             "tensor '" + e.name + "' ends at byte " + std::to_string(e.end) + " of a " +
                                 std::to_string(dataLen) + "-byte data buffer",
                             0, 0, int64_t(8 + hlen));
        if (e.begin < prevEnd)
            throw InputError(name, "tensor '" + e.name + "' overlaps another tensor", 0, 0,
                             int64_t(8 + hlen + e.begin));
        prevEnd = std::max(prevEnd, e.end);
    }
    const char* data = bytes.data() + 8 + hlen;
    for (Entry& e : entries) {
        decode(e, data);
        out.tensors[e.name] = std::move(e.t);
    }
    return out;
}

SafeTensorsFile readSafeTensors(const std::string& path, int64_t maxBytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open file");
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0 || size > maxBytes)
        throw InputError(path, "file too large (" + std::to_string(int64_t(size)) + " bytes)");
    in.seekg(0);
    std::string bytes(size_t(size), '\0');
    in.read(bytes.data(), size);
    if (!in)
        throw InputError(path, "cannot read file");
    return parseSafeTensors(bytes, path);
}

std::string writeSafeTensors(const SafeTensorsFile& f, bool f32) {
    nlohmann::json h = nlohmann::json::object();
    if (!f.metadata.empty())
        h["__metadata__"] = f.metadata;
    std::string data;
    for (const auto& [key, t] : f.tensors) {
        const uint64_t begin = data.size();
        for (double v : t.data) {
            char buf[8];
            if (f32) {
                const float x = float(v);
                uint32_t bits;
                std::memcpy(&bits, &x, 4);
                for (int b = 0; b < 4; ++b)
                    buf[b] = char((bits >> (8 * b)) & 0xff);
                data.append(buf, 4);
            } else {
                uint64_t bits;
                std::memcpy(&bits, &v, 8);
                for (int b = 0; b < 8; ++b)
                    buf[b] = char((bits >> (8 * b)) & 0xff);
                data.append(buf, 8);
            }
        }
        h[key] = {{"dtype", f32 ? "F32" : "F64"},
                  {"shape", t.shape},
                  {"data_offsets", {begin, uint64_t(data.size())}}};
    }
    std::string header = h.dump();
    while (header.size() % 8)
        header.push_back(' ');
    std::string out(8, '\0');
    for (int b = 0; b < 8; ++b)
        out[size_t(b)] = char((uint64_t(header.size()) >> (8 * b)) & 0xff);
    return out + header + data;
}

} // namespace pl::tinylm
