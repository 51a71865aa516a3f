import TodoSnapshot
import TodoStore

/// What a controller in ``FetchedResultsController/Rows/keys(_:)`` keeps of one todo: what
/// places it (its deadline, done state and status, priority, list and parent), in 16 bytes,
/// without its id (the table it sits in is indexed by id). The name, tags and project an order
/// or a grouping compares are kept beside it, only when asked (`TodoKeyColumns.Extra`), and so
/// is a list id too wide for 32 bits (another program's).
struct TodoKey: Sendable, Equatable {
    /// `Int64.min`: none.
    var parentID: Int64
    /// The list's id; ``wideList``: kept beside the key (``TodoKeyExtra/listID``).
    var listID: Int32
    /// The deadline (bits 0 to 21: days since 0001-01-01 plus one, 0 for none), the status
    /// (bits 22 to 24: its position in `TodoStatus.allCases`, 7 for no todo) and the priority
    /// (bits 25 to 28).
    var packed: UInt32

    static let wideList = Int32.min
    static let absent = TodoKey(parentID: .min, listID: 0, packed: 7 << 22)
    private static let statuses = TodoStatus.allCases
    /// ``CalendarDate/daysSinceEpoch`` of 0001-01-01, the first day there is.
    private static let firstDay = -719_162

    var isAbsent: Bool { (packed >> 22) & 7 == 7 }

    private init(parentID: Int64, listID: Int32, packed: UInt32) {
        self.parentID = parentID
        self.listID = listID
        self.packed = packed
    }

    /// The key of `todo`.
    init(_ todo: Todo) {
        parentID = todo.parentID ?? .min
        listID = Int32(exactly: todo.listID).flatMap { $0 == Self.wideList ? nil : $0 } ?? Self.wideList
        // Every date there is (years 1 to 9999) fits in 22 bits.
        let day = todo.deadline.map { UInt32($0.daysSinceEpoch - Self.firstDay + 1) } ?? 0
        let status = UInt32(Self.statuses.firstIndex(of: todo.status) ?? 0)
        packed = day | status << 22 | UInt32(clamping: todo.priority.rawValue) << 25
    }

    /// The key todo (`TodoKeyColumns`) of todo `id` with this key and `extra`'s fields: what
    /// the request's order, the outline's groupings and the tree rule compare.
    func todo(id: Int64, extra: TodoKeyExtra?) -> Todo {
        var fields = TodoFields(name: extra?.name ?? "", tags: extra?.tags ?? [], project: extra?.project)
        let day = packed & 0x3F_FFFF
        if day != 0 { fields.deadline = CalendarDate(daysSinceEpoch: Int(day) - 1 + Self.firstDay) }
        fields.status = Self.statuses[Int((packed >> 22) & 7)]
        fields.priority = TodoPriority(rawValue: Int((packed >> 25) & 15)) ?? .none
        return Todo(id: id, fields, listID: list(extra), parentID: parentID == .min ? nil : parentID)
    }

    /// The list id, read beside the key when it is too wide for it.
    func list(_ extra: TodoKeyExtra?) -> Int64 {
        listID == Self.wideList ? extra?.listID ?? TodoList.firstID : Int64(listID)
    }
}

/// The fields of a key todo kept beside its ``TodoKey`` when an order or a grouping compares
/// them.
struct TodoKeyExtra: Sendable, Equatable {
    var name: String?
    var tags: TodoTags?
    var project: TodoProject?
    /// A list id too wide for the key (``TodoKey/wideList``).
    var listID: Int64?

    init?(_ todo: Todo, _ extra: TodoKeyColumns.Extra, key: TodoKey) {
        if extra.contains(.name) { name = todo.name }
        if extra.contains(.tags), !todo.tags.isEmpty { tags = todo.tags }
        if extra.contains(.project) { project = todo.project }
        if key.listID == TodoKey.wideList { listID = todo.listID }
        if name == nil, tags == nil, project == nil, listID == nil { return nil }
    }
}

/// A table of values by todo id, in pages of ids, so that a copy shares every page it does not
/// change (as `ChunkedList` does) and a look-up is an index, with no hashing and no stored id.
/// Ids past the pages (a negative id, or one far above the others) go to a dictionary.
///
/// Why: a dictionary of a million entries costs 40 to 80 bytes an entry and copies whole on a
/// change while an older version is held; a page of 1,024 values costs their size.
struct TodoIDTable<Value: Sendable & Equatable>: Sendable {
    static var pageSize: Int { 1_024 }
    /// Ids at or above this many pages' worth go to ``overflow``: 64 M ids, a page table of 512 KiB.
    static var pageLimit: Int { 65_536 }

    let absent: Value
    private var pages: [[Value]] = []
    private var overflow: [Int64: Value] = [:]

    init(absent: Value) { self.absent = absent }

    subscript(id: Int64) -> Value {
        get {
            guard id >= 0, id < Int64(Self.pageLimit * Self.pageSize) else { return overflow[id] ?? absent }
            let page = Int(id) / Self.pageSize
            guard page < pages.count, !pages[page].isEmpty else { return absent }
            return pages[page][Int(id) % Self.pageSize]
        }
        set {
            guard id >= 0, id < Int64(Self.pageLimit * Self.pageSize) else {
                overflow[id] = newValue == absent ? nil : newValue
                return
            }
            let page = Int(id) / Self.pageSize
            if page >= pages.count {
                guard newValue != absent else { return }
                pages.append(contentsOf: repeatElement([], count: page + 1 - pages.count))
            }
            if pages[page].isEmpty {
                guard newValue != absent else { return }
                pages[page] = [Value](repeating: absent, count: Self.pageSize)
            }
            pages[page][Int(id) % Self.pageSize] = newValue
        }
    }
}

/// The results of a ``FetchedResultsController`` in ``FetchedResultsController/Rows/keys(_:)``:
/// the ids of the todos in the request's order, and each todo's key (what places it), by id.
/// The rows themselves are read from the database when they are shown.
///
/// Memory: about 24 bytes a todo (an id in order, a 16-byte key in a table of pages), plus
/// the extra fields when an order or a grouping compares them (the names, for the name order).
/// Storage is shared as a `SortedSnapshot`'s is: a copy shares it, and a change copies the
/// chunk and the page it touches, so the results before a change and after it both stay valid.
///
/// The order is the request's (`TodoFetchRequest.Order.areInIncreasingOrder(_:_:)` on the key
/// todos, which compare as the whole todos do), so a change of k todos costs O(k log n), found
/// by binary search, as in a `SortedSnapshot`; results read out of that order (another
/// program's data that sorts differently in SQL) answer every read by scanning, and refuse to
/// be patched.
public struct TodoKeyResults: Sendable {
    /// The order the ids are in.
    public let order: TodoFetchRequest.Order
    /// The extra fields kept (`TodoKeyColumns`).
    public let columns: TodoKeyColumns
    /// The ids, in order.
    public private(set) var ids: ChunkedList<Int64>
    private var keys: TodoIDTable<TodoKey>
    private var extras: ShardedDictionary<Int64, TodoKeyExtra>
    /// Whether ``ids`` are in ``order``.
    public private(set) var isOrdered = true

    /// Results holding `todos` (key todos or whole ones), given in `order`. O(n).
    public init(order: TodoFetchRequest.Order, columns: TodoKeyColumns, todos: some Sequence<Todo> = [Todo]()) {
        self.order = order
        self.columns = columns
        ids = ChunkedList()
        keys = TodoIDTable(absent: .absent)
        extras = ShardedDictionary()
        append(contentsOf: todos)
    }

    /// Adds `todos` after the others, as the next slice of a fetch in order. O(k).
    /// Precondition: ids are unique.
    public mutating func append(contentsOf todos: some Sequence<Todo>) {
        for todo in todos { append(todo) }
    }

    /// Adds `todo` after the others. O(1) amortised.
    public mutating func append(_ todo: Todo) {
        if isOrdered, let last = ids.last, let previous = self.todo(withID: last),
            !order.areInIncreasingOrder(previous, todo)
        {
            isOrdered = false
        }
        set(todo)
        ids.append(todo.id)
    }

    /// Every key todo, in order. O(n).
    public var todos: LazyMapSequence<ChunkedList<Int64>, Todo> {
        let keys = keys
        let extras: ShardedDictionary<Int64, TodoKeyExtra>? = hasExtras ? extras : nil
        return ids.lazy.map { id in keys[id].todo(id: id, extra: extras?[id]) }
    }

    private mutating func set(_ todo: Todo) {
        let key = TodoKey(todo)
        keys[todo.id] = key
        if let extra = TodoKeyExtra(todo, columns.extra, key: key) {
            extras[todo.id] = extra
        } else if hasExtras {
            extras[todo.id] = nil
        }
    }

    private mutating func remove(_ id: Int64) {
        keys[id] = .absent
        if hasExtras { extras[id] = nil }
    }

    /// Whether any todo has fields kept beside its key.
    private var hasExtras: Bool { extras.count > 0 }

    /// The results of the todos at `offsets` (ascending) only, in the same order: their keys
    /// copied as they are, nothing compared. O(m + n / chunk size) for m offsets when they are
    /// at most half of the todos, else O(n) and a copy of the key tables.
    ///
    /// Why two ways: putting m keys into fresh tables one at a time is a random write each; when
    /// most todos are kept (a filter's first letter keeps most of a list), sharing the tables and
    /// taking out the n - m left out writes fewer (the first write copies each table page by
    /// page, a sequential copy).
    public func subset(at offsets: [Int]) -> TodoKeyResults {
        var result = TodoKeyResults(order: order, columns: columns)
        result.isOrdered = isOrdered
        let keepsMost = offsets.count * 2 > count
        if keepsMost {
            result.keys = keys
            result.extras = extras
        }
        // The ids in an array first: appending to it costs less than to the chunked list.
        var kept: [Int64] = []
        kept.reserveCapacity(offsets.count)
        var wanted = offsets.makeIterator()
        var next = wanted.next()
        var start = 0
        ids.forEachChunk { chunk in
            guard keepsMost else {
                while let offset = next, offset < start + chunk.count {
                    let id = chunk[offset - start]
                    kept.append(id)
                    result.keys[id] = keys[id]
                    if hasExtras, let extra = extras[id] { result.extras[id] = extra }
                    next = wanted.next()
                }
                start += chunk.count
                return
            }
            for (index, id) in chunk.enumerated() {
                if next == start + index {
                    kept.append(id)
                    next = wanted.next()
                } else {
                    result.remove(id)
                }
            }
            start += chunk.count
        }
        result.ids = ChunkedList(kept)
        return result
    }

    /// The number of todos. O(1).
    public var count: Int { ids.count }

    /// Whether todo `id` is among the results. O(1).
    public func contains(_ id: Int64) -> Bool { !keys[id].isAbsent }

    /// The key todo of `id` (only the fields that place it), nil when it is not among them. O(1).
    public func todo(withID id: Int64) -> Todo? {
        let key = keys[id]
        guard !key.isAbsent else { return nil }
        return key.todo(id: id, extra: hasExtras ? extras[id] : nil)
    }

    /// The parent id todo `id` stores, nil for none or when it is not among them. O(1).
    public func parentID(of id: Int64) -> Int64? {
        let key = keys[id]
        return key.isAbsent || key.parentID == .min ? nil : key.parentID
    }

    /// The list todo `id` is in, nil when it is not among them. O(1).
    public func listID(of id: Int64) -> Int64? {
        let key = keys[id]
        guard !key.isAbsent else { return nil }
        return key.list(key.listID == TodoKey.wideList ? extras[id] : nil)
    }

    /// Where todo `id` is, nil when it is absent. O(log n) (O(n) when not ``isOrdered``).
    public func index(of id: Int64) -> Int? {
        guard let todo = todo(withID: id) else { return nil }
        return offset(of: todo)
    }

    private func offset(of todo: Todo) -> Int? {
        if isOrdered {
            let offset = ids.lowerBound { other in self.comesBefore(other, todo) }
            return offset < ids.count && ids[offset] == todo.id ? offset : nil
        }
        return ids.firstIndex(of: todo.id)
    }

    /// Whether todo `id` (among the results) comes before `todo` in the order.
    private func comesBefore(_ id: Int64, _ todo: Todo) -> Bool {
        // A member missing from the table cannot happen; sorting it first keeps a search total.
        guard let other = self.todo(withID: id) else { return true }
        return order.areInIncreasingOrder(other, todo)
    }

    /// These results with `changes` made: each id's todo replaced by the new one (a key todo or
    /// a whole one), removed when it has none, added when it was absent. O(k (log n + chunk)).
    /// Nil when the results are not ``isOrdered`` or a todo is not where its key says (the
    /// caller reads them whole instead).
    public func applying(_ changes: [Int64: Todo?]) -> TodoKeyResults? {
        guard isOrdered else { return nil }
        var result = self
        for id in changes.keys {
            guard let old = result.todo(withID: id) else { continue }
            guard let offset = result.offset(of: old) else { return nil }
            result.ids.remove(at: offset)
            result.remove(id)
        }
        for (id, new) in changes {
            guard let new, new.id == id else { continue }
            let offset = result.ids.lowerBound { other in result.comesBefore(other, new) }
            if offset < result.ids.count, result.ids[offset] == id { return nil }
            result.ids.insert(id, at: offset)
            result.set(new)
        }
        return result
    }

    /// Whether todo `id` has the same key here and in `other` (both absent counts as the same).
    public func sameKey(_ id: Int64, in other: TodoKeyResults) -> Bool {
        keys[id] == other.keys[id] && (!hasExtras && !other.hasExtras || extras[id] == other.extras[id])
    }

    /// The ids that came, went or changed key between `old` and these results, found by merging
    /// the two ordered lists: O(n). Nil unless both are ``isOrdered``.
    public func changedIDs(from old: TodoKeyResults) -> [Int64]? {
        guard isOrdered, old.isOrdered else { return nil }
        var changed: [Int64] = []
        var before = old.ids.makeIterator()
        var after = ids.makeIterator()
        var left = before.next()
        var right = after.next()
        while true {
            switch (left, right) {
            case (nil, nil):
                return changed
            case (let id?, nil):
                changed.append(id)
                left = before.next()
            case (nil, let id?):
                changed.append(id)
                right = after.next()
            case (let a?, let b?):
                if a == b {
                    if !sameKey(a, in: old) { changed.append(a) }
                    left = before.next()
                    right = after.next()
                } else if let x = old.todo(withID: a), let y = todo(withID: b), order.areInIncreasingOrder(x, y) {
                    changed.append(a)
                    left = before.next()
                } else {
                    changed.append(b)
                    right = after.next()
                }
            }
        }
    }
}

/// One committed transaction's effect on a ``FetchedResultsController``'s results in
/// ``FetchedResultsController/Rows/keys(_:)``: the results before and after, and which todos
/// may differ.
public struct TodoKeyBatch: Sendable {
    /// The results before the change (sharing storage with the new ones).
    public let previous: TodoKeyResults
    /// The results after the change.
    public let results: TodoKeyResults
    /// The todos the commit changed that are among the results before or after it (their rows
    /// may show differently even where their keys did not change: a rename in the deadline
    /// order); nil when unknown (the results were read whole), and anything may differ.
    public let changed: [Int64]?
    /// The tree before and after, nil when neither side has a subtask.
    public let tree: (previous: TodoKeyTree?, tree: TodoKeyTree?)?
}
