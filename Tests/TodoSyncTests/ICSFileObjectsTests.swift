import Foundation
import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// ``ICSFile/write(_:now:objects:)`` with synced objects' own texts (issue 35): each such todo
/// is its text, the others VCALENDARs of todo's own around them, in order.
@Suite(.timed) struct ICSFileObjectsTests {
    @Test func objectsStandInOrderBetweenCalendarsOfTheOthers() throws {
        let entries = ["a", "b", "c", "d"].map { ICSFile.Entry(uid: $0, fields: TodoFields(name: "todo " + $0)) }
        // As a server may send it: LF line ends, no final line break, a raw ESC another client stored.
        let phone =
            "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VTODO\nUID:b\nSUMMARY:todo \u{1B}b\nX-KEEP:1\nEND:VTODO\nEND:VCALENDAR"
        let text = ICSFile.write(entries, now: 0, objects: ["b": phone, "x": "never used"])
        let calendars = text.components(separatedBy: "BEGIN:VCALENDAR").dropFirst()
        #expect(calendars.count == 3, "\(text)")
        #expect(
            text.contains("SUMMARY:todo \u{FFFD}b\nX-KEEP:1\nEND:VTODO\nEND:VCALENDAR\r\nBEGIN:VCALENDAR"), "\(text)")
        #expect(!text.unicodeScalars.contains("\u{1B}"))
        let read = try ICSFile.read(Array(text.utf8), timeZone: .offset(seconds: 0))
        #expect(read.entries.map(\.uid) == ["a", "b", "c", "d"])
        // No objects: exactly what it wrote before.
        #expect(ICSFile.write(entries, now: 0, objects: [:]).components(separatedBy: "BEGIN:VCALENDAR").count == 2)
    }
}
