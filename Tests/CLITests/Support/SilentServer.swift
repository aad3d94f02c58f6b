import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that accepts connections (the kernel's backlog does) and never answers: requests to it
/// time out. Closed when the value is released.
final class SilentServer: @unchecked Sendable {
    // Unchecked: the descriptor is written once in init and only read afterwards (close in deinit).
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try LoopbackListener.open(backlog: 16)
    }

    var root: String { "http://127.0.0.1:\(port)" }

    deinit { close(descriptor) }
}

/// A port on 127.0.0.1 with nothing listening: connections are refused.
func closedPort() throws -> String {
    let server = try SilentServer()
    let root = "http://127.0.0.1:\(server.port)"
    _ = server  // released at the end of this scope, closing the port
    return root
}
