import Foundation
import TestSupport

/// The connectivity servers scripts/lib/connectivity.sh starts: tinyproxy, the SOCKS5 server, the mutual-TLS and
/// Unix-socket nginx, and the client certificates made for them.
enum ConnectivityServers {
    /// Whether the servers are there, or this is CI (where their absence fails the test).
    static var isUsable: Bool {
        if TestServer.environment("ERRAND_PROXY_URL") != nil || TestServer.isCI { return true }
        print("skipping: ERRAND_PROXY_URL is not set; run the tests with scripts/test to start the servers")
        return false
    }

    static func value(_ name: String) throws -> String {
        guard let value = TestServer.environment(name), !value.isEmpty else {
            throw Missing(variable: name)
        }
        return value
    }

    /// A variable the harness did not set.
    struct Missing: Error, CustomStringConvertible {
        let variable: String
        var description: String { "\(variable) is not set: run the tests with scripts/test" }
    }

    /// tinyproxy's `host:port`.
    static func proxyAddress() throws -> String {
        try value("ERRAND_PROXY_URL").replacingOccurrences(of: "http://", with: "")
    }

    static func proxyUser() throws -> String { try value("ERRAND_PROXY_USER") }
    static func proxyPassword() throws -> String { try value("ERRAND_PROXY_PASSWORD") }

    /// What a tinyproxy logged so far (`tinyproxy` asks for credentials, `tinyproxy-open` does not).
    static func proxyLog(_ name: String = "tinyproxy") throws -> String {
        let path = try value("SERVERS_STATE") + "/\(name).log"
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// The SOCKS5 server's `host:port`.
    static func socksAddress() throws -> String {
        try value("ERRAND_SOCKS_URL").replacingOccurrences(of: "http://", with: "")
    }

    /// The tunnels the SOCKS5 server opened, one JSON object a line.
    static func socksLog() throws -> [[String: String]] {
        let path = try value("SERVERS_STATE") + "/socks5_server-requests.jsonl"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return object.mapValues { "\($0)" }
        }
    }

    static func mutualTLSURL() throws -> URL { try url(value("ERRAND_NGINX_MTLS_URL")) }
    static func socketPath() throws -> String { try value("ERRAND_NGINX_SOCKET") }

    /// A file the harness made in its TLS directory (`client.pem`, `client.key`, `client.pass`, `other.pem`, …).
    static func tlsFile(_ name: String) throws -> URL {
        URL(fileURLWithPath: try value("ERRAND_TEST_CLIENT_TLS")).appendingPathComponent(name)
    }

    private static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw Missing(variable: text) }
        return url
    }
}
