import Testing
import TodoInterop

/// One huge string value, as the sync companion's fetch answer carries a large calendar object:
/// a `\r\n` escape every 75 bytes (folded iCalendar lines), some `\"`, `\\` and non-ASCII text.
/// The parser reads it in one pass (plain runs copied whole, each escape decoded once).
@Suite struct JSONLargeStringTests {
    @Test func readsAnEightMegabyteEscapedStringWhole() throws {
        var text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nDESCRIPTION:"
        while text.utf8.count < 8_000_000 {
            text += "Caf\u{E9} \"cr\u{E8}me\" \\ \u{2615} https://example.com/a/b and plain text to fill a whole line\r\n "
        }
        text += "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let literal = Self.literal(text)
        let answer = #"{"objects": [{"href": "/alice/tasks/big.ics", "etag": "\"1\"", "text": "# + literal + "}]}"
        let value = try JSONParser.parse(Array(answer.utf8))
        let object = value["objects"]?.arrayValue?.first
        #expect(object?["href"]?.stringValue == "/alice/tasks/big.ics")
        #expect(object?["etag"]?.stringValue == "\"1\"")
        let parsed = object?["text"]?.stringValue
        #expect(parsed?.utf8.count == text.utf8.count)
        #expect(parsed == text)
    }

    /// `text` as a JSON string literal: quotes, backslashes, CR and LF escaped, the rest raw.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
