import TestSupport
import Testing
import TextSafety
import TodoInterop

@testable import TodoSync

/// What the reader does with hostile or huge input: a clear error within its limits, never a
/// crash, and a legitimately huge object read in linear time.
@Suite(.timed) struct ICalendarLimitsTests {
    /// `depth` nested `BEGIN:X` lines, each closed by its END when `closed`.
    static func nested(_ depth: Int, closed: Bool = true) -> String {
        String(repeating: "BEGIN:X\r\n", count: depth) + (closed ? String(repeating: "END:X\r\n", count: depth) : "")
    }

    /// The error `parse` throws for `text`, or `nil` when it parses.
    func parseError(_ text: String) -> ICalendarError? {
        do {
            _ = try ICalendar.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func fiftyThousandNestedComponentsAreADepthErrorNotACrash() throws {
        for closed in [true, false] {
            let error = try #require(parseError(Self.nested(50_000, closed: closed)), "closed: \(closed)")
            #expect(
                error
                    == ICalendarError(
                        .structure, line: ICalendar.maxDepth + 1,
                        "BEGIN:X nests components more than \(ICalendar.maxDepth) deep"))
            #expect(!error.description.contains("\n"))
        }
        // The same through the two readers of whole objects.
        #expect { try VTodoObject(parsing: Self.nested(50_000), timeZone: .offset(seconds: 0)) } throws: {
            ($0 as? ICalendarError)?.kind == .structure
        }
        let file = "BEGIN:VCALENDAR\r\n" + Self.nested(50_000) + "END:VCALENDAR\r\n"
        #expect(
            throws: ImportError(
                .line(ICalendar.maxDepth + 1), "BEGIN:X nests components more than \(ICalendar.maxDepth) deep")
        ) {
            try ICSFile.read(Array(file.utf8))
        }
    }

    @Test func nestingAtTheBoundParsesAndOneLevelMoreDoesNot() throws {
        let deepest = Self.nested(ICalendar.maxDepth)
        let parsed = try ICalendar.parse(deepest)
        #expect(ICalendar.serialize(parsed) == deepest)
        var depth = 0
        var level = parsed.first
        while let component = level {
            depth += 1
            level = component.components(named: "X").first
        }
        #expect(depth == ICalendar.maxDepth)
        #expect(parseError(Self.nested(ICalendar.maxDepth + 1))?.line == ICalendar.maxDepth + 1)
        // Depth is how deep, not how many: any number of components side by side is fine.
        let wide =
            "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:VTODO\r\nEND:VTODO\r\n", count: 20_000)
            + "END:VCALENDAR\r\n"
        #expect(try ICalendar.parse(wide).first?.children.count == 20_000)
    }

    @Test func propertiesAndParameterValuesAreBoundedToo() throws {
        func todo(properties: Int) -> String {
            "BEGIN:VTODO\r\n" + String(repeating: "X-A:1\r\n", count: properties) + "END:VTODO\r\n"
        }
        #expect(
            try ICalendar.parse(todo(properties: ICalendar.maxPropertiesPerComponent)).first?.children.count
                == ICalendar.maxPropertiesPerComponent)
        #expect(
            parseError(todo(properties: ICalendar.maxPropertiesPerComponent + 1))
                == ICalendarError(
                    .structure, line: ICalendar.maxPropertiesPerComponent + 2,
                    "BEGIN:VTODO on line 1 holds more than \(ICalendar.maxPropertiesPerComponent) properties"))

        func line(values: Int) -> String {
            "BEGIN:VTODO\r\nX-A;P=" + Array(repeating: "v", count: values).joined(separator: ",")
                + ":1\r\nEND:VTODO\r\n"
        }
        let read = try ICalendar.parse(line(values: ICalendar.maxParameterValuesPerProperty))
        #expect(
            read.first?.property(named: "X-A")?.parameter(named: "P")?.values.count
                == ICalendar.maxParameterValuesPerProperty)
        #expect(
            parseError(line(values: ICalendar.maxParameterValuesPerProperty + 1))
                == ICalendarError(
                    .syntax, line: 2, "X-A has more than \(ICalendar.maxParameterValuesPerProperty) parameter values"))
    }

    @Test func errorsAreOneLineWithoutControlCharactersOrMegabytesOfName() throws {
        let error = try #require(parseError("BEGIN:VCALENDAR\r\nX-\u{1B}[31m\rno colon\r\nEND:VCALENDAR\r\n"))
        #expect(error.kind == .syntax && error.line == 2)
        #expect(
            !error.description.unicodeScalars.contains(where: ControlCharacters.contains),
            "\(error.description.debugDescription)")
        let long = try #require(parseError("BEGIN:" + String(repeating: "Y", count: 1_000_000) + "\r\n"))
        #expect(long.description.utf8.count < 200)
    }

    /// One VTODO whose DESCRIPTION is `size` bytes of text (with line breaks, escaped
    /// characters and multi-byte ones), written by the encoder: folded every 75 octets.
    static func bigObject(size: Int) -> (text: String, description: String) {
        let piece = "Line of the long description, with; marks \\ and ü日🦷\n"
        let description = String(repeating: piece, count: size / piece.utf8.count)
        let todo = ICalendarComponent(
            name: "VTODO",
            children: [
                .property(ICalendarProperty(name: "UID", value: "big")),
                .property(ICalendarProperty(name: "SUMMARY", text: "Big")),
                .property(ICalendarProperty(name: "DESCRIPTION", text: description))
            ])
        return (ICalendar.serialize([ICalendarComponent(name: "VCALENDAR", children: [.component(todo)])]), description)
    }

    @Test func aFiftyMegabyteDescriptionParsesAndRoundTrips() throws {
        let (text, description) = Self.bigObject(size: 50 << 20)
        #expect(text.utf8.count > 50 << 20)
        let parsed = try ICalendar.parse(text)
        let todo = try #require(parsed.first?.components(named: "VTODO").first)
        #expect(todo.property(named: "DESCRIPTION")?.text == description)
        #expect(ICalendar.serialize(parsed) == text)
        let object = try VTodoObject(parsing: text, timeZone: .offset(seconds: 0))
        #expect(object.fields.name == "Big" && object.text == text)
    }
}
