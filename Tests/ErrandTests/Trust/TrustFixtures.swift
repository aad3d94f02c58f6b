import Foundation
import TestSupport

@testable import Errand

/// The certificates the harness's CA made (scripts/lib/servers.sh, connectivity.sh), and openssl to check against.
enum TrustFixtures {
    /// Whether the harness's TLS folder is there, or this is CI (where its absence fails the test).
    static var isUsable: Bool {
        if TestServer.environment("ERRAND_TEST_CLIENT_TLS") != nil || TestServer.isCI { return true }
        print("skipping: ERRAND_TEST_CLIENT_TLS is not set; run the tests with scripts/test to make the certificates")
        return false
    }

    /// A file of the harness's TLS folder.
    static func file(_ name: String) throws -> URL {
        guard let folder = TestServer.environment("ERRAND_TEST_CLIENT_TLS") else {
            throw ConnectivityServers.Missing(variable: "ERRAND_TEST_CLIENT_TLS")
        }
        return URL(fileURLWithPath: folder).appendingPathComponent(name)
    }

    /// The DER of the first certificate in a PEM file of the folder.
    static func der(_ name: String) throws -> [UInt8] {
        let blocks = PEMBlocks.certificates(in: try String(contentsOf: file(name), encoding: .utf8))
        guard let first = blocks.first, let der = first else { throw NoCertificate(file: name) }
        return [UInt8](der)
    }

    struct NoCertificate: Error { let file: String }

    /// The pin openssl computes for a PEM certificate, the pipeline the documentation gives.
    static func opensslPin(_ name: String) async throws -> String {
        let path = try file(name).path
        let script =
            "openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der"
            + " | openssl dgst -sha256 -binary | openssl base64 -A"
        return "sha256//" + (try await run("/bin/sh", ["-c", script])).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// openssl's SHA-256 of `bytes`, through a temporary file.
    static func opensslSHA256(_ bytes: [UInt8]) async throws -> [UInt8] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("errand-sha256-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let hex = try await run("/usr/bin/env", ["openssl", "dgst", "-sha256", "-r", url.path])
        return stride(from: 0, to: 64, by: 2).compactMap { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
        }
    }

    /// Runs a program and returns what it printed (a few lines at most: the pipe is read after it exits).
    static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        let process = ChildProcess()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        for await _ in exited.stream {}
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
