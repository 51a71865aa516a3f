import SQLite

/// A todo's project, as taskwarrior users mean one: a path of names from the widest to the
/// narrowest, joined by dots (`Work.ClientA` is the project `ClientA` inside `Work`). A todo has
/// at most one project, and it is not a tag: the project `Errands` and the tag `+errands` are
/// told apart everywhere (filters, groupings, import, export and sync).
///
/// Two paths that case-fold alike (the store's one folding rule, ``TodoSearch/fold(_:)``) name
/// one project, as tags do: filters and groupings compare ``folded``. As a field's value it is
/// compared as written (`==`, its path), so that renaming `work` to `Work` is a change that syncs. A
/// project is inside another when its folded path
/// starts with the other's and a dot: a filter on `Work` takes `Work.ClientA` too, never
/// `Workshop`.
///
/// Where it goes: the `project` column (migration 0020), `project:Work.ClientA` in rows, in
/// `todo add`'s words and in todo.txt files (a todo.txt `+word` stays a tag, as it always was
/// here), `X-TODO-PROJECT` in a VTODO (no app on the account has projects: they keep the property
/// untouched, and show nothing of it), `"project"` in JSON.
public struct TodoProject: Hashable, Sendable, CustomStringConvertible {
    /// The path as it was typed: `Work.ClientA`.
    public let path: String
    /// The case-folded path: what matching and identity use. Computed when asked, not kept:
    /// a list reads a project on every row and compares none.
    public var folded: String { TodoSearch.fold(path) }

    /// The most bytes in a project's path.
    public static let maximumLength = 200

    /// What a project is, for messages and help.
    public static let acceptedForms =
        "names joined by dots, the widest first (Work, Work.ClientA); each name a tag's word (\"Home Improvement\" too)"

    /// The project `text` names, or `nil` when it names none: empty, over ``maximumLength``
    /// bytes, or with a name that is no tag's word (`TodoTag.isValidWord(_:)`: no control
    /// characters, no white space but single spaces inside, no leading sigil), an empty name
    /// (`Work..A`, `.Work`) included.
    public init?(_ text: some StringProtocol) {
        let path = String(text)
        guard (1...Self.maximumLength).contains(path.utf8.count) else { return nil }
        guard path.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(TodoTag.isValidWord) else {
            return nil
        }
        self.path = path
    }

    public var description: String { path }

    /// Its names from the widest: `["Work", "ClientA"]`.
    public var names: [Substring] { path.split(separator: ".") }

    /// Itself and every project it is inside, the widest first: `Work`, `Work.ClientA`.
    public var lineage: [TodoProject] {
        var lineage: [TodoProject] = []
        var prefix = ""
        for name in names {
            prefix += prefix.isEmpty ? String(name) : "." + name
            if let project = TodoProject(prefix) { lineage.append(project) }
        }
        return lineage
    }

    /// Whether this project is `other` or inside it.
    public func isWithin(_ other: TodoProject) -> Bool { Self.isWithin(folded: folded, other.folded) }

    /// The one rule of ``isWithin(_:)`` over folded paths, for SQL (`todo_in_project`) and memory.
    static func isWithin(folded path: String, _ other: String) -> Bool {
        guard path.hasPrefix(other) else { return false }
        let rest = path.utf8.dropFirst(other.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: ".")
    }

    /// The word rows, `todo add` and todo.txt write it as: `project:Work.ClientA`.
    public var word: String { Self.wordPrefix + path }

    /// What starts ``word``.
    public static let wordPrefix = "project:"
}

extension TodoProject: TodoOptionalFieldValue {
    /// A value another program wrote that names no project reads as none.
    public init?(nonNullColumn index: Int32, of row: Row) { self.init(row.string(index)) }
    public init?(fieldValue: TodoField.Value) {
        guard case .text(let text) = fieldValue else { return nil }
        self.init(text)
    }
    public var fieldValue: TodoField.Value { .text(path) }
    public static var kind: TodoField.Kind { .text }
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try path.bind(to: statement, at: index)
    }
}
