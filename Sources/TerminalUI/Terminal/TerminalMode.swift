#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal put into full-screen mode — raw input, the alternate screen, a hidden cursor, mouse wheel reports —
/// and given back as it was on every way out.
///
/// ``restore()`` runs at a normal exit (an `atexit` handler, so `exit` from anywhere restores too), when the app
/// quits, on SIGTERM and SIGHUP (``TerminalEvents``), on SIGINT (whose handler exits), when writing to the terminal fails, and on a crash
/// (SIGSEGV, SIGILL, SIGTRAP, SIGBUS, SIGABRT: the handler restores, then lets the signal kill the process as
/// before). It only uses `write` and `tcsetattr`, which are safe inside a signal handler.
public enum TerminalMode {
    // The settings found at entry, written once by `enter` before any handler is installed and read by `restore`,
    // which may run in a signal handler: no lock is possible there, and the value never changes after entry.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var isActive = false

    /// Leaves the alternate screen, shows the cursor, turns the mouse reports off and resets the colours.
    static let leaveSequence: [UInt8] = Array("\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)
    /// Enters the alternate screen, hides the cursor, asks for mouse button (wheel) reports in SGR form.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[2J"

    /// Whether standard input and output are both a terminal.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Enters full-screen mode; `false` when the terminal's settings cannot be read.
    public static func enter() -> Bool {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return false }
        var raw = saved
        // Raw input: no echo, no line editing, no signals from Ctrl-C (it arrives as a key), no CR translation.
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
        isActive = true
        atexit { TerminalMode.restore() }
        for fatal in [SIGSEGV, SIGILL, SIGTRAP, SIGBUS, SIGABRT, SIGFPE] {
            signal(fatal) { number in
                TerminalMode.restore()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
        _ = enterSequence.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
        return true
    }

    /// Gives the terminal back as it was found; does nothing when it is not in full-screen mode.
    public static func restore() {
        guard isActive else { return }
        isActive = false
        _ = leaveSequence.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }
}
