import SQLite

/// One step of the schema: a numbered SQL script from `Migrations/NNNN_name.sql`.
public struct Migration: Sendable, Equatable {
    /// The number in the file name; `PRAGMA user_version` holds the newest one applied.
    public let version: Int
    /// The file name's descriptive part, for messages.
    public let name: String
    /// The script, run as is inside the migration's own transaction.
    public let sql: String

    /// Creates a migration. Versions must start at 1 and have no gaps.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// Brings a database's schema up to date by running the migrations it has not seen yet.
///
/// Each migration runs in its own IMMEDIATE transaction that also sets `user_version`, so a
/// crash leaves the file at a whole version, never between two. The version is read again
/// under the write lock, so two processes migrating one new file at once apply each step once.
public struct Migrator: Sendable {
    /// The migrations this build knows, in order.
    public let migrations: [Migration]

    /// Creates a migrator over `migrations`.
    ///
    /// - Precondition: versions are 1, 2, 3... in order (a programming error otherwise).
    public init(migrations: [Migration] = Migration.embedded) {
        for (offset, migration) in migrations.enumerated() {
            precondition(
                migration.version == offset + 1,
                "Migration \(migration.name) has version \(migration.version), expected \(offset + 1)")
        }
        self.migrations = migrations
    }

    /// The version a fully migrated database has.
    public var latestVersion: Int { migrations.count }

    /// The schema version recorded in the file.
    public func currentVersion(of connection: Connection) throws(SQLiteError) -> Int {
        Int(try connection.pragmaInt64("user_version"))
    }

    /// Applies every migration newer than the file's version.
    ///
    /// - Throws: ``TodoStoreError/newerSchema(found:supported:)`` before touching a file written
    ///   by a newer build; ``TodoStoreError/sqlite(_:)`` when a migration fails (that migration
    ///   is rolled back; earlier ones stay).
    public func migrate(_ connection: Connection) throws(TodoStoreError) {
        let found = try TodoStoreError.wrap { () throws(SQLiteError) in try currentVersion(of: connection) }
        guard found <= latestVersion else {
            throw .newerSchema(found: found, supported: latestVersion)
        }
        // While migrating, the log is checkpointed every 32 pages (128 KiB) rather than every
        // 1,000: a new file runs every migration, and their pages together (360 KiB after the
        // nineteen) beside the file itself no longer fit a nearly full disk (ReliabilityDiskFullTests'
        // 512 KiB) that one migration's pages at a time still fit. Best effort, as below.
        if found < latestVersion { try? connection.execute("PRAGMA wal_autocheckpoint = 32") }
        defer { if found < latestVersion { try? connection.execute("PRAGMA wal_autocheckpoint = 1000") } }
        for migration in migrations where migration.version > found {
            try TodoStoreError.wrap { () throws(SQLiteError) in
                try connection.transaction(.immediate, mapError: { $0 }) { () throws(SQLiteError) in
                    guard try currentVersion(of: connection) < migration.version else { return }
                    try connection.execute(migration.sql)
                    try connection.execute("PRAGMA user_version = \(migration.version)")
                }
            }
        }
        // Each migration's pages sit in the write-ahead log until SQLite's automatic checkpoint
        // (1,000 pages): a new file's log would be twice the file itself (350 KiB after the
        // seventeen migrations), on a nearly full disk the difference between working and not.
        // Best effort: a reader of another process may hold back part of the log, which then
        // waits for the next checkpoint as any log does.
        if found < latestVersion { try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}
