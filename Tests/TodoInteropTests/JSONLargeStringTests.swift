import Foundation
import TestSupport
import Testing
import TodoInterop

/// One huge string value, as the sync companion's fetch answer carries a large calendar object:
/// a `\r\n` escape about every 80 bytes (folded iCalendar lines), some `\"`, `\\` and non-ASCII text.
/// The parser reads it in one pass (plain runs copied whole, each escape decoded once).
@Suite(.timed) struct JSONLargeStringTests {
    @Test func readsAnEightMegabyteEscapedStringWhole() throws {
        var text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nDESCRIPTION:"
        while text.utf8.count < 8_000_000 {
            text +=
                "Caf\u{E9} \"cr\u{E8}me\" \\ \u{2615} https://example.com/a/b and plain text to fill a whole line\r\n "
        }
        text += "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        // Written as the companion writes it: Foundation's JSONSerialization, slashes unescaped.
        let answer = try JSONSerialization.data(
            withJSONObject: ["objects": [["href": "/alice/tasks/big.ics", "etag": "\"1\"", "text": text]]],
            options: [.withoutEscapingSlashes])
        #expect(answer.count > text.utf8.count + 100_000, "the CRs, LFs, quotes and backslashes are escaped")
        let value = try JSONParser.parse([UInt8](answer))
        let object = value["objects"]?.arrayValue?.first
        #expect(object?["href"]?.stringValue == "/alice/tasks/big.ics")
        #expect(object?["etag"]?.stringValue == "\"1\"")
        let parsed = object?["text"]?.stringValue
        #expect(parsed?.utf8.count == text.utf8.count)
        #expect(parsed == text)
    }
}
