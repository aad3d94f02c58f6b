// Without libcurl the tools run on URLSession, which on Linux takes only the environment's proxy (the transports
// article says so), so these run where the tools' transport is curl.
#if canImport(CCurl)
import Foundation
import TestSupport
import Testing

/// `--proxy` and the environment's proxy, for both tools, through tinyproxy.
@Suite("Tools through a proxy", .enabled(if: TestServer.replica.isUsable))
struct ProxyOptionTests {
    func env(_ name: String) throws -> String {
        try #require(TestServer.environment(name), "\(name) is not set: run the tests with scripts/test")
    }

    func proxyURL(password: String? = nil) throws -> String {
        let address = try env("ERRAND_PROXY_URL").replacingOccurrences(of: "http://", with: "")
        return "http://\(try env("ERRAND_PROXY_USER")):\(try password ?? env("ERRAND_PROXY_PASSWORD"))@\(address)"
    }

    func proxyLog() throws -> String {
        (try? String(contentsOfFile: env("SERVERS_STATE") + "/tinyproxy.log", encoding: .utf8)) ?? ""
    }

    @Test("--proxy sends the tools' requests through the proxy; --verbose shows it, the password masked")
    func proxyOption() async throws {
        let password = try env("ERRAND_PROXY_PASSWORD")
        for (name, command) in [("mealdb", ["search"]), ("met", ["search"])] {
            let marker = "proxied\(UUID().uuidString.prefix(8))"
            let outcome = try await ToolProcess(name).run(
                command + [marker, "--no-cache", "--verbose", "--proxy", proxyURL(), "--base-url", Replica.root()])
            #expect(outcome.status == 0, "\(outcome)")
            #expect(try proxyLog().contains(marker))
            #expect(outcome.stderr.contains("proxy: http via http://errand:***@"))
            #expect(outcome.stderr.contains("(from --proxy)"))
            #expect(!outcome.stderr.contains(password) && !outcome.stdout.contains(password))
        }
    }

    @Test("the environment's http_proxy is honoured, and --proxy \"\" turns it off")
    func environmentProxy() async throws {
        let tool = try ToolProcess("mealdb")
        let environment = ["http_proxy": try proxyURL()]
        let marker = "envproxy\(UUID().uuidString.prefix(8))"
        let proxied = try await tool.run(
            ["search", marker, "--no-cache", "--verbose", "--base-url", Replica.root()], environment: environment)
        #expect(proxied.status == 0, "\(proxied)")
        #expect(proxied.stderr.contains("(from environment)"))
        #expect(try proxyLog().contains(marker))
        let direct = "direct\(UUID().uuidString.prefix(8))"
        let off = try await tool.run(
            ["search", direct, "--no-cache", "--proxy", "", "--base-url", Replica.root()], environment: environment)
        #expect(off.status == 0, "\(off)")
        #expect(try !proxyLog().contains(direct))
    }

    @Test("a proxy that refuses the password fails with a sentence; a bad --proxy is a usage error, masked")
    func refusalsAndMistakes() async throws {
        let tool = try ToolProcess("mealdb")
        let refused = try await tool.run(
            [
                "search", "pasta", "--no-cache", "--proxy", proxyURL(password: "wrong-secret"), "--base-url",
                Replica.root(),
            ])
        #expect(refused.status != 0)
        #expect(refused.stderr.localizedCaseInsensitiveContains("proxy") || refused.stderr.contains("401"))
        #expect(!refused.stderr.contains("wrong-secret"))
        let mistaken = try await tool.run(["search", "pasta", "--proxy", "gopher://me:hunter2@proxy:70"])
        #expect(mistaken.status == 2, "\(mistaken)")
        #expect(mistaken.stderr.contains("gopher://***@proxy:70"))
        #expect(!mistaken.stderr.contains("hunter2"))
    }
}
#endif
