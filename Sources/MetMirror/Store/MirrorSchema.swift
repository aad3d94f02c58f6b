/// The mirror's tables, created on first open.
///
/// `objects` keeps each object's JSON as the Met served it beside the columns people query; `objects_fts` indexes
/// the text columns (an external-content FTS5 table, kept in step by triggers, so the text is stored once);
/// `queue` is every listed ID with what became of it; `run` holds the run's state, so that a killed run resumes.
enum MirrorSchema {
    /// Bumped when the tables change; a mirror of another version is refused rather than misread.
    static let version = 1

    static let statements = """
        PRAGMA journal_mode = WAL;
        CREATE TABLE IF NOT EXISTS run (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS queue (
            id INTEGER PRIMARY KEY,
            status TEXT NOT NULL CHECK (status IN ('pending', 'fetched', 'skipped', 'failed')),
            reason TEXT,
            attempts INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX IF NOT EXISTS queue_by_status ON queue (status, id);
        CREATE TABLE IF NOT EXISTS departments (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS objects (
            id INTEGER PRIMARY KEY,
            json BLOB NOT NULL,
            title TEXT, object_name TEXT, artist TEXT, culture TEXT, period TEXT, object_date TEXT,
            date_begin INTEGER NOT NULL, date_end INTEGER NOT NULL,
            medium TEXT, department TEXT, classification TEXT,
            is_public_domain INTEGER NOT NULL, is_highlight INTEGER NOT NULL, gallery TEXT,
            primary_image TEXT, primary_image_small TEXT, tags TEXT, place TEXT, metadata_date TEXT
        );
        CREATE INDEX IF NOT EXISTS objects_by_metadata_date ON objects (metadata_date);
        CREATE VIRTUAL TABLE IF NOT EXISTS objects_fts USING fts5(
            title, object_name, medium, tags, artist, culture, period, classification, department,
            content = 'objects', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER IF NOT EXISTS objects_indexed AFTER INSERT ON objects BEGIN
            INSERT INTO objects_fts (rowid, title, object_name, medium, tags, artist, culture, period, classification,
                department)
            VALUES (new.id, new.title, new.object_name, new.medium, new.tags, new.artist, new.culture, new.period,
                new.classification, new.department);
        END;
        CREATE TRIGGER IF NOT EXISTS objects_unindexed AFTER DELETE ON objects BEGIN
            INSERT INTO objects_fts (objects_fts, rowid, title, object_name, medium, tags, artist, culture, period,
                classification, department)
            VALUES ('delete', old.id, old.title, old.object_name, old.medium, old.tags, old.artist, old.culture,
                old.period, old.classification, old.department);
        END;
        CREATE TABLE IF NOT EXISTS images (id INTEGER PRIMARY KEY, url TEXT NOT NULL, bytes BLOB NOT NULL);
        """
}
