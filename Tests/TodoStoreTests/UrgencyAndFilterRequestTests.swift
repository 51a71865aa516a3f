import SQLite
import TestSupport
import Testing

@testable import TodoStore

/// Issue 37's store pieces: the urgency rule (``TodoUrgency``, pure), the ranking `todo next`
/// reads (``TodoRepository/rankedByUrgency(_:today:now:limit:)``), and the fetch-request
/// conditions of its filters (any tag, no tag, completed and created days, notes in a search),
/// each checked by a whole fetch and by the one-id look-up live results use.
@Suite(.timed) struct UrgencyAndFilterRequestTests {
    let folder = TemporaryFolder()
    let today = CalendarDate("2026-11-27")!
    /// Noon UTC on `today`.
    let now = UTCTimestamp(iso: "2026-11-27T12:00:00Z")!

    private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    // MARK: The rule

    @Test func theDueFactorIsTaskwarriorsRampOverTwentyOneDays() {
        func factor(_ days: Int) -> Double { TodoUrgency.dueFactor(today.adding(days: days), today: today) }
        #expect(TodoUrgency.dueFactor(nil, today: today) == 0)
        #expect(close(factor(30), 0.2))
        #expect(close(factor(14), 0.2))
        #expect(close(factor(0), 14 * 0.8 / 21 + 0.2))
        #expect(close(factor(-3), 17 * 0.8 / 21 + 0.2))
        #expect(close(factor(-7), 1))
        #expect(close(factor(-400), 1))
        // Even steps between the ends.
        for days in -7...13 { #expect(close(factor(days) - factor(days + 1), 0.8 / 21)) }
    }

    @Test func priorityAgeAndTagsTermsAreTheTableValues() {
        let terms = (0...9).map { TodoUrgency.priorityTerm(TodoPriority(rawValue: $0)!) }
        #expect(terms == [0, 6, 6, 6, 6, 3.9, 1.8, 1.8, 1.8, 1.8])
        func age(days: Double) -> Double {
            TodoUrgency.ageFactor(
                created: UTCTimestamp(secondsSince1970: now.secondsSince1970 - Int64(days * 86_400)), now: now)
        }
        #expect(close(age(days: 0), 0))
        #expect(close(age(days: 182.5), 0.5))
        #expect(close(age(days: 365), 1))
        #expect(close(age(days: 3_000), 1))
        #expect(age(days: -5) == 0, "a created time after now counts as new")
        #expect(TodoUrgency.ageFactor(created: nil, now: now) == 0)
        #expect((0...5).map(TodoUrgency.tagsFactor(count:)) == [0, 0.8, 0.9, 1, 1, 1])
    }

    @Test func aScoreIsTheSumOfItsTerms() {
        var fields = TodoFields(
            name: "x", deadline: today.adding(days: -7), priority: .medium,
            tags: TodoTags([TodoTag("+a"), TodoTag("@b")].compactMap { $0 }),
            created: UTCTimestamp(secondsSince1970: now.secondsSince1970 - 365 * 86_400))
        fields.status = .inProcess
        let links = TodoUrgency.Links(isBlocking: true, isBlocked: true)
        let expected = 12 + 3.9 + 2 + 0.9 + 4 + 8 - 5
        #expect(close(TodoUrgency.score(of: fields, links: links, today: today, now: now), expected))
        fields.start = today.adding(days: 1)
        #expect(close(TodoUrgency.score(of: fields, links: links, today: today, now: now), expected - 3))
        fields.project = TodoProject("Work.ClientA")
        #expect(close(TodoUrgency.score(of: fields, links: links, today: today, now: now), expected - 3 + 1))
        #expect(close(TodoUrgency.score(of: TodoFields(name: "plain"), today: today, now: now), 0))
    }

    // MARK: The ranking

    @Test func theRankingPutsTheMostUrgentFirstAndKeepsTheListsOrderOnTies() throws {
        let repository = try TodoRepository(path: folder.file("rank.sqlite"))
        let created = UTCTimestamp(iso: "2026-11-27T00:00:00Z")
        func add(_ name: String, _ change: (inout TodoFields) -> Void = { _ in }) throws -> Int64 {
            var fields = TodoFields(name: name, created: created)
            change(&fields)
            return try repository.add(fields).id
        }
        let overdue = try add("overdue") { $0.deadline = today.adding(days: -10) }
        let high = try add("high") { $0.priority = .high }
        let started = try add("started") { $0.status = .inProcess }
        let blocked = try add("blocked")
        let blocking = try add("blocking")
        let tagged = try add("tagged") { $0.tags = TodoTags([TodoTag("+x"), TodoTag("+y")].compactMap { $0 }) }
        let plainLate = try add("plain 2") { $0.deadline = today.adding(days: 40) }
        let plainEarly = try add("plain 1") { $0.deadline = today.adding(days: 30) }
        try repository.setDependencies([blocking], of: blocked)

        var request = TodoFetchRequest(filter: .undone)
        request.blocked = false
        let (ranked, total) = try repository.rankedByUrgency(request, today: today, now: now)
        #expect(ranked.map(\.todo.id) == [overdue, blocking, high, started, plainEarly, plainLate, tagged])
        #expect(total == 7)
        // Both plain ones score 0.2 x 12: the earlier deadline first, as the list orders them.
        #expect(close(ranked[4].urgency, ranked[5].urgency))

        let (best, all) = try repository.rankedByUrgency(
            TodoFetchRequest(filter: .undone), today: today, now: now, limit: 3)
        #expect(best.map(\.todo.id) == [overdue, blocking, high])
        #expect(all == 8)
        let every = try repository.rankedByUrgency(TodoFetchRequest(filter: .undone), today: today, now: now)
        let last = try #require(every.ranked.last)
        #expect(last.todo.id == blocked)
        // Blocked (-5), and half a day old.
        #expect(close(last.urgency, -5 + 2 * 0.5 / 365))
    }

    /// The bounded heap keeps exactly the first `limit` of a full sort, for any scores and limits.
    @Test func aLimitedRankingIsTheHeadOfTheWholeRanking() throws {
        let seed = TestSeed.make("aLimitedRankingIsTheHeadOfTheWholeRanking")
        var random = SeededGenerator(seed: seed)
        let repository = try TodoRepository(path: folder.file("heap.sqlite"))
        for index in 0..<300 {
            var fields = TodoFields(name: "todo \(index)")
            if Bool.random(using: &random) {
                fields.deadline = today.adding(days: Int.random(in: -20...30, using: &random))
            }
            fields.priority = TodoPriority(rawValue: Int.random(in: 0...9, using: &random))!
            if Int.random(in: 0..<4, using: &random) == 0 { fields.status = .inProcess }
            try repository.add(fields)
        }
        let whole = try repository.rankedByUrgency(TodoFetchRequest(), today: today, now: now).ranked
        #expect(zip(whole, whole.dropFirst()).allSatisfy { TodoUrgency.ranksBefore($0, $1) })
        for limit in [0, 1, 2, 7, 50, 299, 300, 1_000] {
            let head = try repository.rankedByUrgency(TodoFetchRequest(), today: today, now: now, limit: limit).ranked
            #expect(head.map(\.todo.id) == whole.prefix(limit).map(\.todo.id), "limit \(limit), seed \(seed)")
        }
    }

    // MARK: The filters' conditions

    private func tagged(_ words: String...) -> TodoTags { TodoTags(words.compactMap(TodoTag.init)) }

    /// The ids a request selects, by a whole fetch; the one-id look-up agrees, todo by todo.
    private func ids(_ repository: TodoRepository, _ request: TodoFetchRequest) throws -> [Int64] {
        let fetched = try repository.fetch(request).map(\.id)
        let all = try repository.fetch().map(\.id)
        #expect(try repository.fetch(request, ids: all).keys.sorted() == fetched.sorted())
        #expect(try repository.count(request) == fetched.count)
        return fetched
    }

    @Test func anyTagAndNoTagChooseByTheTagsRule() throws {
        let repository = try TodoRepository(path: folder.file("tags.sqlite"))
        let work = try repository.add(TodoFields(name: "a", tags: tagged("+Work"))).id
        let home = try repository.add(TodoFields(name: "b", tags: tagged("@home"))).id
        let both = try repository.add(TodoFields(name: "c", tags: tagged("+work", "+home"))).id
        let someday = try repository.add(TodoFields(name: "d", tags: tagged("+someday", "+workout"))).id
        let none = try repository.add(TodoFields(name: "e")).id
        var request = TodoFetchRequest()
        request.anyTags = tagged("work", "home").tags
        #expect(try ids(repository, request) == [work, home, both])
        request.anyTags = []
        request.excludedTags = tagged("someday").tags
        #expect(try ids(repository, request) == [work, home, both, none])
        request.excludedTags = tagged("someday", "WORK").tags
        #expect(try ids(repository, request) == [home, none], "none of them; +workout is not +work")
        request.tags = tagged("home").tags
        request.anyTags = tagged("home", "someday").tags
        #expect(try ids(repository, request) == [home])
        _ = someday
    }

    @Test func aSearchMatchesNotesToo() throws {
        let repository = try TodoRepository(path: folder.file("notes.sqlite"))
        let noted = try repository.add(TodoFields(name: "Call", note: "about the ÉCLAIR order\nsecond line")).id
        let named = try repository.add(TodoFields(name: "éclair", note: nil)).id
        _ = try repository.add(TodoFields(name: "other", note: "nothing here"))
        var request = TodoFetchRequest(search: "eclair")
        #expect(try ids(repository, request).isEmpty, "é is not e")
        request.search = "Éclair"
        #expect(try ids(repository, request) == [noted, named])
        // A term matches inside one field, never across the name and the note.
        request.search = "callabout"
        #expect(try ids(repository, request).isEmpty)
        request.searches = ["second", "order"]
        #expect(try ids(repository, request) == [noted])
        let todo = try #require(try repository.todo(id: noted))
        #expect(TodoSearch.matches(todo, foldedNeedle: TodoSearch.fold("SECOND LINE")))
    }

    @Test func completedAndCreatedDaysAreLocalDays() throws {
        let repository = try TodoRepository(path: folder.file("days.sqlite"))
        // 20:00 UTC on May 1 is May 2 at 05:00 in Tokyo (UTC+9).
        let late = UTCTimestamp(iso: "2024-05-01T20:00:00Z")
        let early = UTCTimestamp(iso: "2024-05-01T10:00:00Z")
        let lateDone = try repository.add(
            TodoFields(name: "late", isDone: true, created: early, completed: late), now: nil
        ).id
        let earlyDone = try repository.add(
            TodoFields(name: "early", isDone: true, created: late, completed: early), now: nil
        ).id
        let cancelled = try repository.add(
            TodoFields(name: "cancelled", created: early, completed: late, status: .cancelled), now: nil
        ).id
        let undone = try repository.add(TodoFields(name: "undone"), now: nil).id
        let may1 = CalendarDate("2024-05-01")!
        for (zone, after, before) in [
            (LocalTimeZone.offset(seconds: 0), [Int64](), [Int64]()),
            (.offset(seconds: 9 * 3600), [lateDone], []), (.offset(seconds: -12 * 3600), [], [earlyDone])
        ] {
            var request = TodoFetchRequest()
            request.timeZone = zone
            request.completedAfter = may1
            #expect(try ids(repository, request) == after, "\(zone)")
            request.completedAfter = nil
            request.completedBefore = may1
            #expect(try ids(repository, request) == before, "\(zone)")
        }
        var request = TodoFetchRequest()
        request.timeZone = .offset(seconds: 0)
        request.completedAfter = CalendarDate("2024-04-30")
        request.completedBefore = CalendarDate("2024-05-02")
        #expect(try ids(repository, request) == [lateDone, earlyDone], "a cancelled todo was never completed")
        request = TodoFetchRequest()
        request.timeZone = .offset(seconds: 9 * 3600)
        request.createdAfter = may1
        #expect(try ids(repository, request) == [earlyDone])
        request.createdAfter = nil
        request.createdBefore = CalendarDate("2024-05-02")
        #expect(try ids(repository, request) == [lateDone, cancelled], "no created time: never matched")
        request.createdBefore = CalendarDate("9999-12-31")
        request.createdAfter = CalendarDate("9999-12-31")
        #expect(try ids(repository, request).isEmpty)
        _ = undone
    }
}

/// Migration 0021's index: the status order (`todo ui`'s default) reads it in order, without
/// sorting the table, and the filters on `done` keep the plans they had (the table's order, the
/// partial indexes of migration 0012).
@Suite(.timed) struct StatusOrderIndexTests {
    let folder = TemporaryFolder()

    @Test func theStatusOrderReadsTheIndexAndTheDoneFiltersDoNot() throws {
        let repository = try TodoRepository(path: folder.file("status.sqlite"))
        for index in 0..<50 {
            try repository.add(
                TodoFields(
                    name: "todo \(index)", deadline: CalendarDate("2026-12-01")?.adding(days: index % 9),
                    isDone: index % 3 == 0))
        }
        func plan(_ sql: String) throws -> String {
            var details: [String] = []
            let statement = try repository.connection.prepare("EXPLAIN QUERY PLAN " + sql)
            try statement.forEachRow { details.append($0.string(3)) }
            return details.joined(separator: "; ")
        }
        let today = CalendarDate("2026-11-27")
        var status = TodoFetchRequest(order: .status, limit: 30)
        status.startedBy = today
        #expect(try plan(status.sql).contains("todos_by_status") && !(try plan(status.sql).contains("TEMP B-TREE")))
        var undone = TodoFetchRequest(filter: .undone)
        undone.startedBy = today
        #expect(try !plan(undone.sql).contains("todos_by_status"))
        #expect(try !plan(undone.maxIDSQL.sql).contains("todos_by_status"))
        #expect(try plan(TodoFetchRequest.waiting(after: today ?? .unixEpoch).countSQL).contains("todos_by_start_date"))
        #expect(try plan(undone.hasDueTimesSQL).contains("todos_with_due_time"))
        // The order is the index's: a fetch by it is what the in-memory order says.
        let fetched = try repository.fetch(TodoFetchRequest(order: .status))
        #expect(fetched == fetched.sorted(by: TodoFetchRequest.Order.status.areInIncreasingOrder))
    }
}

/// `hasNoConditionButStart`: any filter, of this issue or another, makes a request conditional;
/// a start day alone does not.
@Suite(.timed) struct RequestConditionTests {
    @Test func everyFilterIsACondition() {
        let day = CalendarDate("2026-11-27")
        var started = TodoFetchRequest(order: .name, limit: 5, offset: 2)
        started.startedBy = day
        #expect(started.hasNoConditionButStart && TodoFetchRequest().hasNoConditionButStart)
        let tag = TodoTag("+x").map { [$0] } ?? []
        let changes: [(inout TodoFetchRequest) -> Void] = [
            { $0.filter = .undone }, { $0.search = "x" }, { $0.dueBefore = day }, { $0.startsAfter = day },
            { $0.tags = tag }, { $0.anyTags = tag }, { $0.excludedTags = tag }, { $0.completedAfter = day },
            { $0.createdBefore = day }, { $0.priorities = [1...4] }, { $0.lists = [1] }, { $0.statuses = [.inProcess] },
            { $0.blocked = false }, { $0.projects = TodoProject("Work").map { [$0] } ?? [] }
        ]
        for (index, change) in changes.enumerated() {
            var request = started
            change(&request)
            #expect(!request.hasNoConditionButStart, "change \(index)")
        }
    }
}
