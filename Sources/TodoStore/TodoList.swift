import SQLite
import TextSafety

/// One list of todos (a row of `lists`, migration 0013): every todo is in exactly one, as every
/// app that syncs over CalDAV has it (a list is a calendar collection there).
///
/// A value, like ``Todo``: `id` never changes and is never given to another list, so a section
/// keyed by it keeps its place through a rename.
public struct TodoList: Identifiable, Hashable, Sendable {
    /// The list every database starts with (named "Todos", the default until another is made so):
    /// the one every todo of a database from before lists is in.
    public static let firstID: Int64 = 1

    public let id: Int64
    /// Unique in the database under Unicode case folding (``isSameName(_:_:)``).
    public var name: String
    /// `#RRGGBB` (upper-case hex), or `nil` for none.
    public var color: String?
    /// Display order: lists show by position, then by name.
    public var position: Int64
    /// Whether new todos go here when nobody says which list (exactly one list is the default).
    public var isDefault: Bool

    public init(id: Int64, name: String, color: String? = nil, position: Int64 = 0, isDefault: Bool = false) {
        self.id = id
        self.name = name
        self.color = color
        self.position = position
        self.isDefault = isDefault
    }

    /// The one rule for a list's name, wherever one is typed or read: something besides white
    /// space, no control character (a name is printed in every row that names its list), and no
    /// leading `-` (it would read as an option on every command line that names it).
    public static func isValidName(_ name: String) -> Bool {
        Todo.isValidName(name) && !name.hasPrefix("-")
            && !name.unicodeScalars.contains { ControlCharacters.contains($0) || $0 == "\n" || $0 == "\t" }
    }

    /// Whether two names are the same list's: equal under Unicode full case folding
    /// (`Éclair` and `éclair`), as todo compares tags and searches. The `lists` table's NOCASE
    /// folds ASCII only, and backs this up for other programs.
    public static func isSameName(_ a: String, _ b: String) -> Bool {
        TodoSearch.fold(a) == TodoSearch.fold(b)
    }

    /// `color` as stored: `#RRGGBB` in upper case, from `#rrggbb`, `rrggbb` or the same with an
    /// alpha byte (`#RRGGBBAA`, as Apple and some servers write it; the alpha is dropped). `nil`
    /// when it is none of these.
    public static func normalizedColor(_ color: String) -> String? {
        var hex = Substring(color)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.count == 6 || hex.count == 8, hex.utf8.allSatisfy({ $0 < 0x80 && $0.isHexDigit }) else { return nil }
        return "#" + hex.prefix(6).uppercased()
    }

    /// The columns of a list, in ``init(row:)``'s order: every column of `lists`.
    static let columns = "id, name, color, position, is_default"
    static let columnCount = 5

    init(row: Row) {
        self.init(
            id: row.int64(0), name: row.string(1), color: row.optionalString(2), position: row.int64(3),
            isDefault: row.int64(4) == 1)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}

/// How many todos a list holds (`todo lists`).
public struct TodoListCount: Hashable, Sendable {
    public var undone: Int
    public var done: Int

    public init(undone: Int = 0, done: Int = 0) {
        self.undone = undone
        self.done = done
    }
}
