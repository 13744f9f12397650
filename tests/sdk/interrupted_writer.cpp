// Helper for tst_interrupted_writes: writes a large session with pl::Session::write (the real
// code path: QSaveFile, atomic rename) to argv[1] over and over, printing "written <n>" after
// each complete write, until it is killed. Every generation is valid and carries its number.
#include "sdk/Session.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: interrupted_writer PATH [PANELS]\n");
        return 1;
    }
    const QString path = QString::fromLocal8Bit(argv[1]);
    const int panels = argc > 2 ? std::atoi(argv[2]) : 400;
    QJsonArray big;
    for (int i = 0; i < 2000; ++i)
        big.append(i * 0.001);
    for (int generation = 1;; ++generation) {
        pl::Session s;
        for (int p = 0; p < panels; ++p)
            s.panels << QJsonObject{{"plugin", "not-installed"},
                                    {"generation", generation},
                                    {"index", p},
                                    {"payload", big}};
        s.layout = QJsonObject{{"generation", generation}};
        QString error;
        if (!s.write(path, &error)) {
            std::fprintf(stderr, "write failed: %s\n", qPrintable(error));
            return 2;
        }
        std::printf("written %d\n", generation);
        std::fflush(stdout);
    }
}
