/// What to fetch from the todo list, and in which order: a value, so it can be stored,
/// compared and sent across threads.
public struct TodoFetchRequest: Hashable, Sendable {
    /// The list order (the sample app's Sort menu). Every order ends with `id`, so it is total
    /// and stable: equal keys never swap between two fetches.
    public enum Order: String, CaseIterable, Sendable {
        /// Deadline ascending, undated last, then id.
        case due
        /// Name, ignoring ASCII case, then id.
        case name
        /// Undone first, then deadline (undated last), then id.
        case status
    }

    /// Which todos to include, by done state.
    public enum DoneFilter: String, CaseIterable, Sendable {
        case all, done, undone
    }

    /// The order of the results.
    public var order: Order
    /// Which todos to include.
    public var filter: DoneFilter
    /// At most this many todos (`nil`: no limit).
    public var limit: Int?
    /// Skip this many todos first.
    public var offset: Int

    /// Creates a request; the defaults fetch every todo in deadline order.
    public init(order: Order = .due, filter: DoneFilter = .all, limit: Int? = nil, offset: Int = 0) {
        self.order = order
        self.filter = filter
        self.limit = limit
        self.offset = offset
    }

    /// The SELECT for this request; its two parameters are the limit and the offset.
    ///
    /// Few distinct texts exist (orders x filters), so each is prepared once and cached.
    var sql: String {
        var sql = "SELECT id, name, deadline, done FROM todos"
        switch filter {
        case .all: break
        case .done: sql += " WHERE done = 1"
        case .undone: sql += " WHERE done = 0"
        }
        switch order {
        case .due: sql += " ORDER BY deadline IS NULL, deadline, id"
        case .name: sql += " ORDER BY name COLLATE NOCASE, id"
        case .status: sql += " ORDER BY done, deadline IS NULL, deadline, id"
        }
        return sql + " LIMIT ? OFFSET ?"
    }
}
