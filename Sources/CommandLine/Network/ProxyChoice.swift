import Errand
import Foundation

/// The proxy a tool's run goes through: `--proxy URL` when given, else the environment's (`http_proxy`,
/// `HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`, read as curl reads them), else none.
public struct ProxyChoice: Sendable {
    /// The settings every request of the run uses.
    public let settings: ProxySettings
    /// Where they come from, for the `--verbose` line: `--proxy`, `environment` or `none`.
    public let origin: String

    /// Reads the choice from an invocation and the environment.
    /// - Throws: ``UsageError`` for a `--proxy` or a proxy variable that is not a proxy URL (password masked).
    public init(invocation: Invocation, environment: [String: String]) throws(UsageError) {
        do {
            if let flag = invocation.value("proxy") {
                // `--proxy ""` turns the environment's proxy off, as curl's does.
                let server = flag.isEmpty ? nil : try ProxyServer(parsing: flag)
                let bypass = ProxySettings.environmentBypass(environment)
                settings = server.map { ProxySettings(http: $0, https: $0, bypass: bypass) } ?? .direct
                origin = "--proxy"
            } else {
                settings = try ProxySettings.environment(environment)
                origin = settings == .direct ? "none" : "environment"
            }
        } catch {
            throw invocation.usageError(Self.reason(error))
        }
    }

    /// The transport for the run's requests: the default one when no proxy is set, else one with these settings.
    public func transport() -> (any Transport)? {
        settings == .direct ? nil : ClientConfiguration.defaultTransport(proxy: settings)
    }

    /// The `--verbose` line, credentials masked.
    public var verboseLine: String { "proxy: \(settings) (from \(origin))\(Self.limitation)" }

    #if canImport(FoundationNetworking) && !canImport(CCurl)
    /// Without libcurl the tools run on URLSession, which on Linux ignores every proxy setting but the environment's.
    private static let limitation = "; ignored: URLSession on Linux uses only the environment's proxy"
    #else
    private static let limitation = ""
    #endif

    private static func reason(_ error: ErrandError) -> String {
        guard case .invalidRequest(let reason) = error else { return error.userMessage }
        return reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    }
}

extension ProxySettings {
    /// The environment's `no_proxy` or `NO_PROXY` list alone.
    static func environmentBypass(_ environment: [String: String]) -> ProxyBypass {
        (try? ProxySettings.environment(
            environment.filter { $0.key.lowercased() == "no_proxy" }))?.bypass ?? ProxyBypass("")
    }
}
