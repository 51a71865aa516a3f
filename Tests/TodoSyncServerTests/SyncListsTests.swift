import Foundation
import TestSupport
import Testing

/// Lists and `todo sync` (issue 35): the collection holds one list (the one set up, the first
/// list for a database from before lists), and the other lists stay on the device. Before lists,
/// every todo of the database went to the collection, so a list kept only here was not possible.
@Suite(.timed) struct SyncListsTests {
    @Test(arguments: SyncCLITests.kinds) func theCollectionHoldsOneListAndTheOthersStayHere(kind: CalDAVServer.Kind)
        throws
    {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        let laptop = SyncDevice(server)
        try laptop.ok("add", "Milk")
        try laptop.ok("lists", "new", "Personal")
        try laptop.ok("add", "Diary", "--list", "Personal")
        try laptop.setUp()
        #expect(try laptop.sync()["sent"] as? Int == 1)
        #expect(try server.todosSeenByPython(server.todoCollectionURL).map { $0["summary"] ?? "" } == ["Milk"])

        // The default list is no longer the synced one: what the server brings still lands in it.
        try laptop.ok("lists", "default", "Personal")
        try laptop.ok("add", "Journal")
        try server.python(
            server.todoCollectionURL,
            """
            cal.save_todo('''BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Phone//Tasks//EN
            BEGIN:VTODO
            UID:phone-eggs
            DTSTAMP:20240101T090000Z
            SUMMARY:Eggs
            END:VTODO
            END:VCALENDAR
            ''')
            """)
        let second = try laptop.sync()
        #expect(second["received"] as? Int == 1 && second["sent"] as? Int == 0)
        #expect(try listOf("Eggs", laptop) == "Todos")
        #expect(try listOf("Journal", laptop) == "Personal")

        // A todo moved out of the synced list leaves the collection and stays here; one moved in
        // goes to it.
        try laptop.ok("move", "\(try laptop.id(named: "Milk"))", "--to", "Personal")
        try laptop.ok("move", "\(try laptop.id(named: "Diary"))", "--to", "Todos")
        let third = try laptop.sync()
        #expect(third["sent"] as? Int == 2)
        #expect(
            Set(try server.todosSeenByPython(server.todoCollectionURL).map { $0["summary"] ?? "" }) == ["Eggs", "Diary"]
        )
        #expect(try listOf("Milk", laptop) == "Personal")
        let again = try laptop.sync()
        #expect(again["sent"] as? Int == 0 && again["received"] as? Int == 0)

        // The synced list is not removed without saying what becomes of its collection.
        let refused = try laptop.todo("lists", "rm", "Todos", "--move-to", "Personal")
        #expect(
            refused.status == 1 && refused.stderr.contains("--delete-remote")
                && refused.stderr.contains("--keep-remote"),
            "\(refused.stderr)")
        #expect(try laptop.ok("lists").contains("synced with"))
    }

    /// `todo sync setup --to LIST` links the collection to that list; set up again, it keeps
    /// the list it holds; pointed at another list, it is refused unless --relink.
    @Test func setupLinksTheListItIsToldAndKeepsIt() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let laptop = SyncDevice(server)
        try laptop.ok("add", "Milk")
        try laptop.ok("lists", "new", "Personal")
        try laptop.ok("add", "Diary", "--list", "Personal")
        var setup = ["sync", "setup", laptop.url, "--to", "personal"]
        if let user = laptop.user { setup += ["--user", user] }
        #expect(try laptop.todo(setup).status == 0)
        #expect(try laptop.sync()["sent"] as? Int == 1)
        #expect(try server.todosSeenByPython(server.todoCollectionURL).map { $0["summary"] ?? "" } == ["Diary"])
        let status = try parseJSON(try laptop.ok("sync", "status", "--json"), as: [String: Any].self)
        #expect(status["list"] as? String == "Personal")
        // Again without --to: still Personal, nothing to send.
        try laptop.setUp()
        #expect(try laptop.sync()["sent"] as? Int == 0)
        // Another list for the same collection would take Diary for deleted here: refused.
        let other = try laptop.todo(Array(setup.prefix(3)) + ["--to", "Todos"] + Array(setup.dropFirst(5)))
        #expect(other.status == 1, "\(other.stderr)")
        #expect(other.stderr.contains("holds the list 'Personal'") && other.stderr.contains("--relink"))
        #expect(try laptop.sync()["sent"] as? Int == 0)
        #expect(try server.todosSeenByPython(server.todoCollectionURL).map { $0["summary"] ?? "" } == ["Diary"])
    }

    /// Issue 35, point 2: a move keeps every line another app wrote. Moved out of the synced
    /// list, the object leaves the collection; moved back, it is written again from its last
    /// text (kept since its delete), not made anew from `todo`'s own fields.
    @Test(arguments: SyncCLITests.kinds) func aTodoMovedOutAndBackKeepsWhatThePhoneWrote(kind: CalDAVServer.Kind)
        throws
    {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        let laptop = SyncDevice(server)
        try server.python(
            server.todoCollectionURL,
            """
            cal.save_todo('''BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Apple Inc.//Reminders//EN
            BEGIN:VTODO
            UID:phone-passport
            DTSTAMP:20240101T090000Z
            SUMMARY:Renew passport
            URL:https://example.org/passport
            CLASS:PRIVATE
            X-APPLE-SORT-ORDER:42
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:Renew passport
            TRIGGER:-PT1H
            END:VALARM
            END:VTODO
            END:VCALENDAR
            ''')
            """)
        try laptop.ok("lists", "new", "Personal")
        try laptop.setUp()
        #expect(try laptop.sync()["received"] as? Int == 1)
        let id = "\(try laptop.id(named: "Renew passport"))"
        try laptop.ok("move", id, "--to", "Personal")
        try laptop.sync()
        #expect(try server.todosSeenByPython(server.todoCollectionURL).isEmpty)
        try laptop.ok("edit", id, "--name", "Renew passport now")
        try laptop.ok("move", id, "--to", "Todos")
        #expect(try laptop.sync()["sent"] as? Int == 1)
        let seen = try #require(try server.todosSeenByPython(server.todoCollectionURL).first)
        #expect(seen["uid"] == "phone-passport" && seen["summary"] == "Renew passport now")
        for kept in ["URL:https://example.org/passport", "CLASS:PRIVATE", "X-APPLE-SORT-ORDER:42", "TRIGGER:-PT1H"] {
            #expect(seen["text"]?.contains(kept) == true, "\(kept) was lost: \(seen["text"] ?? "")")
        }
    }

    /// A collection deleted on the server deletes nothing here (Tasks.org deletes them:
    /// tasks/tasks#2716): the list is marked gone, with one warning line naming it, its todos
    /// and what to do, and is no longer synced; `todo lists` and `todo sync status` say so.
    @Test(arguments: SyncCLITests.kinds) func aCollectionGoneFromTheServerKeepsItsTodosHere(kind: CalDAVServer.Kind)
        throws
    {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        let laptop = SyncDevice(server)
        try laptop.ok("add", "Milk")
        try laptop.ok("add", "Eggs")
        try laptop.setUp()
        #expect(try laptop.sync()["sent"] as? Int == 2)
        _ = try server.python(server.todoCollectionURL, "cal.delete()")
        let before = try laptop.dump("todos")
        let result = try laptop.todo("sync", "--json")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].hasPrefix("warning: "), "\(result.stderr)")
        for part in [
            "'Todos' is gone", "its 2 todos stay here", "'todo lists rm Todos'", "'todo sync setup URL --to Todos'"
        ] {
            #expect(result.stderr.contains(part), "\(part): \(result.stderr)")
        }
        let gone = try parseJSON(result.stdout, as: [String: Any].self)["lists"] as? [String: Any]
        let entry = (gone?["gone"] as? [[String: Any]])?.first
        #expect(entry?["list"] as? String == "Todos" && entry?["todos"] as? Int == 2, "\(result.stdout)")
        #expect(entry?["url"] as? String == server.todoCollectionURL)
        #expect(try laptop.dump("todos") == before)
        #expect(try laptop.ok("lists").contains("its collection is gone from the server"))
        let status = try parseJSON(laptop.ok("sync", "status", "--json"), as: [String: Any].self)
        #expect(status["gone"] as? Bool == true, "\(status)")
        // Said once; nothing is made again on the server, nothing deleted here.
        let again = try laptop.todo("sync")
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(try laptop.names().sorted() == ["Eggs", "Milk"])
        #expect(try server.request("GET", server.todoCollectionURL).status == 404, "not made again")
    }

    /// Issue 35: one account, several lists. Another collection of the account set up is one
    /// more list (made with its name); `todo sync` syncs every list; a move here deletes the
    /// object from the old collection and writes it, with the same UID, to the new one; a move
    /// made by a phone while the laptop edited the todo ends with the todo in the new list only,
    /// the edit kept, its id kept (point 3: it ended in both lists).
    @Test(arguments: SyncCLITests.kinds) func everyListOfTheAccountSyncsAndMovesKeepOneObject(kind: CalDAVServer.Kind)
        throws
    {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        let household = server.todoCollectionURL
        let personal = try server.makeCollection(name: "Personal", components: ["VTODO"])
        func put(_ uid: String, _ summary: String, into url: String) throws {
            _ = try server.python(
                url,
                "cal.save_todo('BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//Phone//EN\\r\\nBEGIN:VTODO\\r\\nUID:\(uid)\\r\\n"
                    + "DTSTAMP:20240101T090000Z\\r\\nSUMMARY:\(summary)\\r\\nX-PHONE:kept\\r\\nEND:VTODO\\r\\nEND:VCALENDAR\\r\\n')"
            )
        }
        func summaries(_ url: String) throws -> Set<String> {
            Set(try server.todosSeenByPython(url).map { $0["summary"] ?? "" })
        }
        try put("phone-eggs", "Eggs", into: household)
        try put("phone-diary", "Diary", into: personal)
        let laptop = SyncDevice(server)
        try laptop.ok("add", "Milk")
        try laptop.setUp()
        let user = laptop.user.map { ["--user", $0] } ?? []
        let added = try laptop.todo(["sync", "setup", server.base + "/"] + user + ["--name", "Personal"])
        #expect(added.status == 0 && added.stdout.contains("the list 'Personal'"), "\(added.stdout) \(added.stderr)")
        let first = try laptop.sync()
        #expect(first["received"] as? Int == 2 && first["sent"] as? Int == 1, "\(first)")
        #expect(try listOf("Eggs", laptop) == "Todos" && listOf("Diary", laptop) == "Personal")
        // With several lists syncing, each change names its list.
        let changes = first["changes"] as? [[String: Any]] ?? []
        #expect(changes.first { $0["name"] as? String == "Diary" }?["list"] as? String == "Personal", "\(changes)")
        #expect(try laptop.ok("lists").contains("synced with \(personal)"))

        // Moved here: deleted there first, then written here, with its UID.
        let milk = "\(try laptop.id(named: "Milk"))"
        let uid = try parseJSON(laptop.ok("show", milk, "--json"), as: [String: Any].self)["uid"] as? String
        try laptop.ok("move", milk, "--to", "Personal")
        #expect(try laptop.sync()["sent"] as? Int == 2)
        #expect(try summaries(household) == ["Eggs"] && summaries(personal) == ["Diary", "Milk"])
        #expect(try server.todosSeenByPython(personal).first { $0["summary"] == "Milk" }?["uid"] == uid)

        // Moved by the phone (deleted from Household, written to Personal) while edited here.
        let eggs = "\(try laptop.id(named: "Eggs"))"
        _ = try server.python(
            household,
            """
            import caldav as c
            t = [t for t in cal.todos(include_completed=True) if 'phone-eggs' in t.data][0]
            text = t.data
            t.delete()
            c.Calendar(client=client, url='\(personal)').save_todo(text)
            """)
        try laptop.ok("edit", eggs, "--name", "Eggs x12")
        let moved = try laptop.sync()
        #expect((moved["conflicts"] as? [Any])?.isEmpty == true && moved["moved"] as? Int == 1, "\(moved)")
        #expect(try laptop.id(named: "Eggs x12") == Int(eggs))
        #expect(try listOf("Eggs x12", laptop) == "Personal")
        #expect(try summaries(household).isEmpty, "the todo is in one list only")
        #expect(try summaries(personal) == ["Diary", "Milk", "Eggs x12"])
        #expect(
            try server.todosSeenByPython(personal).first { $0["summary"] == "Eggs x12" }?["text"]?.contains(
                "X-PHONE:kept") == true)
        let again = try laptop.sync()
        #expect(again["sent"] as? Int == 0 && again["received"] as? Int == 0 && again["deleted"] as? Int == 0)
    }

    /// `todo sync setup URL --all`: every task collection of the account, each with the list of
    /// its name (made where there is none), in one setup; the next sync brings each one's todos
    /// into its list.
    @Test(arguments: SyncCLITests.kinds) func setupAllLinksEveryCollectionToAListOfItsName(kind: CalDAVServer.Kind)
        throws
    {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        let personal = try server.makeCollection(name: "Personal", components: ["VTODO"])
        // Three collections, three companions: each must exit when done, though started while
        // the others ran (they inherited each other's pipes, and the sync waited for ever).
        try server.makeCollection(name: "Work", components: ["VTODO"])
        _ = try server.python(
            personal,
            "cal.save_todo('BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//Phone//EN\\r\\nBEGIN:VTODO\\r\\n"
                + "UID:phone-diary\\r\\nDTSTAMP:20240101T090000Z\\r\\nSUMMARY:Diary\\r\\nEND:VTODO\\r\\nEND:VCALENDAR\\r\\n')"
        )
        let laptop = SyncDevice(server)
        try laptop.ok("add", "Milk")
        let user = laptop.user.map { ["--user", $0] } ?? []
        let setup = try laptop.todo(["sync", "setup", server.base + "/"] + user + ["--all"])
        #expect(
            setup.status == 0 && setup.stdout.contains("  Personal: \(personal)"), "\(setup.stdout) \(setup.stderr)")
        let lists = try laptop.ok("lists", "--names").split(separator: "\n").map(String.init)
        #expect(
            lists.contains("Personal") && lists.contains("Work") && lists.count == 4,
            "Todos, Personal, Work and the server's first collection's: \(lists)")
        let first = try laptop.sync()
        // Milk's list has no collection of that name: the account follows every list, so it gets one.
        #expect(first["received"] as? Int == 1 && first["sent"] as? Int == 1, "\(first)")
        let made = (first["lists"] as? [String: Any])?["made"] as? [[String: Any]]
        #expect(made?.map { $0["list"] as? String } == ["Todos"], "\(first)")
        #expect(try listOf("Diary", laptop) == "Personal")
        // Again: as it is.
        let setupAgain = try laptop.todo(["sync", "setup", server.base + "/"] + user + ["--all"])
        #expect(setupAgain.status == 0, "\(setupAgain.stderr)")
        #expect(try laptop.ok("lists", "--names").split(separator: "\n").count == 4)
        #expect(try laptop.sync()["received"] as? Int == 0)

        // One list forgotten: its todos stay, nothing is deleted anywhere, the others sync on.
        let forgot = try laptop.todo(["sync", "forget", "Personal"])
        #expect(forgot.status == 0 && forgot.stdout.contains(personal), "\(forgot.stdout) \(forgot.stderr)")
        #expect(try !laptop.ok("lists").contains("synced with \(personal)"))
        #expect(try listOf("Diary", laptop) == "Personal")
        let after = try laptop.sync()
        #expect(after["sent"] as? Int == 0 && after["deleted"] as? Int == 0 && after["received"] as? Int == 0)
        #expect(try server.todosSeenByPython(personal).count == 1, "Diary stays on the server")
        let again = try laptop.todo(["sync", "forget", "Personal"])
        #expect(again.status == 1 && again.stderr.contains("does not sync"), "\(again.stderr)")
        // The remote's own list forgotten: another link becomes the remote's.
        let remoteList = try parseJSON(laptop.ok("sync", "status", "--json"), as: [String: Any].self)["list"] as? String
        #expect(try laptop.todo(["sync", "forget", remoteList ?? ""]).status == 0)
        let status = try parseJSON(laptop.ok("sync", "status", "--json"), as: [String: Any].self)
        let others = (status["other_lists"] as? [[String: Any]])?.compactMap { $0["list"] as? String } ?? []
        let remaining = Set([status["list"] as? String ?? ""] + others)
        #expect(
            remaining.count == 2 && !remaining.contains("Personal") && !remaining.contains(remoteList ?? ""),
            "\(status)")
        #expect(try laptop.sync()["deleted"] as? Int == 0)
    }

    /// Issue 35, point 3 with a real client: todoman 4.1 moves a task to its other list
    /// (`todoman move`), vdirsyncer 0.19 carries the move to the server as a delete from one
    /// collection and a create in the other; `todo`, which edited the todo meanwhile, keeps it
    /// as one todo (its id) in the new list with the edit, and the server holds it once. A move
    /// made here reaches todoman's list the same way.
    @Test(arguments: SyncCLITests.kinds) func aMoveMadeInTodomanKeepsTheTodoItsIdAndTheEdit(kind: CalDAVServer.Kind)
        throws
    {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        let personal = try server.makeCollection(name: "Personal", components: ["VTODO"])
        let home = personal.dropLast("Personal/".count)
        let laptop = SyncDevice(server)
        try laptop.setUp()
        try laptop.ok("lists", "new", "Personal")
        let user = laptop.user.map { ["--user", $0] } ?? []
        let linked = try laptop.todo(["sync", "setup", personal, "--to", "Personal"] + user)
        #expect(linked.status == 0, "\(linked.stderr)")
        // A list emptied by a move would be refused by vdirsyncer (as `todo` refuses a
        // collection that suddenly lists nothing): each keeps one.
        try laptop.ok("add", "Milk")
        try laptop.ok("add", "Bread")
        try laptop.ok("add", "Diary", "--list", "Personal")
        try laptop.ok("add", "Letters", "--list", "Personal")
        #expect(try laptop.sync()["sent"] as? Int == 4)

        let household = try #require(URL(string: server.todoCollectionURL)?.lastPathComponent)
        let todoman = try Todoman(
            url: String(home), user: laptop.user, password: laptop.password, collections: [household, "Personal"])
        let tasks = try todoman.list()
        #expect(Set(tasks.compactMap { $0["list"] as? String }) == [household, "Personal"], "\(tasks)")
        let milk = try #require(tasks.first { $0["summary"] as? String == "Milk" }?["id"] as? Int)
        try todoman.run(["/usr/bin/todoman", "move", "--list", "Personal", "\(milk)"])
        try todoman.vdirsyncer("sync")

        let id = try laptop.id(named: "Milk")
        try laptop.ok("edit", "\(id)", "--name", "Milk 2l")
        let moved = try laptop.sync()
        #expect(moved["moved"] as? Int == 1 && (moved["conflicts"] as? [Any])?.isEmpty == true, "\(moved)")
        #expect(try laptop.id(named: "Milk 2l") == id && listOf("Milk 2l", laptop) == "Personal")
        #expect(try server.todosSeenByPython(server.todoCollectionURL).compactMap { $0["summary"] } == ["Bread"])
        #expect(
            try server.todosSeenByPython(personal).compactMap { $0["summary"] }.sorted() == [
                "Diary", "Letters", "Milk 2l"
            ])

        // Moved here: todoman's list follows after vdirsyncer's next sync.
        try laptop.ok("move", "\(try laptop.id(named: "Diary"))", "--to", "Todos")
        #expect(try laptop.sync()["sent"] as? Int == 2)
        try todoman.vdirsyncer("sync")
        let after = try todoman.list()
        #expect(after.first { $0["summary"] as? String == "Diary" }?["list"] as? String == household, "\(after)")
        #expect(after.filter { $0["summary"] as? String == "Diary" }.count == 1)
    }

    private func listOf(_ name: String, _ device: SyncDevice) throws -> String? {
        let todos = try parseJSON(try device.ok("list", "--json"), as: [[String: Any]].self)
        return todos.first { $0["name"] as? String == name }?["list"] as? String
    }
}
