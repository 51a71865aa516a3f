import Foundation
import TestSupport
import Testing

/// Issue 26's fields over CalDAV, against a real Radicale and python3-caldav as the phone:
/// priority as PRIORITY, tags as CATEGORIES, the note as DESCRIPTION, and the created and
/// completed times as CREATED and COMPLETED, in both directions, with tags merged as a set.
/// The fields are written here through the sqlite3 shell (another program sharing the file),
/// so these tests need no command of the CLI's own.
@Suite(.timed, .hangLimit) struct SyncDetailsTests {
    /// `sql` run by the sqlite3 shell on `device`'s database; its output.
    @discardableResult
    static func sqlite(_ device: SyncDevice, _ sql: String) throws -> String {
        let result = try ProcessRunner.run("sqlite3", [device.database, sql])
        #expect(result.status == 0, "sqlite3: \(result.stderr)")
        return result.stdout
    }

    /// The phone's view of the one todo named `summary`: python3-caldav's parsed properties.
    static func phoneView(_ server: CalDAVServer, _ summary: String) throws -> [String: String] {
        let output = try server.python(
            server.todoCollectionURL,
            """
            import json
            for t in cal.todos(include_completed=True):
                c = t.icalendar_instance.walk('VTODO')[0]
                if str(c.get('summary')) != \(summary.debugDescription): continue
                cats = c.get('categories')
                cats = [cats] if cats is not None and not isinstance(cats, list) else (cats or [])
                words = [str(w) for v in cats for w in v.cats]
                def utc(name):
                    value = c.get(name)
                    return value.dt.strftime('%Y-%m-%dT%H:%M:%SZ') if value is not None else ''
                print(json.dumps({'priority': str(c.get('priority', '')), 'categories': ','.join(words),
                                  'description': str(c.get('description', '')), 'created': utc('created'),
                                  'completed': utc('completed'), 'status': str(c.get('status', ''))}))
            """)
        let line = try #require(output.split(separator: "\n").last.map(String.init), "no todo \(summary)")
        return try parseJSON(line, as: [String: String].self, "the phone's view")
    }

    @Test func thePhoneSeesEveryFieldTodoWritesAndTodoSeesThePhones() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let laptop = SyncDevice(server)
        try laptop.ok("add", "Call mom")
        try laptop.ok("add", "Pay rent")
        try laptop.ok("done", "2")
        try Self.sqlite(
            laptop,
            "UPDATE todos SET priority = 2, tags = '+family @phone', note = 'about Sunday' || char(10) || 'bring, cake; ok' WHERE id = 1"
        )
        let times = try Self.sqlite(laptop, "SELECT created, completed FROM todos WHERE id = 2").split(separator: "|")
        try laptop.setUp()
        #expect(try laptop.sync()["sent"] as? Int == 2)

        let call = try Self.phoneView(server, "Call mom")
        #expect(call["priority"] == "2" && call["categories"] == "family,@phone", "\(call)")
        #expect(call["description"] == "about Sunday\nbring, cake; ok", "\(call)")
        #expect(call["created"]?.isEmpty == false && call["completed"] == "")
        let rent = try Self.phoneView(server, "Pay rent")
        #expect(rent["status"] == "COMPLETED" && rent["created"] == String(times[0]), "\(rent), \(times)")
        #expect(rent["completed"] == times[1].trimmingCharacters(in: .whitespacesAndNewlines), "\(rent), \(times)")

        // The phone lowers the priority, adds a category, rewrites the note.
        try server.python(
            server.todoCollectionURL,
            """
            for t in cal.todos(include_completed=True):
                c = t.icalendar_instance.walk('VTODO')[0]
                if str(c.get('summary')) != 'Call mom': continue
                c['priority'] = 9
                cats = [str(w) for w in c.get('categories').cats] + ['garden']
                del c['categories']
                c.add('categories', cats)
                c['description'] = 'phone note'
                t.save()
            """)
        let report = try laptop.sync()
        #expect(report["received"] as? Int == 1 && (report["conflicts"] as? [Any])?.isEmpty == true, "\(report)")
        #expect(
            try Self.sqlite(laptop, "SELECT priority, tags, note FROM todos WHERE id = 1")
                == "9|+family @phone +garden|phone note\n")
        // Nothing left to send or receive: the fields read back as they were written.
        let again = try laptop.sync()
        #expect(again["sent"] as? Int == 0 && again["received"] as? Int == 0, "\(again)")
    }

    @Test func aTagAddedOnOneDeviceAndAnotherRemovedOnASecondBothSurvive() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let laptop = SyncDevice(server)
        let desktop = SyncDevice(server)
        try laptop.ok("add", "Plan the trip")
        try Self.sqlite(laptop, "UPDATE todos SET tags = '+travel +family'")
        try laptop.setUp()
        try desktop.setUp()
        try laptop.sync()
        #expect(try desktop.sync()["received"] as? Int == 1)
        #expect(try Self.sqlite(desktop, "SELECT tags FROM todos") == "+travel +family\n")

        try Self.sqlite(laptop, "UPDATE todos SET tags = '+travel'")  // family removed here
        try Self.sqlite(desktop, "UPDATE todos SET tags = '+travel +family @budget'")  // budget added there
        #expect(try laptop.sync()["sent"] as? Int == 1)
        let merged = try desktop.sync()
        #expect((merged["conflicts"] as? [Any])?.isEmpty == true, "a set merge has no conflict: \(merged)")
        try laptop.sync()
        for (name, device) in [("laptop", laptop), ("desktop", desktop)] {
            let tags = try Self.sqlite(device, "SELECT tags FROM todos")
            #expect(tags == "+travel @budget\n", "\(name): \(tags)")
        }
        let phone = try Self.phoneView(server, "Plan the trip")
        #expect(phone["categories"] == "travel,@budget", "\(phone)")
    }
}
