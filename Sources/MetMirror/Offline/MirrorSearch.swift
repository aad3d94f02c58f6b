import MetMuseum

extension MirrorStore {
    /// The IDs of the stored objects matching a search, best match first (FTS5's BM25 ranking), with the same
    /// filters as the Met's `search`.
    ///
    /// The text matches as the Met's search does on the project's replica: every word must begin a word of the
    /// fields searched, a trailing `s` of a word longer than three letters ignored (`sunflowers` finds
    /// `Sunflower`). Without field flags it looks in the title, object name, medium, tags, artist and culture.
    /// Filters: highlights, on view (a gallery number), with images, department (by the name the departments list
    /// gives its ID), medium and place (any of the alternatives, as a part of the medium, object name or
    /// classification, and of the country, city, region or culture), and a date range overlapping the object's.
    /// The order differs from the Met's, whose relevance is its own.
    public func search(_ query: SearchQuery) throws(MirrorStoreError) -> ObjectIDList {
        guard let match = Self.matchExpression(query.text, fields: query.fields) else {
            return ObjectIDList(total: 0, ids: [])
        }
        let hasFilters =
            query.isHighlight || query.isOnView || query.hasImages || query.departmentID != nil || !query.media.isEmpty
            || !query.geoLocations.isEmpty || query.dateBegin != nil
        guard hasFilters else {
            // Without a filter the index alone answers: ranking by FTS5's own `rank` without reading each object's
            // row takes about half the time on 500,000 rows.
            return try access { sqlite in
                var ids: [Int] = []
                try sqlite.query(
                    "SELECT rowid FROM objects_fts WHERE objects_fts MATCH ? ORDER BY rank", [.text(match)]
                ) {
                    ids.append(Int($0.integer(0)))
                }
                return ObjectIDList(total: ids.count, ids: ids)
            }
        }
        var sql = """
            SELECT objects.id FROM objects_fts JOIN objects ON objects.id = objects_fts.rowid
            WHERE objects_fts MATCH ?
            """
        var parameters: [SQLValue] = [.text(match)]
        if query.isHighlight { sql += " AND objects.is_highlight = 1" }
        if query.isOnView { sql += " AND objects.gallery IS NOT NULL" }
        if query.hasImages { sql += " AND objects.primary_image IS NOT NULL" }
        if let department = query.departmentID {
            sql += " AND objects.department = (SELECT name FROM departments WHERE id = ?)"
            parameters.append(.int(department))
        }
        let alternatives: [(String, [String])] = [
            (
                "coalesce(objects.medium, '') || ' ' || coalesce(objects.object_name, '') || ' ' || coalesce(objects.classification, '')",
                query.media
            ),
            ("coalesce(objects.place, '')", query.geoLocations),
        ]
        for (column, values) in alternatives where !values.isEmpty {
            sql += " AND (" + values.map { _ in "\(column) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")"
            parameters += values.map { .text("%" + Self.escapeLike($0.trimmingCharacters(in: .whitespaces)) + "%") }
        }
        if let begin = query.dateBegin, let end = query.dateEnd {
            sql += " AND objects.date_end >= ? AND objects.date_begin <= ?"
            parameters += [.int(begin), .int(end)]
        }
        sql += " ORDER BY bm25(objects_fts), objects.id"
        let statement = sql
        let bound = parameters
        return try access { sqlite in
            var ids: [Int] = []
            try sqlite.query(statement, bound) { ids.append(Int($0.integer(0))) }
            return ObjectIDList(total: ids.count, ids: ids)
        }
    }

    /// The FTS5 query for a text: each word a quoted prefix, all required, within the fields asked for; `nil` when
    /// the text has no word.
    static func matchExpression(_ text: String, fields: SearchQuery.Fields) -> String? {
        let words = text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        let terms = words.compactMap { word -> String? in
            let stem = word.count > 3 && word.hasSuffix("s") ? String(word.dropLast()) : word
            guard stem.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
            return "\"" + stem.replacingOccurrences(of: "\"", with: "\"\"") + "\"*"
        }
        guard !terms.isEmpty else { return nil }
        var columns: [String] = []
        if fields.contains(.title) {
            columns = ["title"]
        } else if fields.contains(.tags) {
            columns = ["tags"]
        } else if fields.contains(.artistOrCulture) {
            columns = ["artist", "culture"]
        } else {
            columns = ["title", "object_name", "medium", "tags", "artist", "culture"]
        }
        return "{" + columns.joined(separator: " ") + "} : (" + terms.joined(separator: " AND ") + ")"
    }

    private static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
