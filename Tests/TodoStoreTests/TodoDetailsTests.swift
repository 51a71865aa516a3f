import SQLite
import TestSupport
import Testing

@testable import TodoStore

/// Issue 26's fields in the store: priority, tags, note, created and completed times; their
/// migration, filters and order.
@Suite(.timed) struct TodoDetailsTests {
    let folder = TemporaryFolder()

    private func makeRepository() throws -> TodoRepository {
        try TodoRepository(path: folder.file("todos.sqlite"))
    }

    private func tags(_ words: String...) -> TodoTags { TodoTags(words.compactMap { TodoTag($0) }) }

    private let noon = UTCTimestamp(iso: "2026-11-23T12:00:00Z")!
    private let later = UTCTimestamp(iso: "2026-11-24T08:30:05Z")!

    @Test func prioritiesParseAsTypedAndKeepTheirExactValue() {
        #expect(TodoPriority(parsing: "high") == .high && TodoPriority(parsing: "H") == .high)
        #expect(TodoPriority(parsing: "Medium") == .medium && TodoPriority(parsing: "m") == .medium)
        #expect(TodoPriority(parsing: "low") == .low && TodoPriority(parsing: "L") == .low)
        #expect(TodoPriority(parsing: "none") == TodoPriority.none && TodoPriority(parsing: "0") == TodoPriority.none)
        #expect(TodoPriority(parsing: "2")?.rawValue == 2 && TodoPriority(parsing: "2")?.level == .high)
        #expect(TodoPriority(parsing: "7")?.level == .low && TodoPriority(parsing: "5")?.level == .medium)
        for bad in ["10", "-1", "urgent", "HH", "1.5"] { #expect(TodoPriority(parsing: bad) == nil, "\(bad)") }
        #expect(TodoPriority.high.shortLabel == "H" && TodoPriority(rawValue: 2)?.shortLabel == "H2")
        #expect(TodoPriority.none.shortLabel == "" && TodoPriority.low.label == "low")
        #expect(TodoPriority(rawValue: 7)?.label == "low (7)")
        #expect(TodoPriority(rawValue: 10) == nil)
    }

    @Test func tagsAreWordsWithTheirSigilAndMatchByCaseFoldedWord() throws {
        let work = try #require(TodoTag("+Work"))
        #expect(work.word == "Work" && work.sigil == .plus && work.description == "+Work")
        #expect(TodoTag("@office")?.sigil == .at && TodoTag("home")?.description == "+home")
        #expect(TodoTag("@work") == work, "one tag whatever its sigil and case")
        #expect(TodoTag("+Straße") == TodoTag("STRASSE"), "full case folding, as search")
        for bad in [
            "", "+", "@", " two", "+@x", "++x", "tab\there", "bell\u{7}", String(repeating: "x", count: 101)
        ] {
            #expect(TodoTag(bad) == nil, "\(bad.debugDescription)")
        }
        var set = tags("+work", "@phone")
        #expect(!set.insert(try #require(TodoTag("@WORK"))), "already there: kept as first written")
        #expect(set.storage == "+work @phone")
        #expect(set.remove(try #require(TodoTag("PHONE"))) && set.storage == "+work")
        #expect(TodoTags(storage: "+a  @b +A bad\u{1}word") == tags("+a", "@b"))
        // A stored value is its own storage only when written as storage writes it: every word a
        // tag with its sigil, none twice, single spaces; any other is written anew.
        for (stored, storage) in [
            ("+work @phone", "+work @phone"), ("+é @ü", "+é @ü"), ("work", "+work"), (" +a", "+a"), ("+a ", "+a"),
            ("+a  +b", "+a +b"), ("+a +A", "+a"), ("+a ++b", "+a"), ("@x\u{1}y +b", "+b"), ("", "")
        ] {
            let read = TodoTags(storage: stored)
            #expect(read.storage == storage && read == TodoTags(read.tags), "\(stored.debugDescription)")
        }
        #expect(tags("+a", "@b").holdsTheSameTags(as: tags("@B", "+a")), "as a set, order and sigil do not matter")
        #expect(tags("+a", "@b") != tags("@b", "+a"), "as a value, they are written differently")
    }

    /// A stored tags value reads as its words one by one would: each valid word a tag (a bare
    /// word a `+` tag), a sigil and a quoted word with spaces one tag, a tag met again left out,
    /// written back in storage's one form. Random values of the bytes stored values are made of,
    /// so that the one-pass check of a value already in that form and the word-by-word reading
    /// are held to the same answer as this test's own reading (on Characters, not bytes).
    @Test func aStoredValueReadsAsItsWordsOneByOne() {
        let seed = TestSeed.make("aStoredValueReadsAsItsWordsOneByOne")
        var random = SeededGenerator(seed: seed)
        let pieces = [
            "+", "@", " ", "  ", "a", "A", "b", "work", "Work", "é", "É", "\u{1}", "x", "-", "++", "@@", "\"",
            "+\"a b\"", "@\"A B\"", "\" ", "Home Improvement"
        ]
        for _ in 0..<5_000 {
            let stored = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            var expected: [TodoTag] = []
            for tag in Self.referenceReading(stored) where !expected.contains(tag) { expected.append(tag) }
            let read = TodoTags(storage: stored)
            #expect(
                read.tags.map(\.description) == expected.map(\.description), "\(stored.debugDescription) seed \(seed)")
            #expect(read.storage == expected.map(\.description).joined(separator: " "), "\(stored.debugDescription)")
            #expect(TodoTags(storage: read.storage) == read, "its storage reads back as itself")
        }
        let long = "+" + String(repeating: "a", count: TodoTag.maximumLength)
        #expect(TodoTags(storage: long).storage == long && TodoTags(storage: long + "a").isEmpty)
    }

    /// The stored form's reading, written again on Characters: a sigil and `"` start a quoted
    /// word when the next `"` is followed by a space or the end and what it encloses holds a
    /// space but no space before a sigil; else a word runs to the next space.
    private static func referenceReading(_ stored: String) -> [TodoTag] {
        var rest = Substring(stored)
        var tags: [TodoTag] = []
        while let first = rest.first {
            if first == " " {
                rest = rest.dropFirst()
                continue
            }
            let sigil: TodoTag.Sigil? = first == "+" ? .plus : first == "@" ? .at : nil
            if let sigil, rest.dropFirst().first == "\"" {
                let inner = rest.dropFirst(2)
                if let close = inner.firstIndex(of: "\"") {
                    let content = inner[..<close]
                    let after = inner[inner.index(after: close)...]
                    if after.first ?? " " == " ", content.contains(" "), !content.contains(" +"),
                        !content.contains(" @")
                    {
                        if let tag = TodoTag(word: String(content), sigil: sigil) { tags.append(tag) }
                        rest = after
                        continue
                    }
                }
            }
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count)
            if let tag = TodoTag(word: String(sigil == nil ? word : word.dropFirst()), sigil: sigil ?? .plus) {
                tags.append(tag)
            }
        }
        return tags
    }

    /// Issue 36, point 4: a tag's word may hold spaces (`Home Improvement`, a phone's
    /// category). It is written quoted, `+"Home Improvement"`, read from that and from the word
    /// as a shell leaves it, stored so, and matched by `--tag` and `--search` like any other.
    @Test func aTagMayHoldSpacesAndIsWrittenQuoted() throws {
        let home = try #require(TodoTag("Home Improvement"))
        #expect(home.word == "Home Improvement" && home.sigil == .plus && home.description == "+\"Home Improvement\"")
        for typed in ["+Home Improvement", "+\"Home Improvement\"", "home improvement", "@HOME IMPROVEMENT"] {
            #expect(TodoTag(typed) == home, "\(typed)")
        }
        #expect(TodoTag("@\"Back Yard\"")?.description == "@\"Back Yard\"")
        #expect(TodoTag("+Straße und Haus") == TodoTag("STRASSE UND HAUS"), "folded as any tag")
        #expect(TodoTag("+\"urgent\"")?.word == "\"urgent\"", "no space: the quotes are the word's, as before")
        #expect(TodoTag("+\"a")?.word == "\"a")
        for bad in [
            " a", "a ", "a  b", "a +b", "a @b", "+a @b", "a \"b\"", "+\"a b", "\"a b\"", "a\tb", "a\u{A0}b", "a\nb",
            String(repeating: "x ", count: 50) + "x"
        ] {
            #expect(TodoTag(bad) == nil, "\(bad.debugDescription)")
        }
        #expect(TodoTag(word: "Home Improvement", sigil: .at)?.description == "@\"Home Improvement\"")
        #expect(TodoTag(word: "\"Home Improvement\"", sigil: .plus) == nil, "no quotes are taken off a word")

        var set = tags("+work", "Home Improvement", "@phone")
        #expect(set.storage == "+work +\"Home Improvement\" @phone")
        #expect(TodoTags(storage: set.storage) == set && set.tags.map(\.word) == ["work", "Home Improvement", "phone"])
        #expect(!set.insert(try #require(TodoTag("home improvement"))))
        #expect(set.remove(try #require(TodoTag("HOME IMPROVEMENT"))) && set.storage == "+work @phone")
        // Tags written one after another never read as one quoted word.
        #expect(TodoTags(tags("+\"a", "+b\"")).storage == "+\"a +b\"")
        #expect(TodoTags(storage: "+\"a +b\"").tags.map(\.word) == ["\"a", "b\""])
        #expect(TodoTags(storage: "+\"a b\" +\"a b\"").storage == "+\"a b\"")

        let repository = try makeRepository()
        try repository.add(TodoFields(name: "sink", tags: tags("+Home Improvement", "+Errands")))
        try repository.add(TodoFields(name: "fence", tags: tags("@HOME IMPROVEMENT")))
        try repository.add(TodoFields(name: "gym", tags: tags("+Home", "+Improvement")))
        func names(_ configure: (inout TodoFetchRequest) -> Void) throws -> [String] {
            var request = TodoFetchRequest(order: .name)
            configure(&request)
            return try repository.fetch(request).map(\.name)
        }
        #expect(try names { $0.tags = [home] } == ["fence", "sink"], "never +Home +Improvement")
        let plain = try #require(TodoTag("Home"))
        #expect(try names { $0.tags = [plain] } == ["gym"])
        #expect(try names { $0.searches = ["home improvement"] } == ["fence", "sink"])
        #expect(try names { $0.searches = ["\"home"] } == ["fence", "sink"], "the stored form, as shown")
        #expect(
            try repository.tagCounts().map { "\($0.tag) \($0.undone)" }.sorted() == [
                "+\"Home Improvement\" 2", "+Errands 1", "+Home 1", "+Improvement 1"
            ])
    }

    /// Migration 0018: an object synced before tags could hold spaces may hold a category with
    /// one that its todo lacks; it is read again before anything is sent over it (its ETag, its
    /// list's token and state seen forgotten). Objects without categories are left as they are.
    @Test func objectsWithCategoriesAreReadAgainAfterTheUpgrade() throws {
        let path = folder.file("old.sqlite")
        do {
            let connection = try Connection(path: path)
            for migration in Migration.embedded.prefix(17) { try connection.execute(migration.sql) }
            try connection.execute("PRAGMA user_version = 17")
            try connection.execute(
                """
                INSERT INTO lists (id, name) VALUES (2, 'Other');
                INSERT INTO sync_remote (id, url, user) VALUES (1, 'https://h/c/', 'u');
                INSERT INTO sync_links (list_id, url, sync_token, seen) VALUES
                    (1, 'https://h/c/', 'token-1', 'token-1'), (2, 'https://h/d/', 'token-2', 'token-2');
                INSERT INTO sync_items (uid, href, etag, ics, name, done, list_id) VALUES
                    ('a', '/c/a.ics', '"1"', 'BEGIN:VTODO' || char(13, 10) || 'CATEGORIES:Home Improvement', 'a', 0, 1),
                    ('b', '/c/b.ics', '"2"', 'BEGIN:VTODO' || char(13, 10) || 'categories:work', 'b', 0, 1),
                    ('c', '/d/c.ics', '"3"', 'BEGIN:VTODO' || char(13, 10) || 'SUMMARY:c', 'c', 0, 2);
                """)
        }
        let repository = try TodoRepository(path: path)
        let etags = try repository.connection.prepare("SELECT coalesce(etag, 'NULL') FROM sync_items ORDER BY uid")
        var read: [String] = []
        try etags.forEachRow { read.append($0.string(0)) }
        #expect(read == ["NULL", "NULL", "\"3\""])
        let forgotten = "SELECT list_id FROM sync_links WHERE sync_token IS NULL AND seen IS NULL"
        #expect(try repository.connection.prepare(forgotten).scalarInt64() == 1)
        #expect(try repository.connection.prepare("SELECT count(*) FROM sync_links").scalarInt64() == 2)
    }

    @Test func timestampsAreUTCToTheSecond() {
        #expect(noon.description == "2026-11-23T12:00:00Z" && later.description == "2026-11-24T08:30:05Z")
        #expect(UTCTimestamp(secondsSince1970: 0).description == "1970-01-01T00:00:00Z")
        #expect(UTCTimestamp(secondsSince1970: -1).description == "1969-12-31T23:59:59Z")
        for bad in ["2026-11-23 12:00:00Z", "2026-11-23T24:00:00Z", "2026-02-30T00:00:00Z", "2026-11-23T12:00:00"] {
            #expect(UTCTimestamp(iso: bad) == nil, "\(bad)")
        }
        #expect(UTCTimestamp(iso: UTCTimestamp.now().description) != nil)
    }

    @Test func everyFieldRoundTripsAndTimesDefaultToNow() throws {
        let repository = try makeRepository()
        let fields = TodoFields(
            name: "Call mom", deadline: CalendarDate("2026-12-01"), priority: .high, tags: tags("+family", "@phone"),
            note: "about Sunday\nand the cake")
        let added = try repository.add(fields, now: noon)
        #expect(
            added.fields
                == TodoFields(
                    name: "Call mom", deadline: CalendarDate("2026-12-01"), priority: .high,
                    tags: tags("+family", "@phone"),
                    note: "about Sunday\nand the cake", created: noon))
        #expect(try repository.todo(id: added.id) == added)
        #expect(try repository.todo(id: added.id)?.tags.storage == "+family @phone")

        let done = try repository.add(TodoFields(name: "Done already", isDone: true), now: noon)
        #expect(done.created == noon && done.completed == noon)
        let imported = try repository.add(
            TodoFields(name: "Imported", isDone: true, created: later, completed: later), now: noon)
        #expect(imported.created == later && imported.completed == later, "times an import knows are kept")
        let plain = try repository.add(name: "Plain")
        #expect(plain.created != nil && plain.completed == nil && plain.priority == TodoPriority.none)
    }

    @Test func doneSetsTheCompletedTimeAndUndoneClearsIt() throws {
        let repository = try makeRepository()
        let todo = try repository.add(name: "a")
        #expect(try repository.setDone(true, ids: [todo.id], now: noon).first?.completed == noon)
        #expect(
            try repository.setDone(true, ids: [todo.id], now: later).first?.completed == noon,
            "marking a done todo done again keeps when it was done")
        #expect(try repository.setDone(false, ids: [todo.id], now: later).first?.completed == nil)
        let updated = try repository.update(id: todo.id, now: later) { $0.isDone = true }
        #expect(updated.completed == later)
        #expect(try repository.update(id: todo.id, now: noon) { $0.isDone = false }.completed == nil)
    }

    @Test func updateChangesTheDetailsAndUndoRestoresThem() throws {
        let repository = try makeRepository()
        let todo = try repository.add(TodoFields(name: "a", tags: tags("+x")))
        _ = try repository.recordingUndo("edit") { () throws(TodoStoreError) in
            try repository.update(id: todo.id) {
                $0.priority = .low
                $0.tags.insert(TodoTag("@y")!)
                $0.note = "n"
            }
        }
        let edited = try #require(try repository.todo(id: todo.id))
        #expect(edited.priority == .low && edited.tags.storage == "+x @y" && edited.note == "n")
        _ = try repository.undo()
        #expect(try repository.todo(id: todo.id) == todo)
        #expect(throws: TodoStoreError.notFound(ids: [99])) { try repository.update(id: 99) { $0.note = "x" } }
        #expect(throws: TodoStoreError.emptyName) { try repository.update(id: todo.id) { $0.name = " " } }
        #expect(try repository.todo(id: todo.id) == todo)
    }

    @Test func tagAndPriorityFiltersCombineWithEveryOtherFilter() throws {
        let repository = try makeRepository()
        try repository.add(TodoFields(name: "report", priority: .high, tags: tags("+work", "@office")))
        try repository.add(TodoFields(name: "gym", priority: .low, tags: tags("+workout")))
        try repository.add(TodoFields(name: "email", priority: TodoPriority(rawValue: 3)!, tags: tags("@Work")))
        try repository.add(TodoFields(name: "milk", isDone: true, tags: tags("+home")))
        try repository.add(TodoFields(name: "call", tags: tags("+Straße")))
        func names(_ configure: (inout TodoFetchRequest) -> Void) throws -> [String] {
            var request = TodoFetchRequest(order: .name)
            configure(&request)
            return try repository.fetch(request).map(\.name)
        }
        #expect(try names { $0.tags = [TodoTag("work")!] } == ["email", "report"], "never +workout")
        #expect(try names { $0.tags = [TodoTag("work")!, TodoTag("office")!] } == ["report"], "every tag given")
        #expect(try names { $0.tags = [TodoTag("STRASSE")!] } == ["call"])
        #expect(try names { $0.priorities = [TodoPriority.Level.high.values] } == ["email", "report"])
        #expect(try names { $0.priorities = [0...0] } == ["call", "milk"])
        #expect(try names { $0.priorities = [1...4, 6...9] } == ["email", "gym", "report"])
        #expect(
            try names {
                $0.tags = [TodoTag("work")!]
                $0.priorities = [1...2]
            } == ["report"])
        #expect(
            try names {
                $0.tags = [TodoTag("home")!]
                $0.filter = .undone
            } == [])
        var tagged = TodoFetchRequest()
        tagged.tags = [TodoTag("work")!]
        #expect(try repository.count(tagged) == 2)
    }

    @Test func thePriorityOrderIsHighestFirstNoneLastAndPagesAsItSorts() throws {
        let repository = try makeRepository()
        var generator = SeededGenerator(seed: TestSeed.make("thePriorityOrderIsHighestFirstNoneLastAndPagesAsItSorts"))
        for index in 0..<120 {
            let priority = TodoPriority(rawValue: Int.random(in: 0...9, using: &generator))!
            let deadline = Bool.random(using: &generator) ? CalendarDate("2026-12-\(10 + index % 15)") : nil
            try repository.add(TodoFields(name: "t\(index)", deadline: deadline, priority: priority))
        }
        let request = TodoFetchRequest(order: .priority)
        let all = try repository.fetch(request)
        #expect(all == all.sorted(by: TodoFetchRequest.Order.priority.areInIncreasingOrder), "SQL and Swift agree")
        #expect(all.first?.priority.rawValue == 1 || all.allSatisfy { $0.priority.rawValue != 1 })
        #expect(all.last?.priority == TodoPriority.none)
        let cursor = try repository.cursor(request)
        var paged: [Todo] = []
        while try !cursor.read(upTo: 7, into: &paged) {}
        #expect(paged == all, "keyset pages give the same order")
    }

    @Test func aVersionSixFileUpgradesKeepingItsTodosAndOtherClientsStillInsertByName() throws {
        let path = folder.file("old.sqlite")
        do {
            let connection = try Connection(path: path)
            for migration in Migration.embedded.prefix(6) { try connection.execute(migration.sql) }
            try connection.execute("PRAGMA user_version = 6")
            try connection.execute("INSERT INTO todos (name, deadline, done) VALUES ('old', '2024-05-01', 1)")
            try connection.execute("INSERT INTO todo_history (command, changeset) VALUES ('add', x'00')")
        }
        let repository = try TodoRepository(path: path)
        #expect(
            try repository.todo(id: 1)
                == Todo(id: 1, TodoFields(name: "old", deadline: CalendarDate("2024-05-01"), isDone: true)))
        #expect(try repository.connection.prepare("SELECT count(*) FROM todo_history").scalarInt64() == 0)
        try repository.connection.execute("INSERT INTO todos(name) VALUES ('from the shell')")
        let shell = try #require(try repository.todo(id: 2))
        #expect(shell.priority == TodoPriority.none && shell.tags.isEmpty && shell.note == nil && shell.created == nil)
        #expect(throws: (any Error).self) { try repository.connection.execute("UPDATE todos SET priority = 10") }
        #expect(throws: (any Error).self) {
            try repository.connection.execute("UPDATE todos SET created = 'yesterday'")
        }
    }
}
