import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `todo export --format ics` of synced todos (issue 35, part of point 2): each is its object's
/// own text, with the changes made here written in as the next sync would send them, so that
/// nothing another app wrote is lost through an export and an import. Against real Radicale and
/// Xandikos servers, the phone's object written by a raw HTTP PUT.
@Suite(.timed) struct SyncedExportTests {
    static let kinds: [CalDAVServer.Kind] = [.radicale, .xandikos]

    static func start(_ kind: CalDAVServer.Kind) throws -> CalDAVServer {
        kind == .radicale ? try CalDAVServer.radicale() : try CalDAVServer.xandikos()
    }

    /// As Apple Reminders and Tasks.org write a task: everything `todo` has no field for.
    static let phoneObject = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Apple Inc.//iOS 17.4//EN\r
        BEGIN:VTODO\r
        UID:phone-export-1\r
        DTSTAMP:20240101T090000Z\r
        CREATED:20240101T090000Z\r
        LAST-MODIFIED:20240101T090000Z\r
        SUMMARY:Water plants\r
        DTSTART;VALUE=DATE:20240105\r
        DUE;VALUE=DATE:20240105\r
        RRULE:FREQ=WEEKLY;BYDAY=FR\r
        URL;VALUE=URI:https://example.com/plants\r
        ATTACH;FMTTYPE=image/png:https://example.com/plants.png\r
        CLASS:PRIVATE\r
        X-APPLE-SORT-ORDER:726148375\r
        X-PHONE-NOTE:a long value that the phone folded at seventy-five octets, as RFC\r
          5545 asks, and that must come back exactly so\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Reminder\r
        TRIGGER:-PT15M\r
        END:VALARM\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    /// What a sync rewrites in an object it sends: the properties of the fields changed (here the
    /// name) and the revision stamps.
    static let rewritten: Set<String> = ["SUMMARY", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]

    /// The physical lines of `text` (CRLF or LF), each property's continuation lines with it,
    /// but those of the properties in `leaving`.
    static func lines(_ text: String, leaving: Set<String> = []) -> [String] {
        var groups: [(name: String, lines: [String])] = []
        for line in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t"), !groups.isEmpty {
                groups[groups.count - 1].lines.append(String(line))
            } else {
                let name = line.prefix { $0 != ":" && $0 != ";" }.uppercased()
                groups.append((name, [String(line)]))
            }
        }
        return groups.filter { !leaving.contains($0.name) }.flatMap(\.lines)
    }

    /// The iCalendar objects of an export, each from its `BEGIN:VCALENDAR` line.
    static func objects(_ text: String) -> [String] {
        text.components(separatedBy: "BEGIN:VCALENDAR").dropFirst().map { "BEGIN:VCALENDAR" + $0 }
    }

    @Test(arguments: kinds) func anExportCarriesTheObjectAsTheNextSyncWouldSendIt(kind: CalDAVServer.Kind) throws {
        let server = try Self.start(kind)
        defer { server.stop() }
        #expect(try server.put("phone-export-1.ics", Self.phoneObject) == 201)
        let laptop = SyncDevice(server)
        try laptop.setUp()
        try Self.exportAfterASync(laptop.folder, run: { try laptop.todo($0) }) {
            String(
                decoding: try server.request("GET", server.todoCollectionURL + "phone-export-1.ics").body,
                as: UTF8.self)
        }
    }

    /// Cyrus writes out what it stores anew (it trims blanks, orders parameters): the export
    /// follows what it holds.
    @Test(.hangLimit) func onCyrusToo() throws {
        let cyrus = try CyrusServer.start(users: ["alice": "secret"])
        defer { cyrus.stop() }
        let object = cyrus.defaultCalendarURL("alice") + "phone-export-1.ics"
        func request(_ method: String, body: String? = nil) throws -> (status: Int, body: String) {
            var request = URLRequest(url: URL(string: object)!, timeoutInterval: 10)
            request.httpMethod = method
            request.httpBody = body.map { Data($0.utf8) }
            request.setValue("text/calendar; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.setValue(
                "Basic " + Data("alice:secret".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
            let answer = try CalDAVServer.perform(request)
            return (answer.status, String(decoding: answer.body, as: UTF8.self))
        }
        #expect(try request("PUT", body: Self.phoneObject).status == 201, "\(cyrus.log)")
        let laptop = DiscoveryTests.Device()
        #expect(try laptop.setUp([cyrus.defaultCalendarURL("alice"), "--user", "alice"]) != nil)
        try Self.exportAfterASync(laptop.folder, run: { try laptop.todo($0) }) { try request("GET").body }
    }

    /// Syncs the phone's object in with `run` (a device's `todo`), edits it here, adds a todo
    /// never synced, exports, and checks the export line by line against the object the server
    /// holds (`stored`), then imports it into another database.
    static func exportAfterASync(
        _ folder: TemporaryFolder, run: ([String]) throws -> ProcessResult, stored: () throws -> String
    ) throws {
        func ok(_ arguments: String...) throws -> String { try ok(contentsOf: arguments) }
        func id(_ name: String, in database: String? = nil) throws -> Int {
            let todos = try parseJSON(
                try ok(contentsOf: (database.map { ["--db", $0] } ?? []) + ["list", "--json"]),
                as: [[String: Any]].self)
            return try #require(todos.first { $0["name"] as? String == name }?["id"] as? Int, "\(todos)")
        }
        func ok(contentsOf arguments: [String]) throws -> String {
            let result = try run(arguments)
            #expect(result.status == 0, "todo \(arguments.joined(separator: " ")): \(result.stderr)")
            return result.stdout
        }
        let synced = try parseJSON(try ok("sync", "--json"), as: [String: Any].self)
        #expect(synced["received"] as? Int == 1, "\(synced)")
        // The object as the server stores it (a server may write it out anew): the base.
        let stored = try stored()
        for kept in ["X-APPLE-SORT-ORDER", "URL", "ATTACH", "CLASS", "RRULE", "BEGIN:VALARM", "X-PHONE-NOTE"] {
            #expect(stored.contains(kept), "the server dropped \(kept): \(stored)")
        }
        _ = try ok("edit", "\(try id("Water plants"))", "--name", "Water the plants")
        _ = try ok("add", "Never synced")

        let export = try ok("export", "--format", "ics")
        let objects = Self.objects(export)
        #expect(objects.count == 2, "\(export)")
        let phone = try #require(objects.first { $0.contains("UID:phone-export-1") }, "\(export)")
        // Every line but those of the name and the stamps, byte for byte and in order; the edit in.
        #expect(
            Self.lines(phone, leaving: Self.rewritten) == Self.lines(stored, leaving: Self.rewritten),
            "exported:\n\(phone)\nstored:\n\(stored)")
        #expect(Self.lines(phone).contains("SUMMARY:Water the plants"), "\(phone)")
        #expect(!phone.contains("Water plants"), "\(phone)")
        // A todo never synced is written as before, in a VCALENDAR of todo's own.
        let local = try #require(objects.first { $0.contains("SUMMARY:Never synced") }, "\(export)")
        #expect(local.contains("PRODID:-//todo//todo//EN") && !local.contains("phone-export-1"))

        // Another database reads it back: the same todos, the rule and the UID kept (the rest
        // has no place in a database yet, and the summary says what).
        let file = folder.file("export.ics")
        try export.write(toFile: file, atomically: true, encoding: .utf8)
        let other = folder.file("other.sqlite")
        let imported = try ok("--db", other, "import", "--from", "ics", file)
        #expect(imported.hasPrefix("Imported 2 todos."), "\(imported)")
        let names = try parseJSON(try ok("--db", other, "list", "--json"), as: [[String: Any]].self).compactMap {
            $0["name"] as? String
        }
        #expect(Set(names) == ["Water the plants", "Never synced"])
        let shown = try parseJSON(
            try ok("--db", other, "show", "\(try id("Water the plants", in: other))", "--json"), as: [String: Any].self)
        #expect(shown["uid"] as? String == "phone-export-1")
        #expect((shown["repeat_rule"] as? String)?.contains("FREQ=WEEKLY;BYDAY=FR") == true, "\(shown)")
    }
}
