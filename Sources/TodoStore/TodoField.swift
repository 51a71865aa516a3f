import SQLite

/// One field of a todo, described once: its name, how its value is stored in a column, read
/// back, compared and shown, and how `todo sync` merges it.
///
/// ``all`` is the table of every field, in column order. Everything that handles every field
/// goes through it rather than naming the fields again: the column lists of the `todos` table
/// (``TodoColumns``), the INSERT and UPDATE of every field, the row decoder, sync's merge base
/// (`sync_items` has the same columns) and its local-change detection, the three-way merge and
/// its conflicts, the JSON shape of `--json` and `todo export`. Adding a field means a
/// migration, its property in ``TodoFields``, one row in ``all``, and its VTODO mapping.
///
/// The name is the field's column in `todos` and in `sync_items`, its key in JSON, and the word
/// a sync conflict names it by.
public struct TodoField: Sendable {
    /// The column, JSON key and conflict word (`deadline`, `done`...).
    public let name: String
    /// How `todo sync` merges two versions of the field against the last synced one.
    public let merge: Merge
    /// The kind of value it holds (the case of ``Value`` its values take, but for none).
    public let kind: Kind

    let bindValue: @Sendable (TodoFields, Statement, Int32) throws(SQLiteError) -> Void
    let readValue: @Sendable (Row, Int32, inout TodoFields) -> Void
    let equal: @Sendable (TodoFields, TodoFields) -> Bool
    let copyValue: @Sendable (TodoFields, inout TodoFields) -> Void
    let valueOf: @Sendable (TodoFields) -> Value
    let setValue: @Sendable (Value, inout TodoFields) -> Bool
    let mergeSets:
        (@Sendable (_ base: TodoFields?, _ local: TodoFields, _ remote: TodoFields, inout TodoFields) -> Void)?

    /// The merge rules.
    public enum Merge: Sendable, Equatable {
        /// One value: a side that did not change it since the base takes the other side's; when
        /// both changed it differently, the server's wins and the loss is reported.
        case oneValue
        /// A set (tags): members either side removed since the base go, the others stay. Two
        /// sides never conflict.
        case set
    }

    /// The kinds of ``Value``.
    public enum Kind: Sendable, Equatable {
        case text, date, flag, priority, tags, time, clock, percent
    }

    /// A field's value as plain data, for what shows or carries fields without knowing each
    /// one: a sync conflict's two values, the JSON of a todo. ``none`` is an optional field
    /// without a value.
    public enum Value: Sendable, Equatable {
        case none
        case text(String)
        case date(CalendarDate)
        case flag(Bool)
        case priority(TodoPriority)
        case tags(TodoTags)
        case time(UTCTimestamp)
        /// A due time (its ``TodoDueTime/text`` in JSON).
        case clock(TodoDueTime)
        /// A percent, 0 to 100.
        case percent(Int)
    }

    /// The table of every field, in the order of the columns after `id`.
    public static let all: [TodoField] = [
        .field("name", \.name),
        .field("deadline", \.deadline),
        .done,
        .field("priority", \.priority),
        .field("tags", \.tags, merge: .set),
        .field("note", \.note),
        .field("created", \.created),
        .field("completed", \.completed),
        .field("repeat_rule", \.repeatRule),
        .field("repeat_from", \.repeatFrom),
        .field("due_time", \.dueTime),
        .field("start_date", \.start),
        .status,
        .field("percent", \.percent),
        .field("project", \.project)
    ]

    /// The field's value in a todo that has nothing but a name: what a field left out of a file
    /// (or `null` there) means.
    public var empty: Value { value(in: TodoFields(name: "")) }

    /// The field named `name`, if there is one.
    public static func named(_ name: String) -> TodoField? { all.first { $0.name == name } }

    /// A field held at `path`.
    static func field<Stored: TodoFieldValue>(
        _ name: String, _ path: WritableKeyPath<TodoFields, Stored> & Sendable, merge: Merge = .oneValue
    ) -> TodoField {
        let bind: @Sendable (TodoFields, Statement, Int32) throws(SQLiteError) -> Void = {
            (fields: TodoFields, statement: Statement, index: Int32) throws(SQLiteError) in
            try fields[keyPath: path].bind(to: statement, at: index)
        }
        let read: @Sendable (Row, Int32, inout TodoFields) -> Void
        if let offset = MemoryLayout<TodoFields>.offset(of: path) {
            // The row decoder runs once per field per row (a million times twelve in `todo list`):
            // a store at the property's offset, where a key path write is a runtime walk of the path.
            read = { row, index, fields in
                withUnsafeMutablePointer(to: &fields) { pointer in
                    UnsafeMutableRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Stored.self).pointee =
                        Stored(column: index, of: row)
                }
            }
        } else {
            read = { row, index, fields in fields[keyPath: path] = Stored(column: index, of: row) }
        }
        let set: @Sendable (Value, inout TodoFields) -> Bool = { value, fields in
            guard let stored = Stored(fieldValue: value) else { return false }
            fields[keyPath: path] = stored
            return true
        }
        var mergeSets: (@Sendable (TodoFields?, TodoFields, TodoFields, inout TodoFields) -> Void)?
        if merge == .set {
            mergeSets = { base, local, remote, merged in
                merged[keyPath: path] = Stored.mergedSet(
                    base: base?[keyPath: path], local: local[keyPath: path], remote: remote[keyPath: path])
            }
        }
        return TodoField(
            name: name, merge: merge, kind: Stored.kind, bindValue: bind, readValue: read,
            equal: { $0[keyPath: path].means(theSameAs: $1[keyPath: path]) },
            copyValue: { $1[keyPath: path] = $0[keyPath: path] },
            valueOf: { $0[keyPath: path].fieldValue }, setValue: set, mergeSets: mergeSets)
    }

    /// `done`: whether the todo is done (``TodoFields/isDone``), the flag every program sharing
    /// the file reads and writes. Read first of the two columns of the state: it sets the state
    /// to completed or needs action, which ``status``, read after it, refines.
    public static let done = TodoField(
        name: "done", merge: .oneValue, kind: .flag,
        bindValue: { (fields: TodoFields, statement: Statement, index: Int32) throws(SQLiteError) in
            try fields.isDone.bind(to: statement, at: index)
        },
        readValue: { row, index, fields in fields.status = row.bool(index) ? .completed : .needsAction },
        equal: { $0.isDone == $1.isDone }, copyValue: { $1.isDone = $0.isDone }, valueOf: { .flag($0.isDone) },
        setValue: { value, fields in
            guard case .flag(let flag) = value else { return false }
            fields.isDone = flag
            return true
        }, mergeSets: nil)

    /// `status`: the todo's whole state (``TodoStatus``), `done` included, as its raw value
    /// (`"in-process"`) wherever fields are shown or carried; its column holds only what `done`
    /// does not say (``TodoStatus/columnValue``). Merged as one value, after `done`: a sync
    /// never mixes one side's done with the other side's status. Set from ``Value/none``, it
    /// leaves the state `done` set (a file from before statuses, or `null`).
    public static let status = TodoField(
        name: "status", merge: .oneValue, kind: .text,
        bindValue: { (fields: TodoFields, statement: Statement, index: Int32) throws(SQLiteError) in
            try fields.status.columnValue.bind(to: statement, at: index)
        },
        readValue: { row, index, fields in
            guard !row.isNull(index) else { return }
            let isDone = fields.status.isDone
            fields.status = row.withUTF8(index) { TodoStatus.reading(isDone: isDone, column: $0) }
        },
        equal: { $0.status == $1.status }, copyValue: { $1.status = $0.status }, valueOf: { .text($0.status.rawValue) },
        setValue: { value, fields in
            if value == .none { return true }
            guard case .text(let text) = value, let status = TodoStatus(rawValue: text) else { return false }
            fields.status = status
            return true
        }, mergeSets: nil)

    // MARK: Using a field

    /// Binds the field's value in `fields` to the parameter `index` of `statement`.
    public func bind(_ fields: TodoFields, to statement: Statement, at index: Int32) throws(SQLiteError) {
        try bindValue(fields, statement, index)
    }

    /// Sets the field in `fields` to the column `index` of `row`.
    @inline(__always)
    public func read(_ row: Row, at index: Int32, into fields: inout TodoFields) {
        readValue(row, index, &fields)
    }

    /// Whether `a` and `b` say the same in this field (``TodoFieldValue/means(theSameAs:)``):
    /// what sync compares, to tell a change from a rewrite that changed nothing.
    public func isEqual(_ a: TodoFields, _ b: TodoFields) -> Bool { equal(a, b) }

    /// Sets the field in `fields` to its value in `source`.
    public func copy(from source: TodoFields, into fields: inout TodoFields) { copyValue(source, &fields) }

    /// The field's value in `fields`, as plain data.
    public func value(in fields: TodoFields) -> Value { valueOf(fields) }

    /// Sets the field in `fields` to `value`; false, changing nothing, when the value is not of
    /// the field's kind (a date for the name, ``Value/none`` for a field that must have one).
    @discardableResult
    public func set(_ value: Value, in fields: inout TodoFields) -> Bool { setValue(value, &fields) }

    /// For a ``Merge/set`` field: sets it in `merged` to the merge of the three versions.
    public func mergeSet(base: TodoFields?, local: TodoFields, remote: TodoFields, into merged: inout TodoFields) {
        mergeSets?(base, local, remote, &merged)
    }
}

/// The type of a todo's field: stored in one column, read back from it, and shown as a
/// ``TodoField/Value``. Binding comes from `SQLiteBindable`.
public protocol TodoFieldValue: SQLiteBindable, Equatable, Sendable {
    /// The value in the column `index` of `row`, as the store wrote it (or another program did:
    /// a value that does not read as one is the field's empty value).
    init(column index: Int32, of row: Row)
    /// `nil` unless `fieldValue` is of this type's kind.
    init?(fieldValue: TodoField.Value)
    var fieldValue: TodoField.Value { get }
    static var kind: TodoField.Kind { get }
    /// The three-way merge of a set-valued field (``TodoField/Merge/set``); other types are no sets.
    static func mergedSet(base: Self?, local: Self, remote: Self) -> Self
    /// Whether two values say the same; `==` unless the type writes one meaning in several ways
    /// (tags in another order).
    func means(theSameAs other: Self) -> Bool
}

extension TodoFieldValue {
    public static func mergedSet(base: Self?, local: Self, remote: Self) -> Self { remote }
    public func means(theSameAs other: Self) -> Bool { self == other }
}

extension TodoFields {
    /// Whether every field says the same in both (``TodoField/isEqual(_:_:)``): no change to
    /// send or to take, however the values are written.
    public func means(theSameAs other: TodoFields) -> Bool { TodoField.all.allSatisfy { $0.isEqual(self, other) } }
}

/// An optional field (`nil`: none, NULL in its column) of a type that is never NULL itself.
public protocol TodoOptionalFieldValue: SQLiteBindable, Equatable, Sendable {
    /// The value in the column `index` of `row`, known not to be NULL; `nil` when it does not read.
    init?(nonNullColumn index: Int32, of row: Row)
    init?(fieldValue: TodoField.Value)
    var fieldValue: TodoField.Value { get }
    static var kind: TodoField.Kind { get }
}

extension Optional: TodoFieldValue where Wrapped: TodoOptionalFieldValue {
    public init(column index: Int32, of row: Row) {
        self = row.isNull(index) ? nil : Wrapped(nonNullColumn: index, of: row)
    }

    public init?(fieldValue: TodoField.Value) {
        if fieldValue == .none {
            self = nil
        } else if let value = Wrapped(fieldValue: fieldValue) {
            self = value
        } else {
            return nil
        }
    }

    public var fieldValue: TodoField.Value { self?.fieldValue ?? .none }
    public static var kind: TodoField.Kind { Wrapped.kind }
}

extension String: TodoFieldValue, TodoOptionalFieldValue {
    public init(column index: Int32, of row: Row) { self = row.isNull(index) ? "" : row.string(index) }
    public init?(nonNullColumn index: Int32, of row: Row) { self = row.string(index) }
    public init?(fieldValue: TodoField.Value) {
        guard case .text(let text) = fieldValue else { return nil }
        self = text
    }
    public var fieldValue: TodoField.Value { .text(self) }
    public static var kind: TodoField.Kind { .text }
}

extension Bool: TodoFieldValue {
    public init(column index: Int32, of row: Row) { self = row.bool(index) }
    public init?(fieldValue: TodoField.Value) {
        guard case .flag(let flag) = fieldValue else { return nil }
        self = flag
    }
    public var fieldValue: TodoField.Value { .flag(self) }
    public static var kind: TodoField.Kind { .flag }
}

extension Int: TodoOptionalFieldValue {
    /// A percent: a whole number 0 to 100; another value (another program's text, a fraction,
    /// a number out of range) is none.
    public init?(nonNullColumn index: Int32, of row: Row) {
        guard row.isInteger(index) else { return nil }
        let value = row.int64(index)
        guard (0...100).contains(value) else { return nil }
        self = Int(value)
    }
    public init?(fieldValue: TodoField.Value) {
        guard case .percent(let percent) = fieldValue else { return nil }
        self = percent
    }
    public var fieldValue: TodoField.Value { .percent(self) }
    public static var kind: TodoField.Kind { .percent }
}

extension CalendarDate: TodoOptionalFieldValue {
    public init?(nonNullColumn index: Int32, of row: Row) {
        guard let date = row.withUTF8(index, { CalendarDate(iso: $0) }) else { return nil }
        self = date
    }
    public init?(fieldValue: TodoField.Value) {
        guard case .date(let date) = fieldValue else { return nil }
        self = date
    }
    public var fieldValue: TodoField.Value { .date(self) }
    public static var kind: TodoField.Kind { .date }
}

extension UTCTimestamp: TodoOptionalFieldValue {
    public init?(nonNullColumn index: Int32, of row: Row) {
        guard let time = row.withUTF8(index, { UTCTimestamp(iso: $0) }) else { return nil }
        self = time
    }
    public init?(fieldValue: TodoField.Value) {
        guard case .time(let time) = fieldValue else { return nil }
        self = time
    }
    public var fieldValue: TodoField.Value { .time(self) }
    public static var kind: TodoField.Kind { .time }
}

extension TodoPriority: TodoFieldValue {
    /// A number outside 0...9 (written by another program) is no priority.
    public init(column index: Int32, of row: Row) { self = TodoPriority(rawValue: Int(row.int64(index))) ?? .none }
    public init?(fieldValue: TodoField.Value) {
        guard case .priority(let priority) = fieldValue else { return nil }
        self = priority
    }
    public var fieldValue: TodoField.Value { .priority(self) }
    public static var kind: TodoField.Kind { .priority }
}

extension TodoRepeatFrom: TodoFieldValue {
    /// A value another program wrote that is neither `due` nor `done` counts from the due date.
    public init(column index: Int32, of row: Row) {
        // Compared as bytes: read on every row of a list, where a String would be made for it
        // (and by hand: a generic elementsEqual over the String's UTF-8 view cost 1.4% of a list).
        let done =
            !row.isNull(index)
            && row.withUTF8(index) { $0.count == 4 && $0[0] == 0x64 && $0[1] == 0x6F && $0[2] == 0x6E && $0[3] == 0x65 }
        self = done ? .done : .due
    }
    public init?(fieldValue: TodoField.Value) {
        guard case .text(let text) = fieldValue, let value = TodoRepeatFrom(rawValue: text) else { return nil }
        self = value
    }
    public var fieldValue: TodoField.Value { .text(rawValue) }
    public static var kind: TodoField.Kind { .text }
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try rawValue.bind(to: statement, at: index)
    }
}

extension TodoTags: TodoFieldValue {
    public init(column index: Int32, of row: Row) {
        self = row.isNull(index) ? [] : TodoTags(storage: row.string(index))
    }
    public init?(fieldValue: TodoField.Value) {
        guard case .tags(let tags) = fieldValue else { return nil }
        self = tags
    }
    public var fieldValue: TodoField.Value { .tags(self) }
    public static var kind: TodoField.Kind { .tags }

    /// The tags of both sides, less those either side removed since the base. A side whose
    /// tags say what the base's said (in any order) takes the other side's as they are (order
    /// and writing included). Otherwise the server's come first, in its order and as it writes them, then
    /// those added here: every device that merges the same server tags ends up with the same
    /// list, so a phone that only reorders its categories changes the order everywhere and
    /// starts no back-and-forth. Without a base, the union, in the same order.
    public static func mergedSet(base: TodoTags?, local: TodoTags, remote: TodoTags) -> TodoTags {
        if let base, local.means(theSameAs: base) { return remote }
        if let base, remote.means(theSameAs: base) { return local }
        let base = base ?? []
        func removed(on side: TodoTags, _ tag: TodoTag) -> Bool { base.contains(tag) && !side.contains(tag) }
        var merged = TodoTags()
        for tag in remote where !removed(on: local, tag) { merged.insert(tag) }
        for tag in local where !removed(on: remote, tag) { merged.insert(tag) }
        return merged
    }
}
