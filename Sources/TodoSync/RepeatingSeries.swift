import SQLite
import TodoStore

/// Repeating series that must not be marked done as a whole.
///
/// A master VTODO with a repeat rule stands for the whole series: STATUS:COMPLETED on it ends
/// the series for every app that reads the object (Tasks.org, Apple Reminders, Thunderbird...),
/// and the chore never comes back. `todo done` finishes one occurrence instead
/// (``TodoRepository/finishOccurrence(of:_:today:now:)``, applied to the object by the sync), or
/// ends the series on purpose (`--series`). What is left here: `todo done` still refuses an
/// object that repeats on RDATEs alone (no rule the todo carries), and a sync keeps the todo not
/// done when it was marked done some other way (the sqlite3 shell, an older `todo`). A series
/// that really ends at its current occurrence may be completed as any todo.
extension VTodoObject {
    /// Whether the master VTODO repeats past its current occurrence: it has an RDATE, or an
    /// RRULE that is not known to end there. Conservative: a rule is known to end only with
    /// `COUNT=1` (apps that complete an occurrence count COUNT down), or an `UNTIL` no later
    /// than the current occurrence (the series' anchor, ``RecurrenceSet/anchorName(of:)``) when
    /// both are dates, or more than a day before it otherwise (a zone's offset can
    /// move a date-time's date by a day). Every other rule, unreadable ones included, goes on.
    public var seriesContinues: Bool {
        let todo = self.todo
        if !todo.properties(named: "RDATE").isEmpty { return true }
        let anchor = todo.property(named: RecurrenceSet.anchorName(of: todo)).flatMap(ICalendarTime.init)
        return todo.properties(named: "RRULE").contains { !Self.rule($0.value, endsAt: anchor) }
    }

    /// Whether more than one VTODO of the object's UID has no RECURRENCE-ID: two masters, which
    /// RFC 5545 does not allow (todoman writes them when it edits an object Thunderbird
    /// completed an occurrence of; Radicale refuses to store one, Xandikos stores it). `todo`
    /// reads the first; finishing it here would leave the other open, so `todo done` refuses.
    public var hasSeveralMasters: Bool {
        Self.todos(withUID: uid, in: components, at: location).filter { $0.property(named: "RECURRENCE-ID") == nil }
            .count > 1
    }

    /// Whether an RRULE value (`FREQ=WEEKLY;UNTIL=20261215`) has no occurrence after `anchor`.
    private static func rule(_ value: String, endsAt anchor: ICalendarTime?) -> Bool {
        var parts: [String: String] = [:]
        for part in value.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            parts[ICalendar.trimmed(String(pair[0])).uppercased()] = ICalendar.trimmed(String(pair[1]))
        }
        if parts["COUNT"].flatMap({ Int($0) }) == 1 { return true }
        guard let until = parts["UNTIL"].flatMap({ ICalendarTime(ICalendarProperty(name: "UNTIL", value: $0)) }),
            let anchor
        else { return false }
        if case .date = until, case .date = anchor { return until.seconds <= anchor.seconds }
        return UTCTimestamp.split(until.seconds).days < UTCTimestamp.split(anchor.seconds).days - 1
    }
}

extension SyncState {
    /// The todos among `ids` whose last synced object repeats past its current occurrence
    /// (``VTodoObject/seriesContinues``), in the order of `ids`: those `todo` must not mark done
    /// as a whole.
    /// Reads only the synced objects that mention a rule; a database that never synced answers
    /// from an empty table.
    public func todosInContinuingSeries(among ids: [Int64]) throws(TodoStoreError) -> [Int64] {
        try todos(
            among: ids, whereText: "instr(upper(s.ics), 'RRULE') > 0 OR instr(upper(s.ics), 'RDATE') > 0",
            \.seriesContinues)
    }

    /// The todos among `ids` whose last synced object has two masters
    /// (``VTodoObject/hasSeveralMasters``), in the order of `ids`: those `todo` must not finish.
    /// Reads only the synced objects with more than one VTODO.
    public func todosOnObjectsWithSeveralMasters(among ids: [Int64]) throws(TodoStoreError) -> [Int64] {
        try todos(
            among: ids,
            whereText: "instr(substr(upper(s.ics), instr(upper(s.ics), 'BEGIN:VTODO') + 11), 'BEGIN:VTODO') > 0",
            \.hasSeveralMasters)
    }

    /// The todos among `ids`, in their order, whose last synced object's text matches the SQL
    /// condition `whereText` (on `s.ics`: a cheap test that lets most objects go unparsed) and
    /// then, parsed, `test`.
    private func todos(among ids: [Int64], whereText: String, _ test: (VTodoObject) -> Bool)
        throws(TodoStoreError) -> [Int64]
    {
        guard !ids.isEmpty else { return [] }
        let texts = try TodoStoreError.wrap { () throws(SQLiteError) -> [Int64: String] in
            let statement = try connection.internalCachedStatement(
                """
                SELECT u.todo_id, s.ics FROM todo_uids u JOIN sync_items s ON s.uid = u.uid
                WHERE u.todo_id = ? AND (\(whereText))
                """)
            var texts: [Int64: String] = [:]
            for id in ids {
                try statement.reset()
                try statement.bind([id])
                try statement.forEachRow { texts[$0.int64(0)] = $0.string(1) }
            }
            return texts
        }
        return ids.filter { id in
            guard let text = texts[id], let object = try? VTodoObject(parsing: text, timeZone: .offset(seconds: 0))
            else { return false }
            return test(object)
        }
    }
}
