// Standalone driver for the fuzz targets in builds without libFuzzer: runs
// LLVMFuzzerTestOneInput once per file given (directories are expanded; "--ext .json" keeps only
// files with that suffix). Used by the fuzz_replay_* tests to replay the seed corpora and the
// crash reproducers in tests/data/bad/ in every build, sanitizer builds included.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::string ext;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--ext" && i + 1 < argc) {
            ext = argv[++i];
            continue;
        }
        const fs::path p(a);
        if (fs::is_directory(p)) {
            for (const auto& e : fs::directory_iterator(p))
                if (e.is_regular_file())
                    files.push_back(e.path());
        } else {
            files.push_back(p);
        }
    }
    int n = 0;
    for (const fs::path& f : files) {
        if (!ext.empty() && f.extension() != ext)
            continue;
        std::ifstream in(f, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
        ++n;
    }
    std::printf("replayed %d inputs\n", n);
    return n > 0 ? 0 : 1;
}
