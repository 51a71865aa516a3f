import TestSupport
import Testing
import TodoInterop
import TodoStore

@testable import TodoSync

/// VTODO <-> todo fields: what is read, what an update changes, and what it never touches.
@Suite(.timed) struct VTodoMappingTests {
    let utc = LocalTimeZone.offset(seconds: 0)

    /// A one-VTODO object with the given extra property lines.
    func object(_ lines: String...) -> String { Fixtures.todoObject(lines) }

    func date(_ text: String) -> CalendarDate? { CalendarDate(text) }

    /// The unfolded lines of a text, for comparing what changed.
    func unfolded(_ text: String) -> [String] {
        // Bytes, not Characters: a fold's space and a combining mark after it are one Character.
        var lines: [[UInt8]] = [[]]
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if lines[lines.count - 1].last == 0x0D { lines[lines.count - 1].removeLast() }
                if index + 1 < bytes.count, bytes[index + 1] == 0x20 || bytes[index + 1] == 0x09 {
                    index += 2
                    continue
                }
                lines.append([])
            } else {
                lines[lines.count - 1].append(bytes[index])
            }
            index += 1
        }
        return lines.filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The name of an unfolded line (by scalars: a colon and a combining mark are one Character).
    func propertyName(_ line: String) -> String {
        String(String.UnicodeScalarView(line.unicodeScalars.prefix { $0 != ":" && $0 != ";" })).uppercased()
    }

    /// The property names whose lines differ between two texts (as multisets of lines).
    func changedNames(_ before: String, _ after: String) -> Set<String> {
        let old = unfolded(before)
        let new = unfolded(after)
        let removed = old.filter { !new.contains($0) }
        let added = new.filter { !old.contains($0) }
        return Set((removed + added).map { propertyName($0) })
    }

    // MARK: Reading

    @Test func dueDatesBecomeLocalCalendarDates() throws {
        let cases: [(due: String, zone: LocalTimeZone, expected: String?)] = [
            ("DUE;VALUE=DATE:20240501", utc, "2024-05-01"),
            ("DUE:20240501", .offset(seconds: -36_000), "2024-05-01"),
            // UTC near midnight: the day depends on the zone.
            ("DUE:20240430T150000Z", .offset(seconds: 9 * 3600), "2024-05-01"),
            ("DUE:20240430T150000Z", .offset(seconds: 8 * 3600), "2024-04-30"),
            ("DUE:20240501T030000Z", .offset(seconds: -5 * 3600), "2024-04-30"),
            ("DUE:20240501T000000Z", utc, "2024-05-01"),
            ("DUE:20240430T235959Z", utc, "2024-04-30"),
            // Floating: its own wall date, whatever the zone.
            ("DUE:20240501T233000", .offset(seconds: 14 * 3600), "2024-05-01"),
            ("DUE:20240501T000000", .offset(seconds: -12 * 3600), "2024-05-01"),
            // Berlin is UTC+2 in May: 00:30 there is 22:30 UTC the day before.
            ("DUE;TZID=Europe/Berlin:20240501T003000", utc, "2024-04-30"),
            ("DUE;TZID=Europe/Berlin:20240501T003000", .offset(seconds: 7200), "2024-05-01"),
            // ...and UTC+1 in January.
            ("DUE;TZID=Europe/Berlin:20240115T005959", utc, "2024-01-14"),
            ("DUE;TZID=Europe/Berlin:20240115T010000", utc, "2024-01-15"),
            // After the transitions table: the zone file's rule (CEST in July 2045).
            ("DUE;TZID=Europe/Berlin:20450701T013000", utc, "2045-06-30"),
            // New York is UTC-5 in January: 23:00 there is 04:00 UTC the next day.
            ("DUE;TZID=America/New_York:20240115T230000", utc, "2024-01-16"),
            ("DUE;TZID=America/New_York:20240115T230000", .offset(seconds: -5 * 3600), "2024-01-15"),
            ("DUE;TZID=America/New_York:20240715T220000", utc, "2024-07-16"),
            ("DUE;TZID=America/New_York:20240715T195959", utc, "2024-07-15"),
            ("DUE;TZID=/mozilla.org/20050126_1/America/New_York:20240115T230000", utc, "2024-01-16"),
            // An unknown zone without a VTIMEZONE: the wall date.
            ("DUE;TZID=Nowhere/Special:20240115T230000", utc, "2024-01-15"),
            ("DUE;TZID=../../etc/passwd:20240115T230000", utc, "2024-01-15"),
            // Not a date at all: no deadline.
            ("DUE:tomorrow", utc, nil),
            ("DUE;VALUE=DATE:20230229", utc, nil)
        ]
        for (due, zone, expected) in cases {
            let todo = try VTodoObject(parsing: object("SUMMARY:x", due), timeZone: zone)
            #expect(todo.fields.deadline == expected.flatMap(date), "\(due) in \(zone)")
        }
        let none = try VTodoObject(parsing: object("SUMMARY:x"), timeZone: utc)
        #expect(none.fields.deadline == nil)
    }

    @Test func anUnknownZoneUsesTheObjectsVTimezoneWhenItHasOneOffset() throws {
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VTIMEZONE\r
            TZID:India Standard Time\r
            BEGIN:STANDARD\r
            DTSTART:16010101T000000\r
            TZOFFSETFROM:+0530\r
            TZOFFSETTO:+0530\r
            END:STANDARD\r
            END:VTIMEZONE\r
            BEGIN:VTODO\r
            UID:x\r
            DUE;TZID=India Standard Time:20240501T040000\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        #expect(
            try VTodoObject(parsing: text, timeZone: utc).fields.deadline == date("2024-04-30"),
            "04:00 +0530 is 22:30 UTC the day before")
        let newYork = try VTodoObject(parsing: Fixtures.lfOnlyNewYork, timeZone: utc)
        #expect(
            newYork.fields
                == TodoFields(name: "Call the bank before closing", deadline: date("2024-01-16"), isDone: false))
    }

    @Test func statusMapsToDone() throws {
        let cases: [(lines: [String], done: Bool)] = [
            (["STATUS:COMPLETED"], true),
            (["STATUS:COMPLETED", "COMPLETED:20240101T000000Z"], true),
            (["STATUS:CANCELLED"], true),
            (["STATUS:NEEDS-ACTION"], false),
            (["STATUS:IN-PROCESS"], false),
            (["STATUS:NEEDS-ACTION", "COMPLETED:20240101T000000Z"], false),
            ([], false),
            (["COMPLETED:20240101T000000Z"], true),
            (["status:completed "], true),
            (["STATUS:X-WAITING"], false),
            (["STATUS:X-WAITING", "COMPLETED:20240101T000000Z"], true)
        ]
        for (lines, done) in cases {
            let text = (["BEGIN:VTODO", "UID:x"] + lines + ["END:VTODO"]).joined(separator: "\r\n")
            #expect(try VTodoObject(parsing: text, timeZone: utc).fields.isDone == done, "\(lines)")
        }
    }

    @Test func summaryIsTheName() throws {
        #expect(
            try VTodoObject(parsing: object(#"SUMMARY:Line one\nline two\, with\; marks \\ done"#), timeZone: utc)
                .fields.name
                == "Line one\nline two, with; marks \\ done")
        #expect(try VTodoObject(parsing: object(), timeZone: utc).fields.name == "")
        let reminders = try VTodoObject(parsing: Fixtures.appleReminders, timeZone: utc)
        #expect(reminders.uid == "D7A5B0C2-3E1F-4B6A-9C8D-7E6F5A4B3C2D")
        #expect(
            reminders.fields
                == TodoFields(
                    name: "Rückruf Zahnarzt 🦷 wegen Termin am Dienstag um 10:30, bitte bestätigen",
                    deadline: date("2024-04-05"), isDone: true, priority: .high,
                    created: UTCTimestamp(iso: "2024-04-01T09:00:00Z"),
                    completed: UTCTimestamp(iso: "2024-04-02T10:10:10Z")))
    }

    @Test func theMasterIsTheVTodoWithoutRecurrenceID() throws {
        let recurring = try VTodoObject(parsing: Fixtures.recurring, timeZone: utc)
        #expect(recurring.uid == "weekly-report")
        #expect(
            recurring.fields.name == "Weekly report" && recurring.fields.deadline == date("2024-01-05")
                && !recurring.fields.isDone)
        var updated = recurring
        var done = recurring.fields
        done.isDone = true
        updated.update(to: done, now: 1_700_000_000)
        #expect(
            updated.text.hasPrefix(
                Fixtures.recurring.prefix(through: Fixtures.recurring.firstRange(of: "END:VTODO\r\n")!.upperBound)),
            "the overridden occurrence is untouched")
    }

    @Test func objectsWithoutATodoOrUIDAreDistinctErrors() {
        #expect { try VTodoObject(parsing: Fixtures.event, timeZone: utc) } throws: {
            ($0 as? ICalendarError)?.kind == .noTodo
        }
        #expect { try VTodoObject(parsing: "", timeZone: utc) } throws: { ($0 as? ICalendarError)?.kind == .noTodo }
        #expect {
            try VTodoObject(
                parsing: "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", timeZone: utc)
        } throws: { ($0 as? ICalendarError) == ICalendarError(.missingUID, line: 2, "the VTODO has no UID") }
        #expect {
            try VTodoObject(parsing: "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n", timeZone: utc)
        } throws: { ($0 as? ICalendarError)?.kind == .structure }
    }

    // MARK: Writing

    @Test func newObjectsReadBackTheirFields() throws {
        var fields = TodoFields(
            name: "Pay rent, then; relax \\ 🎉\nsecond line", deadline: date("2024-05-01"), isDone: true)
        let object = VTodoObject.new(uid: "abc-1", fields: fields, now: 1_714_521_600)
        // Without times of its own, the todo is stamped created and completed now.
        fields.created = UTCTimestamp(secondsSince1970: 1_714_521_600)
        fields.completed = fields.created
        #expect(
            object.text
                == Fixtures.crlf(
                    """
                    BEGIN:VCALENDAR
                    VERSION:2.0
                    PRODID:-//todo//todo//EN
                    BEGIN:VTODO
                    UID:abc-1
                    DTSTAMP:20240501T000000Z
                    CREATED:20240501T000000Z
                    LAST-MODIFIED:20240501T000000Z
                    SUMMARY:Pay rent\\, then\\; relax \\\\ 🎉\\nsecond line
                    DUE;VALUE=DATE:20240501
                    STATUS:COMPLETED
                    COMPLETED:20240501T000000Z
                    END:VTODO
                    END:VCALENDAR

                    """))
        let read = try VTodoObject(parsing: object.text, timeZone: .offset(seconds: -43_200))
        #expect(read.uid == "abc-1" && read.fields == fields)
        let plain = VTodoObject.new(uid: "u", fields: TodoFields(name: "x"), now: 0)
        #expect(
            !plain.text.contains("DUE") && plain.text.contains("STATUS:NEEDS-ACTION")
                && !plain.text.contains("COMPLETED:"))
        #expect(UTCTimestamp(secondsSince1970: -1).basic == "19691231T235959Z")
        #expect(UTCTimestamp(secondsSince1970: 951_782_400).basic == "20000229T000000Z")
    }

    @Test func anUpdateWithoutChangesKeepsTheTextByteForByte() throws {
        for (name, text) in Fixtures.all where name != "event" {
            var object = try VTodoObject(parsing: text, timeZone: utc)
            object.update(to: object.fields, now: 1_800_000_000)
            #expect(object.text == text, "\(name)")
        }
    }

    @Test func anUpdateChangesOnlyTheLinesOfTheFieldsThatChanged() throws {
        let stamps: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]
        var generator = SeededGenerator(seed: 42)
        for (name, text) in Fixtures.all where name != "event" {
            let original = try VTodoObject(parsing: text, timeZone: utc)
            for _ in 0..<20 {
                var fields = original.fields
                var expected = stamps
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    fields.name = ICalendarCodecTests.randomText(using: &generator) + "!"
                    expected.insert("SUMMARY")
                case 1:
                    fields.deadline =
                        Bool.random(using: &generator)
                        ? nil : date("2025-0\(Int.random(in: 1...9, using: &generator))-11")
                    if fields.deadline != original.fields.deadline { expected.insert("DUE") }
                    // A repeating todo's series moves with its deadline (issue 34).
                    if fields.deadline != nil, original.fields.repeats { expected.insert("DTSTART") }
                default:
                    // As the store does it: done gets the time it was marked, undone loses it.
                    fields.isDone.toggle()
                    fields.completed = fields.isDone ? UTCTimestamp(secondsSince1970: 1_800_000_000) : nil
                    expected.formUnion(["STATUS", "COMPLETED", "PERCENT-COMPLETE"])
                }
                guard fields != original.fields else { continue }
                var object = original
                object.update(to: fields, now: 1_800_000_000)
                let changed = changedNames(text, object.text)
                #expect(changed.isSubset(of: expected), "\(name): \(changed) for \(expected)")
                #expect(changed.isSuperset(of: stamps), "\(name): \(changed)")
                let reread = try VTodoObject(parsing: object.text, timeZone: utc)
                #expect(reread.fields == fields && reread.uid == original.uid, "\(name): \(reread.fields) vs \(fields)")
                // Every line of the original outside the changed properties is there, as it was.
                let kept = unfolded(text).filter { !expected.contains(propertyName($0)) }
                #expect(kept.allSatisfy(unfolded(object.text).contains), "\(name)")
            }
        }
    }

    @Test func anUpdateOfOneFieldLeavesADateTimeDueAndFoldsAsTheyWere() throws {
        var object = try VTodoObject(parsing: Fixtures.thunderbird, timeZone: utc)
        #expect(object.fields.deadline == date("2024-04-30"))
        var fields = object.fields
        fields.name = "Steuererklärung abgegeben"
        object.update(to: fields, now: 1_714_521_600)
        let expected = Fixtures.thunderbird
            .replacing("SUMMARY:Steuererklärung abgeben\\, endlich", with: "SUMMARY:Steuererklärung abgegeben")
            .replacing("LAST-MODIFIED:20240410T081633Z", with: "LAST-MODIFIED:20240501T000000Z")
            .replacing("DTSTAMP:20240410T081633Z", with: "DTSTAMP:20240501T000000Z")
            .replacing("X-MOZ-GENERATION:2\r\n", with: "X-MOZ-GENERATION:2\r\nSEQUENCE:1\r\n")
        #expect(object.text == expected)
    }

    @Test func doneAndUndoneWriteStatusCompletedAndPercent() throws {
        var reminders = try VTodoObject(parsing: Fixtures.appleReminders, timeZone: utc)
        var fields = reminders.fields
        fields.isDone = false
        reminders.update(to: fields, now: 1_714_521_600)
        let undone = reminders.todo
        #expect(undone.property(named: "STATUS")?.value == "NEEDS-ACTION")
        #expect(undone.property(named: "COMPLETED") == nil && undone.property(named: "PERCENT-COMPLETE") == nil)
        #expect(undone.property(named: "SEQUENCE")?.value == "4")
        #expect(undone.property(named: "PRIORITY")?.value == "1" && undone.property(named: "X-APPLE-SORT-ORDER") != nil)

        var nextcloud = try VTodoObject(parsing: Fixtures.nextcloud, timeZone: utc)
        #expect(nextcloud.fields.isDone == false)
        fields = nextcloud.fields
        fields.isDone = true
        nextcloud.update(to: fields, now: 1_714_521_600)
        let done = nextcloud.todo
        #expect(done.property(named: "STATUS")?.value == "COMPLETED")
        #expect(done.property(named: "COMPLETED")?.value == "20240501T000000Z")
        #expect(done.property(named: "PERCENT-COMPLETE")?.value == "100")
        #expect(done.property(named: "SEQUENCE")?.value == "1")
        #expect(done.property(named: "RRULE") != nil && done.property(named: "CATEGORIES")?.value == "Home,Garden")
        #expect(done.components(named: "VALARM").count == 1)

        fields.isDone = false
        nextcloud.update(to: fields, now: 1_714_521_601)
        #expect(nextcloud.todo.property(named: "PERCENT-COMPLETE") == nil, "100 percent of a todo not done is dropped")
    }

    @Test func aDeadlineChangeWritesADateAndRemovingItRemovesDue() throws {
        var object = try VTodoObject(parsing: Fixtures.thunderbird, timeZone: utc)
        var fields = object.fields
        fields.deadline = date("2024-06-01")
        object.update(to: fields, now: 0)
        #expect(
            object.todo.properties(named: "DUE") == [
                ICalendarProperty(
                    name: "DUE", parameters: [ICalendarParameter(name: "VALUE", values: ["DATE"])], value: "20240601")
            ])
        fields.deadline = nil
        object.update(to: fields, now: 0)
        #expect(object.todo.property(named: "DUE") == nil)
        #expect(object.todo.property(named: "SEQUENCE")?.value == "2")
        #expect(object.text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"), "the VTIMEZONE stays")
    }

    // MARK: DUE beside DTSTART

    /// An object with `lines`, its deadline set to `deadline` (read and written in `zone`).
    func edited(_ lines: [String], deadline: String?, zone: LocalTimeZone) throws -> (
        before: String, after: VTodoObject
    ) {
        let text = object(["SUMMARY:x"] + lines)
        var todo = try VTodoObject(parsing: text, timeZone: zone)
        var fields = todo.fields
        fields.deadline = deadline.flatMap(date)
        todo.update(to: fields, now: 1_800_000_000)
        return (text, todo)
    }

    func object(_ lines: [String]) -> String { Fixtures.todoObject(lines) }

    /// The unfolded line of a property, as written.
    func line(_ name: String, _ object: VTodoObject) -> String? {
        unfolded(object.text).first { propertyName($0) == name }
    }

    @Test func aDeadlineBesideADateTimeStartIsADateTimeInTheSameForm() throws {
        let tokyo = LocalTimeZone.offset(seconds: 9 * 3600)
        let hawaii = LocalTimeZone.offset(seconds: -10 * 3600)
        let cases: [(start: String, due: String?, zone: LocalTimeZone, expected: String)] = [
            // Floating: noon on the deadline (its own date in any zone).
            ("DTSTART:20240501T090000", nil, tokyo, "DUE:20240615T120000"),
            ("DTSTART:20240501T090000", "DUE;VALUE=DATE:20240502", hawaii, "DUE:20240615T120000"),
            // UTC: noon on the deadline in the sync's zone.
            ("DTSTART:20240501T090000Z", nil, utc, "DUE:20240615T120000Z"),
            ("DTSTART:20240501T090000Z", nil, tokyo, "DUE:20240615T030000Z"),
            ("DTSTART:20240501T090000Z", nil, hawaii, "DUE:20240615T220000Z"),
            // A zone: noon in the sync's zone on that zone's clock (New York is UTC-4 in June).
            ("DTSTART;TZID=America/New_York:20240501T090000", nil, utc, "DUE;TZID=America/New_York:20240615T080000"),
            (
                "DTSTART;TZID=Europe/Berlin:20240501T090000", "DUE;VALUE=DATE:20240502", .offset(seconds: 7200),
                "DUE;TZID=Europe/Berlin:20240615T120000"
            ),
            (
                "DTSTART;TZID=Pacific/Kiritimati:20240501T090000", nil, hawaii,
                "DUE;TZID=Pacific/Kiritimati:20240616T120000"
            ),
            // A zone the system does not know, with a VTIMEZONE-less object: the wall date.
            ("DTSTART;TZID=Nowhere/Special:20240501T090000", nil, tokyo, "DUE;TZID=Nowhere/Special:20240615T120000"),
            // The previous DUE's time of day is kept when it was in the same form...
            ("DTSTART:20240501T090000Z", "DUE:20240502T170000Z", utc, "DUE:20240615T170000Z"),
            ("DTSTART:20240501T090000", "DUE:20240502T235959", hawaii, "DUE:20240615T235959"),
            (
                "DTSTART;TZID=Europe/Berlin:20240501T090000", "DUE;TZID=Europe/Berlin:20240503T170000",
                .offset(seconds: 7200),
                "DUE;TZID=Europe/Berlin:20240615T170000"
            ),
            // ...on whichever UTC day reads back as the deadline (15:00Z is midnight in Tokyo).
            ("DTSTART:20240501T090000Z", "DUE:20240430T150000Z", tokyo, "DUE:20240614T150000Z"),
            // ...but not from another form.
            ("DTSTART:20240501T090000Z", "DUE:20240502T170000", utc, "DUE:20240615T120000Z"),
            (
                "DTSTART;TZID=Europe/Berlin:20240501T090000", "DUE;TZID=Europe/Paris:20240503T170000",
                .offset(seconds: 7200),
                "DUE;TZID=Europe/Berlin:20240615T120000"
            )
        ]
        for (start, due, zone, expected) in cases {
            let (before, after) = try edited([start] + (due.map { [$0] } ?? []), deadline: "2024-06-15", zone: zone)
            let label = "\(start) \(due ?? "") in \(zone)"
            #expect(line("DUE", after) == expected, "\(label)")
            #expect(line("DTSTART", after) == start, "\(label): DTSTART stays")
            #expect(
                try VTodoObject(parsing: after.text, timeZone: zone).fields.deadline == date("2024-06-15"), "\(label)")
            #expect(
                changedNames(before, after.text).isSubset(of: ["DUE", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]),
                "\(label)")
        }
    }

    @Test func aDeadlineBesideADateStartIsADate() throws {
        let (_, after) = try edited(
            ["DTSTART;VALUE=DATE:20240501", "DUE:20240502T170000Z"], deadline: "2024-06-15", zone: utc)
        #expect(line("DUE", after) == "DUE;VALUE=DATE:20240615")
        #expect(line("DTSTART", after) == "DTSTART;VALUE=DATE:20240501")
    }

    @Test func aDeadlineReplacesADuration() throws {
        let (_, after) = try edited(["DTSTART;VALUE=DATE:20240501", "DURATION:P3D"], deadline: "2024-06-15", zone: utc)
        #expect(line("DUE", after) == "DUE;VALUE=DATE:20240615")
        #expect(line("DURATION", after) == nil)
        #expect(line("DTSTART", after) == "DTSTART;VALUE=DATE:20240501")
    }

    @Test func aDeadlineBeforeTheStartMovesTheStartBack() throws {
        let tokyo = LocalTimeZone.offset(seconds: 9 * 3600)
        let cases: [(start: String, zone: LocalTimeZone, due: String, movedStart: String)] = [
            ("DTSTART;VALUE=DATE:20240601", utc, "DUE;VALUE=DATE:20240520", "DTSTART;VALUE=DATE:20240520"),
            ("DTSTART:20240601", tokyo, "DUE;VALUE=DATE:20240520", "DTSTART:20240520"),
            // A date-time: the start of the deadline's day in the sync's zone, in DTSTART's form.
            ("DTSTART:20240601T090000", tokyo, "DUE:20240520T120000", "DTSTART:20240520T000000"),
            ("DTSTART:20240601T090000Z", utc, "DUE:20240520T120000Z", "DTSTART:20240520T000000Z"),
            ("DTSTART:20240601T090000Z", tokyo, "DUE:20240520T030000Z", "DTSTART:20240519T150000Z"),
            (
                "DTSTART;TZID=America/New_York:20240601T090000", utc, "DUE;TZID=America/New_York:20240520T080000",
                "DTSTART;TZID=America/New_York:20240519T200000"
            ),
            (
                "DTSTART;X-KEEP=1;TZID=Europe/Berlin:20240601T090000", .offset(seconds: 7200),
                "DUE;TZID=Europe/Berlin:20240520T120000",
                "DTSTART;X-KEEP=1;TZID=Europe/Berlin:20240520T000000"
            )
        ]
        for (start, zone, due, movedStart) in cases {
            let (before, after) = try edited([start, "X-UNKNOWN;X-P=1:kept"], deadline: "2024-05-20", zone: zone)
            #expect(line("DUE", after) == due, "\(start) in \(zone)")
            #expect(line("DTSTART", after) == movedStart, "\(start) in \(zone)")
            #expect(
                try VTodoObject(parsing: after.text, timeZone: zone).fields.deadline == date("2024-05-20"), "\(start)")
            #expect(
                changedNames(before, after.text) == ["DUE", "DTSTART", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"],
                "\(start)")
        }
    }

    @Test func aDeadlineOnTheStartsDayIsNotBeforeTheStart() throws {
        // Noon would be before a 15:00 start: DUE is at the start instead, and the start stays.
        let (_, after) = try edited(["DTSTART:20240520T150000"], deadline: "2024-05-20", zone: utc)
        #expect(line("DUE", after) == "DUE:20240520T150000")
        #expect(line("DTSTART", after) == "DTSTART:20240520T150000")
        let (_, utcStart) = try edited(
            ["DTSTART:20240520T150000Z", "DUE:20240521T100000Z"], deadline: "2024-05-20", zone: .offset(seconds: 3600))
        #expect(
            line("DUE", utcStart) == "DUE:20240520T150000Z" && line("DTSTART", utcStart) == "DTSTART:20240520T150000Z")
    }

    @Test func clearingTheDeadlineLeavesTheStart() throws {
        let (before, after) = try edited(
            ["DTSTART:20240601T090000Z", "DUE:20240602T090000Z", "X-UNKNOWN:kept"], deadline: nil, zone: utc)
        #expect(line("DUE", after) == nil)
        #expect(line("DTSTART", after) == "DTSTART:20240601T090000Z")
        #expect(changedNames(before, after.text) == ["DUE", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"])
    }

    @Test func everyWrittenDeadlineReadsBackAsItself() throws {
        let zones: [LocalTimeZone] =
            [.system] + stride(from: -12, through: 14, by: 1).map { .offset(seconds: $0 * 3600) }
            + [.offset(seconds: 5 * 3600 + 1800), .offset(seconds: -(9 * 3600 + 1800))]
        let starts = [
            "DTSTART:20240301T093000", "DTSTART:20240301T093000Z", "DTSTART;TZID=Europe/Berlin:20240301T093000",
            "DTSTART;TZID=America/New_York:20240301T233000", "DTSTART;TZID=Australia/Lord_Howe:20240301T020000",
            "DTSTART;TZID=Pacific/Kiritimati:20240301T000000", "DTSTART;VALUE=DATE:20240301"
        ]
        let dues = [
            nil, "DUE;VALUE=DATE:20240305", "DUE:20240305T000000Z", "DUE:20240305T235959Z", "DUE:20240305T000000",
            "DUE;TZID=Europe/Berlin:20240305T000000", "DUE;TZID=America/New_York:20240305T235959"
        ]
        // Daylight saving days in Berlin, New York and Lord Howe, a leap day, the ends of the years.
        let deadlines = [
            "2024-03-31", "2024-10-27", "2024-03-10", "2024-11-03", "2024-04-07", "2024-02-29", "2024-02-20",
            "0001-01-01", "9999-12-31"
        ]
        for zone in zones {
            for start in starts {
                for due in dues {
                    let text = object(["SUMMARY:x", start] + (due.map { [$0] } ?? []))
                    let original = try VTodoObject(parsing: text, timeZone: zone)
                    for deadline in deadlines {
                        var todo = original
                        var fields = todo.fields
                        fields.deadline = date(deadline)
                        todo.update(to: fields, now: 0)
                        let label = "\(start) \(due ?? "") \(deadline) in \(zone)"
                        let reread = try VTodoObject(parsing: todo.text, timeZone: zone)
                        #expect(reread.fields.deadline == date(deadline), "\(label): \(line("DUE", todo) ?? "")")
                        let written = try #require(
                            reread.todo.property(named: "DUE").flatMap(ICalendarTime.init), "\(label)")
                        let writtenStart = try #require(
                            reread.todo.property(named: "DTSTART").flatMap(ICalendarTime.init), "\(label)")
                        if case .date = writtenStart {
                            #expect(written.hasSameForm(as: writtenStart), "\(label)")
                        } else {
                            #expect(
                                !written.hasSameForm(as: .date(CalendarDate(daysSinceEpoch: 0)!)),
                                "\(label): a DATE beside a DATE-TIME")
                        }
                        if written.hasSameForm(as: writtenStart) {
                            #expect(writtenStart.seconds <= written.seconds, "\(label): DUE before DTSTART")
                        }
                    }
                }
            }
        }
    }
}
