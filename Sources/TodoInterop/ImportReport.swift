/// What an import read, and what it could not keep: the todos, and how many of each kind of
/// field other tools have that our todos could not take (a taskwarrior project or tag of two
/// words, a priority other than H, M, L, an annotation without text), so that nothing
/// disappears without a word.
public struct ImportReport: Sendable, Equatable {
    /// The todos, in file order.
    public var todos: [ImportedTodo]
    /// The UIDs the file gave its todos, by offset in ``todos``: todo's own JSON export carries
    /// each todo's UID when it has one, so an import can skip the todos it already holds.
    public var uids: [Int: String] = [:]
    /// Counts of what was read but not kept, in the order a person reads them, each non-zero.
    public var notKept: [(what: NotKept, count: Int)] {
        NotKept.allCases.compactMap { kind in counts[kind].map { (kind, $0) } }
    }

    private var counts: [NotKept: Int] = [:]

    /// A kind of field an import drops.
    public enum NotKept: String, Sendable, CaseIterable {
        case project, tag, priority, annotation

        /// `2 projects`, `1 tag`, `2 priorities`.
        public func describe(_ count: Int) -> String {
            "\(count) \(count == 1 ? rawValue : plural)"
        }

        /// The kind's plural, as English spells it.
        var plural: String {
            switch self {
            case .priority: "priorities"
            case .project, .tag, .annotation: rawValue + "s"
            }
        }
    }

    public init(todos: [ImportedTodo] = []) {
        self.todos = todos
    }

    /// Notes `count` more fields of `kind` that were not kept.
    mutating func drop(_ kind: NotKept, count: Int = 1) {
        guard count > 0 else { return }
        counts[kind, default: 0] += count
    }

    public static func == (lhs: ImportReport, rhs: ImportReport) -> Bool {
        lhs.todos == rhs.todos && lhs.uids == rhs.uids && lhs.counts == rhs.counts
    }
}
