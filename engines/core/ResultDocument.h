#pragma once
/// The result of one engine run, with exactly the keys of docs/cli-contract.md
/// (metrics, series, matrices, vectors, labels, graphs, claims). Plain data, no Qt; copied
/// freely between threads (share it as std::shared_ptr<const ResultDocument> for big ones).

#include "ParamSpec.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pl {

/// An x/y series; x and y have equal length. Non-finite values are written as JSON null.
struct Series {
    std::vector<double> x;
    std::vector<double> y;
    std::string xlabel;
    std::string ylabel;
};

/// A dense row-major matrix with optional row/column labels.
struct Matrix {
    int64_t rows = 0;
    int64_t cols = 0;
    std::vector<double> data; ///< rows*cols values, row-major
    std::vector<std::string> rowLabels;
    std::vector<std::string> colLabels;
    double at(int64_t r, int64_t c) const { return data[size_t(r * cols + c)]; }
};

struct GraphNode {
    int64_t id = 0;
    std::string label;
    std::map<std::string, double> attrs; ///< e.g. size, colour value, x, y
};

struct GraphEdge {
    int64_t source = 0;
    int64_t target = 0;
    double weight = 1.0;
    std::map<std::string, double> attrs;
};

struct Graph {
    bool directed = false;
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
};

/// One check of what the paper says, evaluated on this run. `holds` is false when the
/// observation does not meet the threshold; it is never hidden.
struct Claim {
    std::string id;
    std::string statement;
    bool holds = false;
    double observed = 0;
    double threshold = 0;
    std::string detail; ///< how the observation was made, in a sentence
};

struct InputRecord {
    std::string path;
    std::string sha256;
};

class ResultDocument {
public:
    std::string panel;
    std::string paperlabVersion;
    uint64_t seed = 0;
    std::vector<std::pair<std::string, ParamValue>> params; ///< in spec order
    std::vector<InputRecord> inputs;
    std::map<std::string, double> metrics;
    std::map<std::string, Series> series;
    std::map<std::string, Matrix> matrices;
    std::map<std::string, std::vector<double>> vectors;
    std::map<std::string, std::vector<int64_t>> labels;
    std::map<std::string, Graph> graphs;
    std::vector<Claim> claims;
    std::vector<std::string> notes; ///< human-readable remarks (e.g. what was detected in the input)
    double elapsedMs = 0;

    /// Stores the parameter set in spec order.
    void setParams(const ParamSet& ps);
    /// Serialises to the contract's JSON. indent < 0 gives compact output.
    std::string toJson(int indent = 2) const;
    /// Parses JSON written by toJson(). Throws InputError("<json>", reason) on malformed text.
    static ResultDocument fromJson(const std::string& text, const std::string& sourceName = "<json>");
};

} // namespace pl
