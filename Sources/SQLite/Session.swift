import CSQLite

/// Records the changes made to one table through a connection, as an SQLite changeset.
///
/// Built on SQLite's session extension: a changeset lists each changed row with its old and
/// new values, can be inverted, and applied to a database with explicit conflict detection.
/// That is exactly what undo needs: record a command's changes, store their inverse, apply it
/// later only if nobody changed those rows since.
///
/// Threading: like its connection, a session is confined to the connection's thread, and it
/// must not outlive it.
public final class Session {
    private let handle: OpaquePointer
    private let database: OpaquePointer

    /// Starts recording changes to `table` of the main database on `connection`.
    public init(connection: Connection, table: String) throws(SQLiteError) {
        var session: OpaquePointer?
        try check(sqlite3session_create(connection.handle, "main", &session), connection.handle)
        guard let session else { throw SQLiteError(extendedCode: SQLITE_NOMEM) }
        let code = sqlite3session_attach(session, table)
        guard code == SQLITE_OK else {
            sqlite3session_delete(session)
            throw SQLiteError(handle: connection.handle, code: code)
        }
        handle = session
        database = connection.handle
    }

    deinit { sqlite3session_delete(handle) }

    /// The changes recorded so far (empty when nothing changed, including updates that wrote
    /// the values a row already had).
    public func changeset() throws(SQLiteError) -> Changeset {
        var size: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        try check(sqlite3session_changeset(handle, &size, &bytes), database)
        defer { sqlite3_free(bytes) }
        guard let bytes, size > 0 else { return Changeset(bytes: []) }
        return Changeset(bytes: Array(UnsafeRawBufferPointer(start: bytes, count: Int(size))))
    }
}

/// A serialised set of row changes, as SQLite's session extension writes them.
public struct Changeset: Sendable, Equatable {
    /// The changeset's bytes, for storing in a BLOB.
    public let bytes: [UInt8]

    /// Wraps bytes produced by ``Session/changeset()`` (or read back from storage).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// True when it changes nothing.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The changeset that undoes this one: inserts become deletes, deletes inserts, and updates
    /// swap their old and new values.
    public func inverted() throws(SQLiteError) -> Changeset {
        guard !bytes.isEmpty else { return self }
        var size: Int32 = 0
        var output: UnsafeMutableRawPointer?
        var input = bytes
        let code = input.withUnsafeMutableBytes { buffer in
            sqlite3changeset_invert(Int32(buffer.count), buffer.baseAddress, &size, &output)
        }
        defer { sqlite3_free(output) }
        guard code == SQLITE_OK else { throw SQLiteError(extendedCode: code) }
        guard let output, size > 0 else { return Changeset(bytes: []) }
        return Changeset(bytes: Array(UnsafeRawBufferPointer(start: output, count: Int(size))))
    }
}

/// A changeset could not be applied because rows changed since it was recorded.
public struct ChangesetConflict: Error, Sendable, Equatable {
    /// The integer primary keys of the conflicting rows (the first column of each).
    public let rowIDs: [Int64]
}

/// Collects conflicts while a changeset is applied.
private final class ConflictLog {
    var rowIDs: [Int64] = []
}

extension Connection {
    /// Applies `changeset` all or nothing: any conflict (a row changed, deleted or added since
    /// the changeset was recorded) aborts the whole application, which then changes nothing.
    ///
    /// - Throws: ``ChangesetConflict`` naming the rows in conflict, or ``SQLiteError``.
    public func apply(_ changeset: Changeset) throws {
        guard !changeset.isEmpty else { return }
        let log = ConflictLog()
        var bytes = changeset.bytes
        let code = bytes.withUnsafeMutableBytes { buffer in
            sqlite3changeset_apply(
                handle, Int32(buffer.count), buffer.baseAddress, nil,
                { context, kind, iterator in
                    guard let context else { return SQLITE_CHANGESET_ABORT }
                    let log = Unmanaged<ConflictLog>.fromOpaque(context).takeUnretainedValue()
                    var value: OpaquePointer?
                    // The conflicting row's key: the new values for an insert, else the old ones.
                    var operation: Int32 = 0
                    var columns: Int32 = 0
                    var indirect: Int32 = 0
                    var table: UnsafePointer<CChar>?
                    sqlite3changeset_op(iterator, &table, &columns, &operation, &indirect)
                    if operation == SQLITE_INSERT {
                        sqlite3changeset_new(iterator, 0, &value)
                    } else {
                        sqlite3changeset_old(iterator, 0, &value)
                    }
                    if let value { log.rowIDs.append(sqlite3_value_int64(value)) }
                    _ = kind
                    return SQLITE_CHANGESET_ABORT
                },
                Unmanaged.passUnretained(log).toOpaque())
        }
        withExtendedLifetime(log) {}
        if !log.rowIDs.isEmpty { throw ChangesetConflict(rowIDs: log.rowIDs) }
        try check(code, handle)
    }
}
