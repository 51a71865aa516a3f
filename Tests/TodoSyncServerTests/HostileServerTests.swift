import Foundation
import TestSupport
import Testing

/// Issue 22: a sync never loses or changes a todo because of what a server says. Each test puts
/// a misbehaving proxy (``MisbehavingProxy``) between a device and a real Radicale, syncs a few
/// todos in `pass` mode, turns one fault on for a sync, checks what that sync did (an error that
/// changes nothing, or a warning that names what was skipped), then syncs in `pass` mode again
/// and checks that everything converged without duplicates.
@Suite(.timed, .hangLimit) struct HostileServerTests {
    static let names = ["Buy milk", "Pay rent", "Call mum", "Water the plants"]

    /// Radicale, a proxy in front of it (in `pass` mode), and a device syncing through the proxy
    /// with `names` added and synced.
    final class Stage {
        let server: CalDAVServer
        let proxy: MisbehavingProxy
        let device: SyncDevice

        init(_ names: [String] = HostileServerTests.names) throws {
            server = try CalDAVServer.radicale()
            proxy = try MisbehavingProxy(server)
            device = SyncDevice(proxy)
            for name in names { try device.ok("add", name) }
            try device.setUp()
            // Each sync reads the collection, where the faults are (with the home, a sync skips a
            // collection its listing shows unchanged: SyncAccountTests).
            try device.forgetHome()
            // Twice, as in daily use: the first sync's listing of an empty collection leaves no
            // token to keep, the second keeps one, so faults in sync-collection are met.
            try device.sync()
            try device.sync()
        }

        deinit {
            proxy.stop()
            server.stop()
        }

        /// The todos' ids here.
        func ids() throws -> Set<Int> {
            Set(try parseJSON(device.ok("list", "--json"), as: [[String: Any]].self).compactMap { $0["id"] as? Int })
        }

        /// Back in `pass` mode: a sync completes, no name is there twice, `count` todos are here,
        /// and another device syncing straight with the server, and python3-caldav, see the same list.
        func expectRecovery(count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
            try proxy.set(.pass)
            let result = try device.todo("sync", "--json")
            #expect(
                result.status == 0, "the sync in pass mode failed: \(result.stderr)", sourceLocation: sourceLocation)
            let names = try device.names()
            #expect(Set(names).count == names.count, "duplicates: \(names)", sourceLocation: sourceLocation)
            #expect(names.count == count, "\(names)", sourceLocation: sourceLocation)
            let other = SyncDevice(server)
            try other.setUp()
            try other.sync()
            let list = try device.list()
            #expect(try other.list() == list, sourceLocation: sourceLocation)
            #expect(
                try server.listSeenByPython(server.todoCollectionURL) == device.summary(),
                sourceLocation: sourceLocation)
        }
    }

    /// Exit status 1 and exactly one `error:` line on stderr, first, followed at most by one hint
    /// line that is no error. Returns the error line.
    @discardableResult
    static func expectOneError(
        _ result: ProcessResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        let lines = result.stderrLines
        #expect(
            result.status == 1,
            "\(what): exit \(result.status), stdout \(result.stdout.prefix(500)), stderr \(result.stderr.prefix(2_000))",
            sourceLocation: sourceLocation)
        #expect(
            lines.first?.hasPrefix("error: ") == true && lines.count <= 2
                && lines.dropFirst().allSatisfy { !$0.hasPrefix("error:") },
            "\(what): one error line (and a hint) expected: \(result.stderr.prefix(2_000))",
            sourceLocation: sourceLocation)
        return lines.first ?? ""
    }

    /// The stderr lines that start with `warning:`.
    static func warnings(_ result: ProcessResult) -> [String] { result.stderrLines.filter { $0.hasPrefix("warning:") } }

    // MARK: 0. The proxy itself

    /// In `pass` mode the proxy is transparent: two devices syncing through it add, edit and
    /// delete (every kind of request the helper makes goes through it) and end with what
    /// python3-caldav sees straight on the server; a sync with nothing to do is one request.
    @Test func aSyncThroughTheProxyInPassModeIsAPlainSync() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        defer { proxy.stop() }
        let laptop = SyncDevice(proxy)
        let phone = SyncDevice(proxy)
        for name in Self.names { try laptop.ok("add", name) }
        try laptop.setUp()
        try phone.setUp()
        #expect(try laptop.sync()["sent"] as? Int == Self.names.count)
        #expect(try phone.sync()["received"] as? Int == Self.names.count)
        try phone.ok("edit", "\(try phone.id(named: "Buy milk"))", "--name", "Buy oat milk")
        try phone.ok("done", "\(try phone.id(named: "Pay rent"))")
        try phone.ok("rm", "--yes", "\(try phone.id(named: "Call mum"))")
        #expect(try phone.sync()["sent"] as? Int == 3)
        let report = try laptop.sync()
        #expect(report["received"] as? Int == 2 && report["deleted"] as? Int == 1, "\(report)")
        #expect(try laptop.list() == phone.list())
        #expect(try laptop.summary() == server.listSeenByPython(server.todoCollectionURL))
        #expect(try laptop.summary() == ["Buy oat milk|null|0", "Pay rent|null|1", "Water the plants|null|0"])
        let (_, idle) = try proxy.recording { try laptop.sync() }
        #expect(idle.map(\.kind) == ["propfind"], "a sync with nothing to do is one request, the home's: \(idle)")

        let requests = proxy.requests
        #expect(
            Set(requests.map(\.kind)).isSuperset(of: [
                "propfind", "calendar-query", "sync-collection", "calendar-multiget", "put", "delete"
            ]),
            "\(Set(requests.map(\.kind)))")
        #expect(
            requests.allSatisfy { $0.mode == "pass" && $0.affected.isEmpty && $0.status < 500 },
            "\(requests.filter { $0.status >= 500 })")
        #expect(proxy.log.isEmpty, "the proxy printed: \(proxy.log)")
    }

    // MARK: 1. Listings that are wrong

    /// A server that lists nothing where todos were synced (a broken backend, a wiped account
    /// mid-migration) is an error that deletes nothing, until the user says so.
    @Test func anEmptyListingDeletesNothing() throws {
        let stage = try Stage()
        let device = stage.device
        let before = try device.dump()
        try stage.proxy.set(.emptyListing)
        let text = try device.todo("sync")
        let line = Self.expectOneError(text, "an empty listing")
        #expect(line.lowercased().contains("no todos"), "the error says that the server lists no todos: \(line)")
        #expect(try device.dump() == before, "the database is unchanged")

        let json = try device.todo("sync", "--json")
        #expect(json.status == 1, "exit \(json.status): \(json.stderr)")
        #expect(json.stdout.split(separator: "\n").count == 1, "one JSON line: \(json.stdout)")
        let object = try parseJSON(json.stdout, as: [String: Any].self, "todo sync --json (stderr \(json.stderr))")
        let error = try field(object, "error", as: [String: Any].self)
        #expect(object.count == 1)
        #expect(!(try field(error, "kind", as: String.self)).isEmpty)
        #expect(!(try field(error, "message", as: String.self)).isEmpty)
        #expect(try device.dump() == before, "the database is unchanged")

        try stage.expectRecovery(count: Self.names.count)

        // The user's explicit choice: the server's word is taken, the synced todos go.
        try stage.proxy.set(.emptyListing)
        let forced = try device.todo("sync", "--force-delete")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try device.names().isEmpty, "--force-delete deletes the synced todos here")
    }

    /// A 207 whose body holds no multistatus, for the incremental listing and for the full one
    /// (a device's first sync): one error, nothing changed.
    @Test(arguments: MisbehavingProxy.NotAList.allCases)
    func aListingWithoutAListChangesNothing(body: MisbehavingProxy.NotAList) throws {
        let stage = try Stage()
        let before = try stage.device.dump()
        try stage.proxy.set(.listingWithoutList(body))
        Self.expectOneError(try stage.device.todo("sync"), "sync-collection answered \(body)")
        #expect(try stage.device.dump() == before, "the database is unchanged")

        let fresh = SyncDevice(stage.proxy)
        try fresh.ok("add", "Not sent yet")
        try fresh.setUp()
        let freshBefore = try fresh.dump()
        Self.expectOneError(try fresh.todo("sync"), "calendar-query answered \(body)")
        #expect(try fresh.dump() == freshBefore, "the database is unchanged")

        try stage.expectRecovery(count: Self.names.count)
    }

    /// Objects the multiget leaves out (or answers without calendar data, or with garbage) are
    /// not deleted here: they are named in a warning and fetched by a later sync.
    @Test(arguments: MisbehavingProxy.MultigetFault.allCases)
    func aMultigetThatLeavesObjectsOutDeletesNothing(how: MisbehavingProxy.MultigetFault) throws {
        let stage = try Stage()
        let device = stage.device
        let ids = try stage.ids()
        // Another app renames three of the four, straight on the server.
        try stage.server.python(
            stage.server.todoCollectionURL,
            """
            for t in sorted(cal.todos(include_completed=True), key=lambda t: str(t.url))[:3]:
                c = t.icalendar_instance.walk('VTODO')[0]
                c['summary'] = str(c['summary']) + ' (phone)'
                t.save()
            """)
        try stage.proxy.set(.multigetDrop(how))
        let (result, requests) = try stage.proxy.recording { try device.todo("sync") }
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
        let spoiled = Set(requests.filter { $0.kind == "calendar-multiget" }.flatMap(\.affected))
        #expect(!spoiled.isEmpty, "the fault touched nothing: the test proves nothing")
        // What the sync fetched again one by one (GET is not spoiled) was delivered after all.
        let got = Set(
            requests.filter { $0.method == "GET" && $0.status == 200 }.map {
                $0.path.removingPercentEncoding ?? $0.path
            })
        let undelivered = spoiled.subtracting(got)
        #expect(try stage.ids() == ids, "no todo was deleted")
        let warnings = Self.warnings(result)
        for href in undelivered {
            let name = String(href.split(separator: "/").last ?? "")
            #expect(warnings.contains { $0.contains(name) }, "no warning names \(href): \(result.stderr)")
        }
        let renamed = try device.names().filter { $0.hasSuffix(" (phone)") }
        #expect(renamed.count == 3 - undelivered.count, "what was delivered is applied: \(renamed)")

        try stage.proxy.set(.pass)
        let rest = try device.todo("sync")
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(try device.names().filter { $0.hasSuffix(" (phone)") }.count == 3, "the rest came in pass mode")
        #expect(try device.summary() == stage.server.listSeenByPython(stage.server.todoCollectionURL))
        try stage.expectRecovery(count: Self.names.count)
    }

    /// A first sync of a collection of many todos fetches them with one calendar-query that asks
    /// for the objects, not in multiget batches (Xandikos looks each multiget href up in the whole
    /// collection: 10,000 todos took over 10 minutes); what that answer leaves out, or sends
    /// without its data, is multigot, and nothing is lost.
    @Test func aFirstSyncOfManyTodosIsOneQueryAndWhatItLeavesOutIsMultigot() throws {
        let stage = try Stage()
        let many = (1...150).map { "Todo number \($0)" }
        let file = stage.device.folder.file("many.txt")
        try Data((many.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        try stage.device.ok("import", "--from", "todotxt", file)
        #expect(try stage.device.sync()["sent"] as? Int == many.count)
        let all = try stage.device.list()
        #expect(all.count == Self.names.count + many.count)

        let fresh = SyncDevice(stage.proxy)
        try fresh.setUp()
        let (whole, requests) = try stage.proxy.recording { try fresh.sync() }
        #expect(whole["received"] as? Int == all.count, "\(whole)")
        #expect(
            requests.filter { $0.method == "REPORT" }.map(\.kind) == ["calendar-query", "calendar-query+data"],
            "\(requests.map(\.kind))")
        #expect(try fresh.list() == all)

        for how in [MisbehavingProxy.MultigetFault.drop, .strip] {
            let another = SyncDevice(stage.proxy)
            try another.setUp()
            try stage.proxy.set(.multigetDrop(how, only: "calendar-query+data"))
            let (report, requests) = try stage.proxy.recording { try another.sync() }
            #expect(report["received"] as? Int == all.count, "\(how): \(report)")
            let spoiled = requests.filter { $0.kind == "calendar-query+data" }.flatMap(\.affected)
            #expect(spoiled.count == (all.count + 1) / 2, "\(how): every other object spoiled: \(spoiled.count)")
            // The 77 left out are asked for again, in one multiget.
            #expect(requests.filter { $0.kind == "calendar-multiget" }.count == 1, "\(requests.map(\.kind))")
            #expect(try another.list() == all, "\(how): every todo came")
            try stage.proxy.set(.pass)
        }
    }

    // MARK: 2. Writes that go wrong

    /// A PUT answered 500 fails the sync; the next one sends what was not stored, and only that
    /// (no write refused with 412 because it was stored after all).
    @Test func aFailedPutIsSentAgainAndNothingElse() throws {
        let stage = try Stage(["Buy milk"])
        let device = stage.device
        let added = ["New 1", "New 2", "New 3", "New 4"]
        for name in added { try device.ok("add", name) }
        try stage.proxy.set(.putFailNth(2))
        let (failed, during) = try stage.proxy.recording { try device.todo("sync") }
        Self.expectOneError(failed, "the second PUT answered 500")
        #expect(during.contains { $0.method == "PUT" && $0.status == 500 }, "no PUT failed: the test proves nothing")
        let stored = during.filter { $0.method == "PUT" && (200..<300).contains($0.status) }.count

        try stage.proxy.set(.pass)
        let (report, after) = try stage.proxy.recording { try device.sync() }
        #expect(
            report["sent"] as? Int == added.count - stored,
            "sent what was not stored (\(added.count - stored)): \(report)")
        #expect(
            !after.contains { $0.status == 412 },
            "no write was refused: \(after.filter { $0.status == 412 }.map(\.path))")
        let seen = try stage.server.todosSeenByPython(stage.server.todoCollectionURL).map { $0["summary"] ?? "" }
        #expect(seen.sorted() == (["Buy milk"] + added).sorted(), "each once on the server")
        try stage.expectRecovery(count: 1 + added.count)
    }

    /// A server that stores something else than was sent (Cyrus trims trailing blanks from
    /// SUMMARY): what it stored comes back here, and nothing is sent again and again.
    @Test func whatTheServerStoredComesBack() throws {
        let stage = try Stage()
        let device = stage.device
        try device.ok("add", "trailing  ")
        #expect(try device.names().contains("trailing  "), "the name is kept as typed")
        try stage.proxy.set(.alterStored)
        let (sync, requests) = try stage.proxy.recording { try device.todo("sync") }
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(
            requests.contains { $0.method == "PUT" && !$0.affected.isEmpty },
            "nothing was altered: the test proves nothing")
        let names = try device.names()
        #expect(names.contains("trailing") && !names.contains("trailing  "), "the server's version is here: \(names)")
        let other = SyncDevice(stage.server)
        try other.setUp()
        try other.sync()
        #expect(try other.names().contains("trailing"))
        #expect(try other.list() == device.list())
        #expect(try device.sync()["sent"] as? Int == 0, "nothing is sent again")
        try stage.expectRecovery(count: Self.names.count + 1)
    }

    /// A server that says "truncated, ask again" forever: the sync gives up after a few rounds
    /// with an error, and changes nothing.
    @Test func endlessTruncationStopsAfterAFewRounds() throws {
        let stage = try Stage()
        let before = try stage.device.dump()
        try stage.proxy.set(.truncateForever)
        let (result, requests) = try stage.proxy.recording { try stage.device.todo("sync") }
        Self.expectOneError(result, "sync-collection truncated forever")
        let reports = requests.filter { $0.kind == "sync-collection" }.count
        #expect(reports <= 5, "\(reports) REPORT sync-collection in one sync")
        #expect(try stage.device.dump() == before, "the database is unchanged")
        try stage.expectRecovery(count: Self.names.count)
    }

    /// A full listing the server cut short (the collection at 507, RFC 4791 7.8.1), after it
    /// refused the token: what it lists is taken, nothing it leaves out is deleted here, one
    /// warning says so (exit 0), and in `pass` mode the next sync brings the rest.
    @Test func aListingCutShortDeletesNothingAndSaysSo() throws {
        let stage = try Stage()
        let fresh = SyncDevice(stage.proxy)
        try fresh.setUp()
        try stage.proxy.set(.truncateQuery)
        let warning = "warning: the server's listing was cut short (it said 507); the rest comes at the next sync\n"
        let known = try stage.device.todo("sync")
        #expect(known.status == 0 && known.stderr == warning, "\(known)")
        #expect(try stage.device.names().sorted() == Self.names.sorted(), "nothing deleted here")
        let new = try fresh.todo("sync")
        #expect(new.status == 0 && new.stderr == warning, "\(new)")
        let some = try fresh.names()
        #expect(!some.isEmpty && some.count < Self.names.count, "\(some)")
        try stage.proxy.set(.pass)
        try fresh.sync()
        #expect(try fresh.names().sorted() == Self.names.sorted(), "the rest came")
        try stage.expectRecovery(count: Self.names.count)
    }

    // MARK: 3. Objects that are hostile

    enum Monster: String, CaseIterable, Sendable {
        case nested, huge, garbage
        var object: MisbehavingProxy.InjectedObject {
            switch self {
            case .nested: .nested(depth: 50_000)
            case .huge: .huge(properties: 2_000_000)
            case .garbage: .garbage
            }
        }
    }

    /// An object 50,000 components deep, one of 2,000,000 properties, and garbage: skipped with a
    /// warning, no crash, and the rest syncs as usual.
    @Test(arguments: Monster.allCases) func aMonstrousObjectIsSkipped(monster: Monster) throws {
        let stage = try Stage()
        let device = stage.device
        let href = stage.server.todoCollectionPath + "monster-\(monster).ics"
        try device.ok("add", "Sent beside the monster")
        let before = try device.dump("todos")
        try stage.proxy.set(.injectObject(href: href, object: monster.object))
        let start = Date()
        let result = try device.todo("sync", "--json")
        let seconds = Date().timeIntervalSince(start)
        #expect(
            result.status == 0,
            "exit \(result.status) (a signal number such as 11 or 6: a crash): \(result.stderr.prefix(2_000))")
        let warnings = Self.warnings(result)
        #expect(
            warnings.count == 1 && warnings.first?.contains("monster-\(monster).ics") == true,
            "one warning naming \(href): \(result.stderr.prefix(2_000))")
        #expect(try device.dump("todos") == before, "the todos are unchanged")
        if result.status == 0 {
            #expect(
                try parseJSON(result.stdout, as: [String: Any].self)["sent"] as? Int == 1, "the other todo was sent")
        }
        #expect(
            try stage.server.todosSeenByPython(stage.server.todoCollectionURL).contains {
                $0["summary"] == "Sent beside the monster"
            })
        #expect(seconds < 45, "the sync took \(Int(seconds)) s")
        try stage.expectRecovery(count: Self.names.count + 1)
    }

    enum ForgedHref: String, CaseIterable, Sendable {
        /// A newline, ESC (which XML 1.0 forbids even as a character reference), CSI and RLO.
        case withEscape
        /// Only characters XML allows as references: a newline, CSI (U+009B) and RLO (U+202E).
        case validXML
        var name: String {
            switch self {
            case .withEscape: "evil\nerror: forged \u{1B}[31mred\u{1B}[0m \u{9B}2J \u{202E}gnp.ics"
            case .validXML: "evil\nerror: forged \u{9B}2J \u{202E}gnp.ics"
            }
        }
    }

    /// An href made to write to the user's terminal (a forged error line, escape sequences, a
    /// right-to-left override) is named in one warning, with nothing raw on stderr. With ESC in
    /// it the listing itself is not XML (XML 1.0 has no way to carry ESC): nothing of it can be
    /// believed, so the sync stops with one error line and changes nothing.
    @Test(arguments: ForgedHref.allCases) func aForgedHrefCannotWriteToTheTerminal(forged: ForgedHref) throws {
        let stage = try Stage()
        let href = stage.server.todoCollectionPath + forged.name
        try stage.proxy.set(.injectObject(href: href, object: .garbage))
        let before = try stage.device.dump()
        let result = try stage.device.todo("sync")
        let raw = result.stderr.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || $0.value == 0x9B || $0.value == 0x202E
        }
        #expect(raw.isEmpty, "raw control characters on stderr: \(result.stderr.debugDescription)")
        let lines = result.stderrLines
        #expect(!lines.contains { $0.hasPrefix("error: forged") }, "a forged line: \(result.stderr.debugDescription)")
        switch forged {
        case .withEscape:
            #expect(result.status == 1, "exit \(result.status): \(result.stderr.debugDescription)")
            #expect(lines.filter { $0.hasPrefix("error:") }.count == 1, "one error: \(result.stderr.debugDescription)")
            #expect(try stage.device.dump() == before)
        case .validXML:
            #expect(result.status == 0, "exit \(result.status): \(result.stderr.debugDescription)")
            #expect(
                lines.filter { $0.hasPrefix("warning:") }.count == 1, "one warning: \(result.stderr.debugDescription)")
            #expect(
                lines.contains { $0.hasPrefix("warning:") && $0.contains("evil") },
                "the warning names the object: \(result.stderr.debugDescription)")
        }
        try stage.expectRecovery(count: Self.names.count)
    }

    /// A real server (Radicale) stores a SUMMARY with an ESC character and serves it raw in its
    /// multiget XML, which makes that XML invalid: the todos still come, the odd one too, with
    /// one warning; the next sync is quiet.
    @Test func anObjectThatBreaksTheServersXMLIsStillRead() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        for (index, name) in ["One", "Two", "Three"].enumerated() {
            #expect(try server.put("normal-\(index).ics", vtodo("normal-\(index)", name)) == 201)
        }
        let odd = "odd \u{1B}[31m name"
        #expect(try server.put("odd.ics", vtodo("odd", odd)) == 201, "Radicale refused the ESC character")
        let device = SyncDevice(server)
        try device.setUp()
        let first = try device.todo("sync")
        #expect(first.status == 0, "exit \(first.status): \(first.stderr.debugDescription)")
        #expect(try device.names().sorted() == ["One", "Three", "Two", odd].sorted())
        #expect(try device.ok("list").contains("odd ^[[31m name"), "the name is shown escaped")
        let warnings = Self.warnings(first)
        #expect(
            warnings.count == 1 && warnings.first?.contains("odd.ics") == true,
            "one warning naming odd.ics: \(first.stderr.debugDescription)")
        let second = try device.todo("sync")
        #expect(
            second.status == 0 && Self.warnings(second).isEmpty,
            "the next sync is quiet: \(second.stderr.debugDescription)")
    }

    // MARK: 4. Reports the user can act on

    /// "Your edit was kept over a delete" names the todo as the user knows it: its id (the one
    /// deleted, which it comes back under) and its name.
    @Test func anEditKeptOverADeleteNamesTheTodo() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let laptop = SyncDevice(server)
        let phone = SyncDevice(server)
        try laptop.setUp()
        try phone.setUp()
        /// The laptop deletes `name` while the phone renames it to `renamed`; returns the
        /// laptop's sync (`--json` or text) and the todo's old id there.
        func deleteWhileRenamed(_ name: String, to renamed: String, json: Bool) throws -> (
            result: ProcessResult, oldID: Int
        ) {
            try laptop.ok("add", name)
            try laptop.sync()
            try phone.sync()
            try phone.ok("edit", "\(try phone.id(named: name))", "--name", renamed)
            try phone.sync()
            let oldID = try laptop.id(named: name)
            try laptop.ok("rm", "--yes", "\(oldID)")
            let result = try laptop.todo(json ? ["sync", "--json"] : ["sync"])
            #expect(result.status == 0, "\(result.stderr)")
            return (result, oldID)
        }

        let text = try deleteWhileRenamed("Buy milk", to: "Buy oat milk", json: false)
        #expect(try laptop.id(named: "Buy oat milk") == text.oldID, "back under its id")
        let line = text.result.stdout.split(separator: "\n").first { $0.hasPrefix("conflict:") }.map(String.init) ?? ""
        #expect(
            line
                == "conflict: todo \(text.oldID) \"Buy oat milk\" was deleted here and edited on the server; the edit was kept, and the todo is back",
            "the conflict names the id and the name: \(text.result.stdout)")

        let json = try deleteWhileRenamed("Call mum", to: "Call mum tonight", json: true)
        let report = try parseJSON(json.result.stdout, as: [String: Any].self, "todo sync --json")
        let conflicts = try field(report, "conflicts", as: [[String: Any]].self)
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict["id"] as? Int == json.oldID)
        #expect(try laptop.id(named: "Call mum tonight") == json.oldID)
        #expect(conflict["previous_id"] as? Int == json.oldID, "\(conflict)")
        #expect(conflict["name"] as? String == "Call mum tonight", "\(conflict)")
        #expect(conflict["field"] as? String == "deleted")
        try phone.sync()
        #expect(try phone.list() == laptop.list())
    }
}
