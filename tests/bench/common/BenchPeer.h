#pragma once
/// Running the numpy/scipy peer of a benchmark (tests/bench/<name>/peer.py) under the benchmark
/// rules: OpenBLAS tuning variables removed for this command only, one BLAS/OpenMP thread,
/// Debian's /usr/bin/python3. Header-only; benchmark executables only.

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

namespace pl::bench {

/// Runs \a cmd through the shell and returns its standard output ("" when it cannot start).
/// \a status receives pclose()'s status when given.
inline std::string runCommand(const std::string& cmd, int* status = nullptr) {
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) {
        if (status)
            *status = -1;
        return out;
    }
    char buf[4096];
    while (size_t n = std::fread(buf, 1, sizeof buf, p))
        out.append(buf, n);
    const int rc = pclose(p);
    if (status)
        *status = rc;
    return out;
}

/// Runs `/usr/bin/python3 SCRIPT ARGS` under the benchmark rules and parses its standard output
/// as JSON. Returns a null json (and says why on stderr) when the peer fails or prints no JSON.
inline nlohmann::json runPythonPeer(const std::string& script, const std::string& args) {
    const std::string cmd = "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 "
                            "OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 /usr/bin/python3 " +
                            script + " " + args;
    int status = 0;
    const std::string out = runCommand(cmd, &status);
    if (status != 0) {
        std::fprintf(stderr, "peer failed (status %d): %s\n", status, cmd.c_str());
        return {};
    }
    try {
        return nlohmann::json::parse(out);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "peer printed no JSON (%s): %s\n", e.what(), cmd.c_str());
        return {};
    }
}

} // namespace pl::bench
