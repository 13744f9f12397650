#pragma once
/// Small helpers on file paths as given by users (no filesystem access). No Qt.

#include <algorithm>
#include <cctype>
#include <string>

namespace pl {

/// The extension after the last '.', lower case, without the dot ("" when there is none).
inline std::string lowerExtension(const std::string& path) {
    const size_t slash = path.find_last_of("/\\");
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return {};
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

/// The file name without its folders.
inline std::string baseName(const std::string& path) {
    const size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace pl
