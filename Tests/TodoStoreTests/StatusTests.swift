import SQLite
import TestSupport
import Testing

@testable import TodoStore

/// Real statuses (issue 36): a todo needs action, is in progress, completed or cancelled, with a
/// percent; `done` is part of the state, and other programs that know only `done` keep working.
@Suite(.timed) struct StatusTests {
    let folder = TemporaryFolder()

    private func makeRepository() throws -> TodoRepository {
        try TodoRepository(path: folder.file("todos.sqlite"))
    }

    /// The two columns as stored, for what the trigger and the writes leave there.
    private func columns(_ repository: TodoRepository, _ id: Int64) throws -> String {
        let statement = try repository.connection.prepare(
            "SELECT done || ' ' || coalesce(status, 'NULL') || ' ' || coalesce(percent, 'NULL') || ' '"
                + " || coalesce(completed, 'NULL') FROM todos WHERE id = ?")
        try statement.bind([id])
        var text = ""
        try statement.forEachRow { text = $0.string(0) }
        return text
    }

    private let now = UTCTimestamp(secondsSince1970: 1_800_000_000)

    @Test func eachStateIsStoredInDoneAndStatusAndReadBack() throws {
        let repository = try makeRepository()
        let id = try repository.add(name: "Paint the shed").id
        let started = try #require(try repository.setStatus(.inProcess, ids: [id], percent: 40, now: now).first)
        #expect(started.status == .inProcess && !started.isDone && started.percent == 40)
        #expect(try columns(repository, id) == "0 in-process 40 NULL")
        let cancelled = try #require(try repository.setStatus(.cancelled, ids: [id], now: now).first)
        #expect(cancelled.status == .cancelled && cancelled.isDone && cancelled.completed == nil)
        #expect(try columns(repository, id) == "1 cancelled 40 NULL", "a cancelled todo keeps its percent")
        // Done completes a cancelled todo: its own completed time, and 100 percent.
        let done = try #require(try repository.setDone(true, ids: [id], now: now).first)
        #expect(done.status == .completed && done.completed == now && done.percent == 100)
        #expect(try columns(repository, id) == "1 NULL 100 2027-01-15T08:00:00Z")
        let undone = try #require(try repository.setDone(false, ids: [id], now: now).first)
        #expect(undone.status == .needsAction && undone.completed == nil && undone.percent == nil)
        #expect(try repository.todo(id: id) == undone)
        // Stopping keeps the percent; all or nothing across ids.
        _ = try repository.setStatus(.inProcess, ids: [id], percent: 60, now: now)
        #expect(throws: TodoStoreError.notFound(ids: [99])) {
            try repository.setStatus(.needsAction, ids: [id, 99], now: now)
        }
        #expect(try repository.todo(id: id)?.status == .inProcess)
        let stopped = try #require(try repository.setStatus(.needsAction, ids: [id], now: now).first)
        #expect(stopped.status == .needsAction && stopped.percent == 60)
    }

    /// Another program that knows only `done` (the sqlite3 shell, a script written before
    /// statuses): its `UPDATE todos SET done = 1` completes an in-progress todo, and `SET done =
    /// 0` opens a cancelled one; the trigger ends the status in the file, so every reader agrees.
    @Test func anotherProgramsUpdateOfDoneEndsTheStatus() throws {
        let repository = try makeRepository()
        let a = try repository.add(name: "a").id
        let b = try repository.add(name: "b").id
        _ = try repository.setStatus(.inProcess, ids: [a], percent: 40, now: now)
        _ = try repository.setStatus(.cancelled, ids: [b], now: now)
        try repository.connection.execute("UPDATE todos SET done = 1 WHERE id = ?", [a])
        try repository.connection.execute("UPDATE todos SET done = 0 WHERE id = ?", [b])
        #expect(try repository.todo(id: a)?.status == .completed)
        #expect(try repository.todo(id: b)?.status == .needsAction)
        #expect(try columns(repository, a) == "1 NULL 40 NULL" && columns(repository, b) == "0 NULL NULL NULL")
        // Both columns written together are taken as written; a plain update of another column
        // leaves the status alone.
        try repository.connection.execute("UPDATE todos SET done = 1, status = 'cancelled' WHERE id = ?", [b])
        try repository.connection.execute("UPDATE todos SET name = 'b2', done = 1 WHERE id = ?", [b])
        #expect(try repository.todo(id: b)?.status == .cancelled)
        // What no program of ours writes reads as done says: a status that disagrees with done,
        // a word that is no status, a percent that is no whole number from 0 to 100.
        try repository.connection.execute(
            """
            INSERT INTO todos (name, done, status, percent) VALUES
                ('c', 1, 'in-process', 'lots'), ('d', 0, 'cancelled', 101), ('e', 0, 'IN-PROCESS', 2.5),
                ('f', 0, 'in-process', '30')
            """)
        let read = try repository.fetch().filter { ["c", "d", "e", "f"].contains($0.name) }
        #expect(read.map(\.status) == [.completed, .needsAction, .needsAction, .inProcess])
        #expect(read.map(\.percent) == [nil, nil, nil, 30])
    }

    @Test func oneUndoPutsTheStateBackAndRedoAgain() throws {
        let repository = try makeRepository()
        let id = try repository.add(name: "Write the report").id
        _ = try repository.recordingUndo("start") { () throws(TodoStoreError) in
            try repository.setStatus(.inProcess, ids: [id], percent: 30, now: now)
        }
        _ = try repository.recordingUndo("done") { () throws(TodoStoreError) in
            try repository.setDone(true, ids: [id], now: now)
        }
        #expect(try repository.todo(id: id)?.status == .completed)
        #expect(try repository.undo().command == "done")
        let back = try #require(try repository.todo(id: id))
        #expect(back.status == .inProcess && back.percent == 30 && back.completed == nil)
        #expect(try columns(repository, id) == "0 in-process 30 NULL")
        #expect(try repository.undo().command == "start")
        #expect(try repository.todo(id: id)?.status == .needsAction)
        #expect(try repository.redo().command == "start")
        #expect(try repository.redo().command == "done")
        #expect(try repository.todo(id: id)?.status == .completed)
        _ = try repository.recordingUndo("cancel") { () throws(TodoStoreError) in
            try repository.setStatus(.cancelled, ids: [id], now: now)
        }
        #expect(try repository.undo().command == "cancel")
        let completed = try #require(try repository.todo(id: id))
        #expect(completed.status == .completed && completed.completed == now && completed.percent == 100)
    }

    @Test func theStatusFilterSelectsEachStateAndTheirUnion() throws {
        let repository = try makeRepository()
        for name in ["todo", "going", "finished", "dropped"] { try repository.add(name: name) }
        _ = try repository.setStatus(.inProcess, ids: [2], now: now)
        _ = try repository.setDone(true, ids: [3], now: now)
        _ = try repository.setStatus(.cancelled, ids: [4], now: now)
        func names(_ statuses: [TodoStatus], _ filter: TodoFetchRequest.DoneFilter = .all) throws -> [String] {
            var request = TodoFetchRequest(order: .name, filter: filter)
            request.statuses = statuses
            return try repository.fetch(request).map(\.name)
        }
        #expect(try names([.needsAction]) == ["todo"])
        #expect(try names([.inProcess]) == ["going"])
        #expect(try names([.completed]) == ["finished"])
        #expect(try names([.cancelled]) == ["dropped"])
        #expect(try names([.inProcess, .cancelled]) == ["dropped", "going"])
        #expect(try names([.cancelled], .undone) == [], "filters combine")
        #expect(try names([]) == ["dropped", "finished", "going", "todo"])
        var request = TodoFetchRequest()
        request.statuses = [.cancelled]
        #expect(try repository.count(request) == 1)
    }

    /// A file synced before statuses: an object that says IN-PROCESS, CANCELLED or a percent
    /// is to be read again (its ETag forgotten, its list's token and seen state too), the others
    /// are not.
    @Test func theUpgradeMakesTheObjectsWithAStatusBeReadAgain() throws {
        let path = folder.file("old.sqlite")
        do {
            let connection = try Connection(path: path)
            for migration in Migration.embedded.prefix(15) { try connection.execute(migration.sql) }
            try connection.execute("PRAGMA user_version = 15")
            try connection.execute(
                """
                INSERT INTO sync_remote (id, url, user) VALUES (1, 'https://h/c/', 'u');
                INSERT INTO sync_links (list_id, url, sync_token, seen) VALUES (1, 'https://h/c/', 'token-1', 'token-1');
                INSERT INTO sync_items (uid, href, etag, ics, name, done) VALUES
                    ('a', '/c/a.ics', '"1"', 'BEGIN:VTODO' || char(13, 10) || 'STATUS:IN-PROCESS', 'a', 0),
                    ('b', '/c/b.ics', '"2"', 'BEGIN:VTODO' || char(13, 10) || 'percent-complete:20', 'b', 0),
                    ('c', '/c/c.ics', '"3"', 'BEGIN:VTODO' || char(13, 10) || 'STATUS:NEEDS-ACTION', 'c', 0);
                """)
        }
        let repository = try TodoRepository(path: path)
        let etags = try repository.connection.prepare("SELECT coalesce(etag, 'NULL') FROM sync_items ORDER BY uid")
        var read: [String] = []
        try etags.forEachRow { read.append($0.string(0)) }
        #expect(read == ["NULL", "NULL", "\"3\""])
        let forgotten = "SELECT count(*) FROM sync_links WHERE sync_token IS NULL AND seen IS NULL"
        #expect(try repository.connection.prepare(forgotten).scalarInt64() == 1)
    }
}
