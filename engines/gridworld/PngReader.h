#pragma once
/// A small, staged PNG reader for the olaf-world frames (Qt is not allowed in engines): 8- and
/// 16-bit grayscale, gray + alpha, RGB, RGBA and 1/2/4/8-bit palette images, non-interlaced, all five
/// row filters, zlib inflate, CRC checked. Colour is converted to gray (ITU-R 601 luma); alpha is
/// ignored. Refuses interlaced images, images over 4096 x 4096 and truncated or corrupt data before
/// allocating more than the header promises. Pure functions; any thread. No Qt.

#include <Eigen/Core>

#include <string>

namespace pl::gridworld {

struct PngImage {
    Eigen::MatrixXd gray; ///< height x width, values in [0, 1]
    bool colour = false;  ///< true when the file held colour (converted to gray)
};

/// Parses PNG bytes; \a name is used in messages. Throws pl::InputError (file, byte offset, reason).
PngImage parsePng(const std::string& bytes, const std::string& name);
/// Reads and parses a file (at most 64 MiB).
PngImage readPng(const std::string& path);
/// Encodes an 8-bit grayscale PNG of \a gray (values clamped to [0, 1]); for tests and examples.
std::string encodeGrayPng(const Eigen::MatrixXd& gray);

} // namespace pl::gridworld
