/// The options both tools share: output format, server, timeouts, cache and diagnostics.
public enum NetworkOptions {
    /// `--json`, `--base-url`, `--timeout`, `--no-cache`, `--offline`, `--verbose`.
    public static func options(baseURLVariable: String) -> [Option] {
        [
            .flag("json", help: "Print one JSON document on stdout instead of human-readable text."),
            .value(
                "base-url", "URL",
                help: "Server root as scheme://host[:port] (env \(baseURLVariable)); http only to loopback."),
            .value("timeout", "SECONDS", help: "Per-request timeout in seconds; decimals allowed (0.5)."),
            .flag("no-cache", help: "Neither read nor write the on-disk cache."),
            .flag("offline", help: "Answer from the on-disk cache only; what is not cached fails."),
            .flag("verbose", help: "Print one line per HTTP exchange on stderr (secrets redacted)."),
        ]
    }
}
