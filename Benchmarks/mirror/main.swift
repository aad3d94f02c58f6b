// The mirror's benchmark: mirrors the replica's synthetic collection through `CollectionMirror` at several rates, and
// fills a database with synthetic objects directly to time full-text queries and `met search --mirror`.
//
//   swift run -c release errand-mirror-bench mirror [--size 20000]     objects/s against the rate, CPU per object,
//                                                                       peak memory, database bytes per object
//   swift run -c release errand-mirror-bench fts [--rows 500000]       FTS p50/p99, met search --mirror end to end
//
// The replica is started by the benchmark itself (python3 Tests/Servers/replica.py --synthetic).
import Errand
import Foundation
import MetMirror
import MetMuseum

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String, default fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count,
        let value = Int(arguments[index + 1])
    else { return fallback }
    return value
}

switch arguments.first {
case "mirror":
    try await MirrorBenchmark(size: option("size", default: 20_000)).run()
case "fts":
    try await SearchBenchmark(rows: option("rows", default: 500_000)).run()
default:
    print("usage: errand-mirror-bench mirror [--size N] | fts [--rows N]")
    exit(2)
}
