import TextSafety

/// RFC 5545 iCalendar text: content lines, folding, parameters, nested components.
///
/// ```swift
/// var calendars = try ICalendar.parse(text)   // [VCALENDAR], as read
/// ICalendar.serialize(calendars) == text      // true while nothing was changed
/// ```
///
/// Reading is lenient where real servers and apps are sloppy (LF-only line endings, lower-case
/// names, blank lines, a byte order mark, trailing white space after BEGIN/END) and strict where
/// the structure is broken (a line without a colon, BEGIN and END that do not pair up), which
/// is an ``ICalendarError``. Writing keeps every line read and not changed exactly as it was,
/// folds, line endings and all; what is new or changed is written with CRLF and folded at 75
/// octets, never inside a UTF-8 character.
public enum ICalendar {
    /// The longest physical line written, in octets, line break excluded (RFC 5545 3.1).
    public static let maxLineOctets = 75

    // MARK: Limits

    /// How deep components may nest. Real objects nest three deep (VCALENDAR > VTODO > VALARM,
    /// VCALENDAR > VTIMEZONE > STANDARD); 32 leaves ample room for any app's own components.
    ///
    /// The bound is a guarantee the rest of the code relies on: a tree from ``parse(_:)`` is never
    /// deeper than this, so what recurses over it (destroying it, comparing it, writing it) stays
    /// a few frames deep whatever the input. Without it, 50,000 nested `BEGIN:X` lines built a
    /// tree whose release overflowed the stack.
    public static let maxDepth = 32
    /// The most properties one component may hold. Real VTODOs have tens; thousands of
    /// ATTENDEEs or RDATEs would still fit. Components in a component (the VTODOs of an
    /// exported VCALENDAR) are not counted: a file may hold any number of todos.
    public static let maxPropertiesPerComponent = 10_000
    /// The most parameter values one content line may hold (`;A=1,2;B=3` holds three). Real
    /// lines have a handful; a long MEMBER or DELEGATED-TO list still fits.
    public static let maxParameterValuesPerProperty = 1_000

    // MARK: Reading

    /// The top-level components of `text` (usually one VCALENDAR), in order.
    ///
    /// Time and memory are linear in the size of `text` (every line becomes a property that
    /// keeps its raw text too, so a text of many tiny lines costs many times its size, one long
    /// value only a few). Nesting, properties per component and parameter values per line are
    /// bounded (``maxDepth``, ``maxPropertiesPerComponent``, ``maxParameterValuesPerProperty``):
    /// input beyond them is an ``ICalendarError``, never a crash.
    public static func parse(_ text: String) throws(ICalendarError) -> [ICalendarComponent] {
        let bytes = Array(text.utf8)
        var results: [ICalendarComponent] = []
        // The components still open, outermost first: at most `maxDepth`, each holding only
        // finished children, so dropping the stack on an error recurses no deeper than a tree.
        var stack: [(component: ICalendarComponent, properties: Int)] = []
        var lines = LogicalLines(bytes)
        while let logical = try lines.next() {
            let raw = String(decoding: bytes[logical.rawStart..<logical.rawEnd], as: UTF8.self)
            var property: ICalendarProperty
            if let folded = logical.folded {
                property = try contentLine(folded[...], line: logical.line)
            } else {
                property = try contentLine(bytes[logical.content], line: logical.line)
            }
            property.original = raw
            switch property.name {
            case "BEGIN":
                var component = ICalendarComponent(name: trimmed(property.value))
                guard stack.count < maxDepth else {
                    throw ICalendarError(
                        .structure, line: logical.line,
                        "BEGIN:\(shown(component.name)) nests components more than \(maxDepth) deep")
                }
                component.beginText = raw
                component.line = logical.line
                stack.append((component, 0))
            case "END":
                let name = upper(trimmed(property.value))
                guard var (component, _) = stack.popLast() else {
                    throw ICalendarError(
                        .structure, line: logical.line, "END:\(shown(name)) without BEGIN:\(shown(name))")
                }
                guard component.name == name else {
                    throw ICalendarError(
                        .structure, line: logical.line,
                        "END:\(shown(name)) where END:\(shown(component.name)) was expected")
                }
                component.endText = raw
                if stack.isEmpty {
                    results.append(component)
                } else {
                    stack[stack.count - 1].component.children.append(.component(component))
                }
            default:
                guard !stack.isEmpty else {
                    throw ICalendarError(
                        .structure, line: logical.line, "\(shown(property.name)) outside any BEGIN/END component")
                }
                guard stack[stack.count - 1].properties < maxPropertiesPerComponent else {
                    let open = stack[stack.count - 1].component
                    throw ICalendarError(
                        .structure, line: logical.line,
                        "BEGIN:\(shown(open.name)) on line \(open.line ?? 0) holds more than \(maxPropertiesPerComponent) properties"
                    )
                }
                stack[stack.count - 1].properties += 1
                stack[stack.count - 1].component.children.append(.property(property))
            }
        }
        if let (open, _) = stack.last {
            throw ICalendarError(
                .structure, line: open.line, "BEGIN:\(shown(open.name)) has no END:\(shown(open.name))")
        }
        return results
    }

    /// One unfolded line: where its content is (or the content itself, when it was folded) and
    /// the raw bytes it was read from.
    private struct LogicalLine {
        /// The content's bytes in the text, when the line was not folded.
        var content: Range<Int>
        /// The content with its folds removed, when it was folded.
        var folded: [UInt8]?
        var rawStart: Int
        var rawEnd: Int
        var line: Int
    }

    /// The unfolded lines of a text, one at a time (so the whole text is never held twice
    /// over as lines). A line break is LF or CRLF; a line that starts with a space or a tab
    /// continues the previous one (that one character removed). Blank lines are skipped for
    /// meaning but kept in the raw text of the line before them, so they survive too.
    ///
    /// Linear in the text: each byte is looked at once, and a folded line's content grows by
    /// appending (amortised constant per byte), never by rebuilding it.
    private struct LogicalLines {
        let bytes: [UInt8]
        /// Where the next physical line starts, and where its content starts (after a byte
        /// order mark on the first).
        private var start = 0
        private var contentStart: Int
        /// The physical line last read, 1-based.
        private var number = 0
        /// The line being read, given out when the next one starts (or the text ends).
        private var pending: LogicalLine?
        private var started = false

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            // A byte order mark is kept in the first line's raw text but is not content.
            contentStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        }

        mutating func next() throws(ICalendarError) -> LogicalLine? {
            while start < bytes.count {
                number += 1
                let lineStart = start
                let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
                let rawEnd = end < bytes.count ? end + 1 : end
                var contentEnd = end
                if contentEnd > contentStart, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                let content = contentStart..<max(contentStart, contentEnd)
                start = rawEnd
                contentStart = rawEnd
                if content.isEmpty {
                    pending?.rawEnd = rawEnd
                } else if bytes[content.lowerBound] == 0x20 || bytes[content.lowerBound] == 0x09 {
                    guard var line = pending else {
                        throw ICalendarError(.syntax, line: number, "a folded continuation line with no line before it")
                    }
                    // Moved out of `pending` while it grows, so the array is never copied.
                    pending = nil
                    if line.folded == nil { line.folded = Array(bytes[line.content]) }
                    line.folded?.append(contentsOf: bytes[(content.lowerBound + 1)..<content.upperBound])
                    line.rawEnd = rawEnd
                    pending = line
                } else {
                    // Blank lines and a byte order mark before the first line belong to it.
                    let finished = pending
                    pending = LogicalLine(
                        content: content, rawStart: started ? lineStart : 0, rawEnd: rawEnd, line: number)
                    started = true
                    if let finished { return finished }
                }
            }
            defer { pending = nil }
            return pending
        }
    }

    /// Parses `NAME *(;PARAM=value *(,value)) : value`; `bytes` keeps the indices of the text it
    /// is a slice of (or starts at 0, for a folded line put together).
    private static func contentLine(_ bytes: ArraySlice<UInt8>, line: Int) throws(ICalendarError) -> ICalendarProperty {
        let colon = UInt8(ascii: ":")
        let semicolon = UInt8(ascii: ";")
        let comma = UInt8(ascii: ",")
        let equals = UInt8(ascii: "=")
        let quote = UInt8(ascii: "\"")
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        let end = bytes.endIndex
        var index = bytes.startIndex
        while index < end, bytes[index] != colon, bytes[index] != semicolon { index += 1 }
        let name = trimmed(text(bytes.startIndex..<index))
        guard index < end else {
            throw ICalendarError(.syntax, line: line, "no ':' in the line \(preview(bytes))")
        }
        guard !name.isEmpty else {
            throw ICalendarError(.syntax, line: line, "a line with no property name: \(preview(bytes))")
        }
        var parameters: [ICalendarParameter] = []
        var valueCount = 0
        while bytes[index] == semicolon {
            index += 1
            let nameStart = index
            while index < end, bytes[index] != equals, bytes[index] != colon, bytes[index] != semicolon { index += 1 }
            guard index < end, bytes[index] == equals else {
                throw ICalendarError(
                    .syntax, line: line, "a parameter of \(shown(name)) without '=': \(preview(bytes))")
            }
            let parameterName = text(nameStart..<index)
            var values: [String] = []
            repeat {
                valueCount += 1
                guard valueCount <= maxParameterValuesPerProperty else {
                    throw ICalendarError(
                        .syntax, line: line,
                        "\(shown(name)) has more than \(maxParameterValuesPerProperty) parameter values")
                }
                index += 1
                if index < end, bytes[index] == quote {
                    let valueStart = index + 1
                    guard let close = bytes[valueStart...].firstIndex(of: quote) else {
                        throw ICalendarError(
                            .syntax, line: line, "a quoted parameter value of \(shown(name)) without its closing '\"'")
                    }
                    values.append(text(valueStart..<close))
                    index = close + 1
                } else {
                    let valueStart = index
                    while index < end, bytes[index] != comma, bytes[index] != semicolon, bytes[index] != colon {
                        index += 1
                    }
                    values.append(text(valueStart..<index))
                }
            } while index < end && bytes[index] == comma
            guard index < end, bytes[index] == colon || bytes[index] == semicolon else {
                throw ICalendarError(.syntax, line: line, "no ':' after the parameters of \(shown(name))")
            }
            parameters.append(ICalendarParameter(name: parameterName, values: values))
        }
        return ICalendarProperty(name: name, parameters: parameters, value: text((index + 1)..<end))
    }

    /// The start of a bad line, for an error message.
    private static func preview(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "\"\(text)\(bytes.count > 40 ? "..." : "")\""
    }

    /// A name (or a UID) as an error message shows it: at most 40 characters, so that a
    /// megabyte-long BEGIN value does not become a megabyte-long message.
    static func shown(_ name: String) -> String {
        name.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(name.unicodeScalars.prefix(40))) + "..." : name
    }

    /// `text` without white space at either end (names, BEGIN/END values, enumerated values).
    static func trimmed(_ text: String) -> String {
        // Bytes: a space and a tab are one byte each, never part of another character.
        let utf8 = text.utf8
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = utf8.firstIndex(where: { !isBlank($0) }),
            let last = utf8.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(decoding: utf8[first...last], as: UTF8.self)
    }

    /// A name upper-cased (names are case-insensitive, RFC 5545 section 2); the name itself
    /// when it already is, as nearly every name read is, without building another string.
    static func upper(_ name: String) -> String {
        name.utf8.contains { $0 >= 0x61 && $0 <= 0x7A || $0 >= 0x80 } ? name.uppercased() : name
    }

    // MARK: Writing

    /// `components` as iCalendar text: lines read and unchanged as they were read, the rest
    /// with CRLF line breaks and folded at ``maxLineOctets`` octets.
    public static func serialize(_ components: [ICalendarComponent]) -> String {
        var out = ""
        for component in components { write(component, to: &out) }
        return out
    }

    private static func write(_ component: ICalendarComponent, to out: inout String) {
        emit(component.beginText ?? fresh("BEGIN:" + component.name), to: &out)
        for child in component.children {
            switch child {
            case .property(let property): emit(property.original ?? fresh(contentLine(property)), to: &out)
            case .component(let nested): write(nested, to: &out)
            }
        }
        emit(component.endText ?? fresh("END:" + component.name), to: &out)
    }

    /// Appends a line; first ends the previous one if it was read without a line break (the
    /// last line of a file), so two lines never run together.
    private static func emit(_ line: String, to out: inout String) {
        if let last = out.utf8.last, last != 0x0A { out += "\r\n" }
        out += line
    }

    /// The unfolded text of a property: `NAME;PARAM=value:value`.
    static func contentLine(_ property: ICalendarProperty) -> String {
        var line = property.name
        for parameter in property.parameters {
            line += ";" + parameter.name + "=" + parameter.values.map(quotedIfNeeded).joined(separator: ",")
        }
        return line + ":" + property.value
    }

    /// A parameter value, in quotes when it holds `:`, `;` or `,`. A value cannot hold a `"`
    /// at all (RFC 5545 3.2), so any is dropped rather than ending the quotes early.
    private static func quotedIfNeeded(_ value: String) -> String {
        // Scalars, not Characters: a quote or colon followed by a combining mark is one Character.
        var scalars = value.unicodeScalars
        if scalars.contains("\"") { scalars.removeAll { $0 == "\"" } }
        let needsQuotes = scalars.contains { $0 == ":" || $0 == ";" || $0 == "," }
        return needsQuotes ? "\"" + String(scalars) + "\"" : String(scalars)
    }

    /// A new line: folded (CRLF and a space) so that no physical line exceeds
    /// ``maxLineOctets`` octets, cutting only between Unicode scalars, and ended with CRLF.
    ///
    /// Every control character of the one policy (TextSafety's `ControlCharacters`) but HTAB is
    /// written as U+FFFD: RFC 5545 excludes them from TEXT and has no escape for them, and a
    /// terminal (`todo export --format ics`) or another client must never get one raw (an ESC
    /// starts a terminal command, a CR or LF would end the line early, a bidi override makes one
    /// line read as another). Line feeds in TEXT never get here: ``escapeText(_:)`` made them `\n`.
    static func fresh(_ line: String) -> String {
        // Byte by byte into one buffer, then one String: appending to a String's scalar view a
        // scalar at a time copied the string each time, quadratic in a long DESCRIPTION.
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        var out: [UInt8] = []
        out.reserveCapacity(line.utf8.count + line.utf8.count / 70 * 3 + 2)
        var octets = 0
        var line = line
        line.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                // The scalar's length, from its lead byte (the text is valid UTF-8).
                let size = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                let control = lead != 0x09 && ControlCharacters.controlLength(at: index, in: bytes) != nil
                let written = control ? 3 : size
                if octets + written > maxLineOctets {
                    out.append(contentsOf: [0x0D, 0x0A, 0x20])
                    octets = 1
                }
                if control {
                    out.append(contentsOf: replacement)
                    index += size
                } else {
                    for _ in 0..<size {
                        out.append(bytes[index])
                        index += 1
                    }
                }
                octets += written
            }
        }
        out.append(contentsOf: [0x0D, 0x0A])
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: TEXT values

    /// Escapes a TEXT value (RFC 5545 3.3.11): `\` `;` `,` get a backslash, a line feed
    /// becomes `\n`. Other characters are kept here; other control characters (a carriage
    /// return, an ESC, a bidi override), which TEXT has no escape for, become U+FFFD when the
    /// line is written (see ``serialize(_:)``).
    public static func escapeText(_ text: String) -> String {
        // Bytes: every character escaped is ASCII, and a String's scalar view appends slowly.
        var text = text
        return text.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count * 2) { out in
                var count = 0
                for byte in bytes {
                    switch byte {
                    case 0x5C, 0x3B, 0x2C:  // \ ; ,
                        out[count] = 0x5C
                        out[count + 1] = byte
                        count += 2
                    case 0x0A:  // a line feed: \n
                        out[count] = 0x5C
                        out[count + 1] = UInt8(ascii: "n")
                        count += 2
                    default:
                        out[count] = byte
                        count += 1
                    }
                }
                return count
            }
        }
    }

    /// Unescapes a TEXT value: `\\`, `\;`, `\,`, `\n` and `\N`, and `\:` that some apps write;
    /// a backslash before anything else is kept as written.
    public static func unescapeText(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "\\")) else { return value }
        // Bytes, as in escapeText: a backslash and what it escapes are ASCII.
        let bytes = Array(value.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < bytes.count else {
                out.append(byte)
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: ":"):
                out.append(bytes[index])
                index += 1
            case UInt8(ascii: "n"), UInt8(ascii: "N"):
                out.append(UInt8(ascii: "\n"))
                index += 1
            // Kept as written; what follows is read on its own (it is no backslash).
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
