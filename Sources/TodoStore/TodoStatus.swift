#if canImport(Glibc)
    import Glibc
#endif

/// Where a todo stands: iCalendar's STATUS of a VTODO (RFC 5545 3.8.1.11), which Thunderbird,
/// Nextcloud Tasks and todoman let a person set, and taskwarrior's start and stop.
///
/// Stored in two columns (migration 0016): `done`, the flag every program sharing the file reads
/// and writes, and `status`, which tells the two states of each done value apart (`NULL` for the
/// plain one). ``TodoFields/isDone`` is part of it: completed and cancelled are done.
public enum TodoStatus: String, Sendable, Hashable, CaseIterable {
    /// To do (NEEDS-ACTION, or no STATUS).
    case needsAction = "needs-action"
    /// Under way (IN-PROCESS; `todo start`). Not done.
    case inProcess = "in-process"
    /// Done (COMPLETED; `todo done`): it has a completed time.
    case completed
    /// Dropped (CANCELLED; `todo cancel`): no longer pending, so done, but never completed: it
    /// has no completed time, and is shown as cancelled wherever a done todo is.
    case cancelled

    /// Whether a todo in this state is done: completed or cancelled.
    public var isDone: Bool { self == .completed || self == .cancelled }

    /// The `status` column's value: the state that the `done` column alone does not say.
    public var columnValue: String? {
        switch self {
        case .inProcess: "in-process"
        case .cancelled: "cancelled"
        case .needsAction, .completed: nil
        }
    }

    /// The state of a row whose `done` column says `isDone` and whose `status` column holds
    /// `column` (its UTF-8 bytes, not NULL). A status that disagrees with done (another program
    /// wrote both) or that is no state reads as none: done decides.
    @inline(__always)
    static func reading(isDone: Bool, column: UnsafeBufferPointer<UInt8>) -> TodoStatus {
        if isDone { return equal(column, "cancelled") ? .cancelled : .completed }
        return equal(column, "in-process") ? .inProcess : .needsAction
    }

    /// Whether `bytes` are `text`'s: compared by hand, as this runs on rows of a list, where a
    /// String made for it (or a generic comparison of its UTF-8 view) would cost per row.
    @inline(__always)
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base, text.utf8Start, bytes.count) == 0
    }

    /// How a todo going from `old` to `new` is told where a change has one mark (`todo watch`,
    /// `todo sync`'s lines): `true` completed, `false` reopened (done no more), `nil` another
    /// change (started, stopped, cancelled: an edit, as a cancelled todo was never completed).
    public static func completion(from old: TodoStatus, to new: TodoStatus) -> Bool? {
        if new == .completed, old != .completed { return true }
        if old.isDone, !new.isDone { return false }
        return nil
    }

    /// The state a person names (`todo list --status S`): its raw value (`in-process`), or
    /// `done`, `started`, `canceled` for completed, in process and cancelled; `nil` for another word.
    public init?(word: String) {
        switch word.lowercased() {
        case "done": self = .completed
        case "started": self = .inProcess
        case "canceled": self = .cancelled
        case let other: self.init(rawValue: other)
        }
    }
}
