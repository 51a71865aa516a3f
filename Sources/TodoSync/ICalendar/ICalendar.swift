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

    // MARK: Reading

    /// The top-level components of `text` (usually one VCALENDAR), in order.
    public static func parse(_ text: String) throws(ICalendarError) -> [ICalendarComponent] {
        let bytes = Array(text.utf8)
        var results: [ICalendarComponent] = []
        var stack: [(component: ICalendarComponent, line: Int)] = []
        for logical in try logicalLines(bytes) {
            let raw = String(decoding: bytes[logical.rawStart..<logical.rawEnd], as: UTF8.self)
            var property = try contentLine(logical.content, line: logical.line)
            property.original = raw
            switch property.name {
            case "BEGIN":
                var component = ICalendarComponent(name: trimmed(property.value))
                component.beginText = raw
                component.line = logical.line
                stack.append((component, logical.line))
            case "END":
                let name = trimmed(property.value).uppercased()
                guard var (component, _) = stack.popLast() else {
                    throw ICalendarError(.structure, line: logical.line, "END:\(name) without BEGIN:\(name)")
                }
                guard component.name == name else {
                    throw ICalendarError(.structure, line: logical.line, "END:\(name) where END:\(component.name) was expected")
                }
                component.endText = raw
                if stack.isEmpty {
                    results.append(component)
                } else {
                    stack[stack.count - 1].component.children.append(.component(component))
                }
            default:
                guard !stack.isEmpty else {
                    throw ICalendarError(.structure, line: logical.line, "\(property.name) outside any BEGIN/END component")
                }
                stack[stack.count - 1].component.children.append(.property(property))
            }
        }
        if let (open, line) = stack.last {
            throw ICalendarError(.structure, line: line, "BEGIN:\(open.name) has no END:\(open.name)")
        }
        return results
    }

    /// One unfolded line: its content (folds removed) and the raw bytes it was read from.
    private struct LogicalLine {
        var content: [UInt8]
        var rawStart: Int
        var rawEnd: Int
        var line: Int
    }

    /// Splits `bytes` into unfolded lines. A line break is LF or CRLF; a line that starts with a
    /// space or a tab continues the previous one (that one character removed). Blank lines are
    /// skipped for meaning but kept in the raw text of the line before them, so they survive too.
    private static func logicalLines(_ bytes: [UInt8]) throws(ICalendarError) -> [LogicalLine] {
        var lines: [LogicalLine] = []
        var start = 0
        var number = 0
        // A byte order mark is kept in the first line's raw text but is not content.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        var contentStart = bytes.starts(with: bom) ? 3 : 0
        while start < bytes.count {
            number += 1
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let rawEnd = end < bytes.count ? end + 1 : end
            var contentEnd = end
            if contentEnd > contentStart, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let content = bytes[contentStart..<contentEnd]
            if content.isEmpty {
                if !lines.isEmpty { lines[lines.count - 1].rawEnd = rawEnd }
            } else if content.first == 0x20 || content.first == 0x09 {
                guard !lines.isEmpty else {
                    throw ICalendarError(.syntax, line: number, "a folded continuation line with no line before it")
                }
                lines[lines.count - 1].content.append(contentsOf: content.dropFirst())
                lines[lines.count - 1].rawEnd = rawEnd
            } else {
                // Blank lines and a byte order mark before the first line belong to it.
                lines.append(LogicalLine(content: Array(content), rawStart: lines.isEmpty ? 0 : start, rawEnd: rawEnd, line: number))
            }
            start = rawEnd
            contentStart = rawEnd
        }
        return lines
    }

    /// Parses `NAME *(;PARAM=value *(,value)) : value`.
    private static func contentLine(_ bytes: [UInt8], line: Int) throws(ICalendarError) -> ICalendarProperty {
        let colon = UInt8(ascii: ":"), semicolon = UInt8(ascii: ";"), comma = UInt8(ascii: ","),
            equals = UInt8(ascii: "="), quote = UInt8(ascii: "\"")
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        var index = 0
        while index < bytes.count, bytes[index] != colon, bytes[index] != semicolon { index += 1 }
        let name = trimmed(text(0..<index))
        guard index < bytes.count else {
            throw ICalendarError(.syntax, line: line, "no ':' in the line \(preview(bytes))")
        }
        guard !name.isEmpty else {
            throw ICalendarError(.syntax, line: line, "a line with no property name: \(preview(bytes))")
        }
        var parameters: [ICalendarParameter] = []
        while bytes[index] == semicolon {
            index += 1
            let nameStart = index
            while index < bytes.count, bytes[index] != equals, bytes[index] != colon, bytes[index] != semicolon { index += 1 }
            guard index < bytes.count, bytes[index] == equals else {
                throw ICalendarError(.syntax, line: line, "a parameter of \(name) without '=': \(preview(bytes))")
            }
            let parameterName = text(nameStart..<index)
            var values: [String] = []
            repeat {
                index += 1
                if index < bytes.count, bytes[index] == quote {
                    let valueStart = index + 1
                    guard let close = bytes[valueStart...].firstIndex(of: quote) else {
                        throw ICalendarError(.syntax, line: line, "a quoted parameter value of \(name) without its closing '\"'")
                    }
                    values.append(text(valueStart..<close))
                    index = close + 1
                } else {
                    let valueStart = index
                    while index < bytes.count, bytes[index] != comma, bytes[index] != semicolon, bytes[index] != colon { index += 1 }
                    values.append(text(valueStart..<index))
                }
            } while index < bytes.count && bytes[index] == comma
            guard index < bytes.count, bytes[index] == colon || bytes[index] == semicolon else {
                throw ICalendarError(.syntax, line: line, "no ':' after the parameters of \(name)")
            }
            parameters.append(ICalendarParameter(name: parameterName, values: values))
        }
        return ICalendarProperty(name: name, parameters: parameters, value: text((index + 1)..<bytes.count))
    }

    /// The start of a bad line, for an error message.
    private static func preview(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "\"\(text)\(bytes.count > 40 ? "..." : "")\""
    }

    /// `text` without white space at either end (names, BEGIN/END values, enumerated values).
    static func trimmed(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        let isBlank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
              let last = scalars.lastIndex(where: { !isBlank($0) }) else { return "" }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
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
    static func fresh(_ line: String) -> String {
        var out = ""
        out.reserveCapacity(line.utf8.count + line.utf8.count / 70 * 3 + 2)
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            if octets + size > maxLineOctets {
                out.unicodeScalars.append(contentsOf: "\r\n ".unicodeScalars)
                octets = 1
            }
            out.unicodeScalars.append(scalar)
            octets += size
        }
        out.unicodeScalars.append(contentsOf: "\r\n".unicodeScalars)
        return out
    }

    // MARK: TEXT values

    /// Escapes a TEXT value (RFC 5545 3.3.11): `\` `;` `,` get a backslash, a line feed
    /// becomes `\n`. Other characters are written as they are, a carriage return too (TEXT has
    /// no escape for it; the reader here keeps a CR that is not part of a line break).
    public static func escapeText(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", ";", ",": out.append("\\"); out.append(scalar)
            case "\n": out.append("\\"); out.append("n")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Unescapes a TEXT value: `\\`, `\;`, `\,`, `\n` and `\N`, and `\:` that some apps write;
    /// a backslash before anything else is kept as written.
    public static func unescapeText(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "\\")) else { return value }
        var out = String.UnicodeScalarView()
        var iterator = value.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else { out.append(scalar); continue }
            guard let next = iterator.next() else { out.append(scalar); break }
            switch next {
            case "\\", ";", ",", ":": out.append(next)
            case "n", "N": out.append("\n")
            default: out.append(scalar); out.append(next)
            }
        }
        return String(out)
    }
}
