// libFuzzer target: pl::Session::read (the real file path: QFile + QJsonDocument + validation)
// must accept or refuse any bytes with a message, never crash; what it accepts must write back.
#include "sdk/Session.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {
QTemporaryDir* tempDir() {
    static QTemporaryDir* dir = new QTemporaryDir; // leaked on purpose: lives for the process
    return dir;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QString path = tempDir()->filePath(QStringLiteral("in.paperlab.json"));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    }
    pl::Session s;
    QString error;
    if (pl::Session::read(path, &s, &error)) {
        if (!s.write(tempDir()->filePath(QStringLiteral("out.paperlab.json")), &error))
            std::abort();
    } else if (error.isEmpty()) {
        std::abort(); // a refusal must say why
    }
    return 0;
}
