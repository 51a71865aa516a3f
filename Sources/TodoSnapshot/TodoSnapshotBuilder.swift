// The two-section todo list of the iOS pattern this project re-creates (see the README and docs/LIBRARY.md): the
// flat "all" section and the outline (the sample app's "Undone"/"Done", or groups by any other
// rule), rebuilt from fetched records. Generic over the record so this module needs no storage
// layer: the CLI passes its `Todo` and the rule that groups it.

/// The two sections of the todo list.
public enum TodoSection: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Every todo, flat, in fetch order.
    case all
    /// Each group row (such as "Undone" and "Done") followed by its todos in fetch order.
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

/// What identifies a ``TodoGroup`` in row identifiers: a digest of its rank and key.
///
/// One integer, so that row identifiers stay small plain values without reference counting
/// (a larger identifier makes every snapshot table larger, and a build pays for each fresh
/// page). The digest is the standard library's `Hasher` (SipHash, seeded per process) over
/// rank and key: two groups collide with a chance of about 2^-64 per pair, and a key another
/// program writes (a synced tag) cannot be chosen to collide without the process's seed. Valid
/// within one process: never store it.
public struct TodoGroupID: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let digest: UInt64

    /// The identity of the group of `rank` and `key`.
    @inlinable
    public init(rank: Int, key: String) {
        var hasher = Hasher()
        hasher.combine(rank)
        hasher.combine(key)
        digest = UInt64(UInt(bitPattern: hasher.finalize()))
    }

    /// The digest in hexadecimal, for messages and test failures.
    public var description: String { String(digest, radix: 16) }
}

/// A group of the outline section: a parent row, such as "Undone", "High" or "+work".
///
/// Identified by its rank and key (``id``), never its title: a group keeps its identity (and its
/// row stays equal) across rebuilds whatever its title says. Groups show in ``rank`` order, then
/// by ``key``.
public struct TodoGroup: Identifiable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Where the group shows among the outline's groups: lower first.
    public let rank: Int
    /// What tells apart groups of one rank (a folded tag); empty when the rank alone does.
    public let key: String
    /// The group row's title.
    public let title: String
    /// Its identity in row identifiers.
    public let id: TodoGroupID

    /// A group shown at `rank`, told apart from others of its rank by `key`.
    @inlinable
    public init(rank: Int, key: String = "", title: String) {
        self.rank = rank
        self.key = key
        self.title = title
        self.id = TodoGroupID(rank: rank, key: key)
    }

    /// Todos not done yet: the done-state outline's first group.
    public static let undone = TodoGroup(rank: 0, title: "Undone")
    /// Todos done: the done-state outline's second group.
    public static let done = TodoGroup(rank: 1, title: "Done")
    /// The done-state outline's groups, in order: the sample app's outline.
    public static let doneStates: [TodoGroup] = [.undone, .done]

    /// The done-state group a todo belongs to.
    @inlinable
    public init(isDone: Bool) {
        self = isDone ? .done : .undone
    }

    /// Equal when the identities are (rank and key); the title does not count.
    @inlinable
    public static func == (lhs: TodoGroup, rhs: TodoGroup) -> Bool { lhs.id == rhs.id }

    /// Hashes the identity.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Display order: by rank, then by key.
    @inlinable
    public static func < (lhs: TodoGroup, rhs: TodoGroup) -> Bool {
        lhs.rank != rhs.rank ? lhs.rank < rhs.rank : lhs.key < rhs.key
    }

    /// The title.
    @inlinable
    public var description: String { title }
}

/// How the outline sorts records into groups: by done state (the sample app's outline), or by
/// any rule that gives each record one group (a priority class, a deadline bucket) or several
/// (its tags).
///
/// The rule's closures run on the building thread, once per record per build; they must be
/// pure (the same record, the same groups).
public struct TodoGrouping<Record>: Sendable {
    @usableFromInline
    enum Membership: Sendable {
        case one(@Sendable (Record) -> TodoGroup)
        case several(@Sendable (Record) -> [TodoGroup])
        /// The second fixed group when true, else the first: the sample app's outline, told by
        /// one flag.
        case eitherOf(@Sendable (Record) -> Bool)
    }

    @usableFromInline
    let membership: Membership
    /// The groups shown even when no record is in them.
    public let fixedGroups: [TodoGroup]

    @inlinable
    init(_ membership: Membership, fixedGroups: [TodoGroup]) {
        self.membership = membership
        self.fixedGroups = fixedGroups
    }

    /// Each record in exactly one group, `group(record)`. A record's outline row is
    /// `.todo(id, .outline)` whatever its group, so a record changing group is one move.
    @inlinable
    public static func one(fixedGroups: [TodoGroup] = [], _ group: @escaping @Sendable (Record) -> TodoGroup) -> Self {
        Self(.one(group), fixedGroups: fixedGroups)
    }

    /// Each record in every group of `groups(record)` (repeats count once; a record in none is
    /// left out of the outline). Its outline rows are `.member(id, group)`, one per group, so a
    /// record joining a group is one insert and leaving one is one delete.
    @inlinable
    public static func several(
        fixedGroups: [TodoGroup] = [], _ groups: @escaping @Sendable (Record) -> [TodoGroup]
    ) -> Self {
        Self(.several(groups), fixedGroups: fixedGroups)
    }

    /// The sample app's outline: "Undone" then "Done", both always shown.
    @inlinable
    public static func doneState(_ isDone: @escaping @Sendable (Record) -> Bool) -> Self {
        Self(.eitherOf(isDone), fixedGroups: TodoGroup.doneStates)
    }

    /// Whether a record can be in several groups, so that its outline rows are `.member` rows.
    @inlinable
    public var allowsSeveralGroups: Bool {
        if case .several = membership { return true }
        return false
    }

    /// Calls `body` with each group `record` is in, repeats left out: the one rule, which
    /// `partition(_:keeping:)` applies to a whole list and callers that place records one at
    /// a time (a list patched by a change) apply to each.
    @inlinable
    public func forEachGroup(of record: Record, _ body: (TodoGroup) -> Void) {
        switch membership {
        case .one(let groupOf): body(groupOf(record))
        case .eitherOf(let isSecond): body(fixedGroups[isSecond(record) ? 1 : 0])
        case .several(let groupsOf):
            var seen: [TodoGroupID] = []
            for group in groupsOf(record) where !seen.contains(group.id) {
                seen.append(group.id)
                body(group)
            }
        }
    }

    /// The outline's grouping of a whole list, by this one rule (``forEachGroup(of:_:)``): the
    /// fixed groups and every group a record is in, in display order (``TodoGroup``'s `<`),
    /// each with what `member` keeps of its records (given the record and its offset in
    /// `records`), in the records' order. The builder keeps offsets and `todo ui` ids, so large
    /// lists are not copied to be grouped. O(n) plus the groups' sorting.
    @inlinable
    public func partition<Records: Sequence, Member>(
        _ records: Records, keeping member: (Record, Int) -> Member
    ) -> [(group: TodoGroup, members: [Member])]
    where Records.Element == Record {
        var partition = Partition<Member>(self)
        for (offset, record) in records.enumerated() { partition.add(record, member(record, offset)) }
        return partition.groups
    }

    /// `partition(_:keeping:)` of an array, whose records are read where they are: a
    /// sequence's iterator hands out a copy of each, which for a wide record (a todo) costs a
    /// retain and a release of each of its strings.
    @inlinable
    public func partition<Member>(
        _ records: [Record], keeping member: (Record, Int) -> Member
    ) -> [(group: TodoGroup, members: [Member])] {
        var partition = Partition<Member>(self)
        for offset in records.indices { partition.add(records[offset], member(records[offset], offset)) }
        return partition.groups
    }

    /// A partition under way: the groups met so far, each with its members.
    @usableFromInline
    struct Partition<Member> {
        @usableFromInline let grouping: TodoGrouping
        @usableFromInline var found: [TodoGroup]
        @usableFromInline var members: [[Member]]
        @usableFromInline var slots: [TodoGroupID: Int]
        /// Records of one group tend to come in runs: the last slot saves most lookups.
        @usableFromInline var last: (id: TodoGroupID, slot: Int)?
        /// The done-state rule and the slots of its two groups: a record's slot told by one flag,
        /// without a look at the groups (the rule's whole work, on the build's main outline).
        @usableFromInline var either: (isSecond: @Sendable (Record) -> Bool, first: Int, second: Int)?

        @inlinable
        init(_ grouping: TodoGrouping) {
            self.grouping = grouping
            found = grouping.fixedGroups
            members = found.map { _ in [] }
            slots = Dictionary(found.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            if case .eitherOf(let isSecond) = grouping.membership, found.count >= 2,
                let first = slots[found[0].id], let second = slots[found[1].id]
            {
                either = (isSecond, first, second)
            }
        }

        /// Adds `kept`, what is kept of `record`, to each group the record is in.
        @inlinable
        mutating func add(_ record: Record, _ kept: Member) {
            if let either {
                members[either.isSecond(record) ? either.second : either.first].append(kept)
                return
            }
            grouping.forEachGroup(of: record) { group in
                let slot: Int
                if let last, last.id == group.id {
                    slot = last.slot
                } else if let known = slots[group.id] {
                    slot = known
                } else {
                    slot = found.count
                    slots[group.id] = slot
                    found.append(group)
                    members.append([])
                }
                last = (group.id, slot)
                members[slot].append(kept)
            }
        }

        /// The groups in display order, each with its members in the order they were added.
        @inlinable
        var groups: [(group: TodoGroup, members: [Member])] {
            found.indices.sorted { found[$0] < found[$1] }.map { (found[$0], members[$0]) }
        }
    }
}

/// The identifier of a ``TodoRow``, unique across both sections.
public enum TodoRowID<RecordID: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// A group row of the outline section.
    case group(TodoGroupID)
    /// A record's row; the same record has one row per section, so the section is part of it.
    /// The outline's rows are these when a record is in one group (``TodoGrouping/one(fixedGroups:_:)``).
    case todo(RecordID, TodoSection)
    /// A record's row under one of the outline's groups, when a record can be in several
    /// (``TodoGrouping/several(fixedGroups:_:)``): one row per group, so the group is part of it.
    case member(RecordID, TodoGroupID)

    // Written out and inlinable rather than synthesised: a synthesised conformance of a generic
    // enum runs unspecialised in other modules, and hashing is most of a snapshot build.

    /// Hashes the case and its payload.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .group(let group):
            hasher.combine(0 as UInt8)
            hasher.combine(group)
        case .todo(let id, let section):
            hasher.combine(section == .all ? 1 as UInt8 : 2)
            hasher.combine(id)
        case .member(let id, let group):
            hasher.combine(3 as UInt8)
            hasher.combine(id)
            hasher.combine(group)
        }
    }

    /// The hash the standard library's sets and dictionaries use (`Hasher`'s own entry point,
    /// public though underscored): the payload's identifier hashed on its own, with `seed`
    /// changed by the case and section or group. For an `Int64` identifier that is the
    /// standard library's one-word SipHash, keyed by the process's random seed as every hash
    /// is, without a `Hasher` set up, fed and finalised for each of the snapshot's rows (a
    /// third of a build of 100,000 rows, measured). The group's part of the seed is its digest
    /// (`TodoGroupID`), itself a seeded SipHash, so a tag another program writes cannot be chosen
    /// to make rows collide either. Equal values hash equal: the case, section or group and the
    /// identifier decide it.
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        switch self {
        case .group(let group): group.digest._rawHashValue(seed: seed)
        case .todo(let id, let section): id._rawHashValue(seed: seed ^ (section == .all ? 0x5A5A : 0x3C3C))
        case .member(let id, let group): id._rawHashValue(seed: seed ^ Int(truncatingIfNeeded: group.digest))
        }
    }

    /// Equal when the case and the payload are.
    @inlinable
    public static func == (lhs: TodoRowID, rhs: TodoRowID) -> Bool {
        switch (lhs, rhs) {
        case (.group(let left), .group(let right)): left == right
        case (.todo(let leftID, let leftSection), .todo(let rightID, let rightSection)):
            leftID == rightID && leftSection == rightSection
        case (.member(let leftID, let leftGroup), .member(let rightID, let rightGroup)):
            leftID == rightID && leftGroup == rightGroup
        default: false
        }
    }

    /// `group(Undone)`, `todo(7, all)` or `member(7, +work)`, for messages and test failures.
    @inlinable
    public var description: String {
        switch self {
        case .group(let group): "group(\(group))"
        case .todo(let id, let section): "todo(\(id), \(section))"
        case .member(let id, let group): "member(\(id), \(group))"
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
    /// A group header of the outline section. Indirect, as is ``member(_:_:)``: a row is as
    /// large as its largest case, and every row is copied as a snapshot is built and diffed.
    indirect case group(TodoGroup)
    /// A record, shown in the given section.
    case todo(Record, TodoSection)
    /// A record shown in the outline under one of the several groups it is in.
    indirect case member(Record, TodoGroupID)

    /// Unique snapshot-wide: the group, or the record's id with its section or group.
    @inlinable
    public var id: TodoRowID<Record.ID> {
        switch self {
        case .group(let group): .group(group.id)
        case .todo(let record, let section): .todo(record.id, section)
        case .member(let record, let group): .member(record.id, group)
        }
    }

    /// The record of a todo or member row; nil for a group row.
    @inlinable
    public var record: Record? {
        switch self {
        case .group: nil
        case .todo(let record, _), .member(let record, _): record
        }
    }
}

/// The todo list as a diffable data source shows it: both sections, and the outline's
/// hierarchy with its expansion state (what `todo list --outline` prints).
public struct TodoSnapshots<Record: Identifiable & Equatable & Sendable>: Sendable, Equatable
where Record.ID: Sendable {
    /// The two sections, `all` then `outline`, flat: what a diff compares.
    public var snapshot: Snapshot<TodoSection, TodoRow<Record>>
    /// The outline section as a forest: the groups as roots, their records as children.
    public var outline: SectionSnapshot<TodoRowID<Record.ID>>

    /// Whether a record is under another record somewhere in the outline (a builder with a
    /// nesting found subtasks): without, each group's records are its children, and reading
    /// them costs no look at theirs.
    public var isNested: Bool

    /// Creates the pair from its parts.
    @inlinable
    public init(
        snapshot: Snapshot<TodoSection, TodoRow<Record>>,
        outline: SectionSnapshot<TodoRowID<Record.ID>>, isNested: Bool = false
    ) {
        self.snapshot = snapshot
        self.outline = outline
        self.isNested = isNested
    }

    /// The outline's groups, in display order. O(groups).
    @inlinable
    public var groups: [TodoGroup] {
        outline.rootItems.compactMap { if case .group(let group)? = snapshot.item(withID: $0) { group } else { nil } }
    }

    /// The group a row of the outline is under: a group row's own, a record's parent. O(1) amortised.
    @inlinable
    public func group(of row: TodoRowID<Record.ID>) -> TodoGroup? {
        let groupRow = if case .group = row { row } else { outline.contains(row) ? outline.parent(of: row) : nil }
        guard let groupRow, case .group(let group)? = snapshot.item(withID: groupRow) else { return nil }
        return group
    }

    /// The number of records in a group, subtasks included. O(1) amortised for flat groups,
    /// O(records in the group) for nested ones.
    @inlinable
    public func count(of group: TodoGroup) -> Int {
        guard outline.contains(.group(group.id)) else { return 0 }
        let top = outline.children(of: .group(group.id))
        var count = top.count
        var stack = top
        while let row = stack.popLast() {
            let children = outline.children(of: row)
            count += children.count
            stack.append(contentsOf: children)
        }
        return count
    }

    /// The records of a group, in the group's order: fetch order, each subtask right after its
    /// parent when nested. O(records in the group).
    @inlinable
    public func records(in group: TodoGroup) -> [Record] { tree(in: group).map(\.record) }

    /// The records of a group depth first, each with its depth under the group (0: the group's
    /// top level, 1: a subtask of one of those...). O(records in the group).
    @inlinable
    public func tree(in group: TodoGroup) -> [(record: Record, depth: Int)] {
        guard outline.contains(.group(group.id)) else { return [] }
        guard isNested else {
            return outline.children(of: .group(group.id)).compactMap { row in
                snapshot.item(withID: row)?.record.map { ($0, 0) }
            }
        }
        var rows: [(record: Record, depth: Int)] = []
        var stack: [(TodoRowID<Record.ID>, Int)] = outline.children(of: .group(group.id)).reversed().map { ($0, 0) }
        while let (row, depth) = stack.popLast() {
            if let record = snapshot.item(withID: row)?.record { rows.append((record, depth)) }
            for child in outline.children(of: row).reversed() { stack.append((child, depth + 1)) }
        }
        return rows
    }
}

/// How the records of one outline group nest (subtasks under their parents): given all the
/// records and the group's (`members`, their offsets in `records`, in fetch order), the group's
/// records in tree order (depth first, each parent before its
/// subtasks), each as its offset among them and the offset of the record it is under, nil at
/// the group's top level, offsets among `members`; or nil when none of them nests (the group stays as it is, and costs
/// nothing more than a flat one). The rule is the caller's: this module knows no parents (the CLI and
/// the controller pass the storage layer's one rule, `TodoOutline`), so a record whose parent
/// is in another group is at that group's top level.
public typealias TodoNesting<Record> =
    @Sendable (_ records: [Record], _ members: [Int]) -> [(
        offset: Int, parent: Int?
    )]?

/// Builds the todo list's snapshots from records in fetch order.
///
/// Section `all` holds every record in fetch order. Section `outline` holds each group row of
/// the ``TodoGrouping`` followed by its records, groups in display order, records in fetch order;
/// the grouping's fixed groups are always there, even empty (the done-state outline's "Undone"
/// and "Done"), other groups while they have records. Group rows keep identity and content
/// across rebuilds, so with a one-group-each grouping a record changing group (a done toggle, a
/// new priority) is one move in the outline, carrying the new content, and one update in `all`;
/// with several groups each (tags), a tag added is one insert and a tag removed one delete.
///
/// With a ``nesting``, each group's records are a tree (subtasks under their parents in the
/// group, the section snapshot's items under items): the outline section lists them depth
/// first, and ``TodoSnapshots/outline`` holds each under its parent. A row's identifier never
/// says where it sits, so a record that only changed parent or level is a move (or an update)
/// of its row, never a delete and an insert.
public struct TodoSnapshotBuilder<Record: Identifiable & Equatable & Sendable>: Sendable
where Record.ID: Sendable {
    /// How records are sorted into the outline's groups.
    public let grouping: TodoGrouping<Record>
    /// How a group's records nest; nil: flat groups.
    public let nesting: TodoNesting<Record>?

    /// Creates a builder that sorts records into groups by `grouping`, nested by `nesting`.
    @inlinable
    public init(grouping: TodoGrouping<Record>, nesting: TodoNesting<Record>? = nil) {
        self.grouping = grouping
        self.nesting = nesting
    }

    /// The records of one group (`indices` into `records`) in the group's tree order, each with
    /// the position in that order of the record it is under (nil: the group's top level).
    /// Without a ``nesting``, the group's records as they are, flat. O(group).
    @inlinable
    func arranged(_ indices: [Int], of records: [Record]) -> (indices: [Int], parents: [Int?]?) {
        guard let nesting, !indices.isEmpty, let tree = nesting(records, indices) else {
            return (indices, nil)
        }
        // From offsets among the group's records to positions in tree order.
        var position = [Int](repeating: 0, count: indices.count)
        for (place, entry) in tree.enumerated() { position[entry.offset] = place }
        return (tree.map { indices[$0.offset] }, tree.map { $0.parent.map { position[$0] } })
    }

    /// Creates the sample app's builder: records into "Undone" and "Done" by `isDone`.
    @inlinable
    public init(isDone: @escaping @Sendable (Record) -> Bool) {
        self.init(grouping: .doneState(isDone))
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
        var snapshots = TodoSnapshots<Record>(snapshot: Snapshot(), outline: SectionSnapshot())
        fill(&snapshots, with: records, previousOutline: previousOutline)
        return snapshots
    }

    /// Both sections and the outline's hierarchy, built into `snapshots` in place of what it
    /// held, reusing its storage: the identifier tables and the sections' arrays keep their
    /// capacity (when `snapshots` is their only holder), so a view that builds again on every
    /// change allocates, and has the system map and zero, no fresh pages for them each time.
    /// The same result as ``build(_:previousOutline:)`` without a previous outline (every group
    /// expanded). O(n).
    /// Precondition: record identifiers are unique.
    @inlinable
    public func build(_ records: [Record], reusing snapshots: inout TodoSnapshots<Record>) {
        fill(&snapshots, with: records, previousOutline: nil)
    }

    /// Empties `snapshots` (keeping its storage) and fills it from `records`.
    @inlinable
    func fill(
        _ snapshots: inout TodoSnapshots<Record>, with records: [Record],
        previousOutline: SectionSnapshot<TodoRowID<Record.ID>>?
    ) {
        // The sections' arrays, taken out so that each is uniquely held while it is refilled.
        var allRows: [TodoRow<Record>] = []
        var outlineRows: [TodoRow<Record>] = []
        if snapshots.snapshot.sectionItems.count == 2 {
            swap(&allRows, &snapshots.snapshot.sectionItems[0])
            swap(&outlineRows, &snapshots.snapshot.sectionItems[1])
            allRows.removeAll(keepingCapacity: true)
            outlineRows.removeAll(keepingCapacity: true)
        }
        allRows.reserveCapacity(records.count)
        for index in records.indices { allRows.append(.todo(records[index], .all)) }
        // Grouped by position, not by partitioned copies: each copy of a record costs a retain
        // and a release of its fields.
        let partition = grouping.partition(records) { _, offset in offset }
        let several = grouping.allowsSeveralGroups
        let outlineCount = partition.reduce(partition.count) { $0 + $1.members.count }
        outlineRows.reserveCapacity(outlineCount)
        // The outline rows' ids, in the rows' order, for the snapshot's table: reading an id
        // from a row copies the record it holds.
        var outlineIDs: [TodoRowID<Record.ID>] = []
        outlineIDs.reserveCapacity(outlineCount)
        var groups: [(group: TodoGroup, ids: [TodoRowID<Record.ID>], parents: [Int?]?)] = []
        for (group, members) in partition {
            let (indices, parents) = arranged(members, of: records)
            outlineRows.append(.group(group))
            outlineIDs.append(.group(group.id))
            var ids: [TodoRowID<Record.ID>] = []
            ids.reserveCapacity(indices.count)
            // One pass fills both the rows and the outline's ids.
            if several {
                for index in indices {
                    outlineRows.append(.member(records[index], group.id))
                    ids.append(.member(records[index].id, group.id))
                }
            } else {
                for index in indices {
                    outlineRows.append(.todo(records[index], .outline))
                    ids.append(.todo(records[index].id, .outline))
                }
            }
            outlineIDs.append(contentsOf: ids)
            groups.append((group, ids, parents))
        }
        snapshots.snapshot.replaceContents(with: [(id: .all, items: allRows), (id: .outline, items: outlineRows)]) {
            section, offset in section == 0 ? .todo(records[offset].id, .all) : outlineIDs[offset]
        }
        snapshots.outline.removeAllKeepingCapacity()
        fillOutline(&snapshots.outline, with: groups, previous: previousOutline)
        snapshots.isNested = groups.contains { $0.parents != nil }
    }

    /// Both sections, flat, without the hierarchy. O(n).
    @inlinable
    public func snapshot(_ records: [Record]) -> Snapshot<TodoSection, TodoRow<Record>> {
        build(records).snapshot
    }

    /// The outline's hierarchy alone: groups as roots, expanded unless `previous` says
    /// otherwise, records as their children (and, nested, subtasks as theirs). O(n).
    @inlinable
    public func outline(_ records: [Record], previous: SectionSnapshot<TodoRowID<Record.ID>>? = nil)
        -> SectionSnapshot<TodoRowID<Record.ID>>
    {
        let several = grouping.allowsSeveralGroups
        return makeOutline(
            grouping.partition(records) { _, offset in offset }.map { group, members in
                let (indices, parents) = arranged(members, of: records)
                let ids: [TodoRowID<Record.ID>] = indices.map {
                    several ? .member(records[$0].id, group.id) : .todo(records[$0].id, .outline)
                }
                return (group, ids, parents)
            }, previous: previous)
    }

    /// The section snapshot of the groups: each group's ids under it, or under the id at the
    /// position `parents` gives (an earlier one: the ids are in tree order). Groups and
    /// records with subtasks start expanded; `previous` carries its state over.
    @inlinable
    func makeOutline(
        _ groups: [(group: TodoGroup, ids: [TodoRowID<Record.ID>], parents: [Int?]?)],
        previous: SectionSnapshot<TodoRowID<Record.ID>>?
    ) -> SectionSnapshot<TodoRowID<Record.ID>> {
        var outline = SectionSnapshot<TodoRowID<Record.ID>>()
        fillOutline(&outline, with: groups, previous: previous)
        return outline
    }

    /// ``makeOutline(_:previous:)`` into an empty `outline`, which keeps its storage.
    @inlinable
    func fillOutline(
        _ outline: inout SectionSnapshot<TodoRowID<Record.ID>>,
        with groups: [(group: TodoGroup, ids: [TodoRowID<Record.ID>], parents: [Int?]?)],
        previous: SectionSnapshot<TodoRowID<Record.ID>>?
    ) {
        outline.reserveCapacity(groups.reduce(groups.count) { $0 + $1.ids.count })
        outline.append(groups.map { .group($0.group.id) })
        var parentRows: [TodoRowID<Record.ID>] = []
        for (group, ids, parents) in groups {
            guard let parents else {
                outline.append(ids, to: .group(group.id))
                continue
            }
            outline.append(ids, parents: parents, to: .group(group.id))
            var hasChildren = [Bool](repeating: false, count: ids.count)
            for case let parent? in parents where !hasChildren[parent] {
                hasChildren[parent] = true
                parentRows.append(ids[parent])
            }
        }
        outline.expand(groups.map { .group($0.group.id) })
        if !parentRows.isEmpty { outline.expand(parentRows) }
        if let previous { outline.copyExpansionState(from: previous) }
    }
}
