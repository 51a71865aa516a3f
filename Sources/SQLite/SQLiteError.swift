import CSQLite

/// An error reported by SQLite, with everything needed to understand it later.
///
/// Like GRDB's `DatabaseError`, it keeps the primary result code (for matching:
/// `SQLITE_BUSY`, `SQLITE_FULL`, ...), the extended code (for detail:
/// `SQLITE_CONSTRAINT_CHECK`, ...), SQLite's own message and the SQL that failed.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code, such as `SQLITE_BUSY` (the low 8 bits of ``extendedCode``).
    public var code: Int32 { extendedCode & 0xFF }
    /// The extended result code, such as `SQLITE_CONSTRAINT_NOTNULL`.
    public let extendedCode: Int32
    /// SQLite's message for the failure, or the generic text for the code.
    public let message: String
    /// The SQL statement that failed, when there was one.
    public let sql: String?

    /// Creates an error from a result code, a message and the SQL that failed.
    public init(extendedCode: Int32, message: String? = nil, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message ?? String(cString: sqlite3_errstr(extendedCode))
        self.sql = sql
    }

    /// Reads the most recent error of a connection handle.
    ///
    /// Call it right after the failing call, on the thread that owns the handle: the next
    /// call on the handle overwrites the message.
    init(handle: OpaquePointer?, code: Int32, sql: String? = nil) {
        var extended = code
        var message: String?
        if let handle {
            extended = sqlite3_extended_errcode(handle)
            if extended & 0xFF != code & 0xFF { extended = code }
            if let text = sqlite3_errmsg(handle) { message = String(cString: text) }
        }
        self.init(extendedCode: extended, message: message, sql: sql)
    }

    /// True when bytes given as a session changeset are not one (from `sqlite3changeset_apply`
    /// or `sqlite3changeset_invert`).
    public var isMalformedChangeset: Bool { code == SQLITE_CORRUPT || code == SQLITE_MISUSE }
    /// True when another connection holds a lock that outlasted the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// True when the disk (or the database's size limit) is full. With no room to grow the
    /// `-shm` index SQLite reports SQLITE_IOERR_SHMSIZE instead, which means the same.
    public var isDiskFull: Bool { code == SQLITE_FULL || extendedCode == SQLITE_IOERR | (19 << 8) }
    /// True when the file is not a database, or is encrypted or damaged.
    public var isNotADatabase: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
    /// True when the file cannot be opened or written: permissions, a read-only file or folder.
    public var isPermissionDenied: Bool {
        code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM || code == SQLITE_AUTH
    }
    /// True when a constraint (NOT NULL, CHECK, UNIQUE, foreign key) rejected a change.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }
    /// True when a trigger refused the change (`RAISE(ABORT, ...)`: SQLITE_CONSTRAINT_TRIGGER).
    public var isRaisedByTrigger: Bool { extendedCode == SQLITE_CONSTRAINT | (7 << 8) }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " (while running: \(sql))" }
        return text
    }
}

/// Turns a C API result into a thrown ``SQLiteError`` unless it is `SQLITE_OK`.
@inline(__always)
func check(_ code: Int32, _ handle: OpaquePointer?, sql: String? = nil) throws(SQLiteError) {
    guard code == SQLITE_OK else { throw SQLiteError(handle: handle, code: code, sql: sql) }
}
