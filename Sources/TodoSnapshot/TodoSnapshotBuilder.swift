// The two-section todo list of the iOS pattern this project re-creates (see the README): the
// flat "all" section and the "Undone"/"Done" outline, rebuilt from fetched records. Generic
// over the record so this module needs no storage layer: the CLI passes its `Todo` and how to
// tell it is done.

/// The two sections of the todo list.
public enum TodoSection: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Every todo, flat, in fetch order.
    case all
    /// The group rows "Undone" and "Done", each followed by its todos in fetch order.
    case outline

    /// `all` or `outline`.
    @inlinable
    public var description: String {
        switch self {
        case .all: "all"
        case .outline: "outline"
        }
    }
}

/// A group of the outline section: the parent rows, in this order.
public enum TodoGroup: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Todos not done yet; shown first.
    case undone
    /// Todos done.
    case done

    /// The group a todo belongs to.
    @inlinable
    public init(isDone: Bool) {
        self = isDone ? .done : .undone
    }

    /// The row's title: "Undone" or "Done".
    @inlinable
    public var title: String {
        switch self {
        case .undone: "Undone"
        case .done: "Done"
        }
    }

    /// The title.
    @inlinable
    public var description: String { title }
}

extension TodoGroup {
    /// The outline's grouping of a whole list, by the one rule (``init(isDone:)``, which the
    /// controller's sections and `todo ui` apply one todo at a time): each group in display
    /// order (undone, then done) with the positions of its records, which keep their fetch
    /// order. Positions rather than copies, so large lists are not copied to be grouped. O(n).
    @inlinable
    public static func partition<Records: RandomAccessCollection>(
        _ records: Records, isDone: (Records.Element) -> Bool
    ) -> [(group: TodoGroup, indices: [Records.Index])] {
        var undone: [Records.Index] = []
        var done: [Records.Index] = []
        for index in records.indices {
            if isDone(records[index]) { done.append(index) } else { undone.append(index) }
        }
        return [(.undone, undone), (.done, done)]
    }
}

/// The identifier of a ``TodoRow``, unique across both sections.
public enum TodoRowID<RecordID: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// A group row of the outline section.
    case group(TodoGroup)
    /// A record's row; the same record has one row per section, so the section is part of it.
    case todo(RecordID, TodoSection)

    // Written out and inlinable rather than synthesised: a synthesised conformance of a generic
    // enum runs unspecialised in other modules, and hashing is most of a snapshot build.

    /// Hashes the case and its payload.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .group(let group):
            hasher.combine(group == .undone ? 0 as UInt8 : 1)
        case .todo(let id, let section):
            hasher.combine(section == .all ? 2 as UInt8 : 3)
            hasher.combine(id)
        }
    }

    /// Equal when the case and the payload are.
    @inlinable
    public static func == (lhs: TodoRowID, rhs: TodoRowID) -> Bool {
        switch (lhs, rhs) {
        case (.group(let left), .group(let right)): left == right
        case (.todo(let leftID, let leftSection), .todo(let rightID, let rightSection)):
            leftID == rightID && leftSection == rightSection
        default: false
        }
    }

    /// `group(Undone)` or `todo(7, all)`, for messages and test failures.
    @inlinable
    public var description: String {
        switch self {
        case .group(let group): "group(\(group))"
        case .todo(let id, let section): "todo(\(id), \(section))"
        }
    }
}

/// One row of the todo list: a group header or a record.
///
/// A group row's content is only its group, never a count: it stays equal when membership
/// changes, so a diff never reports churn on the parents. Counts come from the outline
/// (``TodoSnapshots/count(of:)``).
public enum TodoRow<Record: Identifiable & Equatable & Sendable>: Identifiable, Equatable, Sendable
where Record.ID: Sendable {
    /// A group header of the outline section.
    case group(TodoGroup)
    /// A record, shown in the given section.
    case todo(Record, TodoSection)

    /// Unique snapshot-wide: the group, or the record's id with its section.
    @inlinable
    public var id: TodoRowID<Record.ID> {
        switch self {
        case .group(let group): .group(group)
        case .todo(let record, let section): .todo(record.id, section)
        }
    }

    /// The record of a todo row; nil for a group row.
    @inlinable
    public var record: Record? {
        if case .todo(let record, _) = self { return record }
        return nil
    }
}

/// The todo list as a diffable data source shows it: both sections, and the outline's
/// hierarchy with its expansion state (what `todo list --outline` prints).
public struct TodoSnapshots<Record: Identifiable & Equatable & Sendable>: Sendable, Equatable
where Record.ID: Sendable {
    /// The two sections, `all` then `outline`, flat: what a diff compares.
    public var snapshot: Snapshot<TodoSection, TodoRow<Record>>
    /// The outline section as a forest: the two groups as roots, their records as children.
    public var outline: SectionSnapshot<TodoRowID<Record.ID>>

    /// Creates the pair from its parts.
    @inlinable
    public init(
        snapshot: Snapshot<TodoSection, TodoRow<Record>>,
        outline: SectionSnapshot<TodoRowID<Record.ID>>
    ) {
        self.snapshot = snapshot
        self.outline = outline
    }

    /// The number of records in a group. O(1) amortised.
    @inlinable
    public func count(of group: TodoGroup) -> Int {
        outline.contains(.group(group)) ? outline.children(of: .group(group)).count : 0
    }

    /// The records of a group, in fetch order. O(records in the group).
    @inlinable
    public func records(in group: TodoGroup) -> [Record] {
        guard outline.contains(.group(group)) else { return [] }
        return outline.children(of: .group(group)).compactMap { snapshot.item(withID: $0)?.record }
    }
}

/// Builds the todo list's snapshots from records in fetch order.
///
/// Section `all` holds every record in fetch order. Section `outline` holds the group row
/// "Undone", its records, then "Done" and its records, records in fetch order; both groups are
/// always there, even empty. Group rows keep identity and content across rebuilds, so a done
/// toggle is one move in the outline (between groups, carrying the new content) and one update
/// in `all`.
public struct TodoSnapshotBuilder<Record: Identifiable & Equatable & Sendable>: Sendable
where Record.ID: Sendable {
    /// Tells which group a record belongs to.
    public let isDone: @Sendable (Record) -> Bool

    /// Creates a builder that sorts records into groups with `isDone`.
    @inlinable
    public init(isDone: @escaping @Sendable (Record) -> Bool) {
        self.isDone = isDone
    }

    /// Both sections and the outline's hierarchy.
    ///
    /// The outline's groups are expanded, unless `previousOutline` says otherwise: its expansion
    /// state is carried over for the rows both share. O(n).
    /// Precondition: record identifiers are unique.
    @inlinable
    public func build(_ records: [Record], previousOutline: SectionSnapshot<TodoRowID<Record.ID>>? = nil)
        -> TodoSnapshots<Record>
    {
        var allRows: [TodoRow<Record>] = []
        allRows.reserveCapacity(records.count)
        for record in records { allRows.append(.todo(record, .all)) }
        // Grouped by position, not by partitioned copies: each copy of a record costs a retain
        // and a release of its fields.
        var outlineRows: [TodoRow<Record>] = []
        outlineRows.reserveCapacity(records.count + 2)
        var groups: [(group: TodoGroup, ids: [TodoRowID<Record.ID>])] = []
        for (group, indices) in TodoGroup.partition(records, isDone: isDone) {
            outlineRows.append(.group(group))
            var ids: [TodoRowID<Record.ID>] = []
            ids.reserveCapacity(indices.count)
            // One pass fills both the rows and the outline's ids.
            for index in indices {
                outlineRows.append(.todo(records[index], .outline))
                ids.append(.todo(records[index].id, .outline))
            }
            groups.append((group, ids))
        }
        return TodoSnapshots(
            snapshot: Snapshot(sections: [(id: .all, items: allRows), (id: .outline, items: outlineRows)]),
            outline: makeOutline(groups, previous: previousOutline))
    }

    /// Both sections, flat, without the hierarchy. O(n).
    @inlinable
    public func snapshot(_ records: [Record]) -> Snapshot<TodoSection, TodoRow<Record>> {
        build(records).snapshot
    }

    /// The outline's hierarchy alone: groups as roots, expanded unless `previous` says
    /// otherwise, records as their children. O(n).
    @inlinable
    public func outline(_ records: [Record], previous: SectionSnapshot<TodoRowID<Record.ID>>? = nil)
        -> SectionSnapshot<TodoRowID<Record.ID>>
    {
        makeOutline(
            TodoGroup.partition(records, isDone: isDone).map { group, indices in
                (group, indices.map { .todo(records[$0].id, .outline) })
            }, previous: previous)
    }

    @inlinable
    func makeOutline(
        _ groups: [(group: TodoGroup, ids: [TodoRowID<Record.ID>])],
        previous: SectionSnapshot<TodoRowID<Record.ID>>?
    ) -> SectionSnapshot<TodoRowID<Record.ID>> {
        var outline = SectionSnapshot<TodoRowID<Record.ID>>()
        outline.reserveCapacity(groups.reduce(groups.count) { $0 + $1.ids.count })
        outline.append(groups.map { .group($0.group) })
        for (group, ids) in groups { outline.append(ids, to: .group(group)) }
        outline.expand(groups.map { .group($0.group) })
        if let previous { outline.copyExpansionState(from: previous) }
        return outline
    }
}
