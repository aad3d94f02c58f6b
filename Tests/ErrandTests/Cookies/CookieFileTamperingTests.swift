@testable import Errand
import ErrandTesting
import Foundation
import TestSupport
import Testing

/// A jar file changed behind the jar's back: every row passes a server cookie's rules before it can reach a request,
/// and no stored number reaches a conversion that traps. Rows are written with SQLite's C API, as another program
/// would.
@Suite("Cookie jar file, tampered")
struct CookieFileTamperingTests {
    let folder: URL
    let clock = ManualClock()
    let timeline: Timeline

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("errand-tamper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        timeline = Timeline(clock)
    }

    var file: URL { folder.appendingPathComponent("cookies.sqlite") }

    func open() throws -> CookieJar {
        try CookieJar(
            fileURL: file, limits: .init(), publicSuffixes: PublicSuffixList(text: "com\n"), timeline: timeline)
    }

    /// A row as another program would write it: straight into the table, past every rule of the jar.
    struct Row {
        var name = "ok"
        var value = "1"
        var domain = "127.0.0.1"
        var hostOnly = 1
        var path = "/"
        var expires: Double? = nil
        var created: Double? = nil
        var accessed: Double? = nil
    }

    func write(_ rows: [Row]) throws {
        _ = try open()
        let connection = try SQLiteConnection(path: file.path)
        let now = timeline.date.timeIntervalSince1970
        for row in rows {
            try connection.query(
                """
                INSERT OR REPLACE INTO cookies (name, domain, host_only, path, value, expires, secure, http_only,
                    same_site, created, accessed)
                VALUES (?, ?, ?, ?, ?, ?, 0, 0, '', ?, ?)
                """,
                [
                    .text(row.name), .text(row.domain), .integer(Int64(row.hostOnly)), .text(row.path),
                    .text(row.value), .real(row.expires ?? now + 3600), .real(row.created ?? now),
                    .real(row.accessed ?? now),
                ])
        }
    }

    func rowCount() throws -> Int64 {
        var count: Int64 = -1
        try SQLiteConnection(path: file.path).query("SELECT count(*) FROM cookies") { count = $0.integer(0) }
        return count
    }

    @Test(arguments: TransportKind.allCases)
    func aRowWhoseValueHoldsCRLFPutsNoHeaderOnTheWire(transport: TransportKind) async throws {
        try write([
            Row(name: "evil", value: "x\r\nX-Injected: yes"),
            Row(name: "evil2\r\nX-Injected: name", value: "1"),
            Row(name: "semi", value: "a; admin=1"),
            Row(name: "path", path: "/\r\nX-Injected: path"),
            Row(name: "fine", value: "kept"),
        ])
        let server = try HostileServer(head: ["HTTP/1.1 200 OK", "Content-Length: 0", "Connection: close"])
        var configuration = ClientConfiguration(baseURL: server.url(), transport: transport.make())
        configuration.cookies = try open()
        _ = try await APIClient(configuration: configuration).send(Request<Data>(url: server.url("/page")))
        let head = try #require(server.requestHeads.first)
        let lines = head.components(separatedBy: "\r\n")
        #expect(!head.lowercased().contains("x-injected"), "\(head)")
        #expect(lines.filter { $0.lowercased().hasPrefix("cookie:") } == ["Cookie: fine=kept"], "\(head)")
        // The refused rows are gone from the file; the good one stays.
        #expect(try rowCount() == 1)
    }

    @Test func hugeAndImpossibleNumbersNeitherTrapNorOutliveTheCap() throws {
        try write([
            Row(name: "far", expires: 1e308), Row(name: "infinite", expires: .infinity),
            Row(name: "past", expires: -.infinity), Row(name: "future", created: 1e300, accessed: 1e300),
        ])
        let jar = try open()
        let now = jar.now
        #expect(jar.cookies.map(\.name).sorted() == ["far", "future", "infinite"])
        for cookie in jar.cookies {
            let expires = try #require(cookie.expires)
            #expect(expires <= now.addingTimeInterval(400 * 86_400), "\(cookie.name)")
            #expect(cookie.created <= now.addingTimeInterval(60) && cookie.lastAccessed <= now, "\(cookie.name)")
        }
        // The export that once trapped on 1e308 writes a whole number of seconds.
        let lines = jar.netscapeFile().split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(lines.count == 3)
        for line in lines {
            let seconds = try #require(Int64(line.split(separator: "\t")[4]))
            #expect(Double(seconds) <= now.timeIntervalSince1970 + 400 * 86_400)
        }
        // The capped expiries are written back, so the file no longer holds a number past the cap.
        var latest = 0.0
        try SQLiteConnection(path: file.path).query("SELECT max(expires) FROM cookies") { latest = $0.real(0) }
        #expect(latest <= now.timeIntervalSince1970 + 400 * 86_400)
    }

    @Test func rowsTheDomainRulesRefuseAreDropped() throws {
        try write([
            Row(name: "tld", domain: "com", hostOnly: 0), Row(name: "tlddot", domain: ".com.", hostOnly: 0),
            Row(name: "spaces", domain: "exa mple.org"), Row(name: "empty", domain: ""),
            Row(name: "ip", domain: "127.0.0.1", hostOnly: 0), Row(name: "upper", domain: "Example.ORG", hostOnly: 0),
            Row(name: "relative", path: "nope"), Row(name: "long", path: "/" + String(repeating: "p", count: 2000)),
            Row(name: "", value: ""), Row(name: "a=b", value: "1"),
        ])
        let jar = try open()
        #expect(jar.cookies.map(\.name).sorted() == ["ip", "upper"])
        #expect(jar.cookies.first { $0.name == "ip" }?.isHostOnly == true)
        #expect(jar.cookies.first { $0.name == "upper" }?.domain == "example.org")
        #expect(jar.headerValue(for: URL(string: "http://1.127.0.0.1/")!) == nil)
        // What was rewritten is read the same way the next time, and what was refused is gone.
        #expect(try open().cookies.map(\.domain).sorted() == ["127.0.0.1", "example.org"])
        #expect(try rowCount() == 2)
    }

    @Test func aTimeThatIsNotANumberRefusesACallersCookie() throws {
        let jar = try open()
        let nan = Date(timeIntervalSinceReferenceDate: .nan)
        for cookie in [
            Cookie(name: "a", value: "1", domain: "e.com", expires: nan),
            Cookie(name: "b", value: "1", domain: "e.com", created: nan),
        ] {
            #expect(throws: CookieRejection.malformed) { try jar.add(cookie) }
        }
        try jar.add(Cookie(name: "c", value: "1", domain: "e.com", expires: .distantFuture))
        #expect(try #require(jar.cookies.first?.expires) <= jar.now.addingTimeInterval(400 * 86_400))
        #expect(jar.netscapeFile().contains("\tc\t1\n"))
    }
}
