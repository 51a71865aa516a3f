import CSQLite

/// A value SQLite can store, as a `Sendable` value: four of its five storage classes. BLOBs
/// are bound and read without it (``Changeset`` binds itself; ``Row/blob(_:)`` reads one).
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// A Swift value that can be bound to a statement parameter.
///
/// Conforming types bind themselves without going through ``SQLiteValue``, so hot loops
/// (bulk inserts) pay no boxing.
public protocol SQLiteBindable {
    /// Binds the value to the 1-based parameter `index` of `statement`.
    func bind(to statement: Statement, at index: Int32) throws(SQLiteError)
}

extension Int64: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.check(sqlite3_bind_int64(statement.handle, index, self))
    }
}

extension Int: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try Int64(self).bind(to: statement, at: index)
    }
}

extension Bool: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try Int64(self ? 1 : 0).bind(to: statement, at: index)
    }
}

extension Double: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try statement.check(sqlite3_bind_double(statement.handle, index, self))
    }
}

extension String: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        // Bind by length, not by C string: a name may contain NUL and must round-trip whole.
        var copy = self
        let code = copy.withUTF8 { bytes in
            sqlite3_bind_text64(
                statement.handle, index, bytes.baseAddress, UInt64(bytes.count),
                csqlite_transient(), UInt8(SQLITE_UTF8))
        }
        try statement.check(code)
    }
}

extension Changeset: SQLiteBindable {
    /// Binds the changeset's bytes as a BLOB.
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        let code = bytes.withUnsafeBytes { buffer in
            sqlite3_bind_blob64(statement.handle, index, buffer.baseAddress, UInt64(buffer.count), csqlite_transient())
        }
        try statement.check(code)
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        switch self {
        case .none: try statement.check(sqlite3_bind_null(statement.handle, index))
        case .some(let value): try value.bind(to: statement, at: index)
        }
    }
}

extension SQLiteValue: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        switch self {
        case .null: try statement.check(sqlite3_bind_null(statement.handle, index))
        case .integer(let value): try value.bind(to: statement, at: index)
        case .real(let value): try value.bind(to: statement, at: index)
        case .text(let value): try value.bind(to: statement, at: index)
        }
    }
}

/// A column's value exactly as SQLite stored it, read by ``Row/storedValue(_:)``: text as its
/// bytes (invalid UTF-8 included), a BLOB as a BLOB. Bound back, it compares and sorts as the
/// stored value does.
public struct StoredValue: Sendable, Hashable, SQLiteBindable {
    enum Storage: Sendable, Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case text([UInt8])
        case blob([UInt8])
    }

    let storage: Storage

    /// True for SQL NULL.
    public var isNull: Bool { storage == .null }

    /// The integer, when the value is one.
    public var integer: Int64? {
        if case .integer(let value) = storage { return value }
        return nil
    }

    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        switch storage {
        case .null: try statement.check(sqlite3_bind_null(statement.handle, index))
        case .integer(let value): try value.bind(to: statement, at: index)
        case .real(let value): try value.bind(to: statement, at: index)
        case .text(let bytes):
            // A null pointer would bind NULL: an empty text gets a valid one.
            let code =
                bytes.isEmpty
                ? sqlite3_bind_text64(statement.handle, index, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
                : bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_text64(
                        statement.handle, index, buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
                        UInt64(buffer.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                }
            try statement.check(code)
        case .blob(let bytes):
            let code =
                bytes.isEmpty
                ? sqlite3_bind_zeroblob(statement.handle, index, 0)
                : bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(
                        statement.handle, index, buffer.baseAddress, UInt64(buffer.count), csqlite_transient())
                }
            try statement.check(code)
        }
    }
}
