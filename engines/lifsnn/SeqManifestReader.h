#pragma once
/// Reader of the lif-mmwave input: a manifest `*.seq.json`
///   {"x": "x.npy", "y": "y.npy", "fs": 20}
/// with x an .npy array [N, T, C] (or [N, T] for one channel; or a list of .npy files, one [T, C]
/// sequence each), y an .npy array of N labels (integer values, at least two distinct), fs the
/// sampling rate in Hz; paths relative to the manifest's folder. Frames holding a NaN are dropped
/// frames (replaced by the previous frame and counted); infinities, ragged sequences, a label count
/// that differs from N, non-integer labels and a single class are refused. Errors are
/// pl::InputError naming the file (manifest or array) and the reason. Pure C++; any thread.
#include "lifsnn/SeqData.h"

#include "core/NpyReader.h"

#include <string>
#include <vector>

namespace pl::lifsnn {

/// The parsed manifest (paths resolved against \a baseDir).
struct SeqManifest {
    std::vector<std::string> xFiles; ///< one file [N, T, C], or one file per sequence [T, C]
    bool perSequence = false;        ///< x was given as a list
    std::string yFile;
    double fs = 1.0;
};

/// Parses manifest text; \a name is used in messages. Throws pl::InputError.
SeqManifest parseSeqManifest(const std::string& text, const std::string& name, const std::string& baseDir);

/// Builds validated sequences from arrays already read: \a xs is one [N, T, C] / [N, T] array, or
/// (perSequence) N arrays [T, C] / [T]; \a xNames and \a yName name them in messages.
SeqData assembleSequences(const std::vector<NpyArray>& xs, bool perSequence, const NpyArray& y, double fs,
                          const std::vector<std::string>& xNames, const std::string& yName);

/// Reads a manifest and its arrays; \a arrays (optional) receives the array paths it read.
/// Throws pl::InputError.
SeqData readSeqManifest(const std::string& path, std::vector<std::string>* arrays = nullptr);

} // namespace pl::lifsnn
