import TodoStore

/// What one sync did: the counts `todo sync` prints, and every conflict.
public struct SyncReport: Sendable, Equatable {
    /// Todos created, changed or deleted on the server.
    public var sent = 0
    /// Todos created or changed here from the server.
    public var received = 0
    /// Todos deleted here because they were deleted there.
    public var deleted = 0
    /// Each value that was replaced because both sides changed it (or an edit beat a delete).
    public var conflicts: [SyncConflict] = []
    /// Each todo the sync changed here or sent, once, in the order first met: a todo changed twice
    /// in one sync (a change merged here and the merge sent) is one change, received and sent.
    public private(set) var changes: [Change] = []
    /// Objects of the collection that could not be read as todos (broken iCalendar, no UID):
    /// left untouched on the server, not copied here. One that is a todo here keeps its last
    /// synced version and is read again next time.
    public var unreadable: [String] = []
    /// Objects listed as changed that the server did not send (left out of its answer, or sent
    /// without their data): nothing here changed for them, and the next sync asks again.
    public var notDelivered: [String] = []
    /// Objects that made the server's batched answer invalid XML and were read alone.
    public var readAlone: [String] = []
    /// The server cut its listing short (it listed only some of the collection's objects): what
    /// it listed was applied, nothing it left out was deleted here, and the next sync lists again.
    public var listingCutShort = false
    /// How many objects another app moved between two synced lists' collections: each todo
    /// followed its object, keeping its id.
    public var movedHere = 0
    /// Todos marked done here as a whole (by another program sharing the file, not by finishing
    /// an occurrence) whose object repeats past its current occurrence: a completed master would
    /// end the series on every device, so they were set back to not done
    /// (``VTodoObject/seriesContinues``).
    public var keptRepeating: [Named] = []
    /// Todos whose object names a parent that would make a loop with the todos here (a server's
    /// objects can say anything): they stay at the top level, and their objects as they are.
    public var parentLoops: [Named] = []
    /// Todos whose object waits for todos in a way that would make a cycle with the links here:
    /// they keep the links they had here, and their objects stay as they are.
    public var dependencyLoops: [Named] = []
    /// Repeating todos whose series another app marked done as a whole while its rule goes on
    /// (a naive completion, RECURRENCE.md T2): done here too, as the server says, each with the
    /// date `todo undone ID --next` would continue it on. Never resumed on the app's behalf.
    public var seriesEndedElsewhere: [Ended] = []
    /// Repeating todos of objects `todo` made to which another app added RECURRENCE-ID
    /// components (Thunderbird completing one occurrence): Tasks.org stops syncing a list that
    /// holds such an object (RECURRENCE.md T1).
    public var givenOverrides: [Named] = []

    /// Repeating todos another app split as todoman's `done` does (RECURRENCE.md §2.8): in one
    /// sync the todo lost its rule and became done while a new todo of the same name and rule
    /// came in, which goes on with the series. Nothing is merged: the two stay two todos, and
    /// the user is told where the repeat went.
    public var seriesMoved: [Moved] = []
    /// What the sync did to the account's lists: collections that appeared, were renamed or are
    /// gone (``AccountSync``).
    public var account = AccountReport()
    /// Within one batch of incoming objects, the todos that lost their rule as they became
    /// done, and the repeating todos that came in new: ``pairMovedSeries()`` makes
    /// ``seriesMoved`` of them and empties both.
    var seriesLost: [Candidate] = []
    var seriesStarted: [Candidate] = []

    /// A series another app moved to a new todo: the todo that ended, and the one going on.
    public struct Moved: Sendable, Equatable {
        public var ended: Named
        public var continued: Named

        public init(ended: Named, continued: Named) {
            self.ended = ended
            self.continued = continued
        }
    }

    /// A todo that may be one half of a moved series: its object's SUMMARY and the rule.
    struct Candidate: Sendable, Equatable {
        var todo: Named
        var summary: String
        var rule: String
    }

    /// Pairs each todo that lost its rule with a new todo of the same SUMMARY and rule (each new
    /// one used once), into ``seriesMoved``; forgets the candidates.
    mutating func pairMovedSeries() {
        var started = seriesStarted
        for lost in seriesLost {
            guard let index = started.firstIndex(where: { $0.summary == lost.summary && $0.rule == lost.rule })
            else { continue }
            seriesMoved.append(Moved(ended: lost.todo, continued: started.remove(at: index).todo))
        }
        seriesLost = []
        seriesStarted = []
    }

    /// A series another app ended, and where it would go on.
    public struct Ended: Sendable, Equatable {
        public var todo: Named
        /// The rule in words (`every week`).
        public var rule: String
        /// The occurrence after the one it ended at, if the rule has one.
        public var next: CalendarDate?

        public init(todo: Named, rule: String, next: CalendarDate?) {
            self.todo = todo
            self.rule = rule
            self.next = next
        }
    }

    /// A todo the sync changed here (a change made on the server, applied) or sent (a change
    /// made here), by its id and its name after the change (before it, for one deleted).
    public struct Change: Sendable, Equatable {
        /// What became of the todo, as `todo watch` tells it.
        public enum Kind: String, Sendable {
            case added, removed, changed, done, undone

            /// `changed`, or `done` and `undone` when that is what changed from `old` to `new`
            /// (`TodoStatus.completion(from:to:)`: a todo cancelled is changed, not done).
            public static func from(_ old: TodoFields, to new: TodoFields) -> Kind {
                TodoStatus.completion(from: old.status, to: new.status).map { $0 ? .done : .undone } ?? .changed
            }
        }

        public var kind: Kind
        public var todoID: Int64
        public var name: String
        /// The change came from the server and was applied here.
        public var received: Bool
        /// The change was made here and sent to the server.
        public var sent: Bool

        public init(_ kind: Kind, todoID: Int64, name: String, received: Bool = false, sent: Bool = false) {
            self.kind = kind
            self.todoID = todoID
            self.name = name
            self.received = received
            self.sent = sent
        }
    }

    /// Records a change of one todo. A todo changed twice in one sync (a change merged here and
    /// the merge sent, a write the server stored otherwise) is one change: received and sent as
    /// each was, with its latest name; its kind is the last one when either is a removal, else
    /// the first but that a plain change gives way to done or undone.
    mutating func record(_ change: Change) {
        guard let index = changes.firstIndex(where: { $0.todoID == change.todoID }) else {
            changes.append(change)
            return
        }
        var merged = changes[index]
        merged.received = merged.received || change.received
        merged.sent = merged.sent || change.sent
        if change.kind == .removed || merged.kind == .removed || merged.kind == .changed {
            merged.kind = change.kind
        }
        if change.kind != .removed { merged.name = change.name }
        changes[index] = merged
    }

    /// A todo, by its id and name as they were here.
    public struct Named: Sendable, Equatable {
        public var todoID: Int64
        public var name: String

        public init(todoID: Int64, name: String) {
            self.todoID = todoID
            self.name = name
        }
    }

    public init() {}
}
