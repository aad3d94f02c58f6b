import Foundation
import MetMuseum

/// What a batch of a run brings back, stored in one transaction.
struct MirrorBatch: Sendable {
    /// Objects fetched, with their JSON as served.
    var fetched: [(object: MetObject, json: Data)] = []
    /// Objects the Met does not serve, and its reason.
    var skipped: [(id: Int, reason: String)] = []
    /// Objects served but unreadable, and why.
    var failed: [(id: Int, reason: String)] = []

    var isEmpty: Bool { fetched.isEmpty && skipped.isEmpty && failed.isEmpty }
}

/// What an update found: objects new to the scope, changed since the last complete run, and no longer listed.
public struct MirrorChanges: Sendable, Hashable {
    /// Listed now, not before.
    public var added: Int
    /// Listed before, and changed since.
    public var changed: Int
    /// Listed before, and no longer.
    public var removed: Int
    /// Skipped before, and tried again.
    public var retried: Int

    /// Creates changes.
    public init(added: Int = 0, changed: Int = 0, removed: Int = 0, retried: Int = 0) {
        self.added = added
        self.changed = changed
        self.removed = removed
        self.retried = retried
    }
}

extension MirrorStore {
    /// The scope the mirror was made with, `nil` before its first listing.
    func scope() throws(MirrorStoreError) -> MirrorScope? {
        try access { sqlite in try Self.value("scope", in: sqlite).flatMap(MirrorScope.init(stored:)) }
    }

    /// The day to ask for changes from: that of the newest record the mirror holds, in the Met's own clock, so
    /// that neither clock skew nor a day's changes already partly seen can hide a change (the filter includes the
    /// whole day).
    func updateDay() throws(MirrorStoreError) -> String? {
        try access { sqlite in
            var newest: String?
            try sqlite.query("SELECT max(metadata_date) FROM objects") { newest = $0.text(0) }
            return newest.map { String($0.prefix(10)) }
        }
    }

    /// What the last update found.
    func lastChanges() throws(MirrorStoreError) -> MirrorChanges? {
        try access { sqlite in
            guard let text = try Self.value("changes", in: sqlite) else { return nil }
            let numbers = text.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 3 || numbers.count == 4 else { return nil }
            return MirrorChanges(
                added: numbers[0], changed: numbers[1], removed: numbers[2],
                retried: numbers.count == 4 ? numbers[3] : 0)
        }
    }

    /// Stores a full listing and the departments, and moves the mirror to fetching, in one transaction.
    func storeListing(ids: [Int], departments: [Department], scope: MirrorScope) throws(MirrorStoreError) {
        try access { sqlite in
            try sqlite.transaction {
                try Self.replaceDepartments(departments, in: sqlite)
                for id in ids {
                    try sqlite.query("INSERT OR IGNORE INTO queue (id, status) VALUES (?, 'pending')", [.int(id)])
                }
                try Self.setValue(scope.stored, for: "scope", in: sqlite)
                try Self.setValue(nil, for: "changes", in: sqlite)
                try Self.setValue("fetching-full", for: "phase", in: sqlite)
            }
        }
    }

    /// Stores an update's listing in one transaction: objects no longer listed are removed, new ones and changed
    /// ones become pending, and the mirror moves to fetching.
    func storeUpdate(listed: [Int], changed: [Int], departments: [Department]) throws(MirrorStoreError)
        -> MirrorChanges
    {
        try access { sqlite in
            try sqlite.transaction {
                try Self.replaceDepartments(departments, in: sqlite)
                try sqlite.execute("CREATE TEMP TABLE IF NOT EXISTS listed (id INTEGER PRIMARY KEY)")
                try sqlite.execute("DELETE FROM listed")
                for id in listed { try sqlite.query("INSERT OR IGNORE INTO listed (id) VALUES (?)", [.int(id)]) }
                var changes = MirrorChanges()
                changes.removed = try sqlite.integer(
                    "SELECT count(*) FROM queue WHERE id NOT IN (SELECT id FROM listed)")
                try sqlite.execute("DELETE FROM objects WHERE id NOT IN (SELECT id FROM listed)")
                try sqlite.execute("DELETE FROM queue WHERE id NOT IN (SELECT id FROM listed)")
                try sqlite.execute(
                    "INSERT INTO queue (id, status) SELECT id, 'pending' FROM listed WHERE id NOT IN (SELECT id FROM queue)"
                )
                changes.added = sqlite.changes
                // Skipped objects are tried again: what the Met did not serve, or served too large or unreadable,
                // may have been mended since.
                try sqlite.execute("UPDATE queue SET status = 'pending' WHERE status IN ('skipped', 'failed')")
                changes.retried = sqlite.changes
                for id in Set(changed) {
                    try sqlite.query(
                        "UPDATE queue SET status = 'pending' WHERE id = ? AND status != 'pending'", [.int(id)])
                    changes.changed += sqlite.changes
                }
                try sqlite.execute("DROP TABLE listed")
                try Self.setValue(
                    "\(changes.added) \(changes.changed) \(changes.removed) \(changes.retried)", for: "changes",
                    in: sqlite)
                try Self.setValue("fetching-update", for: "phase", in: sqlite)
                return changes
            }
        }
    }

    /// Why objects were skipped, the most frequent reason first (at most `limit` reasons).
    func skips(limit: Int = 10) throws(MirrorStoreError) -> [MirrorSkips] {
        try access { sqlite in
            var skips: [MirrorSkips] = []
            try sqlite.query(
                """
                SELECT coalesce(reason, ''), count(*), min(id) FROM queue WHERE status = 'skipped'
                GROUP BY reason ORDER BY count(*) DESC, min(id) LIMIT ?
                """, [.int(limit)]
            ) { row in
                skips.append(
                    MirrorSkips(reason: row.text(0) ?? "", count: Int(row.integer(1)), firstID: Int(row.integer(2))))
            }
            return skips
        }
    }

    /// Makes the objects an earlier run could not read pending again, so this run retries them.
    func requeueFailed() throws(MirrorStoreError) -> Int {
        try access { sqlite in
            try sqlite.query("UPDATE queue SET status = 'pending' WHERE status = 'failed'")
            return sqlite.changes
        }
    }

    /// Up to `limit` pending IDs, lowest first.
    func pendingIDs(limit: Int) throws(MirrorStoreError) -> [Int] {
        try access { sqlite in
            var ids: [Int] = []
            try sqlite.query("SELECT id FROM queue WHERE status = 'pending' ORDER BY id LIMIT ?", [.int(limit)]) {
                ids.append(Int($0.integer(0)))
            }
            return ids
        }
    }

    /// Stores one batch in one transaction: all of it, or (killed, disk full) none of it.
    func storeBatch(_ batch: MirrorBatch) throws(MirrorStoreError) {
        guard !batch.isEmpty else { return }
        try access { sqlite in
            try sqlite.transaction {
                for (object, json) in batch.fetched {
                    try sqlite.query("DELETE FROM objects WHERE id = ?", [.int(object.objectID)])
                    try sqlite.query(Self.insertObject, Self.row(object, json: json))
                    try Self.mark(object.objectID, "fetched", reason: nil, in: sqlite)
                }
                for (id, reason) in batch.skipped {
                    try sqlite.query("DELETE FROM objects WHERE id = ?", [.int(id)])
                    try Self.mark(id, "skipped", reason: reason, in: sqlite)
                }
                for (id, reason) in batch.failed { try Self.mark(id, "failed", reason: reason, in: sqlite) }
            }
        }
    }

    /// Records the run as complete.
    func markComplete(at date: Date) throws(MirrorStoreError) {
        try access { sqlite in
            try sqlite.transaction {
                try Self.setValue("complete", for: "phase", in: sqlite)
                try Self.setValue(Self.timestamp(date), for: "completed", in: sqlite)
            }
        }
    }

    private static func mark(_ id: Int, _ status: String, reason: String?, in sqlite: MirrorSQLite) throws {
        try sqlite.query(
            "UPDATE queue SET status = ?, reason = ?, attempts = attempts + 1 WHERE id = ?",
            [.text(status), .optional(reason), .int(id)])
    }

    private static func replaceDepartments(_ departments: [Department], in sqlite: MirrorSQLite) throws {
        guard !departments.isEmpty else { return }
        try sqlite.execute("DELETE FROM departments")
        for department in departments {
            try sqlite.query(
                "INSERT INTO departments (id, name) VALUES (?, ?)",
                [.int(department.id), .text(department.displayName)])
        }
    }

    private static let insertObject = """
        INSERT INTO objects (id, json, title, object_name, artist, culture, period, object_date, date_begin, date_end,
            medium, department, classification, is_public_domain, is_highlight, gallery, primary_image,
            primary_image_small, tags, place, metadata_date)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The object's columns, in ``insertObject``'s order.
    static func row(_ object: MetObject, json: Data) -> [SQLValue] {
        let tags = object.tags.map(\.term).joined(separator: "; ")
        let place = [object.country, object.city, object.region, object.culture].compactMap { $0 }
        return [
            .int(object.objectID), .blob(json), .optional(object.title), .optional(object.objectName),
            .optional(object.artistDisplayName), .optional(object.culture), .optional(object.period),
            .optional(object.objectDate), .int(object.dateRange.lowerBound), .int(object.dateRange.upperBound),
            .optional(object.medium), .optional(object.department), .optional(object.classification),
            .bool(object.isPublicDomain), .bool(object.isHighlight), .optional(object.galleryNumber),
            .optional(object.primaryImage?.absoluteString), .optional(object.primaryImageSmall?.absoluteString),
            .optional(tags.isEmpty ? nil : tags), .optional(place.isEmpty ? nil : place.joined(separator: " ")),
            .optional(object.metadataDate.map(Self.timestamp)),
        ]
    }

    /// Sortable UTC text, as `2024-03-18T04:52:13.267Z`.
    static func timestamp(_ date: Date) -> String { timestampStyle.format(date) }

    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

extension MirrorStore {
    /// Stores objects obtained some other way (an export, a benchmark's synthetic collection) in one transaction,
    /// as listed and fetched; `json` is each object's record as served, or `nil` for the SDK's own encoding.
    ///
    /// The mirror's phase does not change: a mirror filled this way alone stays ``MirrorPhase/empty`` for
    /// ``MetMirror``, which lists and fetches as usual (stored objects are fetched again only if listed as
    /// pending).
    public func importObjects(_ objects: [MetObject], json: [Data]? = nil) throws(MirrorStoreError) {
        var batch = MirrorBatch()
        for (index, object) in objects.enumerated() {
            let body = json?[index] ?? (try? JSONEncoder().encode(object)) ?? Data()
            batch.fetched.append((object, body))
        }
        try access { sqlite in
            try sqlite.transaction {
                for object in objects {
                    try sqlite.query(
                        "INSERT OR IGNORE INTO queue (id, status) VALUES (?, 'pending')", [.int(object.objectID)])
                }
            }
        }
        try storeBatch(batch)
    }
}
