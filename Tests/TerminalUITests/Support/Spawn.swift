import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program and waits for it on a thread of its own (`waitpid` blocks that thread, never Swift's cooperative
/// pool), its standard output written to a file; returns the exit status and the output.
enum Spawn {
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) async throws -> (
        status: Int32, output: String
    ) {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 1, outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                let argv = ([executable] + arguments).map { strdup($0) } + [nil]
                let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
                defer { for pointer in argv + envp { free(pointer) } }
                // The child starts with no signal blocked and the usual dispositions, whatever this thread inherited.
                var attributes = posix_spawnattr_t()
                posix_spawnattr_init(&attributes)
                defer { posix_spawnattr_destroy(&attributes) }
                var none = sigset_t()
                sigemptyset(&none)
                var defaults = sigset_t()
                sigemptyset(&defaults)
                for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGWINCH] { sigaddset(&defaults, number) }
                posix_spawnattr_setsigmask(&attributes, &none)
                posix_spawnattr_setsigdefault(&attributes, &defaults)
                posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
                var pid = pid_t()
                let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
                guard spawned == 0 else {
                    continuation.resume(throwing: POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO))
                    return
                }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                continuation.resume(returning: (status >> 8) & 0xFF)
            }
            thread.start()
        }
        let output = (try? Data(contentsOf: outputURL)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return (status, output)
    }
}
