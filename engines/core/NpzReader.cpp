#include "NpzReader.h"

#include "CsvReader.h"
#include "Errors.h"

#include <zip.h>

#include <memory>

namespace pl {

const NpyArray* NpzArchive::find(const std::string& name) const {
    for (const auto& [n, a] : arrays)
        if (n == name)
            return &a;
    return nullptr;
}

const NpyArray& NpzArchive::get(const std::string& name) const {
    if (const NpyArray* a = find(name))
        return *a;
    throw InputError(source, "missing array '" + name + "'");
}

std::vector<std::string> NpzArchive::names() const {
    std::vector<std::string> out;
    for (const auto& entry : arrays)
        out.push_back(entry.first);
    return out;
}

namespace {

struct ZipCloser {
    void operator()(zip_t* z) const { zip_discard(z); }
};
struct FileCloser {
    void operator()(zip_file_t* f) const { zip_fclose(f); }
};
using ZipPtr = std::unique_ptr<zip_t, ZipCloser>;
using ZipFilePtr = std::unique_ptr<zip_file_t, FileCloser>;

[[noreturn]] void fail(const std::string& name, const std::string& why) {
    throw InputError(name, why);
}

ZipPtr openArchive(const std::string& bytes, const std::string& name) {
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &err);
    if (!src) {
        zip_error_fini(&err);
        fail(name, "cannot read the archive");
    }
    zip_t* z = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
    if (!z) {
        const std::string why = zip_error_strerror(&err);
        zip_source_free(src);
        zip_error_fini(&err);
        fail(name, "not a valid .npz (zip) archive: " + why);
    }
    zip_error_fini(&err);
    return ZipPtr(z);
}

/// Reads one member fully, never more than it declares (a lying size is an error).
std::string readMember(zip_t* z, zip_uint64_t index, zip_uint64_t size, const std::string& where) {
    ZipFilePtr f(zip_fopen_index(z, index, 0));
    if (!f)
        fail(where, std::string("cannot open member: ") + zip_strerror(z));
    std::string out(size, '\0');
    zip_uint64_t got = 0;
    while (got < size) {
        const zip_int64_t n = zip_fread(f.get(), out.data() + got, size - got);
        if (n < 0)
            fail(where, std::string("corrupt member: ") + zip_file_strerror(f.get()));
        if (n == 0)
            fail(where, "corrupt member: shorter than its declared size");
        got += zip_uint64_t(n);
    }
    char extra;
    if (zip_fread(f.get(), &extra, 1) != 0)
        fail(where, "corrupt member: longer than its declared size");
    return out;
}

std::string arrayName(const std::string& member, const std::string& name) {
    const std::string ext = ".npy";
    if (member.size() <= ext.size() || member.compare(member.size() - ext.size(), ext.size(), ext) != 0)
        fail(name, "member '" + member + "' is not a .npy array");
    return member.substr(0, member.size() - ext.size());
}

} // namespace

NpzArchive NpzReader::readFile(const std::string& path, int64_t maxBytes) {
    return parse(readFileChecked(path, maxBytes), path, maxBytes);
}

NpzArchive NpzReader::parse(const std::string& bytes, const std::string& name, int64_t maxBytes) {
    ZipPtr z = openArchive(bytes, name);
    const zip_int64_t count = zip_get_num_entries(z.get(), 0);
    if (count <= 0)
        fail(name, "the archive holds no arrays");
    NpzArchive out;
    out.source = name;
    int64_t total = 0;
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(z.get(), zip_uint64_t(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME) ||
            !(st.valid & ZIP_STAT_SIZE))
            fail(name, "cannot read entry " + std::to_string(i) + " of the archive");
        const std::string member = st.name;
        const std::string key = arrayName(member, name);
        if (out.find(key))
            fail(name, "array '" + key + "' appears twice");
        if (st.size > zip_uint64_t(maxBytes) || total + int64_t(st.size) > maxBytes)
            fail(name + ":" + member, "uncompressed size " + std::to_string(st.size) +
                                          " bytes exceeds the limit of " + std::to_string(maxBytes));
        total += int64_t(st.size);
        const std::string where = name + ":" + member;
        out.arrays.emplace_back(
            key, NpyReader::parse(readMember(z.get(), zip_uint64_t(i), st.size, where), where));
    }
    return out;
}

} // namespace pl
