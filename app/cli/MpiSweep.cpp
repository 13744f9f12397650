#include "MpiSweep.h"

#include "CliSupport.h"
#include "sdk/SweepQueue.h"

#include <QDir>
#include <QFileInfo>
#include <QLibrary>

#include <chrono>
#include <thread>

namespace pl::cli {

namespace {

/// Message tags. Worker → rank 0: Ready (no payload), Result ("index\n" + JSON), Failed
/// ("exitcode\nmessage"). Rank 0 → worker: Work ("index", or "-1" for stop).
enum Tag { Ready = 1, Result = 2, Failed = 3, Work = 4 };

int envInt(const char* name) {
    bool ok = false;
    const int v = qEnvironmentVariable(name).toInt(&ok);
    return ok ? v : 0;
}

std::string failureText(std::exception_ptr e) {
    try {
        rethrowAsFailure(e);
    } catch (const Failure& f) {
        return std::to_string(f.code) + "\n" + f.message.toStdString();
    }
}

std::exception_ptr failureFrom(int rank, const std::string& text) {
    const size_t nl = text.find('\n');
    const int code = nl == std::string::npos ? int(EngineFailed) : std::atoi(text.substr(0, nl).c_str());
    const QString msg = QString::fromStdString(nl == std::string::npos ? text : text.substr(nl + 1));
    return std::make_exception_ptr(Failure{code, QStringLiteral("rank %1: %2").arg(rank).arg(msg)});
}

/// Answers one worker message; false when that worker was told to stop.
bool answer(MpiTransport& mpi, SweepQueue& queue, int from, int tag, const std::string& bytes,
            const std::function<void(size_t, const std::string&)>& remoteDone, int* remoteFinished,
            std::exception_ptr* failure) {
    if (tag == Result) {
        const size_t nl = bytes.find('\n');
        const size_t index = size_t(std::stoul(bytes.substr(0, nl)));
        try {
            remoteDone(index, bytes.substr(nl + 1));
        } catch (...) {
            if (!*failure)
                *failure = std::current_exception();
            queue.stop();
        }
        ++*remoteFinished;
    } else if (tag == Failed) {
        if (!*failure)
            *failure = failureFrom(from, bytes);
        queue.stop();
        return false; // a failed worker has left its loop
    }
    const int next = queue.take();
    mpi.send(from, Work, std::to_string(next));
    return next >= 0;
}

} // namespace

bool startedByMpiLauncher() {
    // Open MPI's mpirun, MPICH/Hydra and PMI-2 launchers, PMIx (Open MPI 5, srun --mpi=pmix).
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
        if (envInt(v) > 1)
            return true;
    return qEnvironmentVariableIsSet("PMIX_RANK") && envInt("SLURM_NTASKS") > 1;
}

std::unique_ptr<MpiTransport> openMpiTransport() {
#ifndef PAPERLAB_MPI_FILE
    throw Failure{EngineFailed,
                  QStringLiteral("started by an MPI launcher, but this paperlab was built without "
                                 "MPI (install libopenmpi-dev and rebuild); run the sweep "
                                 "without mpirun, or with --jobs N")};
#else
    const QString exeDir =
        QFileInfo(QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath()).absolutePath();
    QStringList candidates;
    candidates << QDir::cleanPath(exeDir + QStringLiteral("/../lib/") + QStringLiteral(PAPERLAB_MPI_FILE))
               << QDir::cleanPath(exeDir + QStringLiteral("/" PAPERLAB_MPI_RELDIR "/") +
                                  QStringLiteral(PAPERLAB_MPI_FILE));
    static QLibrary library; // never unloaded: MPI stays initialised until the transport goes
    for (const QString& c : candidates)
        if (QFileInfo::exists(c)) {
            library.setFileName(c);
            break;
        }
    auto entry = reinterpret_cast<PaperlabMpiEntry>(library.resolve(PAPERLAB_MPI_ENTRY));
    if (!entry)
        throw Failure{EngineFailed, QStringLiteral("cannot load the MPI module %1 (looked in: %2): %3")
                                        .arg(QStringLiteral(PAPERLAB_MPI_FILE),
                                             candidates.join(QStringLiteral(", ")), library.errorString())};
    char error[512] = {0};
    MpiTransport* t = entry(kPaperlabMpiVersion, error, int(sizeof error));
    if (!t)
        throw Failure{EngineFailed, QStringLiteral("MPI did not start: %1").arg(QString::fromUtf8(error))};
    return std::unique_ptr<MpiTransport>(t);
#endif
}

std::exception_ptr serveMpiSweep(MpiTransport& mpi, const MpiSweepJob& job, const std::vector<int>& pending,
                                 int jobs, const SweepRunner::DoneFn& localDone,
                                 const std::function<void(size_t, const std::string&)>& remoteDone,
                                 const SweepRunner::ProgressFn& progress, MpiSweepStats* stats) {
    SweepQueue queue(pending);
    std::atomic<int> localFinished{0};
    std::exception_ptr localFailure;
    std::atomic<bool> localRunning{true};
    std::thread local([&] {
        auto counted = [&](size_t i, ResultDocument& d) {
            localDone(i, d);
            ++localFinished;
        };
        localFailure = SweepRunner::run(job.runFn, job.engineThreads, *job.plan, job.base, job.runs, queue,
                                        jobs, counted);
        localRunning = false;
    });
    std::exception_ptr failure;
    int remoteFinished = 0;
    int workers = mpi.size() - 1;
    auto lastShown = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    int shown = -1;
    while (workers > 0 || localRunning.load()) {
        int from = 0, tag = 0;
        std::string bytes;
        if (workers > 0 && mpi.poll(&from, &tag, &bytes)) {
            if (!answer(mpi, queue, from, tag, bytes, remoteDone, &remoteFinished, &failure))
                --workers;
        } else {
            // Polling, not a blocking receive: Open MPI spins in blocking calls and would take
            // the core that this rank's own worker thread computes on.
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        const int finished = localFinished.load() + remoteFinished;
        const auto now = std::chrono::steady_clock::now();
        if (progress && finished != shown && now - lastShown > std::chrono::milliseconds(100)) {
            progress(finished, queue.size());
            shown = finished;
            lastShown = now;
        }
    }
    local.join();
    if (stats)
        *stats = MpiSweepStats{localFinished.load(), remoteFinished};
    if (progress && localFinished.load() + remoteFinished != shown)
        progress(localFinished.load() + remoteFinished, queue.size());
    return failure ? failure : localFailure;
}

void workMpiSweep(MpiTransport& mpi, const MpiSweepJob& job,
                  const std::function<std::string(ResultDocument&)>& toJson) {
    mpi.send(0, Ready, std::string());
    for (;;) {
        int tag = 0;
        std::string bytes;
        mpi.receive(0, &tag, &bytes);
        const int i = std::atoi(bytes.c_str());
        if (tag != Work || i < 0)
            return;
        try {
            const SweepCell& cell = job.runs[size_t(i)];
            RunContext ctx(cell.seed, job.engineThreads);
            ResultDocument d = job.runFn(job.plan->paramsOf(job.base, cell), ctx);
            mpi.send(0, Result, std::to_string(i) + "\n" + toJson(d));
        } catch (...) {
            mpi.send(0, Failed, failureText(std::current_exception()));
            return;
        }
    }
}

} // namespace pl::cli
