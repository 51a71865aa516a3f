import TestSupport
import Testing
import TodoInterop
import TodoStore

@testable import TodoSync

/// Whole `.ics` files: every VTODO of every VCALENDAR, occurrences and events left out.
@Suite(.timed) struct ICSFileTests {
    let utc = LocalTimeZone.offset(seconds: 0)

    @Test func readsEveryTodoOfOtherAppsFilesAndCountsWhatItCannotKeep() throws {
        let text = [
            Fixtures.thunderbird, Fixtures.appleReminders, Fixtures.nextcloud, Fixtures.recurring, Fixtures.event
        ].joined()
        let reading = try ICSFile.read(Array(text.utf8), timeZone: utc)
        #expect(
            reading.entries.map(\.uid) == [
                "1f4e3c1a-8f7b-4a0e-9d51-2a6c4b1e7f30", "D7A5B0C2-3E1F-4B6A-9C8D-7E6F5A4B3C2D",
                "e3c5d1b2-6a7f-4e8d-9b0c-1a2b3c4d5e6f", "weekly-report"
            ])
        let weekly = reading.entries[3].fields
        #expect(weekly.name == "Weekly report" && weekly.deadline == CalendarDate("2024-01-05"))
        // Descriptions, priorities and categories that are words are kept now (issue 26).
        #expect(reading.entries[0].fields.note?.hasPrefix("Belege im Ordner \"Steuer 2023\"\nAnlage N") == true)
        #expect(reading.entries[1].fields.priority == .high)
        #expect(
            reading.entries[2].fields.priority == .medium && reading.entries[2].fields.tags.storage == "+Home +Garden")
        // Repeat rules and start dates are the todos' own since issue 34; the alarms have no
        // place, nor has the recurring fixture's moved occurrence (the 12th, due the 11th, while
        // the series stands at the 5th). Nextcloud's start a day before its due date is kept.
        // Since issue 37 every other property and component is counted by name.
        #expect(
            reading.notKept.map(\.description) == [
                "2 alarms", "1 changed occurrence", "1 X-MOZ-GENERATION property", "1 X-APPLE-SORT-ORDER property",
                "1 X-APPLE-STRUCTURED-LOCATION property", "1 event"
            ])
        #expect(reading.entries[2].fields.start == CalendarDate("2024-03-02"))
        #expect(reading.entries[3].fields.repeatRule == "FREQ=WEEKLY")
    }

    @Test func writesWhatItReadsBack() throws {
        let created = UTCTimestamp(iso: "2024-02-01T08:00:00Z")
        let entries = [
            ICSFile.Entry(
                uid: "a",
                fields: TodoFields(
                    name: "x, y; z\n🎉", deadline: CalendarDate("2024-02-29"), isDone: true,
                    priority: TodoPriority(rawValue: 2)!, tags: TodoTags([TodoTag("+work")!, TodoTag("@a,b")!]),
                    note: "line one\nline, two; three", created: created,
                    completed: UTCTimestamp(iso: "2024-03-01T09:30:00Z"))),
            ICSFile.Entry(uid: "b", fields: TodoFields(name: "plain", created: created))
        ]
        let text = ICSFile.write(entries, now: 0)
        let reading = try ICSFile.read(Array(text.utf8), timeZone: .offset(seconds: 50_400))
        #expect(reading.entries == entries && reading.notKept.isEmpty && reading.dropped.isEmpty)
        #expect(try ICSFile.read(Array("\u{FEFF}".utf8) + Array(text.utf8), timeZone: utc).entries == entries)
    }

    @Test func writesNoControlCharacters() throws {
        let entries = [ICSFile.Entry(uid: "a", fields: TodoFields(name: "a\u{1B}[31mb\u{9B}c"))]
        let text = ICSFile.write(entries, now: 0)
        #expect(ICalendarCodecTests.hasNoControls(text), "\(text.debugDescription)")
        #expect(
            try ICSFile.read(Array(text.utf8), timeZone: utc).entries.map(\.fields.name) == ["a\u{FFFD}[31mb\u{FFFD}c"])
    }

    @Test func refusesWhatIsNotICalendarOrHasNoNameOrUID() {
        let cases: [(text: String, error: ImportError)] = [
            ("", ImportError(.file, "not an iCalendar file: it does not start with BEGIN:VCALENDAR")),
            ("x done", ImportError(.file, "not an iCalendar file: it does not start with BEGIN:VCALENDAR")),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n",
                ImportError(.line(3), "END:VCALENDAR where END:VTODO was expected")
            ),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                ImportError(.line(2), "the VTODO has no UID")
            ),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                ImportError(.line(2), "the VTODO u has no name (its SUMMARY is missing or blank)")
            )
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text.debugDescription)") { try ICSFile.read(Array(text.utf8), timeZone: utc) }
        }
        #expect(throws: ImportError(.file, "not UTF-8 text")) { try ICSFile.read([0x42, 0xFF], timeZone: utc) }
    }
}
