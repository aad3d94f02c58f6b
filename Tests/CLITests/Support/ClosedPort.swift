import Foundation
import TestSupport

/// A port on 127.0.0.1 with nothing listening: connections are refused.
func closedPort() throws -> String {
    let server = try HostileServer.silent()
    let root = server.root
    _ = server  // released at the end of this scope, closing the port
    return root
}
