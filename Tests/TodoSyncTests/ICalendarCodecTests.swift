import TestSupport
import Testing

@testable import TodoSync

/// The iCalendar codec: folding, escaping, structure, and byte-exact re-serialisation.
@Suite(.timed) struct ICalendarCodecTests {
    /// Random texts from every kind of character a name can hold.
    static func randomText(using generator: inout SeededGenerator) -> String {
        let pieces: [String] = [
            "a", "Z", "7", " ", "\t", ",", ";", "\\", ":", "\"", "\n", "\\n", "é", "ß", "日本", "ü",
            "🦷", "👩‍👩‍👧", "🇩🇪", "e\u{301}", "a\u{308}\u{323}", "\u{200D}", "\u{FEFF}", "ﷺ", "𝄞"
        ]
        let count = Int.random(in: 0...120, using: &generator)
        return (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
    }

    /// The physical lines of a serialisation, without their CRLF.
    static func physicalLines(_ text: String) -> [[UInt8]] {
        var lines: [[UInt8]] = [[]]
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append([])
                index += 2
            } else {
                lines[lines.count - 1].append(bytes[index])
                index += 1
            }
        }
        return lines
    }

    @Test func randomTextsSurviveSerializeAndParseInLinesOfAtMost75Octets() throws {
        var generator = SeededGenerator(seed: 0x1CA1)
        for round in 0..<400 {
            let text = Self.randomText(using: &generator)
            // A parameter value cannot hold a quote or a line break (RFC 5545 3.2).
            var parameterValue = Self.randomText(using: &generator).unicodeScalars
            parameterValue.removeAll { $0 == "\"" || $0 == "\n" }
            let todo = ICalendarComponent(
                name: "VTODO",
                children: [
                    .property(ICalendarProperty(name: "UID", value: "u\(round)")),
                    .property(ICalendarProperty(name: "SUMMARY", text: text)),
                    .property(
                        ICalendarProperty(
                            name: "X-TEST",
                            parameters: [ICalendarParameter(name: "X-P", values: [String(parameterValue), "b"])],
                            value: ICalendar.escapeText(text)))
                ])
            let calendar = ICalendarComponent(name: "VCALENDAR", children: [.component(todo)])
            let serialized = ICalendar.serialize([calendar])
            #expect(serialized.utf8.suffix(2).elementsEqual([0x0D, 0x0A]))
            for line in Self.physicalLines(serialized).dropLast() {
                #expect(line.count <= 75, "round \(round): a line of \(line.count) octets")
                #expect(
                    String(validating: line, as: UTF8.self) != nil, "round \(round): a line splits a UTF-8 character")
                #expect(!line.contains(0x0A), "round \(round): a raw line feed in a line")
            }
            let parsed = try ICalendar.parse(serialized)
            #expect(parsed == [calendar], "round \(round): \(text.debugDescription)")
            #expect(parsed.first?.components(named: "VTODO").first?.property(named: "SUMMARY")?.text == text)
            #expect(ICalendar.serialize(parsed) == serialized, "round \(round): a re-serialisation differs")
        }
    }

    @Test func escapeAndUnescapeAreInverse() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let text = Self.randomText(using: &generator)
            #expect(ICalendar.unescapeText(ICalendar.escapeText(text)) == text)
        }
        #expect(ICalendar.escapeText("a,b;c\\d\ne") == #"a\,b\;c\\d\ne"#)
        #expect(ICalendar.unescapeText(#"one\Ntwo\nthree\:four\x\"#) == "one\ntwo\nthree:four\\x\\")
    }

    @Test func otherAppsObjectsReserializeByteForByte() throws {
        for (name, text) in Fixtures.all {
            let parsed = try ICalendar.parse(text)
            #expect(Array(ICalendar.serialize(parsed).utf8) == Array(text.utf8), "\(name)")
        }
    }

    @Test func foldedLinesUnfoldWhereverTheyWereCut() throws {
        let calendars = try ICalendar.parse(Fixtures.appleReminders)
        let todo = try #require(calendars.first?.components(named: "VTODO").first)
        #expect(
            todo.property(named: "SUMMARY")?.text
                == "Rückruf Zahnarzt 🦷 wegen Termin am Dienstag um 10:30, bitte bestätigen")
        let location = try #require(todo.property(named: "X-APPLE-STRUCTURED-LOCATION"))
        #expect(
            location.parameters == [
                ICalendarParameter(name: "VALUE", values: ["URI"]),
                ICalendarParameter(name: "X-ADDRESS", values: ["1 Infinite Loop, Cupertino"]),
                ICalendarParameter(name: "X-TITLE", values: ["Office"])
            ])
        #expect(location.value == "geo:37.331741,-122.030333")
        let nextcloud = try #require(try ICalendar.parse(Fixtures.nextcloud).first?.components(named: "VTODO").first)
        #expect(
            nextcloud.property(named: "DESCRIPTION")?.text
                == "Ficus, cactus and the big monstera by the window in the livingroom.",
            "a tab continues a line too, and is removed with the fold")
        #expect(nextcloud.components(named: "VALARM").count == 1)
    }

    @Test func sloppyInputIsRead() throws {
        let parsed = try ICalendar.parse(Fixtures.lfOnlyNewYork)
        let calendar = try #require(parsed.first)
        #expect(calendar.property(named: "VERSION")?.value == "2.0", "lower-case names are upper-cased")
        #expect(
            calendar.components(named: "VTODO").first?.property(named: "due")?.parameter(named: "TZID")?.value
                == "America/New_York")
        let messy = "\u{FEFF}begin:vcalendar\nBEGIN:VTODO  \nUID:x\nEND:VTODO \t\n\nend:VCALENDAR\n"
        let components = try ICalendar.parse(messy)
        #expect(components.first?.components(named: "VTODO").first?.property(named: "UID")?.value == "x")
        #expect(ICalendar.serialize(components) == messy)
    }

    @Test func brokenStructureIsAnError() {
        let cases: [(text: String, kind: ICalendarError.Kind, line: Int)] = [
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY no colon\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", .syntax, 3),
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n", .structure, 3),
            ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VTODO\r\n", .structure, 1),
            ("END:VTODO\r\n", .structure, 1),
            ("SUMMARY:loose\r\n", .structure, 1),
            (" continued\r\n", .syntax, 1),
            ("BEGIN:VCALENDAR\r\nX-P;BAD:v\r\nEND:VCALENDAR\r\n", .syntax, 2),
            ("BEGIN:VCALENDAR\r\nX-P;A=\"open:v\r\nEND:VCALENDAR\r\n", .syntax, 2)
        ]
        for (text, kind, line) in cases {
            #expect(throws: ICalendarError.self, "\(text.debugDescription)") { try ICalendar.parse(text) }
            do {
                _ = try ICalendar.parse(text)
            } catch {
                #expect(error.kind == kind, "\(text.debugDescription): \(error)")
                #expect(error.line == line, "\(text.debugDescription): \(error)")
                #expect(error.description.hasPrefix("line \(line): "))
            }
        }
    }

    @Test func freshLinesFoldAt75OctetsWithoutSplittingCharacters() {
        let property = ICalendarProperty(
            name: "SUMMARY", text: String(repeating: "🦷", count: 40) + String(repeating: "x", count: 100))
        let text = ICalendar.serialize([ICalendarComponent(name: "VTODO", children: [.property(property)])])
        let lines = Array(ICalendarCodecTests.physicalLines(text).dropFirst().dropLast(2))
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.count <= 75 && String(validating: $0, as: UTF8.self) != nil })
        #expect(lines.dropFirst().allSatisfy { $0.first == 0x20 })
        #expect(
            lines[0].count == 72 && lines[1].count == 1 + 72,
            "a four-octet character that does not fit starts the next line")
    }

    /// Whether `text` holds no control character but the CRLF that ends each line (and, when
    /// `tabs`, horizontal tabs): no other byte below 0x20, no DEL, no C1 scalar.
    static func hasNoControls(_ text: String, tabs: Bool = false) -> Bool {
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x7F {
            switch byte {
            case 0x0D: guard index + 1 < bytes.count, bytes[index + 1] == 0x0A else { return false }
            case 0x0A: guard index > 0, bytes[index - 1] == 0x0D else { return false }
            case 0x09: guard tabs else { return false }
            default: return false
            }
        }
        return !text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }
    }

    @Test func freshLinesWriteControlCharactersAsReplacementCharacters() throws {
        let name = "a\u{1B}[31mb\u{9B}c\r\u{7F}\u{0}\u{85}d\te\nf"
        let todo = ICalendarComponent(
            name: "VTODO",
            children: [
                .property(ICalendarProperty(name: "SUMMARY", text: name)),
                .property(
                    ICalendarProperty(
                        name: "X-P", parameters: [ICalendarParameter(name: "X-Q", values: ["q\u{1B}r"])],
                        value: "v\u{7}\nw"))
            ])
        let text = ICalendar.serialize([todo])
        #expect(Self.hasNoControls(text, tabs: true), "\(text.debugDescription)")
        let read = try #require(try ICalendar.parse(text).first)
        #expect(
            read.property(named: "SUMMARY")?.text == "a\u{FFFD}[31mb\u{FFFD}c\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}d\te\nf",
            "each control a replacement character; a tab kept, a line feed escaped")
        #expect(
            read.property(named: "X-P")
                == ICalendarProperty(
                    name: "X-P", parameters: [ICalendarParameter(name: "X-Q", values: ["q\u{FFFD}r"])],
                    value: "v\u{FFFD}\u{FFFD}w"))
        #expect(
            Self.hasNoControls(
                ICalendar.serialize([
                    ICalendarComponent(
                        name: "VTODO",
                        children: [
                            .property(ICalendarProperty(name: "SUMMARY", text: "a\u{1B}[31mb\u{9B}c"))
                        ])
                ])))
    }

    @Test func setPropertyReplacesInPlaceAndKeepsAnEqualOne() throws {
        var calendar = try #require(try ICalendar.parse(Fixtures.thunderbird).first)
        let before = ICalendar.serialize([calendar])
        var todo = try #require(calendar.components(named: "VTODO").first)
        todo.setProperty(ICalendarProperty(name: "STATUS", value: "NEEDS-ACTION"))
        #expect(
            ICalendar.serialize([todo]) == ICalendar.serialize(calendar.components(named: "VTODO")),
            "setting an equal value changes nothing")
        todo.setProperty(ICalendarProperty(name: "X-NEW", value: "1"))
        #expect(
            todo.children.firstIndex { if case .component = $0 { true } else { false } } == todo.children.count - 1,
            "a new property goes after the properties, before the VALARM")
        calendar.children = calendar.children.map {
            if case .component(let c) = $0, c.name == "VTODO" { .component(todo) } else { $0 }
        }
        #expect(
            ICalendar.serialize([calendar])
                == before.replacing("X-MOZ-GENERATION:2\r\n", with: "X-MOZ-GENERATION:2\r\nX-NEW:1\r\n"))
    }
}
