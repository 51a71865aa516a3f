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
    public convenience init(connection: Connection, table: String) throws(SQLiteError) {
        try self.init(connection: connection, tables: [table])
    }

    /// Starts recording changes to each of `tables` of the main database on `connection`. A
    /// changeset lists its changes table by table, in this order (and its inverse too): a
    /// table whose rows another one's checks need comes where applying it in either direction
    /// keeps those checks.
    public init(connection: Connection, tables: [String]) throws(SQLiteError) {
        var session: OpaquePointer?
        try check(sqlite3session_create(connection.handle, "main", &session), connection.handle)
        guard let session else { throw SQLiteError(extendedCode: SQLITE_NOMEM) }
        for table in tables {
            let code = sqlite3session_attach(session, table)
            guard code == SQLITE_OK else {
                sqlite3session_delete(session)
                throw SQLiteError(handle: connection.handle, code: code)
            }
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

    /// True when the bytes are a well-formed changeset of at least one change, every change to
    /// `table` with `columnCount` columns.
    ///
    /// Why: SQLite's changeset reader trusts its input; on some malformed bytes
    /// `sqlite3changeset_next` and `sqlite3changeset_apply` never return. Stored changesets
    /// can be damaged (or written by another program), so they are checked here, on the
    /// format of sqlite3session.c, before SQLite sees them.
    ///
    /// `others` names the other tables it may change too, with their column counts.
    public func isWellFormed(table: String, columnCount: Int, others: [String: Int] = [:]) -> Bool {
        var reader = ChangesetReader(bytes: bytes)
        return reader.readAll(table: Array(table.utf8), columnCount: columnCount, others: others)
    }

    /// The integer primary key (first column) of each row of `table` it changes, in order; nil
    /// when the bytes are not a well-formed changeset of `table` with `columnCount` columns (and
    /// of `others`, as ``isWellFormed(table:columnCount:others:)`` reads them).
    public func rowIDs(table: String, columnCount: Int, others: [String: Int] = [:]) -> [Int64]? {
        var reader = ChangesetReader(bytes: bytes)
        guard reader.readAll(table: Array(table.utf8), columnCount: columnCount, others: others) else { return nil }
        return reader.rowIDs
    }

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
    /// The table of each of ``rowIDs``, in the same order.
    public let tables: [String]

    /// The keys of the conflicting rows of `table`.
    public func rowIDs(of table: String) -> [Int64] {
        zip(rowIDs, tables).filter { $0.1 == table }.map(\.0)
    }
}

/// Collects conflicts while a changeset is applied.
private final class ConflictLog {
    var rowIDs: [Int64] = []
    var tables: [String] = []
}

extension Connection {
    /// Applies `changeset` all or nothing: any conflict (a row changed, deleted or added since
    /// the changeset was recorded) aborts the whole application, which then changes nothing.
    ///
    /// - Returns: `nil` when applied; the ``ChangesetConflict`` naming the rows in conflict when
    ///   nothing was applied because of them.
    /// - Throws: ``SQLiteError`` for any other failure.
    public func apply(_ changeset: Changeset) throws(SQLiteError) -> ChangesetConflict? {
        guard !changeset.isEmpty else { return nil }
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
                    if let value {
                        log.rowIDs.append(sqlite3_value_int64(value))
                        log.tables.append(table.map { String(cString: $0) } ?? "")
                    }
                    _ = kind
                    return SQLITE_CHANGESET_ABORT
                },
                Unmanaged.passUnretained(log).toOpaque())
        }
        withExtendedLifetime(log) {}
        if !log.rowIDs.isEmpty { return ChangesetConflict(rowIDs: log.rowIDs, tables: log.tables) }
        try check(code, handle)
        return nil
    }
}

/// A bounds-checked reader of the changeset format (sqlite3session.c): table headers
/// `'T' varint(nCol) nCol*pk-position name NUL`, then changes `op indirect record [record]`, where a
/// record holds one value per column: 0 undefined, 1 integer (8 bytes), 2 real (8 bytes),
/// 3 text and 4 blob (varint length, bytes), 5 NULL.
private struct ChangesetReader {
    let bytes: [UInt8]
    var offset = 0
    /// The first column of each change's first record, when it is an integer: the row's key
    /// (the old values of a delete or an update, which always carry the key; an insert's new ones).
    var rowIDs: [Int64] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func readAll(table: [UInt8], columnCount: Int, others: [String: Int] = [:]) -> Bool {
        var changes = 0
        var columns: Int?
        // Whether the changes read now are `table`'s, whose keys are collected.
        var wanted = false
        while offset < bytes.count {
            let op = bytes[offset]
            offset += 1
            switch Int32(op) {
            case 0x54:  // 'T': a table header
                guard let count = varint(), count > 0, count <= 1000 else { return false }
                // Each column's place in the primary key, from 1 (0: not in it): a key of two
                // columns (`dependencies`) has a 2.
                for _ in 0..<count {
                    guard offset < bytes.count, Int(bytes[offset]) <= count else { return false }
                    offset += 1
                }
                guard let end = bytes[offset...].firstIndex(of: 0) else { return false }
                let name = Array(bytes[offset..<end])
                wanted = name == table
                guard count == (wanted ? columnCount : others[String(decoding: name, as: UTF8.self)]) else {
                    return false
                }
                offset = end + 1
                columns = count
            case SQLITE_INSERT, SQLITE_DELETE, SQLITE_UPDATE:
                guard let columns, offset < bytes.count, bytes[offset] <= 1 else { return false }
                offset += 1
                let records = Int32(op) == SQLITE_UPDATE ? 2 : 1
                for record in 0..<records {
                    for column in 0..<columns {
                        let start = offset
                        guard value() else { return false }
                        if wanted, record == 0, column == 0, bytes[start] == 1 {
                            // Type 1: a big-endian 8-byte integer, bounds checked by value().
                            rowIDs.append(
                                Int64(bitPattern: bytes[(start + 1)...(start + 8)].reduce(0) { $0 << 8 | UInt64($1) }))
                        }
                    }
                }
                changes += 1
            default:
                return false
            }
        }
        return changes > 0
    }

    /// Skips one value; false when it is malformed or runs past the end.
    private mutating func value() -> Bool {
        guard offset < bytes.count else { return false }
        let type = bytes[offset]
        offset += 1
        switch type {
        case 0, 5: return true
        case 1, 2: return skip(8)
        case 3, 4:
            guard let length = varint() else { return false }
            return skip(length)
        default: return false
        }
    }

    private mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= bytes.count - offset else { return false }
        offset += count
        return true
    }

    /// SQLite's varint: big-endian groups of 7 bits, high bit set on all but the last; a ninth
    /// byte carries 8 bits. Lengths past Int32 are refused.
    private mutating func varint() -> Int? {
        var result: UInt64 = 0
        for index in 0..<9 {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            if index == 8 {
                result = (result << 8) | UInt64(byte)
                break
            }
            result = (result << 7) | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return result <= UInt64(Int32.max) ? Int(result) : nil
    }
}
