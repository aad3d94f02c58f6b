import Errand
import Foundation
import Testing
import TestSupport

/// A body that inflates far beyond the size cap (a decompression bomb) fails at the cap on either transport: the
/// limit counts decoded bytes. With curl, memory stays bounded too; FoundationNetworking inflates ahead of its
/// delegate, so URLSession on Linux may hold the inflated bytes briefly (SECURITY.md says so).
@Suite("Security: decompression bombs stop at the size cap", .serialized)
struct ResponseLimitTests {
    @Test(
        "64 MiB of zeros in ~64 KB of gzip fail with bodyTooLarge at a 1 MB cap",
        .enabled(if: TestServer.fault.isUsable), arguments: TransportKind.allCases)
    func gzipBombInBoundedMemory(kind: TransportKind) async throws {
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: try TestServer.fault.url(), transport: kind.make(), maxResponseBodySize: 1_000_000))
        let before = Self.residentBytes()
        let error = await #expect(throws: ErrandError.self) {
            // gzip asked for by name, so URLSession on Linux does not refuse the answer at its head (it would,
            // asking for identity otherwise) and the cap itself is what stops it.
            try await client.send(
                Request<Data>(
                    path: "gzip-bomb/bomb-\(kind)", query: [QueryItem("mb", "64")], headers: ["Accept-Encoding": "gzip"]
                ))
        }
        guard case .bodyTooLarge(let limit)? = error else {
            Issue.record("expected bodyTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1_000_000)
        if kind != .urlSession, let before, let after = Self.residentBytes() {
            #expect(after - before < 32 << 20, "resident memory grew by \((after - before) >> 20) MiB")
        }
    }

    private static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
