import Foundation

/// The soak's command line.
struct SoakOptions {
    /// The fault server's base URL.
    var url: URL
    /// How many requests to send in all.
    var requests = 20_000
    /// How many requests are in flight at once.
    var concurrency = 32
    /// The share of requests that go to a fault route.
    var faultRate = 0.1
    /// The share of requests sent before memory is measured as the baseline.
    var warmUpShare = 0.1
    /// The seed of the route choice, so a run can be repeated.
    var seed: UInt64 = 2_024

    static let usage = """
        usage: errand-soak --url FAULT_SERVER_URL [--requests N] [--concurrency N] [--fault-rate F] [--seed N]

        Sends N requests (default 20000), C at a time (default 32), through the full client (cache, retry, rate and
        concurrency limits) to the fault server, a share F of them (default 0.1) to its fault routes, and prints how
        every request ended, memory growth after warm-up, open file descriptors before and after, and crashes.
        Exit status 1 when a request is lost or answered twice, descriptors leak, or memory grows by 10 MB or more.
        """

    static func parse(_ arguments: [String]) throws -> SoakOptions {
        var url: URL?
        var options = SoakOptions(url: URL(fileURLWithPath: "/"))
        var iterator = arguments.makeIterator()
        func value(_ name: String) throws -> String {
            guard let value = iterator.next() else { throw UsageError(message: "\(name) needs a value") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--url": url = URL(string: try value(argument))
            case "--requests": options.requests = try number(try value(argument), argument, 1...10_000_000)
            case "--concurrency": options.concurrency = try number(try value(argument), argument, 1...1_024)
            case "--fault-rate":
                guard let rate = Double(try value(argument)), (0...1).contains(rate) else {
                    throw UsageError(message: "--fault-rate takes a number from 0 to 1")
                }
                options.faultRate = rate
            case "--seed": options.seed = UInt64(try number(try value(argument), argument, 0...Int.max))
            case "-h", "--help": throw UsageError(message: nil)
            default: throw UsageError(message: "unknown argument \(argument)")
            }
        }
        guard let url, url.scheme != nil else {
            throw UsageError(message: "--url with the fault server's URL is required")
        }
        options.url = url
        return options
    }

    private static func number(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(message: "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}

/// A command line the soak cannot run with; `message` is `nil` for `--help`.
struct UsageError: Error {
    var message: String?
}
