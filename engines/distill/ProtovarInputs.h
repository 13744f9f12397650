#pragma once
/// User image sets of the protovar-distillation panel, parsed into staged inputs:
///  - IDX files (MNIST style): images (magic 00 00 08 03: count x rows x cols unsigned bytes) and
///    labels (00 00 08 01: count unsigned bytes). Files come in pairs (images + labels, either
///    order): the first pair is the training set, an optional second pair the test set. The magic,
///    the header and the payload length are checked, and the two counts of a pair must agree;
///  - a folder of PNG class folders (one subfolder per class, *.png inside; class names sorted
///    byte-wise, files too). Every file is decoded (libpng); corrupt files and files whose size
///    differs from the first file's are refused together in one pl::InputError listing them. Grey
///    and colour files are converted to grey (luminance) with a notice.
/// Images larger than 32 x 32 are refused; smaller ones are padded with zeros (centred) to 16 x 16
/// or 32 x 32. Class order: IDX label value; folders: names byte-wise. Pure; any thread.
#include "core/Engine.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::distill {

/// One IDX array (dims and unsigned-byte values, row-major).
struct IdxInput : LoadedInput {
    std::vector<int64_t> dims;
    std::vector<unsigned char> values;
};

/// A labelled image set (rows = images of side x side pixels in [0, 1]).
struct ImageSet {
    Eigen::MatrixXd X;
    std::vector<int> y;               ///< class index into classes
    std::vector<std::string> classes; ///< names, in class order
    std::vector<std::string> notices; ///< conversions done while reading
    int side = 16;
};

/// A PNG class-folder set, decoded and padded.
struct PngFolderInput : LoadedInput {
    ImageSet set;
};

/// Parses IDX bytes (unsigned bytes, 1 or 3 dimensions).
IdxInput parseProtovarIdx(const std::string& bytes, const std::string& name);

/// Decodes one PNG held in memory to grey values in [0, 1] (row-major); \a colour tells whether
/// the file had colour channels. Throws pl::InputError naming \a name when it is not a PNG.
Eigen::VectorXd decodePngGrey(const std::string& bytes, const std::string& name, int& width, int& height,
                              bool& colour);

/// Reads a folder of class folders.
PngFolderInput readPngFolders(const std::string& dir);

/// Reads one input: a folder (PNG classes) or an IDX file.
std::shared_ptr<const LoadedInput> loadProtovarInput(const std::string& path);

/// The training and test sets from the inputs (1 or 2 folders, or 2 or 4 IDX files). Without a test
/// input every 5th image of each class (in file order) is held out as the test set. Throws
/// pl::InputError for unpaired or mismatched files, test classes the training set lacks, or mixed
/// input kinds.
void gatherProtovarInputs(const InputList& inputs, ImageSet& train, ImageSet& test);

/// Pads \a img (w x h, row-major) with zeros, centred, to \a side x \a side.
Eigen::VectorXd padTo(const Eigen::VectorXd& img, int w, int h, int side);

} // namespace pl::distill
