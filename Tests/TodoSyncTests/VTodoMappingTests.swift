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

    /// A DUE keeps its own clock: the deadline is its date there (a UTC one's in the zone that
    /// reads it), with its time of day, and where it is shown it is converted to the zone in
    /// force then (issue 34: never frozen in the zone of the device that synced it).
    @Test func dueTimesKeepTheirOwnClockAndAreShownInTheZoneInForce() throws {
        let cases: [(due: String, zone: LocalTimeZone, deadline: String?, shown: String?)] = [
            ("DUE;VALUE=DATE:20240501", utc, "2024-05-01", "2024-05-01"),
            ("DUE:20240501", .offset(seconds: -36_000), "2024-05-01", "2024-05-01"),
            // UTC near midnight: the day depends on the zone.
            ("DUE:20240430T150000Z", .offset(seconds: 9 * 3600), "2024-05-01", "2024-05-01 00:00"),
            ("DUE:20240430T150000Z", .offset(seconds: 8 * 3600), "2024-04-30", "2024-04-30 23:00"),
            ("DUE:20240501T030000Z", .offset(seconds: -5 * 3600), "2024-04-30", "2024-04-30 22:00"),
            ("DUE:20240501T000000Z", utc, "2024-05-01", "2024-05-01 00:00"),
            ("DUE:20240430T235959Z", utc, "2024-04-30", "2024-04-30 23:59:59"),
            // Floating: its own wall date and time, whatever the zone.
            ("DUE:20240501T233000", .offset(seconds: 14 * 3600), "2024-05-01", "2024-05-01 23:30"),
            ("DUE:20240501T000000", .offset(seconds: -12 * 3600), "2024-05-01", "2024-05-01 00:00"),
            // Berlin is UTC+2 in May: 00:30 there is 22:30 UTC the day before.
            ("DUE;TZID=Europe/Berlin:20240501T003000", utc, "2024-05-01", "2024-04-30 22:30"),
            ("DUE;TZID=Europe/Berlin:20240501T003000", .offset(seconds: 7200), "2024-05-01", "2024-05-01 00:30"),
            // ...and UTC+1 in January.
            ("DUE;TZID=Europe/Berlin:20240115T005959", utc, "2024-01-15", "2024-01-14 23:59:59"),
            ("DUE;TZID=Europe/Berlin:20240115T010000", utc, "2024-01-15", "2024-01-15 00:00"),
            // After the transitions table: the zone file's rule (CEST in July 2045).
            ("DUE;TZID=Europe/Berlin:20450701T013000", utc, "2045-07-01", "2045-06-30 23:30"),
            // New York is UTC-5 in January: 23:00 there is 04:00 UTC the next day.
            ("DUE;TZID=America/New_York:20240115T230000", utc, "2024-01-15", "2024-01-16 04:00"),
            (
                "DUE;TZID=America/New_York:20240115T230000", .offset(seconds: -5 * 3600), "2024-01-15",
                "2024-01-15 23:00"
            ),
            ("DUE;TZID=America/New_York:20240715T220000", utc, "2024-07-15", "2024-07-16 02:00"),
            ("DUE;TZID=America/New_York:20240715T195959", utc, "2024-07-15", "2024-07-15 23:59:59"),
            (
                "DUE;TZID=/mozilla.org/20050126_1/America/New_York:20240115T230000", utc, "2024-01-15",
                "2024-01-16 04:00"
            ),
            // An unknown zone without a VTIMEZONE: the wall date and time as written.
            ("DUE;TZID=Nowhere/Special:20240115T230000", utc, "2024-01-15", "2024-01-15 23:00"),
            ("DUE;TZID=../../etc/passwd:20240115T230000", utc, "2024-01-15", "2024-01-15 23:00"),
            // Not a date at all: no deadline.
            ("DUE:tomorrow", utc, nil, nil),
            ("DUE;VALUE=DATE:20230229", utc, nil, nil)
        ]
        for (due, zone, deadline, shown) in cases {
            let todo = try VTodoObject(parsing: object("SUMMARY:x", due), timeZone: zone)
            #expect(todo.fields.deadline == deadline.flatMap(date), "\(due) in \(zone)")
            var local = LocalDueTimes(zone: zone)
            let seen = local.due(of: todo.fields).map { due in
                "\(due.date)" + (due.secondOfDay.map { " " + TodoDueTime.clock($0) } ?? "")
            }
            #expect(seen == shown, "\(due) in \(zone)")
        }
        let none = try VTodoObject(parsing: object("SUMMARY:x"), timeZone: utc)
        #expect(none.fields.deadline == nil && none.fields.dueTime == nil)
    }

    @Test func aZoneOnlyTheObjectDescribesKeepsItsWallTime() throws {
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
        // Outlook's name, which the tz database does not know: shown as written.
        let india = try VTodoObject(parsing: text, timeZone: utc)
        #expect(india.fields.deadline == date("2024-05-01"))
        #expect(india.fields.dueTime == .wall(secondOfDay: 4 * 3600, zone: "India Standard Time"))
        var local = LocalDueTimes(zone: utc)
        #expect(local.due(of: india.fields)?.secondOfDay == 4 * 3600)
        #expect(TodoDueTime(text: "04:00 India Standard Time") == india.fields.dueTime)
        let newYork = try VTodoObject(parsing: Fixtures.lfOnlyNewYork, timeZone: utc)
        #expect(
            newYork.fields
                == TodoFields(
                    name: "Call the bank before closing", deadline: date("2024-01-15"), isDone: false,
                    dueTime: .wall(secondOfDay: 23 * 3600, zone: "America/New_York")))
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
                    completed: UTCTimestamp(iso: "2024-04-02T10:10:10Z"), percent: 100))
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
                    fields.moveDeadline(
                        to: Bool.random(using: &generator)
                            ? nil : date("2025-0\(Int.random(in: 1...9, using: &generator))-11"))
                    // The start and absolute alarms move with the deadline (issue 34).
                    if fields.deadline != original.fields.deadline { expected.formUnion(["DUE", "DTSTART", "TRIGGER"]) }
                default:
                    // As the store does it: done gets the time it was marked and 100 percent,
                    // undone loses the time and a 100.
                    fields.setStatus(
                        fields.isDone ? .needsAction : .completed, now: UTCTimestamp(secondsSince1970: 1_800_000_000))
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
        #expect(object.fields.deadline == date("2024-05-01"))
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
        #expect(nextcloud.fields.status == .inProcess && nextcloud.fields.percent == 40)
        fields = nextcloud.fields
        // Another program's `UPDATE todos SET done = 1`: completed, its percent left at 40.
        fields.isDone = true
        nextcloud.update(to: fields, now: 1_714_521_600)
        let done = nextcloud.todo
        #expect(done.property(named: "STATUS")?.value == "COMPLETED")
        #expect(done.property(named: "COMPLETED")?.value == "20240501T000000Z")
        #expect(done.property(named: "PERCENT-COMPLETE")?.value == "100")
        #expect(done.property(named: "SEQUENCE")?.value == "1")
        #expect(done.property(named: "RRULE") != nil && done.property(named: "CATEGORIES")?.value == "Home,Garden")
        #expect(done.components(named: "VALARM").count == 1)

        #expect(nextcloud.fields.percent == 100, "the fields say what the object says")

        fields = nextcloud.fields
        fields.isDone = false
        nextcloud.update(to: fields, now: 1_714_521_601)
        #expect(nextcloud.todo.property(named: "PERCENT-COMPLETE") == nil, "100 percent of a todo not done is dropped")
    }

    @Test func aDeadlineChangeKeepsItsTimeAndRemovingItRemovesDue() throws {
        var object = try VTodoObject(parsing: Fixtures.thunderbird, timeZone: utc)
        var fields = object.fields
        fields.moveDeadline(to: date("2024-06-01"))
        object.update(to: fields, now: 0)
        #expect(line("DUE", object) == "DUE;TZID=Europe/Berlin:20240601T003000")
        fields.dueTime = nil
        object.update(to: fields, now: 0)
        #expect(line("DUE", object) == "DUE;VALUE=DATE:20240601")
        fields.moveDeadline(to: nil)
        object.update(to: fields, now: 0)
        #expect(object.todo.property(named: "DUE") == nil)
        #expect(object.todo.property(named: "SEQUENCE")?.value == "3")
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
        if deadline == nil { fields.dueTime = nil }
        todo.update(to: fields, now: 1_800_000_000)
        return (text, todo)
    }

    func object(_ lines: [String]) -> String { Fixtures.todoObject(lines) }

    /// The unfolded line of a property, as written.
    func line(_ name: String, _ object: VTodoObject) -> String? {
        unfolded(object.text).first { propertyName($0) == name }
    }

    /// Moving a deadline (as `todo edit --due` does) keeps its time of day and its form, and
    /// moves the start and absolute alarms by as much (issue 34, point 3).
    @Test func aMovedDeadlineKeepsItsTimeAndFormAndMovesTheStartAndAlarms() throws {
        let cases: [(lines: [String], zone: LocalTimeZone, due: String, start: String?)] = [
            (
                ["DTSTART:20240501T090000Z", "DUE:20240502T170000Z"], utc, "DUE:20240615T170000Z",
                "DTSTART:20240614T090000Z"
            ),
            (
                ["DTSTART;TZID=Europe/Berlin:20240501T090000", "DUE;TZID=Europe/Berlin:20240503T170000"], utc,
                "DUE;TZID=Europe/Berlin:20240615T170000", "DTSTART;TZID=Europe/Berlin:20240613T090000"
            ),
            (["DTSTART:20240501T090000", "DUE:20240502T235959"], utc, "DUE:20240615T235959", "DTSTART:20240614T090000"),
            // Mixed forms (invalid): DTSTART takes DUE's, at DUE's time of day.
            (
                ["DTSTART:20240501T090000Z", "DUE;TZID=Europe/Paris:20240503T170000"], utc,
                "DUE;TZID=Europe/Paris:20240615T170000", "DTSTART;TZID=Europe/Paris:20240613T170000"
            ),
            // A start on the deadline's day (Apple Reminders) is no separate start: it stays on it.
            (
                ["DTSTART;VALUE=DATE:20240503", "DUE;VALUE=DATE:20240503"], utc, "DUE;VALUE=DATE:20240615",
                "DTSTART;VALUE=DATE:20240615"
            ),
            (
                ["DTSTART;X-KEEP=1;VALUE=DATE:20240501", "DUE;VALUE=DATE:20240503"], utc, "DUE;VALUE=DATE:20240615",
                "DTSTART;X-KEEP=1;VALUE=DATE:20240613"
            ),
            (["DUE;VALUE=DATE:20240503"], utc, "DUE;VALUE=DATE:20240615", nil)
        ]
        for (lines, zone, due, start) in cases {
            let text = object(["SUMMARY:x"] + lines + ["X-UNKNOWN;X-P=1:kept"])
            var todo = try VTodoObject(parsing: text, timeZone: zone)
            var fields = todo.fields
            fields.moveDeadline(to: date("2024-06-15"))
            todo.update(to: fields, now: 1_800_000_000)
            #expect(line("DUE", todo) == due, "\(lines)")
            #expect(line("DTSTART", todo) == start, "\(lines)")
            #expect(try VTodoObject(parsing: todo.text, timeZone: zone).fields == fields, "\(lines)")
            #expect(
                changedNames(text, todo.text).isSubset(of: ["DUE", "DTSTART", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]),
                "\(lines)")
        }
        // An absolute alarm rings as long before the new deadline as before the old one.
        let alarm = Fixtures.todoObject([
            "SUMMARY:x", "DUE:20240502T170000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x",
            "TRIGGER;VALUE=DATE-TIME:20240502T160000Z", "END:VALARM"
        ])
        var todo = try VTodoObject(parsing: alarm, timeZone: utc)
        var fields = todo.fields
        fields.moveDeadline(to: date("2024-06-15"))
        fields.dueTime = .instant(epochSeconds: UTCTimestamp(iso: "2024-06-15T18:00:00Z")!.secondsSince1970)
        todo.update(to: fields, now: 1_800_000_000)
        #expect(todo.text.contains("TRIGGER;VALUE=DATE-TIME:20240615T170000Z"), "\(todo.text)")
    }

    @Test func aDeadlineWithoutATimeIsADateAndTheStartFollowsItsForm() throws {
        let (_, after) = try edited(["DTSTART:20240501T090000Z"], deadline: "2024-06-15", zone: utc)
        #expect(line("DUE", after) == "DUE;VALUE=DATE:20240615")
        #expect(line("DTSTART", after) == "DTSTART;VALUE=DATE:20240501")
        #expect(try VTodoObject(parsing: after.text, timeZone: utc).fields == after.fields)
    }

    @Test func aTimeAndAStartSetHereAreWrittenInTheirForm() throws {
        var todo = try VTodoObject(parsing: object(["SUMMARY:x", "DUE;VALUE=DATE:20240502"]), timeZone: utc)
        var fields = todo.fields
        fields.dueTime = TodoDueTime(hour: 19, minute: 0)
        fields.start = date("2024-04-30")
        todo.update(to: fields, now: 1_800_000_000)
        #expect(line("DUE", todo) == "DUE:20240502T190000")
        #expect(line("DTSTART", todo) == "DTSTART:20240430T190000")
        #expect(try VTodoObject(parsing: todo.text, timeZone: utc).fields == fields)
        let new = VTodoObject.new(uid: "u", fields: fields, now: 0)
        #expect(line("DUE", new) == "DUE:20240502T190000" && line("DTSTART", new) == "DTSTART:20240430T190000")
        #expect(try VTodoObject(parsing: new.text, timeZone: utc).fields.start == date("2024-04-30"))
    }

    @Test func aDeadlineReplacesADuration() throws {
        let (_, after) = try edited(["DTSTART;VALUE=DATE:20240501", "DURATION:P3D"], deadline: "2024-06-15", zone: utc)
        #expect(line("DUE", after) == "DUE;VALUE=DATE:20240615")
        #expect(line("DURATION", after) == nil)
        #expect(line("DTSTART", after) == "DTSTART;VALUE=DATE:20240501")
    }

    @Test func aDeadlineOnOrBeforeTheStartTakesTheStartWithIt() throws {
        let cases: [(start: String, movedStart: String)] = [
            ("DTSTART;VALUE=DATE:20240601", "DTSTART;VALUE=DATE:20240520"),
            ("DTSTART:20240601", "DTSTART;VALUE=DATE:20240520"),
            ("DTSTART:20240601T090000", "DTSTART;VALUE=DATE:20240520"),
            ("DTSTART;X-KEEP=1;TZID=Europe/Berlin:20240601T090000", "DTSTART;X-KEEP=1;VALUE=DATE:20240520"),
            ("DTSTART:20240520T150000", "DTSTART;VALUE=DATE:20240520")
        ]
        for (start, movedStart) in cases {
            let (before, after) = try edited([start, "X-UNKNOWN;X-P=1:kept"], deadline: "2024-05-20", zone: utc)
            #expect(line("DUE", after) == "DUE;VALUE=DATE:20240520", "\(start)")
            #expect(line("DTSTART", after) == movedStart, "\(start)")
            let reread = try VTodoObject(parsing: after.text, timeZone: utc).fields
            #expect(reread.deadline == date("2024-05-20") && reread.start == nil, "\(start)")
            #expect(
                changedNames(before, after.text) == ["DUE", "DTSTART", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"],
                "\(start)")
        }
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
