import Foundation

/// The command line: `errand-bench [--url URL] [--https-url URL --ca FILE] [--json] [--requests N]
/// [--big-requests N] [--rounds N] [--concurrency 1,16,64] [--clients errand-curl,raw-libcurl] [--sizes small,big]
/// [--schemes http,https]`.
struct Options {
    var url: URL?
    var httpsURL: URL?
    var ca: URL?
    var schemes = Scheme.allCases
    var json = false
    var smallRequests = 4000
    var bigRequests = 800
    var rounds = 7
    var concurrencies = [1, 16, 64]
    var clients = BenchClient.all.map(\.name)
    var sizes = FileSize.allCases
    /// The size of the download benchmark's file, in MiB; 0 skips it.
    var downloadMegabytes = 1024
    var downloadRounds = 3
    /// Whether only the download benchmark runs.
    var onlyDownloads = false

    static let usage = """
        usage: errand-bench [--url http://127.0.0.1:PORT] [--https-url https://localhost:PORT --ca FILE] [--json]
                            [--requests N] [--big-requests N] [--rounds N] [--concurrency 1,16,64]
                            [--clients NAME,…] [--sizes small,big] [--schemes http,https]
                            [--download-mib N] [--download-rounds N] [--only-downloads]
               errand-bench hand-offs [--trips N] [--rounds N]   (one round trip between threads, nothing else)
          --requests N      requests per round for small.json (default 4000; the cache clients measure ten times as
                            many hits, errand-urlsession half as many); --big-requests for big.json (default 800)
          --rounds N        interleaved rounds per client; the fastest is reported (default 7)
          --clients         errand-curl, raw-libcurl, errand-curl-resilient, errand-transport, errand-curl-on-loop,
                            errand-curl-send-on-loop, libcurl-socket-loop, errand-cache-memory, errand-cache-disk,
                            errand-urlsession (default: all; the cache clients fetch only the small file;
                            errand-transport is CurlTransport without APIClient; errand-curl-on-loop runs its callers
                            on the transport's executor, errand-curl-send-on-loop only each send; libcurl-socket-loop
                            is libcurl's socket interface on an epoll thread with async callers, no Errand code)
          --schemes         http (HTTP/1.1) and https (TLS 1.3, HTTP/2 multiplexed; needs --https-url and --ca or
                            ERRAND_NGINX_HTTPS_URL and ERRAND_TEST_CA); default both. URLSession and the cache
                            clients run over http only.
          --download-mib N  the download benchmark's file (default 1024 MiB; 0 skips it): APIClient.download over curl
                            against raw libcurl writing to a file, both fsyncing, --download-rounds rounds (default 3)
          --only-downloads  run the download benchmark alone
        Without --url (or ERRAND_NGINX_HTTP_URL) it starts nginx through scripts/bench --serve.
        """

    init(_ arguments: [String]) throws {
        var remaining = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let value = remaining.popFirst() else { throw BenchError("\(flag) needs a value\n\(Self.usage)") }
            return value
        }
        func count(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number > 0 else {
                throw BenchError("\(flag) needs a positive number, not \(text)")
            }
            return number
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--url":
                let text = try value(flag)
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                    throw BenchError("--url needs an http URL, not \(text)")
                }
                self.url = url
            case "--https-url":
                let text = try value(flag)
                guard let url = URL(string: text), url.scheme == "https" else {
                    throw BenchError("--https-url needs an https URL, not \(text)")
                }
                httpsURL = url
            case "--ca": ca = URL(fileURLWithPath: try value(flag))
            case "--schemes":
                let names = try value(flag).split(separator: ",")
                let parsed = names.compactMap { Scheme(rawValue: String($0)) }
                guard parsed.count == names.count, !parsed.isEmpty else {
                    throw BenchError("--schemes takes http,https")
                }
                schemes = parsed
            case "--json": json = true
            case "--download-mib":
                let text = try value(flag)
                guard let number = Int(text), number >= 0 else {
                    throw BenchError("--download-mib needs a number, not \(text)")
                }
                downloadMegabytes = number
            case "--download-rounds": downloadRounds = try count(flag)
            case "--only-downloads": onlyDownloads = true
            case "--requests": smallRequests = try count(flag)
            case "--big-requests": bigRequests = try count(flag)
            case "--rounds": rounds = try count(flag)
            case "--concurrency":
                let list = try value(flag).split(separator: ",").map { Int($0) }
                guard !list.isEmpty, list.allSatisfy({ ($0 ?? 0) > 0 }) else {
                    throw BenchError("--concurrency needs numbers like 1,16,64")
                }
                concurrencies = list.compactMap { $0 }
            case "--clients":
                let names = try value(flag).split(separator: ",").map(String.init)
                let known = Set(BenchClient.all.map(\.name))
                if let unknown = names.first(where: { !known.contains($0) }) {
                    throw BenchError("unknown client \(unknown); known: \(known.sorted().joined(separator: ", "))")
                }
                clients = names
            case "--sizes":
                let names = try value(flag).split(separator: ",")
                let parsed = names.compactMap { FileSize(rawValue: String($0)) }
                guard parsed.count == names.count, !parsed.isEmpty else { throw BenchError("--sizes takes small,big") }
                sizes = parsed
            case "--help", "-h":
                print(Self.usage)
                exit(0)
            default:
                throw BenchError("unknown argument \(flag)\n\(Self.usage)")
            }
        }
    }

    func requests(for size: FileSize) -> Int { size == .small ? smallRequests : bigRequests }
}
