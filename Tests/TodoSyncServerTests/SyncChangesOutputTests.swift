import Foundation
import TestSupport
import Testing

/// What `todo sync` says it did (issue 35, point 5): each todo it changed here or sent, one line
/// each, marked as `todo watch` marks changes, on a terminal (and with `--changes` in a pipe);
/// `--json` carries the same. A 401 with no password source says which were tried. Against real
/// Radicale and Xandikos servers, the phone's objects written by raw HTTP.
@Suite(.timed) struct SyncChangesOutputTests {
    static let kinds: [CalDAVServer.Kind] = [.radicale, .xandikos]

    static func start(_ kind: CalDAVServer.Kind) throws -> CalDAVServer {
        kind == .radicale ? try CalDAVServer.radicale() : try CalDAVServer.xandikos()
    }

    /// The object of the todo named `name` on `device`, on the server: its URL and text.
    static func object(of name: String, on device: SyncDevice) throws -> (url: String, text: String) {
        let show = try parseJSON(device.ok("show", "\(try device.id(named: name))", "--json"), as: [String: Any].self)
        let uid = try field(show, "uid", as: String.self)
        let url = device.server.todoCollectionURL + uid + ".ics"
        let answer = try device.server.request("GET", url)
        guard answer.status == 200 else { throw UnexpectedOutput("GET \(url) answered \(answer.status)") }
        return (url, String(decoding: answer.body, as: UTF8.self))
    }

    /// A phone's write: `text` stored at `url` by a plain PUT, as the apps write.
    static func phonePut(_ server: CalDAVServer, _ url: String, _ text: String) throws {
        let status = try server.request(
            "PUT", url, body: Data(text.utf8), headers: ["Content-Type": "text/calendar; charset=utf-8"]
        ).status
        #expect((200..<300).contains(status), "PUT \(url) answered \(status)")
    }

    /// The phone adds `Dentist` (its name with a C1 control character in it, CSI), marks `Pay rent` done and
    /// deletes `Old thing`; the laptop renames `Call mum`, adds `Water plants` and deletes `Buy
    /// bread`.
    static func changeBothSides(_ server: CalDAVServer, _ laptop: SyncDevice, round: Int) throws {
        try phonePut(
            server, server.todoCollectionURL + "phone-\(round).ics",
            """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Phone//Tasks//EN\r
            BEGIN:VTODO\r
            UID:phone-\(round)\r
            DTSTAMP:20240101T090000Z\r
            SUMMARY:Dentist \u{9B}31m\(round)\r
            END:VTODO\r
            END:VCALENDAR\r

            """)
        let rent = try object(of: "Pay rent \(round)", on: laptop)
        try phonePut(
            server, rent.url,
            rent.text.replacingOccurrences(
                of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20240102T100000Z"))
        let old = try object(of: "Old thing \(round)", on: laptop)
        #expect((200..<300).contains(try server.request("DELETE", old.url).status))
        try laptop.ok("edit", "\(try laptop.id(named: "Call mum \(round)"))", "--name", "Call mum tonight \(round)")
        try laptop.ok("add", "Water plants \(round)")
        try laptop.ok("rm", "\(try laptop.id(named: "Buy bread \(round)"))")
    }

    /// A laptop set up with the todos ``changeBothSides(_:_:round:)`` changes, for rounds 1 and 2, synced.
    static func laptop(_ server: CalDAVServer) throws -> SyncDevice {
        let laptop = SyncDevice(server)
        for round in 1...2 {
            for name in ["Pay rent", "Old thing", "Call mum", "Buy bread"] { try laptop.ok("add", "\(name) \(round)") }
        }
        try laptop.setUp()
        #expect(try laptop.sync()["sent"] as? Int == 8)
        return laptop
    }

    @Test(arguments: kinds) func aSyncListsEachTodoItChangedOnATerminalAndInItsJSON(kind: CalDAVServer.Kind) throws {
        let server = try Self.start(kind)
        defer { server.stop() }
        let laptop = try Self.laptop(server)
        let ids = try ["Pay rent 1", "Old thing 1", "Call mum 1", "Buy bread 1"].map { try laptop.id(named: $0) }
        try Self.changeBothSides(server, laptop, round: 1)
        let water = try laptop.id(named: "Water plants 1")

        // On a terminal, without colour (NO_COLOR): the counts, then one line a todo, by id.
        let screen = try PseudoTerminal.run(
            [laptop.todoBinary, "sync"], environment: laptop.environment.merging(["NO_COLOR": "1"]) { $1 }
        ).screen.replacingOccurrences(of: "\r", with: "")
        let dentist = try laptop.id(named: "Dentist \u{9B}31m1")
        #expect(
            screen == """
                sent 3, received 2, deleted 1, conflicts 0
                ✓ \(ids[0])  Pay rent 1  (from the server)
                - \(ids[1])  Old thing 1  (from the server)
                ~ \(ids[2])  Call mum tonight 1  (sent)
                - \(ids[3])  Buy bread 1  (sent)
                + \(water)  Water plants 1  (sent)
                + \(dentist)  Dentist \\u{9b}31m1  (from the server)

                """, "\(screen)")

        // --json: the same as an array, after the keys scripts already read.
        try Self.changeBothSides(server, laptop, round: 2)
        let report = try laptop.sync()
        #expect(report["sent"] as? Int == 3 && report["received"] as? Int == 2 && report["deleted"] as? Int == 1)
        let changes = try #require(report["changes"] as? [[String: Any]])
        let shown = changes.map {
            "\($0["change"] as? String ?? "?") \($0["name"] as? String ?? "?") \($0["received"] as? Bool ?? false) \($0["sent"] as? Bool ?? false)"
        }
        #expect(
            shown == [
                "done Pay rent 2 true false", "removed Old thing 2 true false", "changed Call mum tonight 2 false true",
                "removed Buy bread 2 false true", "added Water plants 2 false true",
                "added Dentist \u{9B}31m2 true false"
            ], "\(changes)")
        #expect(changes.allSatisfy { $0["id"] is Int })
    }

    @Test func aPipeGetsTheCountsAloneUnlessAskedAndColourFollowsNoColor() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let laptop = try Self.laptop(server)
        try laptop.ok("add", "First")
        let piped = try laptop.todo("sync")
        #expect(piped.status == 0 && piped.stdout == "sent 1, received 0, deleted 0, conflicts 0\n", "\(piped.stdout)")
        try laptop.ok("add", "Second")
        let asked = try laptop.todo("sync", "--changes")
        let second = try laptop.id(named: "Second")
        #expect(
            asked.stdout == "sent 1, received 0, deleted 0, conflicts 0\n+ \(second)  Second  (sent)\n",
            "\(asked.stdout)")
        // Colour on a terminal when nothing turns it off: the mark and the side, never the name.
        try laptop.ok("add", "Third")
        let coloured = try PseudoTerminal.run([laptop.todoBinary, "sync"], environment: laptop.environment).screen
        let third = try laptop.id(named: "Third")
        #expect(coloured.contains("\u{1B}[32m+\u{1B}[0m \(third)  Third  \u{1B}[2m(sent)\u{1B}[0m"), "\(coloured)")
        let usage = try laptop.todo("sync", "status", "--changes")
        #expect(usage.status == 2 && usage.stderr.hasPrefix("error: '--changes' goes with 'todo sync' alone"))
    }

    @Test func aRefusedLoginWithNoPasswordSaysWhichSourcesWereTried() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let laptop = SyncDevice(server)
        let noPassword = ["TODO_SYNC_PASSWORD": ""]
        let setup = try laptop.todo(
            ["sync", "setup", server.todoCollectionURL, "--user", "alice"], environment: noPassword)
        #expect(setup.status == 1)
        let errors = setup.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1, "\(setup.stderr)")
        for part in [
            "authentication failed (HTTP 401)", "--password-command (none set up)", "TODO_SYNC_PASSWORD (not set)",
            "~/.netrc (no such file)", "give one with --password-command at setup"
        ] {
            #expect(errors.first?.contains(part) == true, "\(part) is not in \(setup.stderr)")
        }
        // At a sync too, with a ~/.netrc that has no entry for the host.
        try laptop.setUp()
        try "machine elsewhere.example login bob password x\n".write(
            toFile: laptop.folder.file(".netrc"), atomically: true, encoding: .utf8)
        let sync = try laptop.todo(["sync"], environment: noPassword)
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("~/.netrc (no entry for 127.0.0.1)"), "\(sync.stderr)")
        // A wrong password is only that: a password was given.
        let wrong = try laptop.todo(["sync"], environment: ["TODO_SYNC_PASSWORD": "wrong"])
        #expect(wrong.status == 1 && !wrong.stderr.contains("no password was sent"), "\(wrong.stderr)")
    }
}
