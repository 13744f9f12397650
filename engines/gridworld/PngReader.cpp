#include "gridworld/PngReader.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace pl::gridworld {

namespace {

constexpr unsigned char kSignature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
constexpr uint32_t kMaxSide = 4096;

uint32_t be32(const std::string& b, size_t at) {
    return (uint32_t(uint8_t(b[at])) << 24) | (uint32_t(uint8_t(b[at + 1])) << 16) |
           (uint32_t(uint8_t(b[at + 2])) << 8) | uint32_t(uint8_t(b[at + 3]));
}

void putBe32(std::string& out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8)
        out.push_back(char((v >> s) & 0xff));
}

int paeth(int a, int b, int c) {
    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

std::vector<unsigned char> inflateAll(const std::string& data, size_t expected, const std::string& name) {
    std::vector<unsigned char> out(expected);
    z_stream s{};
    if (inflateInit(&s) != Z_OK)
        throw InputError(name, "PNG: zlib could not start");
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    s.avail_in = uInt(data.size());
    s.next_out = out.data();
    s.avail_out = uInt(out.size());
    const int rc = inflate(&s, Z_FINISH);
    const size_t got = out.size() - s.avail_out;
    inflateEnd(&s);
    if (rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && got == expected))
        throw InputError(name, "PNG: image data do not inflate (corrupt or truncated IDAT)");
    if (got != expected)
        throw InputError(name, "PNG: image data hold " + std::to_string(got) + " bytes, expected " +
                                   std::to_string(expected));
    return out;
}

} // namespace

PngImage parsePng(const std::string& b, const std::string& name) {
    if (b.size() < 8 ||
        !std::equal(kSignature, kSignature + 8, reinterpret_cast<const unsigned char*>(b.data())))
        throw InputError(name, "not a PNG file (bad signature)", 0, 0, 0);
    size_t at = 8;
    uint32_t width = 0, height = 0;
    int depth = 0, colourType = -1;
    std::string idat;
    std::vector<unsigned char> palette;
    bool end = false;
    while (!end) {
        if (at + 12 > b.size())
            throw InputError(name, "PNG: truncated chunk", 0, 0, int64_t(at));
        const uint32_t len = be32(b, at);
        const std::string type = b.substr(at + 4, 4);
        if (len > b.size() || at + 12 + len > b.size())
            throw InputError(name, "PNG: chunk " + type + " runs past the end of the file", 0, 0,
                             int64_t(at));
        const uint32_t crc = be32(b, at + 8 + len);
        const uint32_t want =
            uint32_t(crc32(0, reinterpret_cast<const Bytef*>(b.data() + at + 4), uInt(len + 4)));
        if (crc != want)
            throw InputError(name, "PNG: CRC mismatch in chunk " + type, 0, 0, int64_t(at));
        const size_t d = at + 8;
        if (type == "IHDR") {
            if (len != 13)
                throw InputError(name, "PNG: IHDR of wrong length", 0, 0, int64_t(at));
            width = be32(b, d);
            height = be32(b, d + 4);
            depth = uint8_t(b[d + 8]);
            colourType = uint8_t(b[d + 9]);
            if (uint8_t(b[d + 12]) != 0)
                throw InputError(name, "PNG: interlaced images are not supported (save without Adam7)", 0, 0,
                                 int64_t(d + 12));
            if (width == 0 || height == 0 || width > kMaxSide || height > kMaxSide)
                throw InputError(name,
                                 "PNG: image size " + std::to_string(width) + " x " + std::to_string(height) +
                                     " outside 1..4096",
                                 0, 0, int64_t(d));
            const bool ok =
                (colourType == 0 && (depth == 8 || depth == 16)) ||
                ((colourType == 2 || colourType == 4 || colourType == 6) && (depth == 8 || depth == 16)) ||
                (colourType == 3 && (depth == 1 || depth == 2 || depth == 4 || depth == 8));
            if (!ok)
                throw InputError(name,
                                 "PNG: unsupported colour type " + std::to_string(colourType) +
                                     " with bit depth " + std::to_string(depth),
                                 0, 0, int64_t(d + 8));
        } else if (type == "PLTE") {
            palette.assign(b.begin() + long(d), b.begin() + long(d + len));
        } else if (type == "IDAT") {
            if (idat.size() + len > (64u << 20))
                throw InputError(name, "PNG: more than 64 MiB of image data", 0, 0, int64_t(at));
            idat.append(b, d, len);
        } else if (type == "IEND") {
            end = true;
        }
        at += 12 + len;
    }
    if (colourType < 0)
        throw InputError(name, "PNG: no IHDR chunk");
    if (idat.empty())
        throw InputError(name, "PNG: no image data (IDAT)");
    if (colourType == 3 && palette.size() < 3)
        throw InputError(name, "PNG: palette image without a PLTE chunk");
    const int channels = colourType == 0   ? 1
                         : colourType == 2 ? 3
                         : colourType == 4 ? 2
                         : colourType == 6 ? 4
                                           : 1;
    const size_t bitsPerPixel = size_t(channels) * size_t(depth);
    const size_t stride = (size_t(width) * bitsPerPixel + 7) / 8;
    const size_t bpp = std::max<size_t>(1, bitsPerPixel / 8);
    std::vector<unsigned char> raw = inflateAll(idat, size_t(height) * (stride + 1), name);
    std::vector<unsigned char> prev(stride, 0), cur(stride);
    PngImage img;
    img.colour = colourType == 2 || colourType == 6 || colourType == 3;
    img.gray.resize(height, width);
    const double maxv = depth == 16 ? 65535.0 : 255.0;
    for (uint32_t y = 0; y < height; ++y) {
        const unsigned char* row = raw.data() + size_t(y) * (stride + 1);
        const int filter = row[0];
        if (filter > 4)
            throw InputError(name, "PNG: unknown row filter " + std::to_string(filter) + " in row " +
                                       std::to_string(y));
        for (size_t i = 0; i < stride; ++i) {
            const int a = i >= bpp ? cur[i - bpp] : 0, up = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
            const int x = row[1 + i];
            const int pred = filter == 0   ? 0
                             : filter == 1 ? a
                             : filter == 2 ? up
                             : filter == 3 ? (a + up) / 2
                                           : paeth(a, up, c);
            cur[i] = (unsigned char)((x + pred) & 0xff);
        }
        for (uint32_t x = 0; x < width; ++x) {
            auto sample = [&](int ch) -> double {
                if (depth == 16) {
                    const size_t o = (size_t(x) * channels + ch) * 2;
                    return double((cur[o] << 8) | cur[o + 1]);
                }
                return double(cur[size_t(x) * channels + ch]);
            };
            double v;
            if (colourType == 3) {
                const size_t bit = size_t(x) * size_t(depth);
                const int idx = (cur[bit / 8] >> (8 - depth - int(bit % 8))) & ((1 << depth) - 1);
                if (size_t(idx) * 3 + 2 >= palette.size())
                    throw InputError(name, "PNG: palette index " + std::to_string(idx) + " out of range");
                v = (0.299 * palette[size_t(idx) * 3] + 0.587 * palette[size_t(idx) * 3 + 1] +
                     0.114 * palette[size_t(idx) * 3 + 2]) /
                    255.0;
            } else if (channels >= 3) {
                v = (0.299 * sample(0) + 0.587 * sample(1) + 0.114 * sample(2)) / maxv;
            } else {
                v = sample(0) / maxv;
            }
            img.gray(y, x) = v;
        }
        std::swap(prev, cur);
    }
    return img;
}

PngImage readPng(const std::string& path) {
    return parsePng(readFileChecked(path, 64ll << 20), path);
}

std::string encodeGrayPng(const Eigen::MatrixXd& gray) {
    const auto h = uint32_t(gray.rows()), w = uint32_t(gray.cols());
    std::string raw;
    for (uint32_t y = 0; y < h; ++y) {
        raw.push_back(0);
        for (uint32_t x = 0; x < w; ++x)
            raw.push_back(char(int(std::clamp(gray(y, x), 0.0, 1.0) * 255.0 + 0.5)));
    }
    uLongf zlen = compressBound(uLong(raw.size()));
    std::string z(zlen, '\0');
    compress(reinterpret_cast<Bytef*>(z.data()), &zlen, reinterpret_cast<const Bytef*>(raw.data()),
             uLong(raw.size()));
    z.resize(zlen);
    std::string out(reinterpret_cast<const char*>(kSignature), 8);
    auto chunk = [&out](const std::string& type, const std::string& data) {
        putBe32(out, uint32_t(data.size()));
        const std::string td = type + data;
        out += td;
        putBe32(out, uint32_t(crc32(0, reinterpret_cast<const Bytef*>(td.data()), uInt(td.size()))));
    };
    std::string ihdr;
    putBe32(ihdr, w);
    putBe32(ihdr, h);
    ihdr += std::string{char(8), char(0), char(0), char(0), char(0)};
    chunk("IHDR", ihdr);
    chunk("IDAT", z);
    chunk("IEND", "");
    return out;
}

} // namespace pl::gridworld
