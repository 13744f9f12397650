#include "LogConsole.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QList>
#include <QMutex>
#include <QPlainTextEdit>
#include <QPointer>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <deque>

namespace pl::gui {

struct LogConsole::Entry {
    QDateTime time;
    QtMsgType type = QtInfoMsg;
    QString category;
    QString text;
};

namespace {

constexpr size_t kMaxEntries = 5000;

// GUI-thread-only state.
std::deque<LogConsole::Entry>& buffer() {
    static std::deque<LogConsole::Entry> entries;
    return entries;
}
QList<QPointer<LogConsole>>& consoles() {
    static QList<QPointer<LogConsole>> list;
    return list;
}

QtMessageHandler g_previous = nullptr;
bool g_installed = false;
thread_local bool t_inHandler = false;

int severity(QtMsgType t) {
    switch (t) {
    case QtDebugMsg:
        return 0;
    case QtInfoMsg:
        return 1;
    case QtWarningMsg:
        return 2;
    case QtCriticalMsg:
        return 3;
    case QtFatalMsg:
        return 4;
    }
    return 1;
}

const char* levelName(QtMsgType t) {
    switch (t) {
    case QtDebugMsg:
        return "debug";
    case QtInfoMsg:
        return "info";
    case QtWarningMsg:
        return "warning";
    case QtCriticalMsg:
        return "error";
    case QtFatalMsg:
        return "fatal";
    }
    return "info";
}

void handler(QtMsgType type, const QMessageLogContext& ctx, const QString& msg) {
    if (g_previous)
        g_previous(type, ctx, msg);
    if (t_inHandler || type == QtFatalMsg)
        return;
    t_inHandler = true;
    LogConsole::post(type, QString::fromLatin1(ctx.category ? ctx.category : "default"), msg);
    t_inHandler = false;
}

} // namespace

LogConsole::LogConsole(QWidget* parent) : QWidget(parent) {
    installMessageHandler();
    setObjectName(QStringLiteral("LogConsole"));

    m_view = new QPlainTextEdit(this);
    m_view->setReadOnly(true);
    m_view->setMaximumBlockCount(int(kMaxEntries));
    m_view->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    m_view->setFont(mono);

    m_level = new QComboBox(this);
    m_level->addItem(tr("Debug and above"), 0);
    m_level->addItem(tr("Info and above"), 1);
    m_level->addItem(tr("Warnings and errors"), 2);
    m_level->addItem(tr("Errors only"), 3);
    m_level->setCurrentIndex(1);
    m_level->setToolTip(tr("Lowest level shown"));

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter text or category"));
    m_filter->setClearButtonEnabled(true);

    auto* copy = new QToolButton(this);
    copy->setText(tr("Copy"));
    copy->setToolTip(tr("Copy the shown lines to the clipboard"));
    auto* clear = new QToolButton(this);
    clear->setText(tr("Clear"));
    clear->setToolTip(tr("Remove all messages"));

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_level);
    bar->addWidget(m_filter, 1);
    bar->addWidget(copy);
    bar->addWidget(clear);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_level, &QComboBox::currentIndexChanged, this, &LogConsole::rebuild);
    connect(m_filter, &QLineEdit::textChanged, this, &LogConsole::rebuild);
    connect(clear, &QToolButton::clicked, this, &LogConsole::clearAll);
    connect(copy, &QToolButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_view->toPlainText()); });

    consoles().append(QPointer<LogConsole>(this));
    rebuild();
}

LogConsole::~LogConsole() {
    consoles().removeAll(QPointer<LogConsole>(this));
    consoles().removeAll(QPointer<LogConsole>());
}

void LogConsole::installMessageHandler() {
    if (g_installed)
        return;
    g_installed = true;
    g_previous = qInstallMessageHandler(&handler);
}

void LogConsole::post(QtMsgType type, const QString& category, const QString& text) {
    QCoreApplication* app = QCoreApplication::instance();
    if (!app)
        return;
    Entry e{QDateTime::currentDateTime(), type, category, text};
    QMetaObject::invokeMethod(
        app, [e] { deliver(e); }, Qt::QueuedConnection);
}

int LogConsole::bufferedCount() {
    return int(buffer().size());
}

void LogConsole::deliver(const Entry& e) {
    auto& buf = buffer();
    buf.push_back(e);
    while (buf.size() > kMaxEntries)
        buf.pop_front();
    for (const QPointer<LogConsole>& c : consoles())
        if (c)
            c->appendEntry(e);
}

QString LogConsole::format(const Entry& e) {
    return QStringLiteral("%1  %2  %3  %4")
        .arg(e.time.toString(QStringLiteral("HH:mm:ss.zzz")),
             QString::fromLatin1(levelName(e.type)).leftJustified(7), e.category, e.text);
}

bool LogConsole::accepts(const Entry& e) const {
    if (severity(e.type) < m_level->currentData().toInt())
        return false;
    const QString f = m_filter->text().trimmed();
    return f.isEmpty() || e.text.contains(f, Qt::CaseInsensitive) ||
           e.category.contains(f, Qt::CaseInsensitive);
}

void LogConsole::appendEntry(const Entry& e) {
    if (!accepts(e))
        return;
    QScrollBar* sb = m_view->verticalScrollBar();
    const bool atEnd = sb->value() >= sb->maximum() - 2;
    m_view->appendPlainText(format(e));
    if (atEnd)
        sb->setValue(sb->maximum());
}

void LogConsole::rebuild() {
    QStringList lines;
    for (const Entry& e : buffer())
        if (accepts(e))
            lines << format(e);
    m_view->setPlainText(lines.join(QLatin1Char('\n')));
    m_view->verticalScrollBar()->setValue(m_view->verticalScrollBar()->maximum());
}

QString LogConsole::visibleText() const {
    return m_view->toPlainText();
}

void LogConsole::clearAll() {
    buffer().clear();
    for (const QPointer<LogConsole>& c : consoles())
        if (c)
            c->m_view->clear();
}

} // namespace pl::gui
