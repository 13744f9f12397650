#include "NpyReader.h"

#include "CsvReader.h"
#include "Errors.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace pl {

int64_t NpyArray::size() const {
    int64_t n = 1;
    for (auto s : shape)
        n *= s;
    return n;
}

int64_t NpyArray::cols() const {
    int64_t n = 1;
    for (size_t i = 1; i < shape.size(); ++i)
        n *= shape[i];
    return n;
}

namespace {

struct Header {
    std::string descr;
    bool fortran = false;
    bool haveFortran = false;
    std::vector<int64_t> shape;
    bool haveShape = false;
};

[[noreturn]] void fail(const std::string& name, int64_t off, const std::string& why) {
    throw InputError(name, why, 0, 0, off);
}

Header parseHeader(const std::string& h, const std::string& name, int64_t base) {
    Header out;
    size_t i = 0;
    auto skipWs = [&]() {
        while (i < h.size() && (h[i] == ' ' || h[i] == '\t' || h[i] == '\n' || h[i] == '\r'))
            ++i;
    };
    auto here = [&]() { return base + int64_t(i); };
    auto readStr = [&]() {
        skipWs();
        if (i >= h.size() || (h[i] != '\'' && h[i] != '"'))
            fail(name, here(), "header: expected a quoted string");
        char q = h[i++];
        size_t e = h.find(q, i);
        if (e == std::string::npos)
            fail(name, here(), "header: unterminated string");
        std::string s = h.substr(i, e - i);
        i = e + 1;
        return s;
    };
    skipWs();
    if (i >= h.size() || h[i] != '{')
        fail(name, here(), "header is not a Python dict");
    ++i;
    for (;;) {
        skipWs();
        if (i < h.size() && h[i] == '}')
            break;
        std::string key = readStr();
        skipWs();
        if (i >= h.size() || h[i] != ':')
            fail(name, here(), "header: expected ':'");
        ++i;
        skipWs();
        if (key == "descr") {
            if (i < h.size() && h[i] == '[')
                fail(name, here(), "structured (record) dtypes are not supported");
            out.descr = readStr();
        } else if (key == "fortran_order") {
            if (h.compare(i, 4, "True") == 0) {
                out.fortran = true;
                i += 4;
            } else if (h.compare(i, 5, "False") == 0) {
                i += 5;
            } else {
                fail(name, here(), "header: fortran_order must be True or False");
            }
            out.haveFortran = true;
        } else if (key == "shape") {
            if (i >= h.size() || h[i] != '(')
                fail(name, here(), "header: shape must be a tuple");
            ++i;
            for (;;) {
                skipWs();
                if (i < h.size() && h[i] == ')') {
                    ++i;
                    break;
                }
                size_t st = i;
                while (i < h.size() && h[i] >= '0' && h[i] <= '9')
                    ++i;
                if (st == i || i - st > 18)
                    fail(name, base + int64_t(st), "header: bad dimension in shape");
                out.shape.push_back(std::stoll(h.substr(st, i - st)));
                if (out.shape.size() > 32)
                    fail(name, here(), "header: too many dimensions");
                skipWs();
                if (i < h.size() && h[i] == ',')
                    ++i;
                else if (i < h.size() && h[i] == ')') {
                    ++i;
                    break;
                } else
                    fail(name, here(), "header: malformed shape tuple");
            }
            out.haveShape = true;
        } else {
            fail(name, here(), "header: unknown key '" + key + "'");
        }
        skipWs();
        if (i < h.size() && h[i] == ',') {
            ++i;
            continue;
        }
        skipWs();
        if (i < h.size() && h[i] == '}')
            break;
        fail(name, here(), "header: expected ',' or '}'");
    }
    if (out.descr.empty() || !out.haveFortran || !out.haveShape)
        fail(name, base, "header lacks descr, fortran_order or shape");
    return out;
}

double halfToDouble(uint16_t h) {
    int s = (h >> 15) & 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0)
        v = std::ldexp(double(m), -24);
    else if (e == 31)
        v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else
        v = std::ldexp(double(m + 1024), e - 25);
    return s ? -v : v;
}

} // namespace

NpyArray NpyReader::readFile(const std::string& path, int64_t maxBytes) {
    return parse(readFileChecked(path, maxBytes), path);
}

NpyArray NpyReader::parse(const std::string& b, const std::string& name) {
    if (b.size() < 10)
        fail(name, 0, "file too short to be a .npy array (" + std::to_string(b.size()) + " bytes)");
    if (std::memcmp(b.data(), "\x93NUMPY", 6) != 0)
        fail(name, 0, "not a .npy file (bad magic string)");
    int major = (unsigned char)b[6], minor = (unsigned char)b[7];
    size_t hlen, hstart;
    if (major == 1) {
        hlen = (unsigned char)b[8] | ((unsigned char)b[9] << 8);
        hstart = 10;
    } else if (major == 2) {
        if (b.size() < 12)
            fail(name, 8, "file too short for a version 2 header");
        hlen = size_t((unsigned char)b[8]) | (size_t((unsigned char)b[9]) << 8) |
               (size_t((unsigned char)b[10]) << 16) | (size_t((unsigned char)b[11]) << 24);
        hstart = 12;
    } else {
        fail(name, 6, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
    }
    if (hstart + hlen > b.size())
        fail(name, 8, "header length " + std::to_string(hlen) + " runs past the end of the file");
    Header h = parseHeader(b.substr(hstart, hlen), name, int64_t(hstart));
    if (h.fortran)
        fail(name, int64_t(hstart), "Fortran-order arrays are not supported (save with C order)");
    static const char* supported[] = {"<f8", "<f4", "<f2", "<i8", "<i4", "|i1", "|u1", "<u1"};
    size_t item = 0;
    for (const char* s : supported)
        if (h.descr == s)
            item = (h.descr[2] == '8') ? 8 : (h.descr[2] == '4') ? 4 : (h.descr[2] == '2') ? 2 : 1;
    if (!item) {
        std::string why = "unsupported dtype '" + h.descr + "'";
        if (h.descr == "|O" || h.descr == "O")
            why = "object arrays are not supported";
        else if (!h.descr.empty() && h.descr[0] == '>')
            why += " (big-endian)";
        fail(name, int64_t(hstart), why + "; use float32/float64/int32/int64 little-endian");
    }
    const size_t dataStart = hstart + hlen;
    const size_t avail = b.size() - dataStart;
    unsigned __int128 n = 1;
    for (auto d : h.shape) {
        n *= (unsigned __int128)(d);
        if (n > (unsigned __int128)(avail) + 1)
            break;
    }
    if (n * item != avail)
        fail(name, int64_t(dataStart),
             "shape in the header needs " + (n > avail ? std::string("more") : std::to_string(uint64_t(n * item))) +
                 " bytes of data but the file holds " + std::to_string(avail));
    NpyArray a;
    a.shape = h.shape;
    a.dtype = h.descr;
    a.data.resize(size_t(n));
    const char* p = b.data() + dataStart;
    for (size_t k = 0; k < size_t(n); ++k, p += item) {
        double v = 0;
        if (h.descr == "<f8") {
            std::memcpy(&v, p, 8);
        } else if (h.descr == "<f4") {
            float f;
            std::memcpy(&f, p, 4);
            v = f;
        } else if (h.descr == "<f2") {
            uint16_t u;
            std::memcpy(&u, p, 2);
            v = halfToDouble(u);
        } else if (h.descr == "<i8") {
            int64_t i;
            std::memcpy(&i, p, 8);
            v = double(i);
        } else if (h.descr == "<i4") {
            int32_t i;
            std::memcpy(&i, p, 4);
            v = i;
        } else if (h.descr == "|i1") {
            v = double(int8_t(*p));
        } else {
            v = double(uint8_t(*p));
        }
        a.data[k] = v;
    }
    return a;
}

std::string writeNpy(const std::vector<int64_t>& shape, const std::vector<double>& data) {
    std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (";
    for (size_t i = 0; i < shape.size(); ++i)
        dict += std::to_string(shape[i]) + (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
    dict += "), }";
    size_t total = 10 + dict.size() + 1;
    size_t pad = (64 - total % 64) % 64;
    dict += std::string(pad, ' ') + "\n";
    std::string out = "\x93NUMPY";
    out += char(1);
    out += char(0);
    out += char(dict.size() & 0xff);
    out += char((dict.size() >> 8) & 0xff);
    out += dict;
    out.append(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(double));
    return out;
}

} // namespace pl
