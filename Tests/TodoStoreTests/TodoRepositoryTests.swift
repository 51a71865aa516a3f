import SQLite
import TestSupport
import Testing

@testable import TodoStore

@Suite(.timed) struct TodoRepositoryTests {
    let folder = TemporaryFolder()

    private func makeRepository() throws -> TodoRepository {
        try TodoRepository(path: folder.file("todos.sqlite"))
    }

    private func date(_ text: String) -> CalendarDate? { CalendarDate(text) }

    @Test func addAndGetRoundTripEveryField() throws {
        let repository = try makeRepository()
        let added = try repository.add(name: "Buy milk 🥛", deadline: date("2024-05-01"), isDone: true)
        #expect(added.id == 1)
        #expect(try repository.todo(id: 1) == added)
        #expect(try repository.todo(id: 2) == nil)
    }

    @Test func emptyNamesAreRefused() throws {
        let repository = try makeRepository()
        #expect(throws: TodoStoreError.emptyName) { try repository.add(name: "") }
        #expect(throws: TodoStoreError.emptyName) { try repository.add(name: " \t\n") }
        // Control characters are nothing to see, whatever white space or script comes with them.
        for name in ["\u{1B}", "\u{1B}\u{A0}", "\u{202E}\u{3000}", "\u{9B}"] {
            #expect(throws: TodoStoreError.emptyName, "\(name.unicodeScalars.map(\.value))") {
                try repository.add(name: name)
            }
        }
        #expect(try repository.add(name: "\u{1B}é").name == "\u{1B}é")
        let todo = try repository.add(name: "x")
        #expect(throws: TodoStoreError.emptyName) { try repository.rename(id: todo.id, to: "  ") }
        #expect(try repository.count() == 2)
    }

    /// A bare word another program stored in the tags column reads as a `+` tag, and the tag
    /// filter finds it as it finds `+work` and `@work`.
    @Test func aBareWordStoredByAnotherProgramIsATagTheFilterFinds() throws {
        let repository = try makeRepository()
        let todo = try repository.add(name: "Report")
        try repository.connection.execute("UPDATE todos SET tags = 'work @Home' WHERE id = ?", [todo.id])
        #expect(try repository.todo(id: todo.id)?.tags.storage == "+work @Home")
        for word in ["work", "home"] {
            var request = TodoFetchRequest()
            request.tags = [try #require(TodoTag(word))]
            #expect(try repository.fetch(request).count == 1, "\(word)")
        }
    }

    @Test func idsAreNeverReused() throws {
        let repository = try makeRepository()
        try repository.add(name: "a")
        let b = try repository.add(name: "b")
        try repository.delete(ids: [b.id])
        #expect(try repository.add(name: "c").id == 3)
    }

    @Test func renameAndDeadlineChangesReturnTheNewTodo() throws {
        let repository = try makeRepository()
        let todo = try repository.add(name: "a")
        #expect(try repository.rename(id: todo.id, to: "b").name == "b")
        #expect(try repository.setDeadline(date("2030-01-02"), id: todo.id).deadline == date("2030-01-02"))
        #expect(try repository.setDeadline(nil, id: todo.id).deadline == nil)
        #expect(throws: TodoStoreError.notFound(ids: [99])) { try repository.rename(id: 99, to: "x") }
    }

    @Test func setDoneIsAllOrNothing() throws {
        let repository = try makeRepository()
        let a = try repository.add(name: "a")
        let b = try repository.add(name: "b")
        #expect(throws: TodoStoreError.notFound(ids: [7, 8])) { try repository.setDone(true, ids: [a.id, 7, b.id, 8]) }
        #expect(try repository.fetch().map(\.isDone) == [false, false])
        let changed = try repository.setDone(true, ids: [b.id, a.id, b.id])
        #expect(changed.map(\.id) == [b.id, a.id])
        #expect(try repository.count(.done) == 2)
    }

    @Test func deleteIsAllOrNothing() throws {
        let repository = try makeRepository()
        let a = try repository.add(name: "a")
        #expect(throws: TodoStoreError.notFound(ids: [5])) { try repository.delete(ids: [a.id, 5]) }
        #expect(try repository.count() == 1)
        #expect(try repository.delete(ids: [a.id]) == [a])
        #expect(try repository.count() == 0)
    }

    @Test func ordersAreTotalAndAsDocumented() throws {
        let repository = try makeRepository()
        let milk = try repository.add(name: "milk", deadline: date("2024-05-01"))  // 1
        let apples = try repository.add(name: "Apples")  // 2
        let rent = try repository.add(name: "rent", deadline: date("2024-04-30"), isDone: true)  // 3
        let bread = try repository.add(name: "bread", deadline: date("2024-05-01"))  // 4
        let zebra = try repository.add(name: "Zebra", isDone: true)  // 5

        func ids(_ order: TodoFetchRequest.Order, _ filter: TodoFetchRequest.DoneFilter = .all) throws -> [Int64] {
            try repository.fetch(TodoFetchRequest(order: order, filter: filter)).map(\.id)
        }
        #expect(try ids(.due) == [rent.id, milk.id, bread.id, apples.id, zebra.id])
        #expect(try ids(.name) == [apples.id, bread.id, milk.id, rent.id, zebra.id])
        #expect(try ids(.status) == [milk.id, bread.id, apples.id, rent.id, zebra.id])
        #expect(try ids(.due, .done) == [rent.id, zebra.id])
        #expect(try ids(.due, .undone) == [milk.id, bread.id, apples.id])
    }

    @Test func limitAndOffsetPage() throws {
        let repository = try makeRepository()
        for index in 1...10 { try repository.add(name: "t\(index)") }
        let page = try repository.fetch(TodoFetchRequest(limit: 3, offset: 4)).map(\.id)
        #expect(page == [5, 6, 7])
        #expect(try repository.fetch(TodoFetchRequest(offset: 9)).map(\.id) == [10])
        #expect(try repository.count() == 10)
        #expect(try repository.maxID() == 10)
    }

    @Test func rowsWrittenByOtherClientsAreRead() throws {
        let repository = try makeRepository()
        let other = try Connection(path: repository.connection.path)
        try other.execute("INSERT INTO todos (name) VALUES ('from elsewhere')")
        #expect(try repository.fetch().map(\.name) == ["from elsewhere"])
    }

    @Test func theSchemaRefusesImpossibleDeadlinesFromAnyClient() throws {
        let repository = try makeRepository()
        let error = #expect(throws: SQLiteError.self) {
            try repository.connection.execute("INSERT INTO todos (name, deadline) VALUES ('x', '2023-02-29')")
        }
        #expect(error?.isConstraintViolation == true)
    }

    @Test func aWriteTransactionSpanningCallsIsAtomic() throws {
        let repository = try makeRepository()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try repository.connection.transaction {
                try repository.add(name: "a")
                try repository.add(name: "b")
                throw Stop()
            }
        }
        #expect(try repository.count() == 0)
    }
}
