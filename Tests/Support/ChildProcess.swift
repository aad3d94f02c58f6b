import Foundation

#if canImport(Glibc)
import Glibc

/// A program the tests start, with the part of Foundation's `Process` interface they use, started with
/// `posix_spawn` directly.
///
/// On Linux, Foundation's `Process.run()` looks for the highest open descriptor by copying each `/proc/self/fd`
/// entry's whole 256-byte name field out of glibc's directory buffer; when a short entry is the last one before an
/// unmapped page, the copy reads past it and the test process dies of a bad pointer dereference (seen here about once
/// in a few full runs with Swift 6.3.1; swift-corelibs-foundation pull request 5472). This type closes the child's
/// other descriptors with `posix_spawn_file_actions_addclosefrom_np` instead, and reaps the child on a thread of its
/// own (never on Swift's pool). On Apple platforms `ChildProcess` is Foundation's `Process`, which has no such scan.
///
/// As with `Process`: a standard stream may be a `Pipe` (the child's end is closed in this process once the child
/// has started), a `FileHandle` (`FileHandle.nullDevice` and `nil` are `/dev/null`); a stream left unset is
/// inherited. The child starts in a process group of its own, with no signal blocked and every signal at its default
/// action (this process's threads block or ignore some); `terminationHandler` runs on the reaping thread once the
/// status is known.
public final class ChildProcess: @unchecked Sendable {
    // Unchecked: the settings are written before `run()` by the one task that owns the process and only read after;
    // the phase, which changes once it runs, is read and written with `lock` held (an `NSLock`, a pthread mutex that
    // ThreadSanitizer follows, where Synchronization's futex-based `Mutex` would read as racing).

    /// How the child ended.
    public enum TerminationReason: Sendable {
        /// It exited; `terminationStatus` is its exit code.
        case exit
        /// A signal killed it; `terminationStatus` is the signal's number.
        case uncaughtSignal
    }

    /// The program; its path is also the child's `argv[0]`.
    public var executableURL: URL?
    /// The arguments after `argv[0]`.
    public var arguments: [String]?
    /// The child's whole environment; `nil` passes this process's.
    public var environment: [String: String]?
    /// The child's working directory; `nil` keeps this process's.
    public var currentDirectoryURL: URL?
    /// A `Pipe`, a `FileHandle` or `nil` (`/dev/null`); inherited when never set.
    public var standardInput: Any? = Inherited.stream
    /// A `Pipe`, a `FileHandle` or `nil` (`/dev/null`); inherited when never set.
    public var standardOutput: Any? = Inherited.stream
    /// A `Pipe`, a `FileHandle` or `nil` (`/dev/null`); inherited when never set.
    public var standardError: Any? = Inherited.stream
    /// Called once, on the reaping thread, after the child has ended.
    public var terminationHandler: (@Sendable (ChildProcess) -> Void)?

    private enum Phase {
        case notStarted
        case running(pid: pid_t)
        case ended(pid: pid_t, status: Int32, reason: TerminationReason)
    }

    private let lock = NSLock()
    private var guardedPhase = Phase.notStarted
    private var phase: Phase {
        get { lock.withLock { guardedPhase } }
        set { lock.withLock { guardedPhase = newValue } }
    }
    private let exited = DispatchGroup()

    /// A process that has not started.
    public init() {}

    /// The child's process identifier, or 0 before `run()`.
    public var processIdentifier: Int32 {
        switch phase {
        case .notStarted: 0
        case .running(let pid), .ended(let pid, _, _): pid
        }
    }

    /// Whether the child has started and not yet been reaped.
    public var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    /// The exit code or the killing signal; traps before the child has ended, as `Process` does.
    public var terminationStatus: Int32 {
        guard case .ended(_, let status, _) = phase else { preconditionFailure("still running") }
        return status
    }

    /// Whether the child exited or was killed; traps before the child has ended.
    public var terminationReason: TerminationReason {
        guard case .ended(_, _, let reason) = phase else { preconditionFailure("still running") }
        return reason
    }

    /// Starts the child; throws the `posix_spawn` error (a missing program is `ENOENT`).
    public func run() throws {
        guard case .notStarted = phase else { throw POSIXError(.EBUSY) }
        guard let path = executableURL?.path else { throw POSIXError(.ENOENT) }
        let closeFrom = try Spawn.function(Spawn.CloseFrom.self, "posix_spawn_file_actions_addclosefrom_np")

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        try Spawn.check(posix_spawnattr_setpgroup(&attributes, 0))

        // Every signal at its default and none blocked, whatever this process's threads ignore or block.
        var signals = sigset_t()
        sigemptyset(&signals)
        try Spawn.check(posix_spawnattr_setsigmask(&attributes, &signals))
        sigfillset(&signals)
        try Spawn.check(posix_spawnattr_setsigdefault(&attributes, &signals))
        try Spawn.check(
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)))

        // `FileHandle.nullDevice` has no descriptor of its own on Linux: /dev/null is opened for the child here.
        let nullDevice = Glibc.open("/dev/null", O_RDWR | O_CLOEXEC)
        guard nullDevice >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(nullDevice) }
        var parentsCopies: [FileHandle] = []
        for (stream, target, reads) in [
            (standardInput, STDIN_FILENO, true), (standardOutput, STDOUT_FILENO, false),
            (standardError, STDERR_FILENO, false),
        ] {
            let source: Int32?
            switch stream {
            case let pipe as Pipe:
                let childEnd = reads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                source = childEnd.fileDescriptor
                parentsCopies.append(childEnd)
            case let handle as FileHandle where handle === FileHandle.nullDevice: source = nullDevice
            case let handle as FileHandle: source = handle.fileDescriptor
            case let inherited as Inherited where inherited == .stream: source = nil
            case nil: source = nullDevice
            default: throw POSIXError(.EINVAL)
            }
            if let source, source != target {
                try Spawn.check(posix_spawn_file_actions_adddup2(&actions, source, target))
            }
        }
        try Spawn.check(closeFrom(&actions, 3))
        if let directory = currentDirectoryURL?.path {
            let changeDirectory = try Spawn.function(Spawn.ChangeDirectory.self, "posix_spawn_file_actions_addchdir_np")
            try Spawn.check(directory.withCString { changeDirectory(&actions, $0) })
        }

        let argv = ([path] + (arguments ?? [])).map { strdup($0) }
        let environmentLines = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let envp = environmentLines.map { $0.map { strdup($0) } }
        defer {
            for line in argv + (envp ?? []) { free(line) }
        }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            let argvPointer = UnsafeMutablePointer(mutating: argvBuffer.baseAddress!)
            guard let envp else { return posix_spawn(&pid, path, &actions, &attributes, argvPointer, environ) }
            return (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                posix_spawn(
                    &pid, path, &actions, &attributes, argvPointer,
                    UnsafeMutablePointer(mutating: envpBuffer.baseAddress!)
                )
            }
        }
        try Spawn.check(result)
        // The child has its own copies of its pipe ends: close ours, so that a reader sees the end when it exits.
        var closed = Set<Int32>()
        for handle in parentsCopies where closed.insert(handle.fileDescriptor).inserted {
            try? handle.close()
        }
        let child = pid
        exited.enter()
        phase = .running(pid: child)
        let reaper = Thread { [self] in reap(child) }
        reaper.name = "child-reaper"
        reaper.start()
    }

    /// Blocks the calling thread until the child has been reaped (not for use on Swift's pool in async code).
    public func waitUntilExit() {
        guard processIdentifier != 0 else { return }
        exited.wait()
    }

    /// Sends SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Sends SIGINT.
    public func interrupt() { signal(SIGINT) }

    private func signal(_ number: Int32) {
        guard case .running(let pid) = phase else { return }
        kill(pid, number)
    }

    private func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signalled = status & 0x7f
        let ended: Phase =
            signalled == 0
            ? .ended(pid: pid, status: (status >> 8) & 0xff, reason: .exit)
            : .ended(pid: pid, status: signalled, reason: .uncaughtSignal)
        phase = ended
        exited.leave()
        terminationHandler?(self)
    }

    /// The value a standard stream holds until a test sets it: inherit this process's.
    public enum Inherited: Sendable { case stream }
}

/// The glibc extensions Swift's Glibc module leaves out (they need `_GNU_SOURCE`), found at run time.
private enum Spawn {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static func function<F>(_: F.Type, _ name: String) throws -> F {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { throw POSIXError(.ENOSYS) }
        return unsafeBitCast(symbol, to: F.self)
    }

    static func check(_ result: Int32) throws {
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
    }
}
#else
/// Foundation's `Process`: on Apple platforms it starts children without the descriptor scan that makes Linux's
/// trap (see the Linux declaration).
public typealias ChildProcess = Process
#endif
