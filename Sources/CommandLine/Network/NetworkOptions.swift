import Errand

/// The options both tools share: output format, server, timeouts, cache and diagnostics.
public enum NetworkOptions {
    /// `--json`, `--base-url`, `--timeout`, `--no-cache`, `--offline`, `--verbose`, `--proxy`, `--record`,
    /// `--record-secrets`, `--replay`.
    public static func options(baseURLVariable: String) -> [Option] {
        // The tools retry with the default policy (ClientSetup), so a timeout applies to each of its attempts.
        let attempts = RetryPolicy.default.maxAttempts
        return [
            .flag("json", help: "Print one JSON document on stdout instead of human-readable text."),
            .value(
                "base-url", "URL",
                help: "Server root as scheme://host[:port] (env \(baseURLVariable)); http only to loopback."),
            .value(
                "timeout", "SECONDS",
                help: "Seconds each attempt may take (a request makes up to \(attempts)); decimals allowed (0.5)."),
            .flag("no-cache", help: "Neither read nor write the on-disk cache."),
            .flag("offline", help: "Answer from the on-disk cache only; what is not cached fails."),
            .flag("verbose", help: "Print one line per HTTP exchange on stderr (secrets redacted)."),
            .value(
                "proxy", "URL",
                help: "Proxy as [scheme://][user:password@]host[:port] (default: env https_proxy, http_proxy, "
                    + "ALL_PROXY; NO_PROXY applies); \"\" for none."),
            .value(
                "record", "FILE.har",
                help: "Record every HTTP exchange of the run to a HAR 1.2 file (secrets redacted)."),
            .flag(
                "record-secrets",
                help: "With --record: keep tokens, cookies and keys in clear, for a local reproduction only."),
            .value(
                "replay", "FILE.har", help: "Answer from a HAR recording instead of the network; unmatched is exit 4."),
        ]
    }
}
