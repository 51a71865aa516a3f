import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// STATUS and PERCENT-COMPLETE (issue 36, point 3): every state read and written, a cancelled
/// todo never completed, 100 percent on completion, and the merge that never mixes one side's
/// done with the other side's status.
@Suite(.timed) struct StatusMappingTests {
    let utc = LocalTimeZone.offset(seconds: 0)
    let now: Int64 = 1_800_000_000

    func read(_ text: String) throws -> VTodoObject { try VTodoObject(parsing: text, timeZone: utc) }

    /// The lines of `text`, unfolded (the objects here fold nothing).
    func lines(_ text: String) -> [String] { text.split(separator: "\r\n").map(String.init) }

    /// The lines of `after` that `before` does not have, and those `before` has that `after` lost.
    func difference(_ before: String, _ after: String) -> (added: [String], removed: [String]) {
        let old = lines(before)
        let new = lines(after)
        return (new.filter { !old.contains($0) }, old.filter { !new.contains($0) })
    }

    /// The names of the properties among `lines`.
    func names(_ lines: [String]) -> Set<String> {
        Set(lines.map { String($0.prefix { $0 != ":" && $0 != ";" }) })
    }

    @Test func everyStatusAndPercentIsRead() throws {
        let cases: [(lines: [String], status: TodoStatus, percent: Int?, completed: Bool)] = [
            (["STATUS:IN-PROCESS", "PERCENT-COMPLETE:40"], .inProcess, 40, false),
            (["STATUS:in-process"], .inProcess, nil, false),
            (["STATUS:CANCELLED", "COMPLETED:20240102T030405Z"], .cancelled, nil, false),
            (["STATUS:COMPLETED", "COMPLETED:20240102T030405Z", "PERCENT-COMPLETE:100"], .completed, 100, true),
            (["COMPLETED:20240102T030405Z"], .completed, nil, true),
            (["STATUS:NEEDS-ACTION", "PERCENT-COMPLETE:0"], .needsAction, 0, false),
            (["PERCENT-COMPLETE:250"], .needsAction, nil, false),
            (["PERCENT-COMPLETE:half"], .needsAction, nil, false)
        ]
        for (lines, status, percent, completed) in cases {
            let fields = try read(Fixtures.todoObject(lines)).fields
            #expect(fields.status == status && fields.percent == percent, "\(lines)")
            #expect((fields.completed != nil) == completed, "\(lines): a cancelled todo was never completed")
            #expect(fields.isDone == status.isDone)
        }
    }

    @Test func aNewObjectSaysItsStatusAndPercent() throws {
        for status in TodoStatus.allCases {
            var fields = TodoFields(
                name: "Paint the shed", created: UTCTimestamp(secondsSince1970: now), status: status,
                percent: status == .completed ? 100 : 30)
            if status == .completed { fields.completed = UTCTimestamp(secondsSince1970: now) }
            let object = VTodoObject.new(uid: "u", fields: fields, now: now)
            let expected = ["NEEDS-ACTION", "IN-PROCESS", "COMPLETED", "CANCELLED"][
                TodoStatus.allCases.firstIndex(of: status) ?? 0]
            #expect(object.todo.property(named: "STATUS")?.value == expected)
            #expect((object.todo.property(named: "COMPLETED") != nil) == (status == .completed))
            #expect(object.todo.property(named: "PERCENT-COMPLETE")?.value == (status == .completed ? "100" : "30"))
            #expect(try read(object.text).fields == fields, "\(status) reads back")
        }
    }

    /// Each change of state here rewrites STATUS (and COMPLETED, PERCENT-COMPLETE as the state
    /// needs) and the revision stamps, and no other line of the phone's object.
    @Test func aChangeOfStateRewritesOnlyItsLines() throws {
        let stamps: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]
        let at = UTCTimestamp(secondsSince1970: now)
        let objects = [
            StatusObjects.tasksOrg(uid: "t", name: "Milk"),
            StatusObjects.tasksOrg(uid: "t", name: "Milk", completed: true),
            StatusObjects.appleReminders(uid: "a", name: "Call"), StatusObjects.nextcloud(uid: "n", name: "Plants"),
            StatusObjects.nextcloud(uid: "n", name: "Plants", percent: nil, cancelled: true)
        ]
        for text in objects {
            let original = try read(text)
            for status in TodoStatus.allCases where status != original.fields.status {
                var fields = original.fields
                fields.setStatus(status, percent: status == .inProcess ? 70 : nil, now: at)
                var object = original
                object.update(to: fields, now: now)
                let (added, removed) = difference(text, object.text)
                let allowed = stamps.union(["STATUS", "COMPLETED", "PERCENT-COMPLETE"])
                #expect(names(added + removed).isSubset(of: allowed), "\(original.fields.status) → \(status)")
                let todo = object.todo
                #expect(todo.property(named: "STATUS")?.value == VTodoObject.statusValue(status))
                #expect((todo.property(named: "COMPLETED") != nil) == (status == .completed))
                let percent = todo.property(named: "PERCENT-COMPLETE")?.value
                switch status {
                case .completed: #expect(percent == "100", "done writes PERCENT-COMPLETE:100")
                case .inProcess: #expect(percent == "70")
                case .needsAction, .cancelled:
                    #expect(percent == fields.percent.map(String.init), "\(original.fields.status) → \(status)")
                }
                #expect(try read(object.text).fields == fields)
                #expect(object.fields == fields)
            }
        }
    }

    /// Another program's `UPDATE todos SET done = 1` completes a todo without touching its
    /// percent: the object still says 100, and the fields say so after.
    @Test func aCompletionByAnotherProgramWritesAHundredPercentToo() throws {
        var object = try read(StatusObjects.nextcloud(uid: "n", name: "Plants", percent: 40))
        var fields = object.fields
        fields.isDone = true
        fields.completed = UTCTimestamp(secondsSince1970: now)
        object.update(to: fields, now: now)
        #expect(object.todo.property(named: "STATUS")?.value == "COMPLETED")
        #expect(object.todo.property(named: "PERCENT-COMPLETE")?.value == "100")
        #expect(object.fields.percent == 100 && object.fields.status == .completed)
        // Reopened (the shell's `SET done = 0` leaves the 100): the 100 goes, as `todo undone` takes it.
        fields = object.fields
        fields.isDone = false
        object.update(to: fields, now: now + 1)
        #expect(object.todo.property(named: "PERCENT-COMPLETE") == nil)
        #expect(object.todo.property(named: "STATUS")?.value == "NEEDS-ACTION")
        // Only the percent changed: only its line.
        let before = object.text
        fields = object.fields
        fields.percent = 20
        object.update(to: fields, now: now + 2)
        #expect(
            names(difference(before, object.text).added) == ["PERCENT-COMPLETE", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]
        )
    }

    // MARK: The merge

    private let base = TodoFields(name: "Plants")

    private func merge(base: TodoFields?, local: TodoFields, remote: TodoFields) -> (TodoFields, [SyncConflict]) {
        let merged = ThreeWayMerge.merge(base: base, local: local, remote: remote, todoID: 7)
        return (merged.fields, merged.conflicts)
    }

    private func with(_ status: TodoStatus, percent: Int? = nil) -> TodoFields {
        var fields = base
        fields.setStatus(status, percent: percent, now: UTCTimestamp(secondsSince1970: now))
        return fields
    }

    /// Started on one side, completed on the other: never done and in progress at once; the
    /// server's state wins, its done with it, and the state is the one conflict.
    @Test func twoChangesOfStateNeverMixAndTheServersWins() {
        let started = with(.inProcess, percent: 40)
        let completed = with(.completed)
        let cancelled = with(.cancelled)
        var (merged, conflicts) = merge(base: base, local: started, remote: completed)
        #expect(merged.status == .completed && merged.isDone)
        #expect(conflicts.map(\.subject) == [.field("status"), .field("percent")])
        #expect(conflicts.first?.kept == .text("completed") && conflicts.first?.replaced == .text("in-process"))
        (merged, conflicts) = merge(base: base, local: completed, remote: started)
        #expect(merged.status == .inProcess && !merged.isDone)
        // Reopened here, cancelled there: not done and cancelled would be a contradiction.
        let done = with(.completed)
        (merged, conflicts) = merge(base: done, local: with(.needsAction), remote: cancelled)
        #expect(merged.status == .cancelled && merged.isDone)
        #expect(conflicts.map(\.subject) == [.field("status")])
        (merged, _) = merge(base: done, local: cancelled, remote: with(.needsAction))
        #expect(merged.status == .needsAction && !merged.isDone)
    }

    /// One side changed the state, the other something else: both survive, without conflict.
    @Test func aStateChangedOnOneSideAndAnotherFieldOnTheOtherBothSurvive() {
        var renamed = base
        renamed.name = "Water the plants"
        for status in TodoStatus.allCases where status != .needsAction {
            let changed = with(status, percent: status == .inProcess ? 40 : nil)
            for (local, remote) in [(changed, renamed), (renamed, changed)] {
                let (merged, conflicts) = merge(base: base, local: local, remote: remote)
                #expect(conflicts.isEmpty, "\(status)")
                #expect(
                    merged.status == status && merged.name == "Water the plants" && merged.percent == changed.percent)
            }
        }
        // The percent moved there while it was started here.
        var moved = with(.inProcess, percent: 40)
        moved.percent = 60
        let (merged, conflicts) = merge(
            base: with(.inProcess, percent: 40), local: with(.cancelled, percent: 40), remote: moved)
        #expect(conflicts.isEmpty && merged.status == .cancelled && merged.percent == 60)
    }

    // MARK: Through the engine

    /// A repeating todo cancelled is a series ended on purpose, on either side: sent as
    /// CANCELLED (never kept repeating as a whole completion is), and taken in as cancelled with
    /// no occurrence logged done and no note that another app ended it.
    @Test func aCancelledSeriesIsEndedOnPurposeOnEitherSide() throws {
        let folder = TemporaryFolder()
        let server = InMemoryCollection()
        let laptop = try Device(folder, "laptop", server)
        let phone = try Device(folder, "phone", server)
        let fields = TodoFields(
            name: "Water the plants", deadline: CalendarDate(year: 2026, month: 12, day: 1), repeatRule: "FREQ=WEEKLY")
        try laptop.repository.add(fields)
        try laptop.sync()
        try phone.sync()
        _ = try laptop.repository.setStatus(.cancelled, ids: [try laptop.id("Water the plants")])
        let sent = try laptop.sync()
        #expect(sent.keptRepeating.isEmpty)
        let text = try #require(server.objects.values.first?.text)
        #expect(text.contains("STATUS:CANCELLED") && !text.contains("COMPLETED:"), "\(text)")
        let received = try phone.sync()
        let id = try phone.id("Water the plants")
        #expect(try phone.repository.todo(id: id)?.status == .cancelled)
        #expect(received.seriesEndedElsewhere.isEmpty)
        #expect(try phone.repository.completions(ofTodo: id).isEmpty, "no occurrence was done")
        #expect(try laptop.list() == phone.list())
    }
}
