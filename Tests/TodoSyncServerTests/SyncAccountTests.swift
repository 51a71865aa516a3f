import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One account, every list (issue 35): `todo sync setup` of an account links every collection
/// that holds todos (or those `--only` names), and each `todo sync` lists the account's calendar
/// home once to follow what the phone did to its collections (made, renamed, recoloured,
/// deleted) and to skip the lists with nothing to do. Against real servers, the phone's
/// collections and objects made by raw HTTP.
@Suite(.timed) struct SyncAccountTests {
    /// A VTODO the phone writes into the collection at `url` by a plain PUT.
    static func put(_ server: CalDAVServer, _ uid: String, _ summary: String, into url: String) throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20240101T090000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let status = try server.request(
            "PUT", url + uid + ".ics", body: Data(text.utf8), headers: ["Content-Type": "text/calendar; charset=utf-8"]
        ).status
        #expect((200..<300).contains(status), "PUT \(uid): \(status)")
    }

    /// `todo lists --json` of `device`, by name.
    static func lists(_ device: SyncDevice) throws -> [String: [String: Any]] {
        let lists = try parseJSON(try device.ok("lists", "--json"), as: [[String: Any]].self)
        return Dictionary(lists.map { ($0["name"] as? String ?? "", $0) }) { first, _ in first }
    }

    /// The account's lists in a sync's JSON (`"lists"`).
    static func account(_ report: [String: Any]) -> [String: [[String: Any]]] {
        (report["lists"] as? [String: Any] ?? [:]).mapValues { $0 as? [[String: Any]] ?? [] }
    }

    /// A no-op `todo sync` of an account with five lists is one request (the home's PROPFIND),
    /// and no more companions than that; a change there, or here, costs that list's requests alone.
    /// On main, it was one REPORT per list.
    @Test func aSyncWithNothingToDoIsOneRequestWhateverTheLists() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        var urls = [server.todoCollectionURL]
        for index in 2...5 {
            urls.append(
                try server.makeCollection(name: "List \(index)", components: ["VTODO"], segment: "list\(index)"))
        }
        for (index, url) in urls.enumerated() { try Self.put(server, "phone-\(index)", "Todo \(index)", into: url) }
        let laptop = SyncDevice(server, url: proxy.base + "/")
        let setup = try laptop.todo(["sync", "setup", proxy.base + "/", "--user", "alice"])
        #expect(
            setup.status == 0 && setup.stdout.hasPrefix("Set up sync of 5 lists"), "\(setup.stdout) \(setup.stderr)")
        #expect(try laptop.sync()["received"] as? Int == 5)
        try laptop.sync()

        let (idle, requests) = try proxy.recording { try laptop.sync() }
        #expect(idle["sent"] as? Int == 0 && idle["received"] as? Int == 0)
        #expect(requests.map { "\($0.method) \($0.path)" } == ["PROPFIND /alice/"], "\(requests.map(\.path))")

        // The phone changes one collection: its list alone is read.
        try Self.put(server, "phone-new", "New there", into: urls[2])
        let (changed, read) = try proxy.recording { try laptop.sync() }
        #expect(changed["received"] as? Int == 1)
        let paths = Set(read.map(\.path)).subtracting(["/alice/"])
        #expect(!paths.isEmpty && paths.allSatisfy { $0.hasPrefix("/alice/list3/") }, "\(read.map(\.path))")

        // A change here: that list's collection alone is written (and read back).
        try laptop.ok("add", "Here", "--list", "List 5")
        let (sent, written) = try proxy.recording { try laptop.sync() }
        #expect(sent["sent"] as? Int == 1)
        let touched = Set(written.map(\.path)).subtracting(["/alice/"])
        #expect(!touched.isEmpty && touched.allSatisfy { $0.hasPrefix("/alice/list5/") }, "\(written.map(\.path))")
        let (_, after) = try proxy.recording { try laptop.sync() }
        #expect(after.count <= 2, "our own write, listed once at most: \(after.map(\.path))")
        let (_, last) = try proxy.recording { try laptop.sync() }
        #expect(last.map(\.method) == ["PROPFIND"], "\(last.map(\.path))")
    }
}

extension SyncAccountTests {
    /// The account follows what the phone does to its collections: setup links each to the list
    /// of its name (a list of this device matched under case folding); a collection made on the
    /// phone is a list at the next sync, with its todos and colour; renamed or recoloured there,
    /// here too (a name another list has gets ` (2)`); renamed on both sides, this side's is
    /// kept and the conflict said. On main, setup refused several collections and the home was
    /// never listed.
    /// A collection's state is its content (Xandikos's is a git tree): a todo made here, then
    /// deleted by the phone, puts the collection back in the state the home listed before the
    /// sync that sent it. That sync wrote, so it records no state to be idle in, and the next
    /// sync asks the collection and deletes the todo here too (it stayed here for good when the
    /// state listed before the write was taken for one this device was in step with).
    @Test(arguments: SyncCLITests.kinds) func aTodoMadeHereThenDeletedThereIsNotSkipped(kind: CalDAVServer.Kind)
        throws
    {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        let laptop = SyncDevice(server)
        try laptop.ok("add", "Keep me")
        try laptop.setUp()
        try laptop.sync()
        try laptop.sync()
        try laptop.ok("add", "Buy milk")
        #expect(try laptop.sync()["sent"] as? Int == 1)
        let milk = try #require(
            try server.todosSeenByPython(server.todoCollectionURL).first { $0["summary"] == "Buy milk" }?["uid"])
        let deleted = try server.request("DELETE", server.todoCollectionURL + milk + ".ics")
        #expect((200..<300).contains(deleted.status), "DELETE \(milk): \(deleted.status)")
        let report = try laptop.sync()
        #expect(report["deleted"] as? Int == 1, "\(report)")
        #expect(try laptop.ok("list", "--all").contains("Buy milk") == false)
    }

    /// The phone moves the last todo out of a list: its collection now lists nothing, which with
    /// one list is refused (a server that lost its objects), but here the todo is in another
    /// collection of the account, so the sync takes the move (it was refused, "the server lists
    /// no todos", until the user chose --force-delete).
    @Test(arguments: SyncCLITests.kinds) func theLastTodoMovedOutOfAListIsAMoveNotAnEmptiedServer(
        kind: CalDAVServer.Kind
    ) throws {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        let personal = try server.makeCollection(name: "Personal", components: ["VTODO"])
        try Self.put(server, "phone-milk", "Milk", into: server.todoCollectionURL)
        try Self.put(server, "phone-diary", "Diary", into: personal)
        let laptop = SyncDevice(server)
        let user = laptop.user.map { ["--user", $0] } ?? []
        let setup = try laptop.todo(["sync", "setup", String(personal.dropLast("Personal/".count))] + user)
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(try laptop.sync()["received"] as? Int == 2)
        // As the apps move it: deleted there, written here with its UID and every line.
        let diary = try server.request("GET", personal + "phone-diary.ics")
        #expect(try server.request("DELETE", personal + "phone-diary.ics").status < 300)
        let put = try server.request(
            "PUT", server.todoCollectionURL + "phone-diary.ics", body: diary.body,
            headers: ["Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"])
        #expect(put.status < 300)
        let id = try laptop.id(named: "Diary")
        let report = try laptop.sync()
        #expect(report["moved"] as? Int == 1 && report["deleted"] as? Int == 0, "\(report)")
        #expect(try laptop.id(named: "Diary") == id)
        let lists = try Self.lists(laptop)
        #expect(lists["Personal"]?["undone"] as? Int == 0 && lists["Personal"]?["synced"] as? Bool == true, "\(lists)")
        #expect(try laptop.sync()["sent"] as? Int == 0)
    }

    @Test(arguments: SyncCLITests.kinds) func theAccountFollowsWhatThePhoneDoesToItsCollections(
        kind: CalDAVServer.Kind
    ) throws {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        let personal = try server.makeCollection(name: "Personal", components: ["VTODO"], color: "#FF0000FF")
        try Self.put(server, "phone-diary", "Diary", into: personal)
        let laptop = SyncDevice(server)
        try laptop.ok("lists", "new", "personal")
        try laptop.ok("add", "Passport", "--list", "personal")
        let user = laptop.user.map { ["--user", $0] } ?? []
        let setup = try laptop.todo(["sync", "setup", server.base + "/"] + user)
        #expect(
            setup.status == 0 && setup.stdout.contains("  personal: \(personal)"), "\(setup.stdout) \(setup.stderr)")
        let first = try laptop.sync()
        #expect(first["received"] as? Int == 1 && first["sent"] as? Int == 1, "\(first)")
        #expect(try Self.lists(laptop)["personal"]?["synced"] as? Bool == true)

        // Made on the phone, with a todo: a list of its name and colour, its todo in it.
        let groceries = try server.makeCollection(
            name: "Groceries", components: ["VTODO"], segment: "groceries", color: "#2E7D32FF")
        try Self.put(server, "phone-eggs", "Eggs", into: groceries)
        let made = try laptop.todo("sync", "--json", "--changes")
        #expect(made.status == 0, "\(made.stderr)")
        let madeReport = try parseJSON(made.stdout, as: [String: Any].self)
        #expect(madeReport["received"] as? Int == 1, "\(made.stdout)")
        #expect(Self.account(madeReport)["linked"]?.first?["list"] as? String == "Groceries", "\(made.stdout)")
        #expect(Self.account(madeReport)["linked"]?.first?["url"] as? String == groceries)
        let lists = try Self.lists(laptop)
        #expect(lists["Groceries"]?["undone"] as? Int == 1)
        // Xandikos answers an extended MKCOL with 201 and keeps no colour from it (LISTS.md 4.2).
        #expect(lists["Groceries"]?["color"] as? String == (kind == .radicale ? "#2E7D32" : nil), "\(lists)")
        let text = try laptop.todo("sync", "--changes")
        #expect(text.status == 0 && text.stdout == "sent 0, received 0, deleted 0, conflicts 0\n", "\(text.stdout)")

        // Renamed and recoloured there: here too; to a name another list has, with " (2)".
        #expect((200..<300).contains(try server.proppatch(groceries, name: "Shopping", color: "#112233")))
        #expect((200..<300).contains(try server.proppatch(personal, name: "todos")))
        let renamed = try laptop.todo("sync", "--changes")
        #expect(renamed.status == 0, "\(renamed.stderr)")
        for line in [
            "~ list Groceries → Shopping  (from the server)", "~ list Shopping: #112233  (from the server)",
            "~ list personal → todos (2)  (from the server)"
        ] {
            #expect(renamed.stdout.contains(line), "\(line): \(renamed.stdout)")
        }
        #expect(try Self.lists(laptop)["Shopping"]?["color"] as? String == "#112233")
        #expect(try Self.lists(laptop)["todos (2)"]?["undone"] as? Int == 2)

        // Renamed on both sides: this side's name is kept, the conflict said once.
        try laptop.ok("lists", "rename", "Shopping", "Errands")
        #expect((200..<300).contains(try server.proppatch(groceries, name: "Market")))
        let both = try laptop.todo("sync")
        #expect(both.status == 0, "\(both.stderr)")
        #expect(
            both.stdout.contains("conflicts 1")
                && both.stdout.contains("conflict: list 'Errands' name: kept \"Errands\", replaced \"Market\""),
            "\(both.stdout)")
        #expect(try Self.lists(laptop)["Errands"] != nil)
        let quiet = try laptop.sync()
        #expect((quiet["conflicts"] as? [Any])?.isEmpty == true, "\(quiet)")
    }

    /// `--only NAME` links those collections (names as --name matches them); the others are left
    /// alone, not mentioned; one made later is mentioned once, with the command that links it,
    /// and that command links it. A name that matches none: an error, nothing stored.
    @Test func setupOnlyLinksThoseNamedAndANewCollectionIsMentionedOnce() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let work = try server.makeCollection(name: "Work", components: ["VTODO"])
        let home = try server.makeCollection(name: "Home", components: ["VTODO"])
        try Self.put(server, "phone-tax", "Tax return", into: server.todoCollectionURL)
        let laptop = SyncDevice(server)
        let account = ["sync", "setup", server.base + "/", "--user", "alice"]
        let nothing = try laptop.todo(account + ["--only", "Work", "--only", "Garden"])
        #expect(nothing.status == 1 && nothing.stderr.contains("no collection that holds todos is named 'Garden'"))
        #expect(try laptop.todo("sync", "status").status == 1, "nothing stored")
        let usage = try laptop.todo(account + ["--only", "Work", "--name", "Home"])
        #expect(usage.status == 2 && usage.stderr.hasPrefix("error: "), "\(usage.stderr)")

        let setup = try laptop.todo(account + ["--only", "work", "--only", "Home"])
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(
            setup.stdout.contains("  Work: \(work)") && setup.stdout.contains("  Home: \(home)")
                && setup.stdout.contains("1 other collection is left alone (tasks)"), "\(setup.stdout)")
        let first = try laptop.todo("sync")
        #expect(
            first.status == 0 && first.stderr.isEmpty, "the collection left alone is not mentioned: \(first.stderr)")
        #expect(try laptop.names().isEmpty, "tasks' todo stays there")

        let garden = try server.makeCollection(name: "Garden", components: ["VTODO"])
        try Self.put(server, "phone-seeds", "Seeds", into: garden)
        let found = try laptop.todo("sync", "--json")
        let command = "todo sync setup \(garden) --user alice"
        #expect(
            found.status == 0
                && found.stderr == "note: the server has a new collection 'Garden' (\(garden)), "
                    + "not synced here; '\(command)' syncs it as a list of its name\n",
            "\(found.stderr)")
        let entry = Self.account(try parseJSON(found.stdout, as: [String: Any].self))["found"]?.first
        #expect(entry?["name"] as? String == "Garden" && entry?["command"] as? String == command, "\(found.stdout)")
        let again = try laptop.todo("sync")
        #expect(again.status == 0 && again.stderr.isEmpty, "mentioned once: \(again.stderr)")

        #expect(try laptop.todo(command.split(separator: " ").dropFirst().map(String.init)).status == 0)
        #expect(try laptop.sync()["received"] as? Int == 1)
        #expect(try Self.lists(laptop)["Garden"]?["undone"] as? Int == 1)
    }

    /// Cyrus (collections by MKCALENDAR, colour per user, Inbox and Outbox in the home): the
    /// account's calendars become lists, one made on the phone is linked, renamed there it is
    /// renamed here, and deleted there its list is kept, gone.
    @Test func cyrusCalendarsMadeRenamedAndDeletedOnThePhone() throws {
        let cyrus = try CyrusServer.start(users: ["alice": "secret"])
        defer { cyrus.stop() }
        let home = cyrus.base + "/dav/calendars/user/alice/"
        func phone(_ method: String, _ url: String, _ body: String? = nil) throws -> Int {
            var request = URLRequest(url: try #require(URL(string: url)), timeoutInterval: 10)
            request.httpMethod = method
            request.httpBody = body.map { Data($0.utf8) }
            request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.setValue(
                "Basic " + Data("alice:secret".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
            return try CalDAVServer.perform(request).status
        }
        func mkcalendar(_ segment: String, _ name: String) throws -> String {
            let url = home + segment + "/"
            let body =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><C:mkcalendar xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\">"
                + "<D:set><D:prop><D:displayname>\(name)</D:displayname><C:supported-calendar-component-set>"
                + "<C:comp name=\"VTODO\"/></C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>"
            #expect(try phone("MKCALENDAR", url, body) == 201)
            return url
        }
        let work = try mkcalendar("Work", "Work")
        let laptop = DiscoveryTests.Device()
        let setup = try laptop.todo(["sync", "setup", home, "--user", "alice"])
        #expect(setup.status == 0 && setup.stdout.contains("Set up sync of 2 lists"), "\(setup.stdout) \(setup.stderr)")
        #expect(try laptop.todo(["add", "Slides", "--list", "Work"]).status == 0)
        #expect(try laptop.todo(["sync"]).status == 0)

        let garden = try mkcalendar("garden", "Garden")
        let renamed =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop>"
            + "<D:displayname>Office</D:displayname></D:prop></D:set></D:propertyupdate>"
        #expect((200..<300).contains(try phone("PROPPATCH", work, renamed)))
        let sync = try laptop.todo(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.stderr) \(cyrus.log)")
        let report = Self.account(try parseJSON(sync.stdout, as: [String: Any].self))
        #expect(report["linked"]?.map { $0["url"] as? String } == [garden], "\(sync.stdout)")
        #expect(report["renamed"]?.first?["to"] as? String == "Office", "\(sync.stdout)")

        #expect((200..<300).contains(try phone("DELETE", work)))
        let gone = try laptop.todo(["sync"])
        #expect(gone.status == 0 && gone.stderr.contains("'Office' is gone from the server; its todo stays here"))
        let names = try parseJSON(try laptop.todo(["list", "--json"]).stdout, as: [[String: Any]].self)
        #expect(names.map { $0["name"] as? String } == ["Slides"], "nothing deleted here")

        // A list made here, once it holds a todo: a calendar of its own on Cyrus, with its todo.
        #expect(try laptop.todo(["lists", "new", "Errands"]).status == 0)
        #expect(try laptop.todo(["add", "Stamps", "--list", "Errands"]).status == 0)
        let made = try laptop.todo(["sync", "--json"])
        let madeReport = try parseJSON(made.stdout, as: [String: Any].self)
        let url = try #require(
            Self.account(madeReport)["made"]?.first?["url"] as? String, "\(made.stdout) \(made.stderr)")
        #expect(url.hasPrefix(home) && madeReport["sent"] as? Int == 1, "\(made.stdout)")
        let reader = DiscoveryTests.Device()
        #expect(try reader.setUp([url, "--user", "alice"]) == url)
        #expect(try reader.todo(["sync"]).status == 0)
        #expect(try reader.todo(["list"]).stdout.contains("Stamps"))
    }

    /// The displayname and colour of the collection at `url`, as a phone reads them (a raw
    /// PROPFIND); `nil` for a collection that answers 404.
    static func properties(_ server: CalDAVServer, _ url: String) throws -> (name: String?, color: String?)? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:" xmlns:A="http://apple.com/ns/ical/">\
            <D:prop><D:displayname/><A:calendar-color/></D:prop></D:propfind>
            """
        let answer = try server.request(
            "PROPFIND", url, body: Data(body.utf8), headers: ["Depth": "0", "Content-Type": "application/xml"])
        let text = String(decoding: answer.body, as: UTF8.self)
        guard answer.status == 207, !text.contains(" 404 ") else { return nil }
        func value(_ name: String) -> String? {
            guard let range = text.range(of: name + ">"), let end = text[range.upperBound...].range(of: "</") else {
                return nil
            }
            let value = String(text[range.upperBound..<end.lowerBound])
            return value.isEmpty ? nil : value
        }
        return (value("displayname"), value("calendar-color"))
    }

    /// A list made here gets a collection of its own once it holds a todo (a fresh database's
    /// empty default list does not), with its name and colour; renamed and recoloured here, so is
    /// the collection; renamed on both sides, this side's name goes there; removed, its collection
    /// is deleted or kept as asked (a pipe without an answer changes nothing). On main a list
    /// made here stayed on this device.
    @Test(arguments: SyncCLITests.kinds) func aListMadeHereGetsACollectionAndItsChangesReachTheServer(
        kind: CalDAVServer.Kind
    ) throws {
        let server = try SyncCLITests.start(kind)
        defer { server.stop() }
        try server.makeCollection(name: "Work", components: ["VTODO"])
        let laptop = SyncDevice(server)
        let user = laptop.user.map { ["--user", $0] } ?? []
        #expect(try laptop.todo(["sync", "setup", server.base + "/"] + user).status == 0)
        try laptop.ok("lists", "new", "Groceries", "#2E7D32")
        let empty = try laptop.sync()
        #expect(Self.account(empty)["made"]?.isEmpty == true, "empty lists are not made: \(empty)")

        try laptop.ok("add", "Eggs", "--list", "Groceries")
        let made = try laptop.todo("sync", "--json", "--changes")
        let report = try parseJSON(made.stdout, as: [String: Any].self)
        let url = try #require(Self.account(report)["made"]?.first?["url"] as? String, "\(made.stdout) \(made.stderr)")
        #expect(url.hasPrefix(server.base + server.homePath()) && report["sent"] as? Int == 1, "\(made.stdout)")
        #expect(try Self.properties(server, url)?.name == "Groceries")
        #expect(try server.todosSeenByPython(url).map { $0["summary"] ?? "" } == ["Eggs"])
        #expect(try laptop.sync()["sent"] as? Int == 0)

        // Renamed and recoloured here: there too.
        try laptop.ok("lists", "rename", "Groceries", "Shopping")
        try laptop.ok("lists", "color", "Shopping", "#112233")
        let sent = try laptop.todo("sync", "--changes")
        #expect(
            sent.stdout.contains("~ list Shopping  (sent)") && sent.stdout.contains("~ list Shopping: #112233  (sent)"),
            "\(sent.stdout) \(sent.stderr)")
        let there = try Self.properties(server, url)
        #expect(
            there?.name == "Shopping" && there?.color?.uppercased().hasPrefix("#112233") == true,
            "\(String(describing: there))")
        // Renamed on both sides: this side's name is kept, and sent.
        try laptop.ok("lists", "rename", "Shopping", "Errands")
        #expect((200..<300).contains(try server.proppatch(url, name: "Market")))
        let both = try laptop.todo("sync")
        #expect(
            both.stdout.contains("conflict: list 'Errands' name: kept \"Errands\", replaced \"Market\""),
            "\(both.stdout)")
        #expect(try Self.properties(server, url)?.name == "Errands")

        // Removed: a pipe must say what becomes of the collection; deleted there as asked.
        let asked = try laptop.todo("lists", "rm", "Errands", "--delete-todos")
        #expect(asked.status == 1 && asked.stderr.contains("--delete-remote"), "\(asked.stderr)")
        #expect(try Self.properties(server, url) != nil && Self.lists(laptop)["Errands"] != nil, "nothing changed")
        let removed = try laptop.todo("lists", "rm", "Errands", "--delete-todos", "--delete-remote")
        #expect(removed.status == 0 && removed.stdout.contains("Deleted \(url)"), "\(removed.stdout) \(removed.stderr)")
        #expect(try Self.properties(server, url) == nil)
        // Kept there: no longer synced, not linked again.
        let work = try #require(try Self.lists(laptop)["Work"])
        #expect(work["synced"] as? Bool == true)
        try laptop.ok("add", "Slides", "--list", "Work")
        try laptop.sync()
        try laptop.ok("lists", "default", "Todos")
        let kept = try laptop.todo("lists", "rm", "Work", "--delete-todos", "--keep-remote", "--yes")
        #expect(kept.status == 0, "\(kept.stderr)")
        let quiet = try laptop.todo("sync", "--json")
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(Self.account(try parseJSON(quiet.stdout, as: [String: Any].self)).values.allSatisfy(\.isEmpty))
        #expect(try Self.lists(laptop)["Work"] == nil)
        #expect(try server.todosSeenByPython(server.base + server.homePath() + "Work/").count == 1, "kept there")
    }
}

extension SyncAccountTests {
    /// The home's listing is the server's word like any answer: members outside the home (another
    /// origin, a `..` path) are never taken or asked for; subscriptions, inboxes, Nextcloud's
    /// deleted calendars and calendars without VTODO are no lists; a display name with control
    /// characters makes a list name without them, and reaches the terminal escaped.
    @Test func aHostileHomeListingChangesOnlyWhatItMayAndPrintsNothingRaw() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        try server.makeCollection(name: "Work", components: ["VTODO"])
        let proxy = try MisbehavingProxy(server)
        let laptop = SyncDevice(server, url: proxy.base + "/")
        #expect(try laptop.todo(["sync", "setup", proxy.base + "/", "--user", "alice"]).status == 0)
        try laptop.sync()
        func response(_ href: String, _ type: String, name: String = "x", comps: String = "") -> String {
            "<D:response><D:href>\(href)</D:href><D:propstat><D:prop><D:resourcetype><D:collection/>\(type)"
                + "</D:resourcetype><D:displayname>\(name)</D:displayname>\(comps)</D:prop>"
                + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
        }
        let todos = "<C:supported-calendar-component-set><C:comp name=\"VTODO\"/></C:supported-calendar-component-set>"
        let body =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:multistatus xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\""
            + " xmlns:CS=\"http://calendarserver.org/ns/\" xmlns:NC=\"http://nextcloud.com/ns\">"
            + response("/alice/", "")
            + response("/alice/tasks/", "<C:calendar/>", name: "tasks", comps: todos)
            + response("/alice/Work/", "<C:calendar/>", name: "Work", comps: todos)
            + response("http://evil.example/alice/stolen/", "<C:calendar/>", name: "Stolen", comps: todos)
            + response("/alice/../bob/tasks/", "<C:calendar/>", name: "Bob", comps: todos)
            + response("/alice/feed/", "<CS:subscribed/>", name: "Feed")
            + response("/alice/inbox/", "<C:schedule-inbox/>", name: "Inbox")
            + response("/alice/old/", "<NC:deleted-calendar/>", name: "Old", comps: todos)
            + response(
                "/alice/events/", "<C:calendar/>", name: "Events",
                comps:
                    "<C:supported-calendar-component-set><C:comp name=\"VEVENT\"/></C:supported-calendar-component-set>"
            )
            + response("/alice/evil/", "<C:calendar/>", name: "-&#x9B;31mEvil&#x202E;&#10;error: forged", comps: todos)
            + "</D:multistatus>"
        try proxy.set(.answer(kind: "propfind", code: 207, body: body, nth: 1))
        let result = try laptop.todo("sync", "--changes")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(
            !output.unicodeScalars.contains { $0 == "\u{9B}" || $0 == "\u{202E}" }
                && !output.contains("\nerror: forged"),
            "\(output)")
        let lists = try Self.lists(laptop)
        #expect(Set(lists.keys) == ["Todos", "tasks", "Work", "31mEvil  error: forged"], "\(lists.keys)")
        // The made-up collection is not there: its list is gone at once, kept, and said once.
        #expect(result.stderr.contains("'31mEvil  error: forged' is gone from the server"), "\(result.stderr)")
        #expect(!proxy.requests.contains { $0.path.contains("stolen") || $0.path.contains("bob") })
        try proxy.set(.pass)
        let after = try laptop.todo("sync")
        #expect(after.status == 0 && after.stderr.isEmpty, "\(after.stderr)")
    }
}
