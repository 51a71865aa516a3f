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
    /// Objects of the collection that could not be read as todos (broken iCalendar, no UID):
    /// left untouched on the server, not copied here.
    public var unreadable: [String] = []

    public init() {}
}
