import Foundation
import TestSupport
import Testing

/// Issue 39: the ways devices diverged or a delete came back, found by a soak, each replayed
/// deterministically on Radicale and on Xandikos. The phone is plain HTTP, as an app writes.
@Suite(.timed, .hangLimit) struct SyncFaultTests {
    static func server(_ kind: String) throws -> CalDAVServer {
        kind == "radicale" ? try CalDAVServer.radicale() : try CalDAVServer.xandikos()
    }

    /// `sql` run by the sqlite3 shell on `device`'s database; its output.
    @discardableResult
    static func sqlite(_ device: SyncDevice, _ sql: String) throws -> String {
        let result = try ProcessRunner.run("sqlite3", [device.database, sql])
        #expect(result.status == 0, "sqlite3: \(result.stderr)")
        return result.stdout
    }

    /// A laptop that added `todos` (reaching `server` through `proxy` when one is given) and a
    /// phone, both set up and synced, the laptop first: where most of these tests start.
    static func laptopAndPhone(_ server: CalDAVServer, through proxy: MisbehavingProxy? = nil, adding todos: [String])
        throws -> (laptop: SyncDevice, phone: SyncDevice)
    {
        let laptop = proxy.map { SyncDevice($0) } ?? SyncDevice(server)
        let phone = SyncDevice(server)
        for todo in todos { try laptop.ok("add", todo) }
        for device in [laptop, phone] { try device.setUp() }
        try laptop.sync()
        try phone.sync()
        return (laptop, phone)
    }

    /// The phone: the object at `href` read, changed by `change`, and written back if it is
    /// still at the ETag read (as a careful app does).
    /// A sync of `device` that sends one object and never reads back what the server stored:
    /// the proxy leaves the written object out of the multiget that follows the write.
    static func syncSendingOneWithoutItsReadBack(_ device: SyncDevice, through proxy: MisbehavingProxy) throws {
        try proxy.set(.multigetDrop(.drop, only: "calendar-multiget"))
        let (report, requests) = try proxy.recording { try device.sync() }
        try proxy.set(.pass)
        #expect(report["sent"] as? Int == 1, "\(report)")
        #expect(
            requests.contains { $0.kind == "calendar-multiget" && !$0.affected.isEmpty }, "the read-back was left out")
    }

    static func phoneRewrites(_ server: CalDAVServer, _ href: String, _ change: (String) -> String) throws {
        let got = try server.request("GET", server.base + href)
        #expect(got.status == 200, "GET \(href): \(got.status)")
        let etag = try #require(got.headers["etag"], "GET \(href) gave no ETag")
        let put = try server.request(
            "PUT", server.base + href, body: Data(change(String(decoding: got.body, as: UTF8.self)).utf8),
            headers: ["Content-Type": "text/calendar; charset=utf-8", "If-Match": etag])
        #expect((200..<300).contains(put.status), "PUT \(href): \(put.status)")
    }

    /// 1. A phone that only reorders a todo's categories changed nothing: no device sends the
    /// object back, and when the phone then deletes it, every device deletes it too, with no
    /// conflict (an edit never made must not beat the delete).
    @Test(arguments: ["radicale", "xandikos"])
    func reorderedCategoriesAreNoChangeAndTheDeleteStands(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let laptop = SyncDevice(server)
        let desktop = SyncDevice(server)
        try laptop.ok("add", "X thing")
        try laptop.ok("add", "Keep me")  // a collection left empty is another story (serverEmpty)
        try Self.sqlite(laptop, "UPDATE todos SET tags = '+work +urgent +home' WHERE name = 'X thing'")
        try laptop.setUp()
        try desktop.setUp()
        try laptop.sync()
        try desktop.sync()
        let href = try Self.sqlite(laptop, "SELECT href FROM sync_items WHERE name = 'X thing'")
            .trimmingCharacters(in: .whitespacesAndNewlines)

        try Self.phoneRewrites(server, href) { text in
            #expect(text.contains("CATEGORIES:work,urgent,home"), "\(text)")
            return text.replacingOccurrences(of: "CATEGORIES:work,urgent,home", with: "CATEGORIES:home,urgent,work")
        }
        let desktopSync = try desktop.sync()
        #expect(desktopSync["sent"] as? Int == 0, "nothing changed, nothing to send back: \(desktopSync)")
        #expect((desktopSync["conflicts"] as? [Any])?.isEmpty == true)

        let deleted = try server.request("DELETE", server.base + href)
        #expect((200..<300).contains(deleted.status), "DELETE: \(deleted.status)")
        for device in [laptop, desktop] {
            let report = try device.sync()
            #expect((report["conflicts"] as? [Any])?.isEmpty == true, "no edit was made: \(report)")
            #expect(report["deleted"] as? Int == 1, "\(report)")
            #expect(try device.summary() == ["Keep me|null|0"])
            #expect(try device.sync()["sent"] as? Int == 0)
        }
        #expect(try server.listSeenByPython(server.todoCollectionURL) == ["Keep me|null|0"])
    }

    /// 2. An `rm` whose delete reached the server, then `todo undo`, while another device marked
    /// the todo done and brought it back (its edit beats the delete): the restored todo keeps
    /// its UID, so there is one "Buy oat milk" on the server and on every device.
    @Test(arguments: ["radicale", "xandikos"])
    func undoingASyncedDeleteKeepsTheTodosIdentity(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let (laptop, phone) = try Self.laptopAndPhone(server, adding: ["Buy oat milk", "Keep me"])
        let uid = try Self.sqlite(laptop, "SELECT uid FROM todo_uids WHERE todo_id = 1")

        try laptop.ok("rm", "--yes", "1")
        #expect(try laptop.sync()["sent"] as? Int == 1, "the delete reached the server")
        try phone.ok("done", "\(try phone.id(named: "Buy oat milk"))")
        let brought = try phone.sync()
        #expect((brought["conflicts"] as? [[String: Any]])?.first?["field"] as? String == "deleted", "\(brought)")
        try laptop.ok("undo")
        #expect(try Self.sqlite(laptop, "SELECT uid FROM todo_uids WHERE todo_id = 1") == uid, "the same UID")
        try laptop.sync()
        try phone.sync()
        try laptop.sync()
        for device in [laptop, phone] {
            #expect(try device.summary() == ["Buy oat milk|null|1", "Keep me|null|0"], "no duplicate")
        }
        #expect(try laptop.list() == phone.list())
        #expect(
            try server.listSeenByPython(server.todoCollectionURL) == ["Buy oat milk|null|1", "Keep me|null|0"])
    }

    /// 3. A write that reached the server but whose answer was lost (the connection cut in the
    /// answer's head) is this device's own when the next sync finds it there: a todo deleted
    /// here meanwhile stays deleted, and a change undone here meanwhile is sent again. The
    /// user's last action stands on every device.
    @Test(arguments: ["radicale", "xandikos"])
    func aWriteWhoseAnswerWasLostIsNotTakenForTheServersChange(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        defer { proxy.stop() }
        let laptop = SyncDevice(proxy)
        let phone = SyncDevice(server)
        try laptop.ok("add", "Buy milk")
        try laptop.ok("add", "Pay rent")
        try laptop.ok("done", "2")
        try laptop.ok("add", "Keep me")
        try laptop.setUp()
        try phone.setUp()

        // Every first PUT is stored, its answer cut: the sync fails, the server holds all three.
        try proxy.set(.cut(kind: "put", at: .head))
        #expect(try laptop.todo("sync").status == 1)
        try proxy.set(.pass)
        #expect(try server.listSeenByPython(server.todoCollectionURL).count == 3)
        try laptop.ok("rm", "--yes", "1")
        let first = try laptop.sync()
        #expect(first["received"] as? Int == 0 && (first["conflicts"] as? [Any])?.isEmpty == true, "\(first)")
        #expect(try laptop.summary() == ["Keep me|null|0", "Pay rent|null|1"], "the delete stands")

        // "Pay rent" marked undone, that PUT stored and its answer cut; then undone back to done.
        try laptop.ok("undone", "2")
        try proxy.set(.cut(kind: "put", at: .head))
        #expect(try laptop.todo("sync").status == 1)
        try proxy.set(.pass)
        try laptop.ok("undo")
        let second = try laptop.sync()
        #expect((second["conflicts"] as? [Any])?.isEmpty == true, "\(second)")
        #expect(try laptop.summary() == ["Keep me|null|0", "Pay rent|null|1"], "the last action here stands")
        try phone.sync()
        #expect(try phone.list() == laptop.list())
        #expect(try server.listSeenByPython(server.todoCollectionURL) == ["Keep me|null|0", "Pay rent|null|1"])
    }

    /// An edit here beats the phone's delete: the todo is sent again made from its last synced
    /// text, so the phone's alarm and its own X- lines come back with it (issue 34, point 5).
    @Test(arguments: ["radicale", "xandikos"])
    func anEditThatBeatsADeleteBringsBackTheWholeObject(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let phoneObject = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Apple Inc.//iOS 17.0//EN\r
            BEGIN:VTODO\r
            UID:reminder-7F3A\r
            DTSTAMP:20261120T080000Z\r
            SUMMARY:Renew passport\r
            X-APPLE-SORT-ORDER:783334495\r
            BEGIN:VALARM\r
            X-WR-ALARMUID:A1B2\r
            ACTION:DISPLAY\r
            DESCRIPTION:Reminder\r
            TRIGGER;VALUE=DATE-TIME:20261201T080000Z\r
            END:VALARM\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        #expect(try server.put("reminder-7F3A.ics", phoneObject) == 201)
        let keep = phoneObject.replacingOccurrences(of: "reminder-7F3A", with: "keep")
            .replacingOccurrences(of: "Renew passport", with: "Keep me")
        #expect(try server.put("keep.ics", keep) == 201)
        let laptop = SyncDevice(server)
        try laptop.setUp()
        try laptop.sync()
        let id = try laptop.id(named: "Renew passport")
        try laptop.ok("edit", "\(id)", "--name", "Renew the passport")
        let deleted = try server.request("DELETE", server.todoCollectionURL + "reminder-7F3A.ics")
        #expect((200..<300).contains(deleted.status), "DELETE: \(deleted.status)")
        let report = try laptop.sync()
        #expect((report["conflicts"] as? [[String: Any]])?.first?["field"] as? String == "deleted", "\(report)")
        let objects = try server.todosSeenByPython(server.todoCollectionURL)
        let back = try #require(objects.first { $0["uid"] == "reminder-7F3A" }?["text"], "\(objects)")
        #expect(back.contains("SUMMARY:Renew the passport"), "\(back)")
        for line in ["X-APPLE-SORT-ORDER:783334495", "X-WR-ALARMUID:A1B2", "TRIGGER;VALUE=DATE-TIME:20261201T080000Z"] {
            #expect(back.contains(line), "\(line) lost: \(back)")
        }
        #expect(try laptop.sync()["sent"] as? Int == 0)
    }

    /// An object as a phone app writes it: at `phone-<uid>.ics` (not `<uid>.ics`, as `todo` names
    /// its own), with an alarm and a property `todo` does not know.
    static func phoneObject(uid: String, summary: String) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//phone//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20240101T000000Z", "SUMMARY:\(summary)", "X-PHONE-LIST;X-ORDER=3:groceries", "BEGIN:VALARM",
            "ACTION:DISPLAY", "DESCRIPTION:reminder", "TRIGGER:-PT15M", "END:VALARM", "END:VTODO", "END:VCALENDAR", ""
        ].joined(separator: "\r\n")
    }

    /// 4. An object that moved (deleted at one href, its UID created at another, as a device
    /// does when its edit beats the delete of an object another app named) is the same todo: a
    /// device that finds both in one listing keeps it, as every other device and the server do.
    @Test(arguments: ["radicale", "xandikos"])
    func anObjectThatMovedToAnotherHrefIsKept(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let laptop = SyncDevice(server)
        let desktop = SyncDevice(server)
        let tablet = SyncDevice(server)
        #expect(try server.put("phone-buy-milk.ics", Self.phoneObject(uid: "buy-milk", summary: "Buy milk")) == 201)
        try laptop.ok("add", "Keep me")
        for device in [laptop, desktop, tablet] {
            try device.setUp()
            try device.sync()
        }
        try laptop.sync()
        try desktop.ok("done", "\(try desktop.id(named: "Buy milk"))")
        try laptop.ok("rm", "--yes", "\(try laptop.id(named: "Buy milk"))")
        #expect(try laptop.sync()["sent"] as? Int == 1, "the delete reached the server")
        let brought = try desktop.sync()
        #expect((brought["conflicts"] as? [[String: Any]])?.first?["field"] as? String == "deleted", "\(brought)")
        let moved = try tablet.sync()
        #expect(moved["deleted"] as? Int == 0, "\(moved)")
        #expect(try tablet.summary() == ["Buy milk|null|1", "Keep me|null|0"], "the todo that moved stays")
        try laptop.sync()
        for device in [laptop, tablet] { #expect(try device.list() == desktop.list()) }
        #expect(try server.listSeenByPython(server.todoCollectionURL) == ["Buy milk|null|1", "Keep me|null|0"])
    }

    /// 5. A todo sent again after its object was deleted there (an edit here that beat a delete;
    /// an `rm` undone after its delete was sent) is sent as the object it was, with every line
    /// another app wrote in it (here an alarm and an X- property), not rebuilt from its fields.
    @Test(arguments: ["radicale", "xandikos"])
    func aTodoSentAgainAfterItsDeleteKeepsWhatOtherAppsWrote(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let laptop = SyncDevice(server)
        #expect(try server.put("phone-buy-milk.ics", Self.phoneObject(uid: "buy-milk", summary: "Buy milk")) == 201)
        #expect(try server.put("phone-pay-rent.ics", Self.phoneObject(uid: "pay-rent", summary: "Pay rent")) == 201)
        try laptop.setUp()
        try laptop.sync()
        func object(_ uid: String) throws -> String {
            try #require(server.todosSeenByPython(server.todoCollectionURL).first { $0["uid"] == uid }?["text"])
        }
        func keepsWhatThePhoneWrote(_ uid: String) throws {
            let text = try object(uid).replacingOccurrences(of: "\r\n", with: "\n")
            #expect(text.contains("\nX-PHONE-LIST;X-ORDER=3:groceries\n"), "\(text)")
            #expect(
                text.contains("\nBEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:reminder\nTRIGGER:-PT15M\nEND:VALARM\n"),
                "\(text)")
        }

        // Edited here, deleted on the phone: the edit wins, and brings the whole object back.
        try laptop.ok("done", "\(try laptop.id(named: "Buy milk"))")
        #expect(
            (200..<300).contains(try server.request("DELETE", server.todoCollectionURL + "phone-buy-milk.ics").status))
        let brought = try laptop.sync()
        #expect((brought["conflicts"] as? [[String: Any]])?.first?["field"] as? String == "deleted", "\(brought)")
        try keepsWhatThePhoneWrote("buy-milk")

        // Deleted here and synced, then undone: the same object comes back whole.
        try laptop.ok("rm", "--yes", "\(try laptop.id(named: "Pay rent"))")
        #expect(try laptop.sync()["sent"] as? Int == 1)
        try laptop.ok("undo")
        #expect(try laptop.sync()["sent"] as? Int == 1)
        try keepsWhatThePhoneWrote("pay-rent")
        #expect(try laptop.summary() == ["Buy milk|null|1", "Pay rent|null|0"])
        #expect(try server.listSeenByPython(server.todoCollectionURL) == laptop.summary())
    }

    /// 6. A todo whose create reached the server but whose answer was lost (the connection cut
    /// in the answer's head), deleted there by the phone before the device synced again. The
    /// sync forgot its token before writing (a token names a state: Xandikos's next delta from
    /// it lists nothing, the collection being as it was), so the next one lists everything,
    /// and nothing tells that create from one that never landed: the todo is sent again, once
    /// (kept, never lost), on both servers.
    @Test(arguments: ["radicale", "xandikos"])
    func aCreateWhoseAnswerWasLostThenDeletedThere(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        defer { proxy.stop() }
        let laptop = SyncDevice(proxy)
        try laptop.ok("add", "Keep me")
        try laptop.setUp()
        try laptop.sync()
        try Self.sqlite(laptop, "INSERT INTO todos (name) VALUES ('Buy milk')")
        try proxy.set(.cut(kind: "put", at: .head))
        #expect(try laptop.todo("sync").status == 1)
        try proxy.set(.pass)
        let uid = try Self.sqlite(laptop, "SELECT uid FROM todo_uids WHERE todo_id = 2")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try server.listSeenByPython(server.todoCollectionURL) == ["Buy milk|null|0", "Keep me|null|0"])
        let deleted = try server.request("DELETE", server.todoCollectionURL + uid + ".ics")
        #expect((200..<300).contains(deleted.status), "DELETE: \(deleted.status)")
        let report = try laptop.sync()
        #expect((report["conflicts"] as? [Any])?.isEmpty == true, "\(report)")
        let expected = ["Buy milk|null|0", "Keep me|null|0"]
        #expect(report["deleted"] as? Int == 0 && report["sent"] as? Int == 1, "\(report)")
        #expect(try laptop.summary() == expected)
        #expect(try server.listSeenByPython(server.todoCollectionURL) == expected)
        #expect(try laptop.sync()["sent"] as? Int == 0)
    }

    /// 7. `todo undo` of an `rm` after a sync brought the todo back (another device's edit beat
    /// the delete) adds no second copy: the todo is back under its id, and the undo refuses.
    @Test(arguments: ["radicale", "xandikos"])
    func undoingAnRmAfterASyncBroughtTheTodoBackAddsNoCopy(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let (laptop, phone) = try Self.laptopAndPhone(server, adding: ["Buy milk", "Keep me"])
        try laptop.ok("rm", "--yes", "1")
        try phone.ok("done", "\(try phone.id(named: "Buy milk"))")
        try phone.sync()
        let brought = try laptop.sync()
        #expect((brought["conflicts"] as? [[String: Any]])?.first?["field"] as? String == "deleted", "\(brought)")
        #expect(try laptop.id(named: "Buy milk") == 1, "back under its id")
        let undo = try laptop.todo("undo")
        #expect(undo.status == 1, "the todo is back already: \(undo.stdout) \(undo.stderr)")
        try laptop.sync()
        try phone.sync()
        for device in [laptop, phone] { #expect(try device.summary() == ["Buy milk|null|1", "Keep me|null|0"]) }
        #expect(try server.listSeenByPython(server.todoCollectionURL) == ["Buy milk|null|1", "Keep me|null|0"])
    }

    /// 8. A sync whose last request fails (the listing that moves the token past its own
    /// writes, after everything was applied and sent) has done its work: it succeeds and
    /// reports its conflict, instead of one `error:` line that hides it.
    @Test(arguments: ["radicale", "xandikos"])
    func aSyncWhoseLastRequestFailsHasDoneItsWork(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        defer { proxy.stop() }
        let (laptop, phone) = try Self.laptopAndPhone(server, through: proxy, adding: ["Buy milk", "Keep me"])
        try laptop.sync()  // a listing with todos: its token is kept, the next sync starts from it
        try phone.ok("edit", "\(try phone.id(named: "Buy milk"))", "--name", "Buy oat milk")
        try phone.sync()
        try laptop.ok("edit", "1", "--name", "Buy soy milk")
        try laptop.ok("done", "2")
        try proxy.set(.status(kind: "sync-collection", code: 502, nth: 2))
        let (report, requests) = try proxy.recording { try laptop.sync() }
        try proxy.set(.pass)
        #expect(
            requests.contains { $0.kind == "sync-collection" && $0.status == 502 },
            "the fault was met: \(requests.map { "\($0.kind) \($0.status)" })")
        let conflicts = report["conflicts"] as? [[String: Any]] ?? []
        #expect(conflicts.map { $0["field"] as? String } == ["name"], "\(report)")
        #expect(report["sent"] as? Int == 1, "\(report)")
        try phone.sync()
        #expect(try phone.list() == laptop.list())
        #expect(try laptop.summary() == ["Buy oat milk|null|0", "Keep me|null|1"])
    }

    /// 9. A sync that fails after resolving a conflict (its PUT answered 500) tells of the
    /// conflict all the same, before its one `error:` line: as `conflict:` lines, and with
    /// `--json` as `"conflicts"` beside `"error"`.
    @Test(arguments: ["radicale", "xandikos"])
    func aSyncThatFailsAfterAConflictStillReportsIt(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        defer { proxy.stop() }
        let (laptop, phone) = try Self.laptopAndPhone(
            server, through: proxy, adding: ["Buy milk", "Pay rent", "Keep me"])
        for (name, renamed) in [("Buy milk", "Buy oat milk"), ("Pay rent", "Pay the rent")] {
            try phone.ok("edit", "\(try phone.id(named: name))", "--name", renamed)
        }
        try phone.sync()
        try laptop.ok("edit", "1", "--name", "Buy soy milk")
        try laptop.ok("edit", "2", "--name", "Pay rent now")
        try laptop.ok("done", "3")
        try proxy.set(.putFailNth(1))
        let text = try laptop.todo("sync")
        #expect(text.status == 1 && text.stderr.hasPrefix("error: "), "\(text.stderr)")
        #expect(
            text.stdout.split(separator: "\n").sorted() == [
                "conflict: todo 1 name: kept \"Buy oat milk\", replaced \"Buy soy milk\"",
                "conflict: todo 2 name: kept \"Pay the rent\", replaced \"Pay rent now\""
            ], "\(text.stdout)")
        try proxy.set(.pass)
        try phone.ok("edit", "\(try phone.id(named: "Pay the rent"))", "--name", "Pay the rent soon")
        try phone.sync()
        try laptop.ok("edit", "2", "--name", "Pay the rent today")
        try laptop.ok("edit", "3", "--note", "something to send")
        try proxy.set(.status(kind: "put", code: 500))
        let json = try laptop.todo("sync", "--json")
        try proxy.set(.pass)
        #expect(json.status == 1)
        let answer = try parseJSON(json.stdout, as: [String: Any].self, "todo sync --json")
        #expect((answer["error"] as? [String: Any])?["kind"] as? String == "server", "\(answer)")
        let conflicts = answer["conflicts"] as? [[String: Any]] ?? []
        #expect(conflicts.map { $0["replaced"] as? String } == ["Pay the rent today"], "\(answer)")
        try laptop.sync()
        try phone.sync()
        #expect(try phone.list() == laptop.list())
    }

    /// 10. A todo the sqlite3 shell marked undone without clearing its completed time has none
    /// (the time means "last marked done, while it is done"), on every device, even when the
    /// sync that sends the change never reads back what the server stored (the multiget that
    /// would have brought it leaves it out).
    @Test(arguments: ["radicale", "xandikos"])
    func aCompletedTimeLeftOnAnUndoneTodoIsNoneEverywhere(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        defer { proxy.stop() }
        let (laptop, phone) = try Self.laptopAndPhone(server, through: proxy, adding: ["Pay rent", "Keep me"])
        try laptop.ok("done", "1")
        try laptop.sync()
        try Self.sqlite(laptop, "UPDATE todos SET done = 0 WHERE id = 1")
        try Self.syncSendingOneWithoutItsReadBack(laptop, through: proxy)
        try laptop.sync()
        try phone.sync()
        #expect(try laptop.list() == phone.list())
        #expect(try laptop.summary() == ["Keep me|null|0", "Pay rent|null|0"])
    }

    /// 11. A todo the sqlite3 shell inserted (no created time, done with no completed time, a
    /// control character in its name) takes, as it is sent, what its object is given (the
    /// times, U+FFFD): every device agrees even when the read-back of the write is left out.
    @Test(arguments: ["radicale", "xandikos"])
    func aTodoAnotherProgramInsertedTakesWhatItsObjectWasGiven(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        defer { proxy.stop() }
        let (laptop, phone) = try Self.laptopAndPhone(server, through: proxy, adding: ["Keep me"])
        try Self.sqlite(laptop, "INSERT INTO todos (name, done) VALUES ('Pay' || char(7) || 'rent', 1)")
        try Self.syncSendingOneWithoutItsReadBack(laptop, through: proxy)
        try laptop.sync()
        try phone.sync()
        #expect(try laptop.list() == phone.list())
        #expect(try laptop.summary() == ["Keep me|null|0", "Pay\u{FFFD}rent|null|1"])
    }

    /// 12. A todo with no synced version here that meets its object merges against the last
    /// version both sides had, not none (where every difference is a conflict): a create whose
    /// answer was lost, then changed on the phone, takes the phone's change; a todo back by
    /// `todo undo` after another device's edit brought it back takes that edit. No conflict.
    @Test(arguments: ["radicale", "xandikos"])
    func aTodoWithoutASyncedVersionMergesAgainstTheLastOneBothSidesHad(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        defer { proxy.stop() }
        let (laptop, desktop) = try Self.laptopAndPhone(server, through: proxy, adding: ["Keep me"])
        try laptop.ok("add", "Buy milk")
        try proxy.set(.cut(kind: "put", at: .head))
        #expect(try laptop.todo("sync").status == 1)
        try proxy.set(.pass)
        let uid = try Self.sqlite(laptop, "SELECT uid FROM todo_uids WHERE todo_id = 2")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.phoneRewrites(server, server.todoCollectionPath + uid + ".ics") {
            $0.replacingOccurrences(of: "SUMMARY:Buy milk\r\n", with: "SUMMARY:Buy milk\r\nPRIORITY:1\r\n")
        }
        let first = try laptop.sync()
        #expect((first["conflicts"] as? [Any])?.isEmpty == true, "\(first)")
        try desktop.sync()
        try laptop.ok("rm", "--yes", "1")
        try laptop.sync()
        try desktop.ok("done", "\(try desktop.id(named: "Keep me"))")
        try desktop.sync()
        try laptop.ok("undo")
        let second = try laptop.sync()
        #expect((second["conflicts"] as? [Any])?.isEmpty == true, "\(second)")
        try desktop.sync()
        #expect(try laptop.list() == desktop.list())
        #expect(try laptop.summary() == ["Buy milk|null|0", "Keep me|null|1"])
        #expect(try parseJSON(laptop.ok("show", "2", "--json"), as: [String: Any].self)["priority"] as? Int == 1)
    }

    /// 13. A sync that could not take in everything the server listed (the multiget left one
    /// object out) took in the rest, new objects among them; one of those, deleted there before
    /// a sync completed, is gone here too. (Xandikos names nothing made and deleted since a
    /// token, so the token of the sync before could not have told: such a sync keeps none.)
    @Test(arguments: ["radicale", "xandikos"])
    func anObjectTakenInByAnIncompleteSyncThenDeletedThereGoesHere(kind: String) throws {
        let server = try Self.server(kind)
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        defer { proxy.stop() }
        let (laptop, _) = try Self.laptopAndPhone(server, through: proxy, adding: ["Keep me"])
        try laptop.sync()  // the token, after this device's own write
        for (uid, summary) in [("buy-milk", "Buy milk"), ("pay-rent", "Pay rent")] {
            #expect(try server.put("phone-\(uid).ics", Self.phoneObject(uid: uid, summary: summary)) == 201)
        }
        try proxy.set(.multigetDrop(.drop, only: "calendar-multiget"))
        let partial = try laptop.todo("sync")
        try proxy.set(.pass)
        #expect(partial.status == 0 && partial.stderr.contains("did not send"), "\(partial.stderr)")
        let taken = try laptop.summary().first { $0.hasPrefix("Buy milk") || $0.hasPrefix("Pay rent") }
        let name = try #require(taken.map { String($0.prefix { $0 != "|" }) }, "one of the two was taken in")
        let href = name == "Buy milk" ? "phone-buy-milk.ics" : "phone-pay-rent.ics"
        #expect((200..<300).contains(try server.request("DELETE", server.todoCollectionURL + href).status))
        try laptop.sync()
        let other = name == "Buy milk" ? "Pay rent" : "Buy milk"
        #expect(try laptop.summary() == ["Keep me|null|0", "\(other)|null|0"].sorted(), "the delete reached it")
        #expect(try server.listSeenByPython(server.todoCollectionURL) == laptop.summary())
    }
}
