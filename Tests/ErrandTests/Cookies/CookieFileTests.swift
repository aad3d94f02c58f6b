@testable import Errand
import ErrandTesting
import Foundation
import Testing

/// A jar persisted in SQLite: what survives reopening, and the care over the file the cache's store takes.
@Suite("Cookie jar file")
struct CookieFileTests {
    let folder: URL
    let clock = ManualClock()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("errand-cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func open(_ name: String = "cookies.sqlite") throws -> CookieJar {
        try CookieJar(fileURL: folder.appendingPathComponent(name), publicSuffixes: .singleLabel, clock: clock)
    }

    let site = URL(string: "https://example.com/app/page")!

    @Test func persistentCookiesSurviveReopeningAndSessionCookiesDoNot() throws {
        do {
            let jar = try open()
            try jar.receive(setCookie: "keep=1; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax", from: site)
            try jar.receive(setCookie: "session=1", from: site)
            try jar.receive(setCookie: "__Host-x=2; Secure; Path=/; Max-Age=60", from: site)
            #expect(jar.cookies.count == 3)
        }
        let reopened = try open()
        #expect(reopened.cookies.map(\.name).sorted() == ["__Host-x", "keep"])
        let keep = try #require(reopened.cookies.first { $0.name == "keep" })
        #expect(keep.isHTTPOnly && keep.sameSite == .lax && keep.path == "/" && keep.isHostOnly)
        // Equal paths go in the order they were set, which the file keeps.
        #expect(reopened.headerValue(for: site) == "keep=1; __Host-x=2")
    }

    @Test func changesAndRemovalsAreWrittenThrough() throws {
        do {
            let jar = try open()
            try jar.receive(setCookie: "a=1; Max-Age=3600", from: site)
            try jar.receive(setCookie: "b=1; Max-Age=3600", from: site)
            try jar.receive(setCookie: "a=2; Max-Age=3600", from: site)
            try jar.receive(setCookie: "b=gone; Max-Age=0", from: site)
        }
        #expect(try open().cookies.map(\.value) == ["2"])
        try open().removeAll()
        #expect(try open().cookies.isEmpty)
    }

    @Test func cookiesThatExpiredWhileClosedAreGoneFromTheFile() throws {
        // Both jars read one timeline, so the second opens the file 11 s after the first wrote it.
        let timeline = Timeline(clock)
        let file = folder.appendingPathComponent("cookies.sqlite")
        do {
            let jar = try CookieJar(fileURL: file, limits: .init(), publicSuffixes: .singleLabel, timeline: timeline)
            try jar.receive(setCookie: "short=1; Max-Age=10", from: site)
            try jar.receive(setCookie: "long=1; Max-Age=1000", from: site)
        }
        clock.advance(by: .seconds(11))
        let later = try CookieJar(fileURL: file, limits: .init(), publicSuffixes: .singleLabel, timeline: timeline)
        #expect(later.cookies.map(\.name) == ["long"])
        // A jar on today's date would still see `short`, had opening the file not removed it.
        #expect(try open().cookies.map(\.name) == ["long"])
    }

    @Test func aSymbolicLinkIsRefused() throws {
        let target = folder.appendingPathComponent("elsewhere")
        try Data("precious".utf8).write(to: target)
        let link = folder.appendingPathComponent("link.sqlite")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect {
            _ = try CookieJar(fileURL: link)
        } throws: { error in
            (error as? CookieStorageError)?.kind == .symbolicLink
        }
        #expect(try Data(contentsOf: target) == Data("precious".utf8))
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndKept() throws {
        let path = folder.appendingPathComponent("garbage.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: path)
        #expect {
            _ = try open("garbage.sqlite")
        } throws: { error in
            (error as? CookieStorageError)?.description.contains("garbage.sqlite") == true
        }
        #expect(try Data(contentsOf: path) == Data(repeating: 0x41, count: 8192))
    }

    @Test func theFileIsReadableByItsOwnerAlone() throws {
        _ = try open()
        let attributes = try FileManager.default.attributesOfItem(
            atPath: folder.appendingPathComponent("cookies.sqlite").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
