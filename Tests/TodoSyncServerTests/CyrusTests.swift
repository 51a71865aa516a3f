import Foundation
import TestSupport
import Testing

/// `todo sync` against Cyrus IMAP's CalDAV server (Debian's cyrus-caldav), started by the test on
/// 127.0.0.1: discovery from the root, `/.well-known/caldav` (Cyrus redirects it to
/// /dav/calendars), the principal and the calendar home; a todo there and back between two
/// devices; a wrong password.
@Suite("Cyrus IMAP's CalDAV: discovery and a sync round trip", .timed, .hangLimit)
struct CyrusTests {
    typealias Device = DiscoveryTests.Device

    @Test(
        "Cyrus: found from the root, /.well-known/caldav, the principal and the calendar home; a todo sent, received, completed and back; a wrong password refused"
    )
    func cyrus() throws {
        let cyrus = try CyrusServer.start(users: ["alice": "secret"])
        defer { cyrus.stop() }
        let calendar = cyrus.defaultCalendarURL("alice")
        let laptop = Device()
        let phone = Device()

        // Each starting point leads to the one calendar Cyrus made, listed with its name.
        for start in [
            cyrus.base + "/.well-known/caldav", cyrus.base + "/dav/principals/user/alice/",
            cyrus.base + "/dav/calendars/user/alice/"
        ] {
            let list = try laptop.todo(["sync", "setup", start, "--user", "alice", "--list", "--json"])
            let collections = try field(
                try parseJSON(list.stdout, as: [String: Any].self, "--list from \(start): \(list.stderr)"),
                "collections", as: [[String: Any]].self)
            #expect(collections.map { $0["url"] as? String } == [calendar], "from \(start): \(collections)")
            #expect(collections.first?["name"] as? String == "personal")
            #expect((collections.first?["components"] as? [String])?.contains("VTODO") == true, "\(collections)")
        }
        #expect(try laptop.setUp([cyrus.base, "--user", "alice"]) == calendar, "\(cyrus.log)")
        #expect(try laptop.todo(["add", "On Cyrus", "--due", "2031-03-04"]).status == 0)
        let sent = try laptop.todo(["sync", "--json"])
        #expect(
            sent.status == 0 && (try? parseJSON(sent.stdout, as: [String: Any].self)["sent"] as? Int) == 1,
            "\(sent.stdout) \(sent.stderr)")

        #expect(try phone.setUp([cyrus.base + "/.well-known/caldav", "--user", "alice"]) == calendar)
        let received = try phone.todo(["sync", "--json"])
        #expect(
            received.status == 0 && (try? parseJSON(received.stdout, as: [String: Any].self)["received"] as? Int) == 1,
            "\(received.stdout) \(received.stderr)")
        let list = try parseJSON(try phone.todo(["list", "--json"]).stdout, as: [[String: Any]].self)
        #expect(
            list.map { "\($0["name"] as? String ?? "")|\($0["deadline"] as? String ?? "")" } == ["On Cyrus|2031-03-04"],
            "\(list)")
        let id = try #require(list.first?["id"] as? Int)
        #expect(try phone.todo(["done", String(id)]).status == 0)
        #expect(try phone.todo(["sync"]).status == 0)
        let back = try laptop.todo(["sync", "--json"])
        #expect(
            back.status == 0 && (try? parseJSON(back.stdout, as: [String: Any].self)["received"] as? Int) == 1,
            "\(back.stdout) \(back.stderr)")
        let done = try parseJSON(try laptop.todo(["list", "--json"]).stdout, as: [[String: Any]].self)
        #expect(done.map { $0["done"] as? Bool } == [true], "\(done)")

        try Device().refused([cyrus.base + "/", "--user", "alice"], password: "wrong", "authentication failed")
    }
}

/// Issue 35 on Cyrus, which keeps a UID unique per account (a second collection refuses it): a
/// todo moved between two synced lists is deleted from the old calendar before it is written to
/// the new one, with its UID, and ends in the new one only.
@Suite("Cyrus: a move between two calendars", .timed, .hangLimit)
struct CyrusMoveTests {
    typealias Device = DiscoveryTests.Device

    @Test func aTodoMovedBetweenTwoSyncedListsKeepsItsUIDInOneCalendar() throws {
        let cyrus = try CyrusServer.start(users: ["alice": "secret"])
        defer { cyrus.stop() }
        let home = cyrus.defaultCalendarURL("alice")
        let work = cyrus.base + "/dav/calendars/user/alice/Work/"
        let body =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><C:mkcalendar xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\">"
            + "<D:set><D:prop><D:displayname>Work</D:displayname><C:supported-calendar-component-set>"
            + "<C:comp name=\"VTODO\"/></C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>"
        let made = try ProcessRunner.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "alice:secret", "-X", "MKCALENDAR", work, "-H",
                "Content-Type: application/xml", "--data", body
            ])
        #expect(made.stdout == "201", "MKCALENDAR: \(made.stdout) \(made.stderr)")

        let laptop = Device()
        #expect(try laptop.setUp([home, "--user", "alice"]) == home)
        #expect(try laptop.todo(["lists", "new", "Work"]).status == 0)
        let added = try laptop.todo(["sync", "setup", work, "--user", "alice", "--to", "Work"])
        #expect(added.status == 0, "\(added.stdout) \(added.stderr)")
        #expect(try laptop.todo(["add", "Quarterly report"]).status == 0)
        #expect(try laptop.todo(["sync"]).status == 0)
        let uid = try parseJSON(try laptop.todo(["show", "1", "--json"]).stdout, as: [String: Any].self)["uid"]
        #expect(try laptop.todo(["move", "1", "--to", "Work"]).status == 0)
        let moved = try laptop.todo(["sync", "--json"])
        #expect(moved.status == 0, "\(moved.stdout) \(moved.stderr) \(cyrus.log)")

        // What each calendar holds, read by two devices of their own (its todos, with their UIDs).
        func held(in url: String) throws -> [String] {
            let reader = Device()
            #expect(try reader.setUp([url, "--user", "alice"]) == url)
            #expect(try reader.todo(["sync"]).status == 0)
            let todos = try parseJSON(try reader.todo(["export"]).stdout, as: [[String: Any]].self)
            return todos.map { "\($0["name"] as? String ?? "")|\($0["uid"] as? String ?? "")" }
        }
        #expect(try held(in: home).isEmpty, "the old calendar no longer holds it")
        #expect(try held(in: work) == ["Quarterly report|\(uid as? String ?? "no uid")"], "the same UID")
        // And back, into the list synced first: its collection is sent to first, so the write
        // waits for the other's delete (a second round of sends).
        #expect(try laptop.todo(["move", "1", "--to", "Todos"]).status == 0)
        let back = try laptop.todo(["sync", "--json"])
        #expect(back.status == 0, "\(back.stdout) \(back.stderr) \(cyrus.log)")
        #expect(try held(in: work).isEmpty)
        #expect(try held(in: home) == ["Quarterly report|\(uid as? String ?? "no uid")"])
    }
}
