import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RECURRENCE.md §7's cross-client scenarios on real servers: `todo` on the laptop, and the
/// other apps' writes made by plain HTTP as each app writes them (Tasks.org advancing the
/// master, Thunderbird adding RECURRENCE-ID components, Nextcloud Tasks 0.17 completing the
/// master, todoman splitting the series). Each converges to the study's expected result.
@Suite(.timed, .hangLimit) struct RecurrenceScenarioTests {
    /// One server and the laptop set up on it, with a repeating todo of its own synced.
    struct Stage {
        let server: CalDAVServer
        let laptop: SyncDevice
        /// The object's name in the collection (`<uid>.ics`, as `todo` names its objects).
        let object: String

        init(_ kind: String, add arguments: [String]) throws {
            server = try kind == "radicale" ? CalDAVServer.radicale() : CalDAVServer.xandikos()
            laptop = SyncDevice(server)
            try laptop.setUp()
            let added = try laptop.todo(["add"] + arguments)
            #expect(added.status == 0, "\(added)")
            try laptop.sync()
            let shown = try parseJSON(try laptop.ok("show", "1", "--json"), as: [String: Any].self)
            object = (shown["uid"] as? String ?? "") + ".ics"
        }

        /// The object's text on the server.
        func text() throws -> String { try server.text(of: object) }

        /// Another app's write of the object: `change` applied to its text, PUT as that app does.
        func otherApp(_ change: (String) -> String) throws {
            let status = try server.replace(object, change(try text()))
            #expect((200..<300).contains(status), "the server took the other app's write: \(status)")
        }

        /// `todo show ID --json`'s `repeat.done`: how many occurrences the log holds as done.
        func doneCount(_ id: Int = 1) throws -> Int? {
            let shown = try parseJSON(try laptop.ok("show", "\(id)", "--json"), as: [String: Any].self)
            return (shown["repeat"] as? [String: Any])?["done"] as? Int
        }
    }

    static let kinds = ["radicale", "xandikos"]

    /// X1: the phone (Tasks.org) completes, here the todo is renamed: both stand, no conflict.
    @Test(arguments: kinds) func x1ThePhoneCompletesWhileTodoRenames(kind: String) throws {
        let stage = try Stage(kind, add: ["Pay rent", "--due", "2026-12-01", "--every", "month"])
        defer { stage.server.stop() }
        try stage.otherApp { Self.tasksOrgAdvances($0, from: "20261201", to: "20270101") }
        try stage.laptop.ok("edit", "1", "--name", "Pay the rent")
        let report = try stage.laptop.sync()
        #expect((report["conflicts"] as? [Any])?.isEmpty == true, "\(report)")
        #expect(try stage.laptop.summary() == ["Pay the rent|2027-01-01|0"])
        let text = try stage.text()
        #expect(text.contains("SUMMARY:Pay the rent") && text.contains("DUE;VALUE=DATE:20270101"), "\(text)")
        #expect(text.contains("RRULE:FREQ=MONTHLY") && text.contains("STATUS:NEEDS-ACTION"), "\(text)")
        #expect(try stage.doneCount() == 1, "the phone's completion is in the log")
    }

    /// X2: the same occurrence completed on the phone and here: advanced once, nothing sent.
    @Test(arguments: kinds) func x2TheSameOccurrenceCompletedOnBothAdvancesOnce(kind: String) throws {
        let stage = try Stage(kind, add: ["Pay rent", "--due", "2026-12-01", "--every", "month"])
        defer { stage.server.stop() }
        try stage.otherApp { Self.tasksOrgAdvances($0, from: "20261201", to: "20270101") }
        try stage.laptop.ok("done", "1")
        let phoneText = try stage.text()
        let report = try stage.laptop.sync()
        #expect(report["sent"] as? Int == 0, "\(report)")
        #expect(try stage.text() == phoneText)
        #expect(try stage.laptop.summary() == ["Pay rent|2027-01-01|0"])
        #expect(try stage.doneCount() == 1)
    }

    /// X3: two completions here, one on the phone: the later position wins, COUNT down by two.
    @Test(arguments: kinds) func x3TwoCompletionsHereOneThereTakeTheLaterPosition(kind: String) throws {
        let stage = try Stage(kind, add: ["Pay rent", "--due", "2026-12-01", "--every", "month", "--times", "10"])
        defer { stage.server.stop() }
        try stage.otherApp {
            Self.tasksOrgAdvances($0, from: "20261201", to: "20270101").replacing("COUNT=10", with: "COUNT=9")
        }
        try stage.laptop.ok("done", "1")
        try stage.laptop.ok("done", "1")
        try stage.laptop.sync()
        #expect(try stage.laptop.summary() == ["Pay rent|2027-02-01|0"])
        let text = try stage.text()
        #expect(text.contains("DUE;VALUE=DATE:20270201") && text.contains("DTSTART;VALUE=DATE:20270201"), "\(text)")
        #expect(text.contains("COUNT=8"), "\(text)")
        #expect(try stage.doneCount() == 2)
    }

    /// X4: Thunderbird completes the occurrence with an override while todo completed it too:
    /// todo writes nothing (moving the master would orphan the override), and says that
    /// Tasks.org cannot read the object now.
    @Test(arguments: kinds) func x4AnOverrideThereAndAnAdvanceHereAreOneCompletion(kind: String) throws {
        let stage = try Stage(kind, add: ["Stretch", "--due", "2026-12-01", "--every", "day"])
        defer { stage.server.stop() }
        let uid = String(stage.object.dropLast(4))
        try stage.otherApp { Self.thunderbirdCompletes($0, uid: uid, name: "Stretch", on: "20261201") }
        let thunderbird = try stage.text()
        try stage.laptop.ok("done", "1")
        let sync = try stage.laptop.todo("sync", "--json")
        #expect(sync.status == 0, "\(sync)")
        let report = try parseJSON(sync.stdout, as: [String: Any].self)
        #expect(report["sent"] as? Int == 0, "\(report)")
        #expect(try stage.text() == thunderbird, "Thunderbird's object stays as it wrote it")
        #expect(try stage.laptop.summary() == ["Stretch|2026-12-02|0"])
        #expect(sync.stderr.contains("Tasks.org stops syncing"), "\(sync.stderr)")
    }

    /// X5: Nextcloud Tasks 0.17 completes the master while todo advanced it: the same
    /// completion; the series goes on. Without a completion here it is TV9: the series is
    /// over here too, reported, and `todo undone --next` resumes it.
    @Test(arguments: kinds) func x5ANaiveCompletionThereAndAnAdvanceHereKeepTheSeries(kind: String) throws {
        let stage = try Stage(kind, add: ["Water plants", "--due", "2026-12-01", "--every", "week"])
        defer { stage.server.stop() }
        try stage.otherApp(Self.nextcloudCompletesTheMaster)
        try stage.laptop.ok("done", "1")
        try stage.laptop.sync()
        #expect(try stage.laptop.summary() == ["Water plants|2026-12-08|0"])
        let text = try stage.text()
        #expect(text.contains("DUE;VALUE=DATE:20261208") && text.contains("STATUS:NEEDS-ACTION"), "\(text)")
        #expect(!text.contains("COMPLETED:") && !text.contains("PERCENT-COMPLETE"), "\(text)")

        // TV9: completed there, untouched here.
        try stage.otherApp(Self.nextcloudCompletesTheMaster)
        let sync = try stage.laptop.todo("sync")
        #expect(sync.status == 0, "\(sync)")
        #expect(try stage.laptop.summary() == ["Water plants|2026-12-08|1"])
        #expect(
            sync.stderr.contains(
                "note: \"Water plants\" repeats every week, but another app marked the series done; 'todo undone 1 --next' continues it on 2026-12-15"
            ), "\(sync.stderr)")
        try stage.laptop.ok("undone", "1", "--next")
        try stage.laptop.sync()
        let resumed = try stage.text()
        #expect(resumed.contains("DUE;VALUE=DATE:20261215") && resumed.contains("STATUS:NEEDS-ACTION"), "\(resumed)")
        #expect(!resumed.contains("COMPLETED:") && !resumed.contains("PERCENT-COMPLETE"), "\(resumed)")
    }

    /// X6: todoman's `done` splits the series (the old UID completed without a rule, a new UID
    /// goes on) while todo renames: the rename stays with the old UID, as documented.
    @Test(arguments: kinds) func x6TodomanSplitsTheSeriesWhileTodoRenames(kind: String) throws {
        let stage = try Stage(kind, add: ["Pay rent", "--due", "2026-12-01", "--every", "month"])
        defer { stage.server.stop() }
        try stage.otherApp { text in
            text.split(separator: "\r\n", omittingEmptySubsequences: false).filter {
                !$0.hasPrefix("RRULE:") && !$0.hasPrefix("DTSTART")
            }.joined(separator: "\r\n").replacing(
                "STATUS:NEEDS-ACTION",
                with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T120000Z\r\nPERCENT-COMPLETE:100")
        }
        #expect(
            try stage.server.put(
                "todoman-next.ics",
                OtherApps.object(
                    [
                        "UID:5e2b1f1c-todoman-next", "DTSTAMP:20261201T120000Z", "SUMMARY:Pay rent",
                        "DUE;VALUE=DATE:20270101", "DTSTART;VALUE=DATE:20270101", "RRULE:FREQ=MONTHLY",
                        "STATUS:NEEDS-ACTION"
                    ], prodID: "-//pimutils.org//todoman//EN")) == 201)
        try stage.laptop.ok("edit", "1", "--name", "Pay the rent")
        try stage.laptop.sync()
        #expect(try stage.laptop.summary() == ["Pay rent|2027-01-01|0", "Pay the rent|2026-12-01|1"])
        let list = try parseJSON(try stage.laptop.ok("list", "--json"), as: [[String: Any]].self)
        #expect(list.first { $0["name"] as? String == "Pay the rent" }?["repeat_rule"] is NSNull)
        #expect(list.first { $0["name"] as? String == "Pay rent" }?["repeat_rule"] as? String == "FREQ=MONTHLY")
    }

    /// X7: Nextcloud Tasks advances a Thunderbird object (moving the master, leaving its
    /// overrides): the current occurrence is the first open one of the new set, and todo writes
    /// nothing back.
    @Test(arguments: kinds) func x7AnAdvancedThunderbirdObjectIsReadAsItStands(kind: String) throws {
        let server = try kind == "radicale" ? CalDAVServer.radicale() : CalDAVServer.xandikos()
        defer { server.stop() }
        #expect(try server.put("thunderbird.ics", RecurrenceVectors.tv7Done) == 201)
        let laptop = SyncDevice(server)
        try laptop.setUp()
        try laptop.sync()
        #expect(try laptop.summary() == ["Recurring|2026-12-03|0"])
        let advanced = RecurrenceVectors.tv7Done.replacing(
            "DTSTART;TZID=America/Chicago:20261201T170000\r\nDUE;TZID=America/Chicago:20261201T170000\r\nX-MOZ",
            with: "DTSTART;TZID=America/Chicago:20261202T170000\r\nDUE;TZID=America/Chicago:20261202T170000\r\nX-MOZ")
        #expect(advanced != RecurrenceVectors.tv7Done)
        #expect((200..<300).contains(try server.replace("thunderbird.ics", advanced)))
        let stored = try server.text(of: "thunderbird.ics")
        let report = try laptop.sync()
        #expect(report["sent"] as? Int == 0, "\(report)")
        #expect(try server.text(of: "thunderbird.ics") == stored)
        #expect(try laptop.summary() == ["Recurring|2026-12-03|0"])
    }

    // MARK: Other apps' writes

    /// Tasks.org completes one occurrence: DTSTART and DUE move to the next (its own PRODID).
    static func tasksOrgAdvances(_ text: String, from old: String, to new: String) -> String {
        text.replacing("DTSTART;VALUE=DATE:\(old)", with: "DTSTART;VALUE=DATE:\(new)")
            .replacing("DUE;VALUE=DATE:\(old)", with: "DUE;VALUE=DATE:\(new)")
            .replacing("PRODID:-//todo//todo//EN", with: "PRODID:+//IDN tasks.org//android-140108//EN")
    }

    /// Nextcloud Tasks 0.17 completes the master of a series.
    static func nextcloudCompletesTheMaster(_ text: String) -> String {
        text.replacing(
            "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T120000Z\r\nPERCENT-COMPLETE:100")
    }

    /// Thunderbird marks one occurrence of a date series done: a RECURRENCE-ID component.
    static func thunderbirdCompletes(_ text: String, uid: String, name: String, on day: String) -> String {
        let override = [
            "BEGIN:VTODO", "CREATED:20261201T230135Z", "LAST-MODIFIED:20261201T230139Z", "DTSTAMP:20261201T230139Z",
            "UID:\(uid)", "SUMMARY:\(name)", "STATUS:COMPLETED", "RECURRENCE-ID;VALUE=DATE:\(day)",
            "DTSTART;VALUE=DATE:\(day)", "DUE;VALUE=DATE:\(day)", "COMPLETED:20261201T230139Z", "PERCENT-COMPLETE:100",
            "SEQUENCE:1", "END:VTODO"
        ].joined(separator: "\r\n")
        return text.replacing("END:VCALENDAR", with: override + "\r\nEND:VCALENDAR")
    }
}

/// Objects as other apps write them.
enum OtherApps {
    /// A VCALENDAR holding one VTODO of `lines`, with the app's PRODID.
    static func object(_ lines: [String], prodID: String) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(prodID)", "BEGIN:VTODO"] + lines + [
            "END:VTODO", "END:VCALENDAR", ""
        ])
        .joined(separator: "\r\n")
    }
}

extension CalDAVServer {
    /// The text of the object `name` in the VTODO collection (a plain GET).
    func text(of name: String) throws -> String {
        let answer = try request("GET", todoCollectionURL + name)
        guard answer.status == 200 else { throw UnexpectedOutput("GET \(name): \(answer.status)") }
        return String(decoding: answer.body, as: UTF8.self)
    }

    /// Replaces the object `name` by a plain PUT, as an app that does not check ETags does;
    /// returns the status.
    func replace(_ name: String, _ text: String) throws -> Int {
        try request(
            "PUT", todoCollectionURL + name, body: Data(text.utf8),
            headers: ["Content-Type": "text/calendar; charset=utf-8"]
        ).status
    }
}

/// The scenarios' server of Fastmail, Cyrus: it takes the objects `todo` writes for a series
/// (RFC 5545-valid: DTSTART and DUE of one type, the rule beside them) and X7's advanced
/// Thunderbird object, which it stores without the override dated before the new DTSTART and
/// answers without an ETag; `todo` reads it again, with no loop of writes.
@Suite("Repeating todos on Cyrus", .timed, .hangLimit)
struct RecurrenceCyrusTests {
    @Test func cyrusTakesAdvancedSeriesAndX7ConvergesWithoutALoop() throws {
        let cyrus = try CyrusServer.start(users: ["alice": "secret"])
        defer { cyrus.stop() }
        let calendar = cyrus.defaultCalendarURL("alice")
        let laptop = DiscoveryTests.Device()
        #expect(try laptop.setUp([calendar, "--user", "alice"]) == calendar, "\(cyrus.log)")
        #expect(
            try laptop.todo(["add", "Pay rent", "--due", "2026-12-01", "--every", "month", "--times", "5"]).status == 0)
        #expect(try laptop.todo(["done", "1"]).status == 0)
        let first = try laptop.todo(["sync", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try laptop.todo(["done", "1"]).status == 0)
        let second = try laptop.todo(["sync", "--json"])
        #expect(
            second.status == 0 && (try? parseJSON(second.stdout, as: [String: Any].self)["sent"] as? Int) == 1,
            "\(second.stdout) \(second.stderr)")

        // X7 on Cyrus.
        #expect(try cyrus.put(calendar + "thunderbird.ics", RecurrenceVectors.tv7Done) == 201)
        #expect(try laptop.todo(["sync", "--json"]).status == 0)
        func list() throws -> [String] {
            try parseJSON(try laptop.todo(["list", "--json"]).stdout, as: [[String: Any]].self).map {
                "\($0["name"] as? String ?? "")|\($0["deadline"] as? String ?? "")"
            }.sorted()
        }
        #expect(try list() == ["Pay rent|2027-02-01", "Recurring|2026-12-03"])
        let advanced = RecurrenceVectors.tv7Done.replacing(
            "DTSTART;TZID=America/Chicago:20261201T170000\r\nDUE;TZID=America/Chicago:20261201T170000\r\nX-MOZ",
            with: "DTSTART;TZID=America/Chicago:20261202T170000\r\nDUE;TZID=America/Chicago:20261202T170000\r\nX-MOZ")
        #expect((200..<300).contains(try cyrus.put(calendar + "thunderbird.ics", advanced, replacing: true)))
        for round in 0..<2 {
            let sync = try laptop.todo(["sync", "--json"])
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(
                (try? parseJSON(sync.stdout, as: [String: Any].self)["sent"] as? Int) == 0,
                "round \(round): \(sync.stdout)")
        }
        #expect(try list() == ["Pay rent|2027-02-01", "Recurring|2026-12-03"])
    }
}

extension CyrusServer {
    /// A plain PUT of `text` at `url` as alice (If-None-Match: * unless `replacing`); the status.
    func put(_ url: String, _ text: String, replacing: Bool = false) throws -> Int {
        var request = URLRequest(url: try #require(URL(string: url)), timeoutInterval: 10)
        request.httpMethod = "PUT"
        request.httpBody = Data(text.utf8)
        request.setValue("text/calendar; charset=utf-8", forHTTPHeaderField: "Content-Type")
        if !replacing { request.setValue("*", forHTTPHeaderField: "If-None-Match") }
        let user = users.keys.sorted().first ?? ""
        let credentials = Data("\(user):\(users[user] ?? "")".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        return try CalDAVServer.perform(request).status
    }
}
