import Errand
import Foundation
import MetMuseum
import TestSupport

@testable import MetMirror

/// Mirrors of the shared replica in throwaway folders.
struct MirrorFixture {
    /// A folder of its own for each mirror.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mirror-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The replica's server root (its sample collection).
    static func sampleRoot() throws -> URL { try TestServer.replica.url() }

    /// The root of one of the replica's synthetic collections.
    static func synthetic(size: Int, seed: Int, epoch: Int) throws -> URL {
        try TestServer.replica.url().appendingPathComponent("synthetic/\(size)/\(seed)/\(epoch)")
    }

    /// A mirror run of `root` into `store`, fast (a loopback replica is not held to the Met's rate), with the
    /// request header `headers` on every request.
    static func mirror(_ store: MirrorStore, root: URL, headers: HTTPHeaders = [:]) -> CollectionMirror {
        CollectionMirror(
            store: store, configuration: ClientConfiguration(baseURL: root, headers: headers),
            budget: MetClient.budget(rate: 5_000))
    }

    /// Every stored object's ID and JSON, in ID order: two mirrors with the same digest hold the same objects.
    static func digest(_ store: MirrorStore) throws -> [String] {
        try store.access { sqlite in
            var rows: [String] = []
            try sqlite.query("SELECT id, json FROM objects ORDER BY id") { row in
                rows.append("\(row.integer(0)) \(String(decoding: row.data(1), as: UTF8.self))")
            }
            return rows
        }
    }

    /// Every listed ID with its status, in ID order.
    static func queue(_ store: MirrorStore) throws -> [String] {
        try store.access { sqlite in
            var rows: [String] = []
            try sqlite.query("SELECT id, status FROM queue ORDER BY id") { row in
                rows.append("\(row.integer(0)) \(row.text(1) ?? "")")
            }
            return rows
        }
    }
}
