#include "GameLoader.h"

#include "NfgReader.h"
#include "core/CsvReader.h"
#include "core/PathUtil.h"
#include "core/Errors.h"
#include "core/NpyReader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pl::games {


namespace {

void checkMatrixSize(const std::string& path, int64_t rows, int64_t cols) {
    if (rows < 1 || cols < 1)
        throw InputError(path, "empty matrix (" + std::to_string(rows) + "x" + std::to_string(cols) + ")");
    if (rows > kMaxMatrixStrategies || cols > kMaxMatrixStrategies) {
        char buf[200];
        std::snprintf(
            buf, sizeof buf,
            "%lldx%lld matrix has more than %lld strategies per player (the solver would need about "
            "%.1f GiB); refused",
            (long long)rows, (long long)cols, (long long)kMaxMatrixStrategies,
            // payoff matrix + Gram/Cholesky factor + Newton system, in doubles
            8.0 *
                (double(rows) * double(cols) +
                 3.0 * double(std::min(rows, cols)) * double(std::min(rows, cols))) /
                (1024.0 * 1024 * 1024));
        throw InputError(path, buf);
    }
}

NormalFormGame zeroSumFromMatrix(const Eigen::MatrixXd& A, const std::string& title) {
    NormalFormGame g = NormalFormGame::fromBimatrix(A, -A, title);
    g.playerNames = {"Row player", "Column player"};
    return g;
}

} // namespace

NormalFormGame readZeroSumCsv(const std::string& path) {
    CsvOptions opt;
    opt.maxCells = kMaxMatrixStrategies * kMaxMatrixStrategies;
    opt.maxBytes = 1ll << 30;
    CsvTable t = CsvReader::readFile(path, opt);
    checkMatrixSize(path, t.values.rows(), t.values.cols());
    NormalFormGame g = zeroSumFromMatrix(t.values, baseName(path));
    if (!t.header.empty() && int64_t(t.header.size()) == t.values.cols())
        g.strategyNames[1] = t.header;
    return g;
}

NormalFormGame readZeroSumNpy(const std::string& path) {
    const int64_t maxBytes = kMaxMatrixStrategies * kMaxMatrixStrategies * 8 + 65536;
    NpyArray a = NpyReader::readFile(path, maxBytes);
    if (a.shape.size() != 2)
        throw InputError(path, "expected a 2-d array (the row player's payoff matrix), found " +
                                   std::to_string(a.shape.size()) + "-d");
    checkMatrixSize(path, a.shape[0], a.shape[1]);
    const int64_t rows = a.shape[0], cols = a.shape[1];
    Eigen::MatrixXd A(rows, cols);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            const double v = a.data[size_t(r * cols + c)];
            if (!std::isfinite(v))
                throw InputError(path, "non-finite value at row " + std::to_string(r) + ", column " +
                                           std::to_string(c));
            A(r, c) = v;
        }
    return zeroSumFromMatrix(A, baseName(path));
}

bool isConstantSum(const NormalFormGame& game, double tol, double* maxDeviation) {
    if (game.numPlayers() != 2)
        return false;
    const auto& a = game.payoffs[0];
    const auto& b = game.payoffs[1];
    if (a.empty())
        return true;
    double mean = 0;
    for (size_t k = 0; k < a.size(); ++k)
        mean += a[k] + b[k];
    mean /= double(a.size());
    double dev = 0;
    for (size_t k = 0; k < a.size(); ++k)
        dev = std::max(dev, std::abs(a[k] + b[k] - mean));
    if (maxDeviation)
        *maxDeviation = dev;
    // Scale the tolerance with the payoff magnitude so that exact decimals in the file pass.
    double scale = 1;
    for (size_t k = 0; k < a.size(); ++k)
        scale = std::max({scale, std::abs(a[k]), std::abs(b[k])});
    return dev <= tol * scale;
}

Eigen::MatrixXd zeroSumMatrix(const NormalFormGame& game, const std::string& file, bool usePlayer1Payoffs) {
    if (game.numPlayers() != 2)
        throw InputError(file, "a zero-sum matrix game needs exactly two players, this game has " +
                                   std::to_string(game.numPlayers()));
    double dev = 0;
    if (!usePlayer1Payoffs && !isConstantSum(game, 1e-12, &dev)) {
        char buf[240];
        std::snprintf(
            buf, sizeof buf,
            "not zero-sum: the payoffs of the two players do not add up to a constant (largest "
            "deviation %.3g); set use_player1_payoffs to solve the zero-sum game with player 1's payoffs",
            dev);
        throw InputError(file, buf);
    }
    return game.matrix(0);
}

std::string describeGame(const NormalFormGame& game) {
    std::string dims;
    for (size_t p = 0; p < game.numStrategies.size(); ++p)
        dims += (p ? "x" : "") + std::to_string(game.numStrategies[p]);
    std::string kind;
    if (game.numPlayers() == 2)
        kind =
            isConstantSum(game)
                ? (std::abs(game.payoffs[0][0] + game.payoffs[1][0]) <= 1e-12 ? " zero-sum" : " constant-sum")
                : " bimatrix";
    std::string s = dims + kind + " game";
    if (game.numPlayers() != 2)
        s = std::to_string(game.numPlayers()) + "-player " + s;
    if (!game.title.empty())
        s += " '" + game.title + "'";
    return s;
}

std::shared_ptr<const GameInput> loadGameFile(const std::string& path) {
    const std::string ext = lowerExtension(path);
    auto in = std::make_shared<GameInput>();
    in->path = path;
    if (ext == "nfg")
        in->game = NfgReader::readFile(path);
    else if (ext == "csv")
        in->game = readZeroSumCsv(path);
    else if (ext == "npy")
        in->game = readZeroSumNpy(path);
    else
        throw InputError(path, "unknown game file type '" + ext + "' (expected .nfg, .csv or .npy)");
    in->kind = ext;
    in->summary = describeGame(in->game) + " (" + ext + ")";
    return in;
}

} // namespace pl::games
