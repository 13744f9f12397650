#pragma once
/// The message passing that `paperlab sweep` needs under an MPI launcher (mpirun, srun), behind a
/// plain C++ interface so that the executable never links MPI: the optional module
/// libpaperlab_mpi.so (app/cli/mpi, built when CMake finds MPI) implements it and is opened only
/// when the process was started by a launcher with more than one rank. Main thread only (the
/// module initialises MPI with MPI_THREAD_FUNNELED: other threads compute, only this one talks).

#include <string>

namespace pl::cli {

class MpiTransport {
public:
    /// Finalises MPI.
    virtual ~MpiTransport() = default;
    /// This process's rank in MPI_COMM_WORLD, 0-based.
    virtual int rank() const = 0;
    /// Number of ranks.
    virtual int size() const = 0;
    /// Sends `bytes` with `tag` to rank `to`; returns when the buffer may be reused.
    virtual void send(int to, int tag, const std::string& bytes) = 0;
    /// Receives one waiting message from any rank, if there is one: true and its sender, tag and
    /// bytes; false at once otherwise.
    virtual bool poll(int* from, int* tag, std::string* bytes) = 0;
    /// Waits for the next message from rank `from`.
    virtual void receive(int from, int* tag, std::string* bytes) = 0;
    /// Ends every rank of the job with `code` (MPI_Abort); does not return.
    [[noreturn]] virtual void abort(int code) = 0;
};

} // namespace pl::cli

/// Version of the interface above; the module refuses another.
inline constexpr int kPaperlabMpiVersion = 1;
/// The module's entry point: initialises MPI (no argc/argv: launchers pass what MPI needs in the
/// environment) and returns a transport
/// owned by the caller, or nullptr with a message in *error (a buffer of errorSize bytes).
using PaperlabMpiEntry = pl::cli::MpiTransport* (*)(int version, char* error, int errorSize);
#define PAPERLAB_MPI_ENTRY "paperlab_mpi_open"
