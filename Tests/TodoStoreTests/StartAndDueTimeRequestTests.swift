import SQLite
import TestSupport
import Testing

@testable import TodoStore

/// The fetch-request conditions of issue 34's start dates (``TodoFetchRequest/startedBy``,
/// ``TodoFetchRequest/startsAfter``) and the due-time question lists ask
/// (``TodoRepository/hasDueTimes(_:)``), and the partial indexes that answer them.
@Suite(.timed) struct StartAndDueTimeRequestTests {
    let folder = TemporaryFolder()
    let today = CalendarDate("2026-11-27")!

    /// Five todos: one without a start, one started yesterday, one starting today, one starting
    /// tomorrow (waiting), and one starting tomorrow but done (waiting for nothing).
    private func seeded() throws -> TodoRepository {
        let repository = try TodoRepository(path: folder.file("todos.sqlite"))
        let starts: [(String, String?, Bool)] = [
            ("plain", nil, false), ("yesterday", "2026-11-26", false), ("today", "2026-11-27", false),
            ("tomorrow", "2026-11-28", false), ("done", "2026-11-28", true)
        ]
        for (name, start, done) in starts {
            _ = try repository.add(
                TodoFields(
                    name: name, deadline: CalendarDate("2026-12-31"), isDone: done,
                    start: start.flatMap(CalendarDate.init)))
        }
        return repository
    }

    private func names(_ repository: TodoRepository, _ request: TodoFetchRequest) throws -> [String] {
        try repository.fetch(request).map(\.name)
    }

    @Test func startedByAndStartsAfterSplitTheList() throws {
        let repository = try seeded()
        var started = TodoFetchRequest()
        started.startedBy = today
        #expect(try names(repository, started) == ["plain", "yesterday", "today", "done"])
        #expect(try names(repository, .waiting(after: today)) == ["tomorrow"])
        #expect(try repository.count(started) + repository.count(.waiting(after: today)) == repository.count())
        // Both sides of the split check one todo by its id the same way (live results use it).
        #expect(try repository.fetch(started, ids: [4, 5]).keys.sorted() == [5])
        #expect(try repository.fetch(.waiting(after: today), ids: [4, 5]).keys.sorted() == [4])
        // With the other conditions, in parameter order.
        started.search = "o"
        started.dueBefore = CalendarDate("2027-01-01")
        started.filter = .undone
        #expect(try names(repository, started) == ["today"])
        #expect(try repository.maxID(started) == 3)
    }

    @Test func hasDueTimesAsksOnlyTheTodosSelected() throws {
        let repository = try seeded()
        #expect(try !repository.hasDueTimes(TodoFetchRequest()))
        _ = try repository.update(id: 4) { $0.dueTime = .wall(secondOfDay: 68_400, zone: nil) }
        #expect(try repository.hasDueTimes(TodoFetchRequest()))
        var started = TodoFetchRequest()
        started.startedBy = today
        #expect(try !repository.hasDueTimes(started), "the todo with a time has not started")
        #expect(try repository.hasDueTimes(.waiting(after: today)))
    }

    /// Counting the waiting todos and asking for a time read the partial indexes of migration
    /// 0012, not the whole table.
    @Test func theQuestionsUseThePartialIndexes() throws {
        let repository = try seeded()
        func plan(_ sql: String) throws -> String {
            var details: [String] = []
            let statement = try repository.connection.prepare("EXPLAIN QUERY PLAN " + sql)
            try statement.forEachRow { details.append($0.string(3)) }
            return details.joined(separator: "; ")
        }
        let waiting = TodoFetchRequest.waiting(after: today)
        #expect(try plan(waiting.countSQL).contains("todos_by_start_date"))
        var started = TodoFetchRequest()
        started.startedBy = today
        #expect(try plan(started.hasDueTimesSQL).contains("todos_with_due_time"))
    }
}
