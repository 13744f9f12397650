#pragma once
/// Staged, validated reader for NumPy `.npz` archives (`np.savez` stored members and
/// `np.savez_compressed` deflated members). Each member `<name>.npy` is parsed by NpyReader; the
/// archive is refused before anything is returned when any member is bad. libzip does the zip
/// format (it checks CRCs and inflates); we only bound sizes and map names.

#include "NpyReader.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pl {

/// The arrays of one archive, in archive order. Plain value; any thread.
struct NpzArchive {
    std::string source;                                   ///< file name used in messages
    std::vector<std::pair<std::string, NpyArray>> arrays; ///< member name without ".npy"
    /// The array called `name`, or nullptr.
    const NpyArray* find(const std::string& name) const;
    /// The array called `name`; throws pl::InputError "missing array 'name'" naming the file.
    const NpyArray& get(const std::string& name) const;
    /// Member names in archive order.
    std::vector<std::string> names() const;
};

class NpzReader {
public:
    /// Reads a file. Throws pl::InputError naming the file (and the member) and the reason.
    /// `maxBytes` bounds the archive and the sum of the members' uncompressed sizes.
    static NpzArchive readFile(const std::string& path, int64_t maxBytes = NpyReader::kDefaultMaxBytes);
    /// Parses archive bytes already in memory (fuzzing, tests).
    static NpzArchive parse(const std::string& bytes, const std::string& name,
                            int64_t maxBytes = NpyReader::kDefaultMaxBytes);
};

} // namespace pl
