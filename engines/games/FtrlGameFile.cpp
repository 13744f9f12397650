#include "FtrlGameFile.h"

#include "GameLoader.h"
#include "NfgReader.h"
#include "core/CsvReader.h"
#include "core/PathUtil.h"
#include "core/Errors.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

namespace pl::games {


namespace {

bool isBlank(const std::string& line) {
    return std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

bool isComment(const std::string& line) {
    const size_t k = line.find_first_not_of(" \t\r");
    return k != std::string::npos && line[k] == '#';
}

struct Block {
    size_t first = 0; ///< 0-based line indices [first, last]
    size_t last = 0;
};

} // namespace

NormalFormGame parseFtrlCsvGame(const std::string& text, const std::string& name) {
    std::vector<std::string> lines;
    {
        std::istringstream in(text);
        std::string line;
        while (std::getline(in, line))
            lines.push_back(line);
    }
    // Blocks of consecutive non-blank lines that hold at least one data line.
    std::vector<Block> blocks;
    for (size_t k = 0; k < lines.size();) {
        if (isBlank(lines[k])) {
            ++k;
            continue;
        }
        Block b{k, k};
        bool data = false;
        while (k < lines.size() && !isBlank(lines[k])) {
            data |= !isComment(lines[k]);
            b.last = k++;
        }
        if (data)
            blocks.push_back(b);
    }
    if (blocks.empty())
        throw InputError(name, "no payoff matrix found");
    if (blocks.size() > 2)
        throw InputError(
            name,
            "more than two matrices (blocks separated by blank lines); expected A alone (identical "
            "interest) or A then B",
            int64_t(blocks[2].first + 1), 1);
    // Parse each block with the other lines commented out, so that line numbers stay true.
    std::vector<CsvTable> tables;
    for (const Block& b : blocks) {
        std::string masked;
        for (size_t k = 0; k < lines.size(); ++k) {
            masked += (k >= b.first && k <= b.last) ? lines[k] : std::string("#");
            masked += '\n';
        }
        CsvOptions opt;
        opt.maxCells = int64_t(kFtrlMaxCsvStrategies) * kFtrlMaxCsvStrategies;
        tables.push_back(CsvReader::parse(masked, name, opt));
        const auto& v = tables.back().values;
        if (v.rows() < 1 || v.cols() < 1)
            throw InputError(name, "empty matrix", int64_t(b.first + 1), 1);
        if (v.rows() > kFtrlMaxCsvStrategies || v.cols() > kFtrlMaxCsvStrategies)
            throw InputError(name,
                             "matrix of " + std::to_string(v.rows()) + "x" + std::to_string(v.cols()) +
                                 " has more than " + std::to_string(kFtrlMaxCsvStrategies) +
                                 " strategies per player",
                             int64_t(b.first + 1), 1);
    }
    const Eigen::MatrixXd& A = tables[0].values;
    Eigen::MatrixXd B = A;
    if (tables.size() == 2) {
        B = tables[1].values;
        if (B.rows() != A.rows() || B.cols() != A.cols())
            throw InputError(name,
                             "second matrix (B) is " + std::to_string(B.rows()) + "x" +
                                 std::to_string(B.cols()) + " but the first (A) is " +
                                 std::to_string(A.rows()) + "x" + std::to_string(A.cols()),
                             int64_t(blocks[1].first + 1), 1);
    }
    NormalFormGame g = NormalFormGame::fromBimatrix(A, B, baseName(name));
    g.playerNames = {"Row player", "Column player"};
    if (!tables[0].header.empty() && int64_t(tables[0].header.size()) == A.cols())
        g.strategyNames[1] = tables[0].header;
    return g;
}

std::shared_ptr<const GameInput> loadFtrlGameFile(const std::string& path) {
    const std::string ext = lowerExtension(path);
    auto in = std::make_shared<GameInput>();
    in->path = path;
    in->kind = ext;
    if (ext == "nfg") {
        NfgLimits limits;
        limits.maxPlayers = kFtrlMaxPlayers;
        limits.maxProfiles = kFtrlMaxProfiles;
        in->game = NfgReader::readFile(path, limits);
        if (in->game.numPlayers() < 2)
            throw InputError(path, "a game needs at least two players, this one has " +
                                       std::to_string(in->game.numPlayers()));
    } else if (ext == "csv") {
        in->game = parseFtrlCsvGame(readFileChecked(path, 256ll << 20), path);
        in->game.title = baseName(path);
    } else {
        throw InputError(path, "unknown game file type '" + ext + "' (expected .nfg or .csv)");
    }
    const bool identical = in->game.numPlayers() == 2 && in->game.payoffs[0] == in->game.payoffs[1];
    in->summary = describeGame(in->game) + (identical ? " (identical interest, " : " (") + ext + ")";
    return in;
}

} // namespace pl::games
