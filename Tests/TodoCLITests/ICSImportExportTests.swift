import Foundation
import TestSupport
import Testing

/// `todo export --format ics` and `todo import --from ics`, end to end.
@Suite(.timed) struct ICSImportExportTests {
    let sandbox = CLISandbox()

    /// The todos without their ids, in list order.
    private func contents(_ database: String? = nil) throws -> [String] {
        let output = try sandbox.ok(["list", "--json"] + (database.map { ["--db", $0] } ?? []))
        let list = try parseJSON(output, as: [[String: Any]].self, "todo list --json")
        return list.map {
            "\($0["name"] as? String ?? "")|\($0["deadline"] as? String ?? "")|\($0["done"] as? Bool == true)"
        }
    }

    private func write(_ text: String, to name: String) throws -> String {
        let file = sandbox.folder.file(name)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func exportThenImportIntoAFreshDatabaseGivesTheSameTodos() throws {
        _ = try sandbox.ok("add", "Buy milk, eggs; bread \\ and 🥛", "--due", "2024-05-01")
        _ = try sandbox.ok(
            "add", "日本語のタスク e\u{301} with a long name that certainly needs folding at seventy-five octets ✓✓✓")
        _ = try sandbox.ok("add", "Pay rent", "--due", "2024-04-30")
        _ = try sandbox.ok("done", "3")
        // A name with a line break, as another program may store it.
        _ = try ProcessRunner.run(
            "sqlite3",
            [
                sandbox.database,
                "INSERT INTO todos (name, deadline, done) VALUES ('two' || char(10) || 'lines', '2025-12-31', 1)"
            ])
        let export = try sandbox.ok("export", "--format", "ics")
        #expect(export.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(export.components(separatedBy: "BEGIN:VTODO").count == 5)
        #expect(export.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        let file = try write(export, to: "todos.ics")

        let copy = sandbox.folder.file("copy.sqlite")
        #expect(try sandbox.ok("--db", copy, "import", "--from", "ics", file) == "Imported 4 todos.\n")
        #expect(try contents(copy) == contents())

        // The UIDs were kept: a second export of either database names the same objects.
        func uids(_ text: String) -> [String] {
            text.split(separator: "\r\n").filter { $0.hasPrefix("UID:") }.map(String.init)
        }
        #expect(uids(try sandbox.ok("export", "--format", "ics")) == uids(export), "UIDs are given once")
        #expect(uids(try sandbox.ok("--db", copy, "export", "--format", "ics")) == uids(export))

        // From standard input too, and the filters apply.
        let undone = try sandbox.ok("export", "--format", "ics", "--undone")
        let piped = sandbox.folder.file("piped.sqlite")
        #expect(try sandbox.ok(["--db", piped, "import", "--from", "ics", "-"], stdin: undone) == "Imported 2 todos.\n")
        #expect(try contents(piped) == contents().filter { $0.hasSuffix("|false") })
    }

    @Test func importingTheSameFileTwiceAddsNothingTheSecondTime() throws {
        _ = try sandbox.ok("add", "one")
        _ = try sandbox.ok("add", "two")
        let file = try write(try sandbox.ok("export", "--format", "ics"), to: "todos.ics")
        // Into the database it came from: every UID is known.
        #expect(
            try sandbox.ok("import", "--from", "ics", file) == "Imported 0 new todos, updated 0, 2 unchanged.\n")
        let other = sandbox.folder.file("other.sqlite")
        #expect(try sandbox.ok("--db", other, "import", "--from", "ics", file) == "Imported 2 todos.\n")
        #expect(
            try sandbox.ok("--db", other, "import", "--from", "ics", file)
                == "Imported 0 new todos, updated 0, 2 unchanged.\n")
        #expect(try contents(other) == ["one||false", "two||false"])
    }

    @Test func aThunderbirdFileImportsWithItsDateTimeDue() throws {
        let thunderbird = """
            BEGIN:VCALENDAR
            PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
            VERSION:2.0
            BEGIN:VTIMEZONE
            TZID:Europe/Berlin
            BEGIN:STANDARD
            TZOFFSETFROM:+0200
            TZOFFSETTO:+0100
            DTSTART:19701025T030000
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:event-1
            DTSTAMP:20240101T000000Z
            DTSTART:20240102T100000Z
            SUMMARY:A meeting is not a todo
            END:VEVENT
            BEGIN:VTODO
            UID:tb-1
            DTSTAMP:20240410T081633Z
            SUMMARY:Steuererklärung abgeben\\, endlich
            DUE;TZID=Europe/Berlin:20240501T003000
            DESCRIPTION:Belege im Ordner\\nAnlage N nicht vergessen and a long descript
             ion folded by Thunderbird.
            CATEGORIES:Finanzen,Büro
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;VALUE=DURATION:-PT15M
            DESCRIPTION:Default Mozilla Description
            END:VALARM
            END:VTODO
            BEGIN:VTODO
            UID:tb-2
            DTSTAMP:20240410T081633Z
            SUMMARY:Done long ago
            COMPLETED:20240301T120000Z
            END:VTODO
            BEGIN:VTODO
            UID:tb-3
            DTSTAMP:20240410T081633Z
            SUMMARY:Cancelled plan
            STATUS:CANCELLED
            DUE:20240601T220000Z
            END:VTODO
            END:VCALENDAR
            """.replacing("\n", with: "\r\n") + "\r\n"
        let file = try write(thunderbird, to: "thunderbird.ics")
        let output = try sandbox.ok(["import", "--from", "ics", file], environment: ["TZ": "Asia/Tokyo"])
        #expect(
            output
                == "Imported 3 todos. Not kept: 1 alarm, 1 event.\n",
            "the description and categories are the note and tags now")
        #expect(
            try contents() == [
                "Steuererklärung abgeben, endlich|2024-05-01|false", "Cancelled plan|2024-06-02|true",
                "Done long ago||true"
            ])
        let newYork = sandbox.folder.file("ny.sqlite")
        _ = try sandbox.ok(["--db", newYork, "import", "--from", "ics", file], environment: ["TZ": "America/New_York"])
        // A time in a zone keeps its own date (issue 34: never the zone of the device that read it).
        #expect(try contents(newYork).first == "Steuererklärung abgeben, endlich|2024-05-01|false")
        #expect(try contents(newYork).contains("Cancelled plan|2024-06-01|true"))
    }

    @Test func aBrokenFileChangesNothing() throws {
        _ = try sandbox.ok("add", "existing")
        let good = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:fine\r\nEND:VTODO\r\n"
        let cases: [(content: String, mentions: String)] = [
            (
                good + "BEGIN:VTODO\r\nUID:b\r\nSUMMARY:unclosed\r\nEND:VCALENDAR\r\n",
                "line 9: END:VCALENDAR where END:VTODO was expected"
            ),
            (good + "BEGIN:VTODO\r\nUID:b\r\nSUMMARY no colon\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "line 8: no ':'"),
            (good + "BEGIN:VTODO\r\nSUMMARY:no uid\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "line 6: the VTODO has no UID"),
            (
                good + "BEGIN:VTODO\r\nUID:c\r\nSUMMARY:   \r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                "line 6: the VTODO c has no name"
            ),
            (good + "END:VCALENDAR\r\nEND:VCALENDAR\r\n", "line 7: END:VCALENDAR without BEGIN"),
            ("[{\"name\": \"json, not ics\"}]", "not an iCalendar file"),
            ("", "not an iCalendar file")
        ]
        for (content, mentions) in cases {
            let file = try write(content, to: "bad.ics")
            let before = sandbox.fileState()
            let result = try sandbox.todo("import", "--from", "ics", file)
            #expect(result.status == 1, "\(content.debugDescription)")
            #expect(result.stderrLines.first?.hasPrefix("error: \(file): \(mentions)") == true, "\(result.stderr)")
            #expect(result.stderrLines.count <= 2)
            #expect(sandbox.fileState() == before, "a bad file changed the database: \(content.debugDescription)")
        }
        let binary = sandbox.folder.file("binary.ics")
        try Data([0x42, 0x45, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: binary))
        let result = try sandbox.todo("import", "--from", "ics", binary)
        #expect(result.status == 1 && result.stderr.hasPrefix("error: \(binary): not UTF-8 text"))
        #expect(try contents() == ["existing||false"])
        #expect(try sandbox.todo("export", "--format", "xml").status == 2)
    }

    @Test func undoRemovesAWholeICSImport() throws {
        let file = try write(
            "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:a\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:b\r\nSUMMARY:b\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
            to: "two.ics")
        _ = try sandbox.ok("import", "--from", "ics", file)
        #expect(try contents().count == 2)
        #expect(try sandbox.ok("undo") == "Undid 'import'.\n")
        #expect(try contents().isEmpty)
        // The UIDs of todos that were never synced are free again: the same file imports anew.
        #expect(try sandbox.ok("import", "--from", "ics", file) == "Imported 2 todos.\n")
        #expect(try contents().count == 2)
    }

    @Test func aFileNested50000DeepIsOneErrorAndChangesNothing() throws {
        _ = try sandbox.ok("add", "existing")
        let nested =
            "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X\r\n", count: 50_000)
            + String(repeating: "END:X\r\n", count: 50_000) + "END:VCALENDAR\r\n"
        for (name, text) in [("closed.ics", nested), ("open.ics", String(repeating: "BEGIN:X\n", count: 50_000))] {
            let file = try write(text, to: name)
            let before = try Reliability.dump(sandbox.database)
            let result = try sandbox.todo("import", "--from", "ics", file)
            #expect(result.status == 1, "\(name): \(result.stderr.prefix(500))")
            #expect(result.stdout.isEmpty)
            // One error line (and the importers' usual "Nothing was imported." after it).
            #expect(
                result.stderrLines.filter { $0.hasPrefix("error:") }.count == 1, "\(name): \(result.stderr.prefix(500))"
            )
            #expect(
                result.stderrLines.count <= 2 && result.stderr.utf8.count < 500, "\(name): \(result.stderr.prefix(500))"
            )
            #expect(
                result.stderr.hasPrefix("error: \(file): line 33: BEGIN:X nests components more than 32 deep"),
                "\(result.stderr.prefix(500))")
            for trace in ["Fatal error", "Stack dump", "backtrace", "Segmentation fault"] {
                #expect(!result.stderr.contains(trace), "\(name)")
            }
            #expect(try Reliability.dump(sandbox.database) == before, "\(name) changed the database")
        }
        #expect(try contents() == ["existing||false"])
    }

    @Test func exportWritesNoControlCharacters() throws {
        // A name with an ESC sequence and a C1 CSI, as another program may store it.
        _ = try sandbox.ok("add", "plain")
        let insert = try ProcessRunner.run(
            "sqlite3",
            [sandbox.database, "INSERT INTO todos (name) VALUES ('a' || char(27) || '[31mb' || char(155) || 'c')"])
        #expect(insert.status == 0, "\(insert.stderr)")
        let export = try sandbox.ok("export", "--format", "ics")
        let bytes = Array(export.utf8)
        #expect(bytes.count > 100)
        for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x7F {
            let lineEnd =
                (byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A)
                || (byte == 0x0A && index > 0 && bytes[index - 1] == 0x0D)
            #expect(lineEnd, "byte \(byte) at \(index) of \(export.debugDescription)")
        }
        #expect(!export.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "\(export.debugDescription)")
        #expect(export.contains("SUMMARY:a\u{FFFD}[31mb\u{FFFD}c\r\n"))
    }
}
