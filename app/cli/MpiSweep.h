#pragma once
/// `paperlab sweep` over MPI ranks (issue 33): rank 0 hands out runs one at a time, on request, to
/// its own worker threads and to every other rank (dynamic load balancing: runs differ in cost),
/// receives each result document and writes the files and the table, exactly as a local sweep.
/// Speaks through MpiTransport, so nothing here includes MPI. Main thread.

#include "MpiTransport.h"
#include "core/ResultDocument.h"
#include "core/RunContext.h"
#include "sdk/SweepPlan.h"
#include "sdk/SweepRunner.h"

#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pl::cli {

/// True when an MPI launcher (mpirun/mpiexec of Open MPI or MPICH, Slurm's srun) started this
/// process as one of two or more ranks; read from the launcher's environment variables.
bool startedByMpiLauncher();
/// Opens libpaperlab_mpi.so and initialises MPI; a Failure (exit 4) when paperlab was built without
/// MPI or the module cannot start. Owned by the caller; destroying it finalises MPI.
std::unique_ptr<MpiTransport> openMpiTransport();

/// What every rank runs the same way: the engine call and the sweep's runs.
struct MpiSweepJob {
    std::function<ResultDocument(const ParamSet&, RunContext&)> runFn;
    int engineThreads = 1;
    const SweepPlan* plan = nullptr;
    ParamSet base;
    std::vector<SweepCell> runs;
};

/// Where the runs of a distributed sweep ran.
struct MpiSweepStats {
    int here = 0;   ///< on rank 0's own threads
    int remote = 0; ///< on the other ranks
};

/// Rank 0: runs `pending` on `jobs` local threads and on ranks 1..size-1 until all are done or one
/// failed. `localDone` as SweepRunner's DoneFn (worker threads); `remoteDone(i, json)` on this
/// thread for a run that another rank finished, with the document's JSON text as that rank
/// wrote it. `progress(done, total)` on this thread; `stats` (optional) receives the counts.
/// Returns the first failure or nullptr.
std::exception_ptr serveMpiSweep(MpiTransport& mpi, const MpiSweepJob& job, const std::vector<int>& pending,
                                 int jobs, const SweepRunner::DoneFn& localDone,
                                 const std::function<void(size_t, const std::string&)>& remoteDone,
                                 const SweepRunner::ProgressFn& progress, MpiSweepStats* stats = nullptr);
/// Ranks > 0: asks rank 0 for runs, runs them and sends each result back, until rank 0 says stop.
/// `toJson(document)` gives the text to send (the same text a local sweep writes).
void workMpiSweep(MpiTransport& mpi, const MpiSweepJob& job,
                  const std::function<std::string(ResultDocument&)>& toJson);

} // namespace pl::cli
