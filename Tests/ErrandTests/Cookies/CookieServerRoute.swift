@testable import Errand
import Foundation
import TestSupport

/// The cookie server's routes (Tests/Servers/cookie_server.py) for one test: URLs under a key of its own, and the
/// `Cookie` field each of its requests carried.
struct CookieServerRoute {
    let key = UUID().uuidString
    let base: URL

    init() throws {
        base = try TestServer.cookie.url()
    }

    /// The same server by another name: 127.0.0.1 and localhost are two hosts to cookies.
    var otherHost: URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        components.host = "localhost"
        return components.url!
    }

    /// `/set/{key}{path}` answering with these `Set-Cookie` fields.
    func set(_ cookies: [String], path: String = "", on host: URL? = nil) -> URL {
        url("set", path, host, cookies.map { URLQueryItem(name: "c", value: $0) })
    }

    /// `/redirect/{key}{path}` to `target`, with these `Set-Cookie` fields.
    func redirect(to target: URL, setting cookies: [String] = [], path: String = "", on host: URL? = nil) -> URL {
        url(
            "redirect", path, host,
            [URLQueryItem(name: "to", value: target.absoluteString)]
                + cookies.map {
                    URLQueryItem(name: "c", value: $0)
                })
    }

    /// `/echo/{key}{path}`: its body is the `Cookie` field it received.
    func echo(_ path: String = "", on host: URL? = nil) -> URL { url("echo", path, host, []) }

    private func url(_ route: String, _ path: String, _ host: URL?, _ query: [URLQueryItem]) -> URL {
        var components = URLComponents(
            url: (host ?? base).appendingPathComponent(route).appendingPathComponent(key),
            resolvingAgainstBaseURL: false)!
        components.percentEncodedPath += path
        if !query.isEmpty {
            // `+`, `;` and `=` are data here: encode everything but the unreserved characters.
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
            components.percentEncodedQuery = query.map {
                $0.name + "=" + ($0.value ?? "").addingPercentEncoding(withAllowedCharacters: allowed)!
            }.joined(separator: "&")
        }
        return components.url!
    }

    /// The path and `Cookie` field (nil when absent) of each request of this key, in order.
    func log() async throws -> [(path: String, cookie: String?)] {
        var components = URLComponents(url: base.appendingPathComponent("__log"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "key", value: key)]
        let data = try await APIClient(baseURL: base).send(Request<Data>(url: components.url!)).value
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return entries.map { ($0["path"] as? String ?? "", $0["cookie"] as? String) }
    }
}
