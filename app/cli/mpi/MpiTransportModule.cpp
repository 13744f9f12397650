// libpaperlab_mpi.so: MpiTransport over MPI (app/cli/MpiTransport.h). The only file that includes
// <mpi.h>; opened by `paperlab sweep` with QLibrary when a launcher started it.

#include "cli/MpiTransport.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace {

class MpiWorld final : public pl::cli::MpiTransport {
public:
    MpiWorld() {
        MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    }
    ~MpiWorld() override { MPI_Finalize(); }

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }

    void send(int to, int tag, const std::string& bytes) override {
        // Payloads are result documents: well under 2 GiB (MPI counts are int).
        if (bytes.size() > size_t(0x7fffffff))
            throw std::runtime_error("MPI message over 2 GiB");
        check(MPI_Send(bytes.data(), int(bytes.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD), "MPI_Send");
    }

    bool poll(int* from, int* tag, std::string* bytes) override {
        int flag = 0;
        MPI_Status st;
        check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st), "MPI_Iprobe");
        if (!flag)
            return false;
        take(st, from, tag, bytes);
        return true;
    }

    void receive(int from, int* tag, std::string* bytes) override {
        MPI_Status st;
        check(MPI_Probe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &st), "MPI_Probe");
        int src = 0;
        take(st, &src, tag, bytes);
    }

    [[noreturn]] void abort(int code) override {
        MPI_Abort(MPI_COMM_WORLD, code);
        std::_Exit(code); // MPI_Abort does not return; in case an implementation does
    }

private:
    static void check(int rc, const char* what) {
        if (rc != MPI_SUCCESS)
            throw std::runtime_error(std::string(what) + " failed");
    }
    /// Receives the message that `st` (a probe) describes.
    void take(const MPI_Status& st, int* from, int* tag, std::string* bytes) {
        int count = 0;
        MPI_Get_count(&st, MPI_CHAR, &count);
        bytes->assign(size_t(count), '\0');
        MPI_Status got;
        check(MPI_Recv(bytes->data(), count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &got),
              "MPI_Recv");
        *from = st.MPI_SOURCE;
        *tag = st.MPI_TAG;
    }

    int m_rank = 0;
    int m_size = 1;
};

} // namespace

extern "C" __attribute__((visibility("default"))) pl::cli::MpiTransport*
paperlab_mpi_open(int version, char* error, int errorSize) {
    if (version != kPaperlabMpiVersion) {
        std::snprintf(error, size_t(errorSize), "libpaperlab_mpi was built for interface %d, not %d",
                      kPaperlabMpiVersion, version);
        return nullptr;
    }
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        std::snprintf(error, size_t(errorSize), "MPI_Init_thread failed");
        return nullptr;
    }
    if (provided < MPI_THREAD_FUNNELED) {
        std::snprintf(error, size_t(errorSize),
                      "this MPI library does not allow threads (MPI_THREAD_FUNNELED)");
        MPI_Finalize();
        return nullptr;
    }
    return new MpiWorld();
}
