import Foundation
import TestSupport
import Testing

/// Statuses on Radicale, Xandikos and Cyrus (issue 36, point 3): tasks PUT by plain HTTP as Tasks.org, Apple
/// Reminders and Nextcloud Tasks write them come in with their state and percent; `todo done`,
/// `start` and `cancel` go out as STATUS (PERCENT-COMPLETE:100 on completion) and nothing else
/// of the phone's object changes; a phone's later change of state comes back in.
@Suite(.timed, .hangLimit) struct StatusServerTests {
    /// What a change of state may rewrite: the state's lines and the revision stamps.
    static let stateLines: Set<String> = [
        "STATUS", "COMPLETED", "PERCENT-COMPLETE", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"
    ]

    /// The unfolded content lines of an object.
    static func lines(_ text: String) -> [String] {
        text.replacing("\r\n ", with: "").replacing("\r\n\t", with: "").split(separator: "\r\n").map(String.init)
    }

    static func name(_ line: String) -> String { String(line.prefix { $0 != ":" && $0 != ";" }) }

    /// The value of the property `name` in the (first) VTODO of `text`.
    static func value(_ name: String, in text: String) -> String? {
        lines(text).first { Self.name($0) == name }.map { String($0.drop { $0 != ":" }.dropFirst()) }
    }

    @Test(arguments: TagsWithSpacesServerTests.Server.allCases)
    func phoneStatusesComeInAndTodosChangesGoOutKeepingEveryOtherLine(server: TagsWithSpacesServerTests.Server) throws {
        let stage = try TagsWithSpacesServerTests.Stage(server)
        defer { stage.stop() }
        let laptop = StageDevice(stage)
        try laptop.setUp()
        let phone: [(file: String, text: String)] = [
            ("tasksorg.ics", StatusObjects.tasksOrg(uid: "tasksorg-1", name: "Buy milk")),
            ("reminders.ics", StatusObjects.appleReminders(uid: "reminders-1", name: "Call the plumber")),
            ("nextcloud.ics", StatusObjects.nextcloud(uid: "nextcloud-1", name: "Water the plants", percent: 40)),
            (
                "cancelled.ics",
                StatusObjects.nextcloud(uid: "nextcloud-2", name: "Old plan", percent: nil, cancelled: true)
            )
        ]
        func fetch(_ file: String) throws -> String { try stage.get(file) }
        var stored: [String: String] = [:]
        for (file, text) in phone {
            #expect((200..<300).contains(try stage.put(file, text)), "PUT \(file)")
            stored[file] = try fetch(file)  // as the server keeps it (Radicale re-serializes)
        }
        #expect(try laptop.sync()["received"] as? Int == 4)
        func states() throws -> [String: String] {
            let todos = try parseJSON(try laptop.ok("list", "--json"), as: [[String: Any]].self, "todo list --json")
            return Dictionary(
                uniqueKeysWithValues: todos.map { todo in
                    (
                        todo["name"] as? String ?? "",
                        "\(todo["status"] as? String ?? "?") \((todo["percent"] as? Int).map(String.init) ?? "-")"
                    )
                })
        }
        #expect(
            try states() == [
                "Buy milk": "needs-action -", "Call the plumber": "needs-action -",
                "Water the plants": "in-process 40", "Old plan": "cancelled -"
            ])
        let listed = try laptop.ok("list")
        #expect(listed.contains("[~]") && listed.contains("40% Water the plants") && listed.contains("[-]"))
        #expect(try laptop.ok("show", String(try laptop.id(named: "Old plan"))).contains("completed: no: cancelled"))

        // Here: done, started, done from in progress, done from cancelled (no "already done").
        try laptop.ok("done", String(try laptop.id(named: "Buy milk")))
        try laptop.ok("start", String(try laptop.id(named: "Call the plumber")), "--percent", "60")
        try laptop.ok("done", String(try laptop.id(named: "Water the plants")))
        #expect(try laptop.ok("done", String(try laptop.id(named: "Old plan"))).hasPrefix("✓"))
        #expect(try laptop.sync()["sent"] as? Int == 4)
        let expected: [String: (status: String, percent: String?)] = [
            "tasksorg.ics": ("COMPLETED", "100"), "reminders.ics": ("IN-PROCESS", "60"),
            "nextcloud.ics": ("COMPLETED", "100"), "cancelled.ics": ("COMPLETED", "100")
        ]
        for (file, _) in phone {
            let now = try fetch(file)
            let want = try #require(expected[file])
            #expect(Self.value("STATUS", in: now) == want.status, "\(file) on \(server):\n\(now)")
            #expect(Self.value("PERCENT-COMPLETE", in: now) == want.percent, "\(file) on \(server):\n\(now)")
            #expect((Self.value("COMPLETED", in: now) != nil) == (want.status == "COMPLETED"), "\(file)")
            // Every other line of the phone's object, as the server stored it, is still there.
            let kept = Self.lines(try #require(stored[file])).filter { !Self.stateLines.contains(Self.name($0)) }
            let lost = kept.filter { !Self.lines(now).contains($0) }
            #expect(lost.isEmpty, "\(file) on \(server) lost \(lost):\n\(now)")
        }
        // Settled: nothing more to send or take.
        let again = try laptop.sync()
        #expect(again["sent"] as? Int == 0 && again["received"] as? Int == 0, "\(again)")

        // There: the phone cancels the plumber call (Nextcloud's status menu), over what todo
        // wrote; here it is cancelled, its percent kept, and never completed.
        let reminder = try fetch("reminders.ics")
        let cancelled =
            Self.lines(reminder).map { Self.name($0) == "STATUS" ? "STATUS:CANCELLED" : $0 }
            .joined(separator: "\r\n") + "\r\n"
        let answer = try stage.request(
            "PUT", "reminders.ics", body: cancelled, headers: ["Content-Type": "text/calendar; charset=utf-8"])
        #expect((200..<300).contains(answer.status))
        #expect(try laptop.sync()["received"] as? Int == 1)
        #expect(try states()["Call the plumber"] == "cancelled 60")
        #expect(try laptop.sync()["sent"] as? Int == 0)
    }
}

/// A device of one of the servers a ``TagsWithSpacesServerTests/Stage`` runs (Radicale,
/// Xandikos or Cyrus), with SyncDevice's few calls: set up, sync, run `todo`, find a todo.
final class StageDevice: @unchecked Sendable {
    let stage: TagsWithSpacesServerTests.Stage
    let device = DiscoveryTests.Device()
    var password: String? { stage.user == nil ? nil : "secret" }

    init(_ stage: TagsWithSpacesServerTests.Stage) { self.stage = stage }

    func setUp() throws {
        let linked = try device.setUp(
            [stage.collection] + (stage.user.map { ["--user", $0] } ?? []), password: password)
        #expect(linked == stage.collection)
    }

    @discardableResult
    func ok(_ arguments: String...) throws -> String {
        let result = try device.todo(arguments, password: password)
        #expect(result.status == 0, "todo \(arguments): \(result.stderr)")
        return result.stdout
    }

    func sync() throws -> [String: Any] {
        let result = try device.todo(["sync", "--json"], password: password)
        #expect(result.status == 0, "todo sync: \(result.stderr)")
        return try parseJSON(result.stdout, as: [String: Any].self, "todo sync --json")
    }

    func id(named name: String) throws -> Int {
        let todos = try parseJSON(try ok("list", "--json"), as: [[String: Any]].self, "todo list --json")
        return try #require(todos.first { $0["name"] as? String == name }?["id"] as? Int, "\(name)")
    }
}
