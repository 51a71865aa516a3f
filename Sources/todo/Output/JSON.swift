import TodoInterop
import TodoStore
import TodoSync

/// Writes JSON by hand: the CLI's output is small and fixed in shape, and Foundation's
/// encoder would make every run load and start Foundation for it.
enum JSON {
    /// A JSON string literal for `text`, written by JSONCodec's one string writer: every
    /// character JSON requires escaped, and every control character of the one policy too (C0,
    /// DEL, C1, U+2028/2029, the bidi controls: TextSafety's `ControlCharacters`), so that text
    /// from another client or a CalDAV server does not reach a terminal raw through `--json`
    /// either. Escaped, the value a JSON parser reads back is the same.
    static func string(_ text: String) -> String {
        // Most names are printable ASCII without quotes or backslashes: one pass over the bytes
        // proves it, and the text is copied as it is.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        if plain == true { return "\"" + text + "\"" }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        JSONValue.encodeString(text.utf8, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON string, or `null`.
    static func optional(_ text: String?) -> String {
        text.map(string) ?? "null"
    }

    /// A todo as JSON, in the one shape every `--json` output and `todo export` use
    /// (docs/everyday-use.md): `{"id": 3, "name": "Buy milk", "deadline": "2024-05-01", "done": false, ...}`,
    /// the id, then every field of ``TodoField/all`` in its order, keyed by its name (a field
    /// without a value is `null`).
    static func object(_ todo: Todo) -> String {
        object(todo, uid: nil)
    }

    /// ``object(_:)`` with the name of the todo's list when `lists` names it (`"list": "Work"`,
    /// after the fields), and the todo's `"uid"` last when it has one: what `todo export`
    /// writes, so that importing the file twice adds its todos once.
    ///
    /// `"parent"` is the id of the todo it is a subtask of (null at the top level), after the
    /// fields; `"children"`, the ids of its subtasks, follows when `children` is given (a list
    /// knows them; a change line does not), `"depends"`, the ids of the todos it waits for (done
    /// or not), when `depends` is given, and `"depth"`, where the todo sits in a tree shown (0 at
    /// the top level), at the end when `depth` is given (the outline's and `todo watch`'s rows).
    static func object(
        _ todo: Todo, uid: String?, lists: [Int64: String]? = nil, children: [Int64]? = nil, depends: [Int64]? = nil,
        depth: Int? = nil
    ) -> String {
        var out = "{\"id\": \(todo.id)"
        for field in TodoField.all {
            out += ", \"\(field.name)\": " + value(field.value(in: todo.fields))
        }
        out += ", \"parent\": " + (todo.parentID.map(String.init) ?? "null")
        if let children { out += ", \"children\": [" + children.map(String.init).joined(separator: ", ") + "]" }
        if let depends { out += ", \"depends\": [" + depends.map(String.init).joined(separator: ", ") + "]" }
        if let name = lists?[todo.listID] { out += ", \"list\": " + string(name) }
        if let uid { out += ", \"uid\": " + string(uid) }
        if let depth { out += ", \"depth\": \(depth)" }
        return out + "}"
    }

    /// The lists' names by id, for ``object(_:uid:lists:)``.
    static func listNames(_ repository: TodoRepository) throws(TodoStoreError) -> [Int64: String] {
        Dictionary(try repository.lists().map { ($0.id, $0.name) }) { first, _ in first }
    }

    /// A field's value in JSON: text and times as strings, dates as `YYYY-MM-DD`, done as a
    /// Boolean, the priority as its number 0-9, tags as an array of strings (`["+work"]`), a
    /// due time as a string (`"19:00 Europe/Berlin"`), a percent as its number, none as `null`. The JSON importer reads the same forms back (TodoInterop's TodoJSONReader).
    static func value(_ value: TodoField.Value) -> String {
        switch value {
        case .none: "null"
        case .text(let text): string(text)
        case .date(let date): "\"\(date)\""
        case .flag(let flag): "\(flag)"
        case .priority(let priority): "\(priority.rawValue)"
        case .tags(let tags): "[" + tags.map { string($0.description) }.joined(separator: ", ") + "]"
        case .time(let time): "\"\(time)\""
        case .clock(let time): string(time.text)
        case .percent(let percent): "\(percent)"
        }
    }
}

/// The todo objects of `todo list --json`, for any todos: each as ``JSON/object(_:uid:lists:children:depends:depth:)``
/// writes it, with its list's name, its subtasks, what it waits for, and its `"uid"` when it has
/// one (table `todo_uids`: a todo synced, exported, or imported with one). `list`, `export` and
/// the verbs' `--json` (`done`, `undone`, `rm`, `edit`, `undo`, `redo`...) print these, so a
/// script reads one shape.
struct TodoJSON {
    let lists: [Int64: String]
    let children: [Int64: [Int64]]
    let depends: [Int64: [Int64]]
    /// Nil when no todo of the file has a UID: then none is looked up.
    let uids: TodoUIDs?

    /// Reads what the objects need besides the todos themselves; `uids` in place of the file's.
    init(_ repository: TodoRepository, uids: TodoUIDs? = nil) throws(TodoStoreError) {
        lists = try JSON.listNames(repository)
        children = try repository.subtaskIDsByParent()
        depends = try repository.hasDependencies() ? try repository.dependencyIDsByTodo() : [:]
        if let uids { self.uids = uids } else { self.uids = try Self.uids(repository) }
    }

    /// The file's UIDs, or nil when it has none (most files that never synced): one look-up
    /// then, instead of one per todo.
    static func uids(_ repository: TodoRepository) throws(TodoStoreError) -> TodoUIDs? {
        let uids = TodoUIDs(repository: repository)
        return try uids.anyGiven() ? uids : nil
    }

    /// One todo's object.
    func object(_ todo: Todo) throws(TodoStoreError) -> String {
        JSON.object(
            todo, uid: try uids?.uid(ofTodo: todo.id), lists: lists, children: children[todo.id] ?? [],
            depends: depends[todo.id] ?? [])
    }

    /// `todos` as a JSON array, one object a line, as `todo list --json` writes them.
    func array(_ todos: [Todo]) throws(TodoStoreError) -> String {
        var items: [String] = []
        items.reserveCapacity(todos.count)
        for todo in todos { items.append(try object(todo)) }
        return items.isEmpty ? "[]\n" : "[\n  " + items.joined(separator: ",\n  ") + "\n]\n"
    }
}

/// The UIDs of `todo watch --json`'s todo objects, which carry `"uid"` as `todo list --json`'s
/// do: in the first listing only when the file had UIDs when the watch started (most files
/// never synced: no look-up per todo of a long list), in every change line always (a sync may
/// give a todo its UID at any time). A failed look-up leaves the key out; the watch's next read
/// of the file reports the failure.
struct WatchUIDs {
    let uids: TodoUIDs
    let anyAtStart: Bool

    init(_ repository: TodoRepository) throws(TodoStoreError) {
        uids = TodoUIDs(repository: repository)
        anyAtStart = try uids.anyGiven()
    }

    /// The UID of the todo `id`, for the first listing (`inListing`) or a change line.
    func uid(of id: Int64, inListing: Bool) -> String? {
        guard !inListing || anyAtStart else { return nil }
        return (try? uids.uid(ofTodo: id)) ?? nil
    }
}
