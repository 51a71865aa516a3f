import SQLite

/// One completed (or skipped) occurrence of a repeating todo, from the log `todo_completions`
/// (migration 0010): a history for `todo show`, and what sync must still apply to the server.
public struct TodoCompletion: Sendable, Hashable {
    /// How the completion was learnt.
    public enum Source: String, Sendable, CaseIterable {
        /// `todo done` here.
        case here
        /// `todo skip` here: the occurrence passed without being done.
        case skip
        /// The whole series ended here (`todo done --series`).
        case series
        /// Another app (or device) moved the todo past the occurrence: done there, as a rule,
        /// but an object moved on does not say whether it was done or skipped.
        case advance
        /// Another app's RECURRENCE-ID component marked the occurrence done.
        case override
    }

    public var todoID: Int64
    /// The occurrence's date: the todo's deadline when it was the current one.
    public var occurrence: CalendarDate
    /// When it was done, if known.
    public var completedAt: UTCTimestamp?
    public var source: Source
    /// Done here and not yet applied to the server's object.
    public var pending: Bool

    public init(
        todoID: Int64, occurrence: CalendarDate, completedAt: UTCTimestamp?, source: Source, pending: Bool
    ) {
        self.todoID = todoID
        self.occurrence = occurrence
        self.completedAt = completedAt
        self.source = source
        self.pending = pending
    }

    /// Whether it counts as done: a skip here does not; an occurrence passed elsewhere does, as
    /// it almost always was.
    public var isDone: Bool { source != .skip }

    /// Whether the todo, as `fields` say it is now, stands at this occurrence again: an undo
    /// brought it back (the log is not part of undo). True when the todo is not done and its
    /// deadline is the occurrence, or, for a todo that repeats from its deadline, before it; a
    /// todo that repeats from the day it was done may stand before an occurrence finished early
    /// (every 3 days from done, done a week early), so for it only its current occurrence counts.
    public func isReopened(by fields: TodoFields) -> Bool {
        guard !fields.isDone, let deadline = fields.deadline else { return false }
        return fields.repeatFrom == .due ? occurrence >= deadline : occurrence == deadline
    }
}

extension TodoRepository {
    /// Records a completion, replacing any earlier one of the same occurrence. Call it inside the
    /// transaction that moves the todo (`recordingUndo`): the log and the todo change
    /// together. The log is not part of undo: ``completions(ofTodo:before:)`` leaves out occurrences on
    /// or after the todo's current one, which an undo may have brought back.
    public func recordCompletion(_ completion: TodoCompletion) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            try connection.internalCachedStatement(
                """
                INSERT OR REPLACE INTO todo_completions (todo_id, occurrence, completed_at, source, pending)
                VALUES (?, ?, ?, ?, ?)
                """
            ).execute([
                completion.todoID, completion.occurrence, completion.completedAt, completion.source.rawValue,
                completion.pending
            ])
        }
    }

    /// The completions of the todo `id` before its current occurrence (`before`, its deadline;
    /// `nil`: all of them), oldest first.
    public func completions(ofTodo id: Int64, before current: CalendarDate? = nil) throws(TodoStoreError)
        -> [TodoCompletion]
    {
        try TodoStoreError.wrap { () throws(SQLiteError) -> [TodoCompletion] in
            let statement = try connection.internalCachedStatement(
                """
                SELECT occurrence, completed_at, source, pending FROM todo_completions
                WHERE todo_id = ?1 AND (?2 IS NULL OR occurrence < ?2) ORDER BY occurrence
                """)
            try statement.reset()
            try statement.bind(id, at: 1)
            try statement.bind(current, at: 2)
            var completions: [TodoCompletion] = []
            try statement.forEachRow { row in
                guard let occurrence = CalendarDate?(column: 0, of: row),
                    let source = TodoCompletion.Source(rawValue: row.string(2))
                else { return }
                completions.append(
                    TodoCompletion(
                        todoID: id, occurrence: occurrence, completedAt: UTCTimestamp?(column: 1, of: row),
                        source: source, pending: row.bool(3)))
            }
            return completions
        }
    }

    /// The completions of the todo `id` made here and not yet applied to the server, oldest first,
    /// but for those an undo opened again (``TodoCompletion/isReopened(by:)``).
    public func pendingCompletions(ofTodo id: Int64) throws(TodoStoreError) -> [TodoCompletion] {
        guard let todo = try todo(id: id) else { return try completions(ofTodo: id).filter(\.pending) }
        return try completions(ofTodo: id).filter { $0.pending && !$0.isReopened(by: todo.fields) }
    }

    /// The completions of the todo `id` on `occurrences` are on the server now (those recorded
    /// since, by another `todo done` while a sync ran, stay pending).
    public func markCompletionsSent(ofTodo id: Int64, occurrences: [CalendarDate]) throws(TodoStoreError) {
        try TodoStoreError.wrap { () throws(SQLiteError) in
            let statement = try connection.internalCachedStatement(
                "UPDATE todo_completions SET pending = 0 WHERE todo_id = ? AND occurrence = ?")
            for occurrence in occurrences {
                try statement.execute([id, occurrence])
            }
        }
    }
}
