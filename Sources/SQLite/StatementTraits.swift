import CSQLite

/// What a statement does besides reading rows, read once from its SQL when it is prepared:
/// what the commit observer (savepoints), the statement caches (schema changes) and statements
/// read across other work (writes) need to know about it.
struct StatementTraits {
    /// A savepoint statement and the savepoint it names, folded to ASCII lower case as SQLite
    /// compares savepoint names.
    enum Savepoint: Equatable {
        /// `SAVEPOINT name`.
        case begin(String)
        /// `RELEASE [SAVEPOINT] name`.
        case release(String)
        /// `ROLLBACK [TRANSACTION] TO [SAVEPOINT] name`.
        case rollback(String)
    }

    /// Set for SAVEPOINT, RELEASE and ROLLBACK TO.
    let savepoint: Savepoint?
    /// CREATE, DROP or ALTER: the schema changes when it succeeds.
    let changesSchema: Bool
    /// The statement may write (`sqlite3_stmt_readonly` is false) or opens a transaction
    /// (BEGIN, SAVEPOINT), after which this connection's reads are part of that transaction.
    let startsWrite: Bool

    private init(savepoint: Savepoint?, changesSchema: Bool, startsWrite: Bool) {
        self.savepoint = savepoint
        self.changesSchema = changesSchema
        self.startsWrite = startsWrite
    }

    /// The traits of the prepared `statement`, from `sqlite3_stmt_readonly` and its first words.
    init(statement: OpaquePointer) {
        let writes = sqlite3_stmt_readonly(statement) == 0
        var savepoint: Savepoint?
        var changesSchema = false
        var beginsTransaction = false
        if let sql = sqlite3_sql(statement) {
            var words = SQLWords(sql)
            switch words.keyword() {
            case "savepoint":
                beginsTransaction = true
                if let name = words.name() { savepoint = .begin(name) }
            case "release":
                if words.peekKeyword() == "savepoint" { _ = words.keyword() }
                if let name = words.name() { savepoint = .release(name) }
            case "rollback":
                if words.peekKeyword() == "transaction" { _ = words.keyword() }
                if words.keyword() == "to" {
                    if words.peekKeyword() == "savepoint" { _ = words.keyword() }
                    if let name = words.name() { savepoint = .rollback(name) }
                }
            case "begin":
                beginsTransaction = true
            case "create", "drop", "alter":
                changesSchema = true
            default:
                break
            }
        }
        self.init(savepoint: savepoint, changesSchema: changesSchema, startsWrite: writes || beginsTransaction)
    }
}

/// Reads the first words of one SQL statement: keywords and a name, skipping white space and
/// comments. Enough for the statements ``StatementTraits`` looks for, nothing more.
private struct SQLWords {
    private let bytes: UnsafePointer<CChar>
    private var offset = 0

    init(_ bytes: UnsafePointer<CChar>) { self.bytes = bytes }

    private func byte(at index: Int) -> UInt8 { UInt8(bitPattern: bytes[index]) }

    /// Moves past white space, `-- ...` and `/* ... */` comments.
    private mutating func skipSpace() {
        while true {
            let current = byte(at: offset)
            if current == 0x20 || (0x09...0x0D).contains(current) {
                offset += 1
            } else if current == UInt8(ascii: "-"), byte(at: offset + 1) == UInt8(ascii: "-") {
                while byte(at: offset) != 0 && byte(at: offset) != UInt8(ascii: "\n") { offset += 1 }
            } else if current == UInt8(ascii: "/"), byte(at: offset + 1) == UInt8(ascii: "*") {
                offset += 2
                while byte(at: offset) != 0
                    && !(byte(at: offset) == UInt8(ascii: "*") && byte(at: offset + 1) == UInt8(ascii: "/"))
                {
                    offset += 1
                }
                if byte(at: offset) != 0 { offset += 2 }
            } else {
                return
            }
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func folded(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The next bare word, folded to lower case, or nil when the next token is not one.
    mutating func keyword() -> String? {
        skipSpace()
        var word: [UInt8] = []
        while Self.isWordByte(byte(at: offset)) {
            word.append(byte(at: offset))
            offset += 1
        }
        return word.isEmpty ? nil : Self.folded(word)
    }

    /// The next bare word, without moving past it.
    mutating func peekKeyword() -> String? {
        let saved = offset
        defer { offset = saved }
        return keyword()
    }

    /// The next identifier: a bare word or one quoted with `"`, `` ` ``, `[ ]` or `'`, folded
    /// to ASCII lower case.
    mutating func name() -> String? {
        skipSpace()
        let open = byte(at: offset)
        let close: UInt8
        switch open {
        case UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "'"): close = open
        case UInt8(ascii: "["): close = UInt8(ascii: "]")
        default: return keyword()
        }
        offset += 1
        var name: [UInt8] = []
        while byte(at: offset) != 0 {
            let current = byte(at: offset)
            offset += 1
            if current == close {
                // A doubled closing quote is one quote inside the name ("a""b"), not for [ ].
                guard close != UInt8(ascii: "]"), byte(at: offset) == close else { return Self.folded(name) }
                offset += 1
            }
            name.append(current)
        }
        return nil  // unterminated: SQLite would not have prepared it
    }
}
