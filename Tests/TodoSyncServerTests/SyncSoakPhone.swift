import Foundation
import TestSupport

/// The soak's phone: an app that writes the collection by plain HTTP on the server itself (not
/// through the misbehaving proxy), as ``SyncFaultTests/phoneRewrites(_:_:_:)`` does: a PROPFIND
/// to list it, GET, PUT with `If-Match` (or `If-None-Match: *` to create) and DELETE with
/// `If-Match`. Its objects carry lines `todo` does not know (an `X-PHONE-KEY` property with a
/// parameter, a VALARM whose DESCRIPTION is not the todo's, a category that is no tag), which
/// must come through every sync byte for byte.
final class SoakPhone {
    let server: CalDAVServer

    init(_ server: CalDAVServer) { self.server = server }

    /// Every object of the collection (`collection`, a URL; the server's first by default):
    /// href (the path, as the server writes it) and ETag.
    func listing(of collection: String? = nil) throws -> [String: String] {
        let body = #"<?xml version="1.0" encoding="utf-8"?><propfind xmlns="DAV:"><prop><getetag/></prop></propfind>"#
        let answer = try server.request(
            "PROPFIND", collection ?? server.todoCollectionURL, body: Data(body.utf8),
            headers: ["Depth": "1", "Content-Type": "application/xml; charset=utf-8"])
        guard answer.status == 207 else { throw UnexpectedOutput("PROPFIND answered \(answer.status)") }
        let text = String(decoding: answer.body, as: UTF8.self)
        var objects: [String: String] = [:]
        for response in Self.elements("response", in: text) {
            guard let href = Self.elements("href", in: response).first.map(Self.xmlUnescaped),
                href.hasSuffix(".ics"), let etag = Self.elements("getetag", in: response).first
            else { continue }
            objects[URLComponents(string: href)?.path ?? href] = Self.xmlUnescaped(etag)
        }
        return objects
    }

    /// The object at `href` (a path) and its ETag; `nil` when it is gone.
    func get(_ href: String) throws -> (text: String, etag: String)? {
        let answer = try server.request("GET", server.base + href)
        if answer.status == 404 { return nil }
        guard answer.status == 200, let etag = answer.headers["etag"] else {
            throw UnexpectedOutput("GET \(href) answered \(answer.status)")
        }
        return (String(decoding: answer.body, as: UTF8.self), etag)
    }

    /// PUT `text` at `href`: a change if the object is still at `etag`, a creation (if there is
    /// none yet) without one. The status.
    func put(_ href: String, _ text: String, ifMatch etag: String?) throws -> Int {
        var headers = ["Content-Type": "text/calendar; charset=utf-8"]
        if let etag { headers["If-Match"] = etag } else { headers["If-None-Match"] = "*" }
        return try server.request("PUT", server.base + href, body: Data(text.utf8), headers: headers).status
    }

    /// DELETE `href` if it is still at `etag`. The status.
    func delete(_ href: String, ifMatch etag: String) throws -> Int {
        try server.request("DELETE", server.base + href, headers: ["If-Match": etag]).status
    }

    /// The contents of every element `name` (in any namespace prefix) in `xml`.
    static func elements(_ name: String, in xml: String) -> [String] {
        let pattern = "<(?:[A-Za-z0-9_-]+:)?\(name)(?:\\s[^>]*)?>(.*?)</(?:[A-Za-z0-9_-]+:)?\(name)\\s*>"
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
            return []
        }
        let range = NSRange(xml.startIndex..., in: xml)
        return regex.matches(in: xml, range: range).compactMap { match in
            Range(match.range(at: 1), in: xml).map { String(xml[$0]) }
        }
    }

    static func xmlUnescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The lines of a phone object that `todo` knows nothing of, in the order written: what the
    /// server must still hold, byte for byte, after every sync.
    static func unknownLines(key: String) -> [String] {
        [
            "X-PHONE-KEY;X-SOAK=kept:\(key)", "BEGIN:VALARM", "ACTION:DISPLAY",
            "DESCRIPTION:\(key) reminder\\, not the note", "TRIGGER;RELATED=END:-PT15M", "END:VALARM"
        ]
    }

    /// A category that is no tag (a line break in it; one with a space is a tag since issue 36):
    /// kept on the object, never a field.
    static let keptCategory = "Home\nOffice"

    /// A new object as the phone writes it: the fields, then the unknown lines.
    static func newObject(uid: String, key: String, fields: SoakFields) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//soak//phone//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20240101T000000Z", "SUMMARY:" + SoakICS.escaped(fields.name)
        ]
        if let deadline = fields.deadline {
            lines.append("DUE;VALUE=DATE:" + deadline.replacingOccurrences(of: "-", with: ""))
        }
        lines.append(fields.done ? "STATUS:COMPLETED" : "STATUS:NEEDS-ACTION")
        if fields.done { lines.append("COMPLETED:20240102T030405Z") }
        if fields.priority != 0 { lines.append("PRIORITY:\(fields.priority)") }
        lines.append("CATEGORIES:" + ([keptCategory] + fields.tags).map(SoakICS.escaped).joined(separator: ","))
        if let note = fields.note { lines.append("DESCRIPTION:" + SoakICS.escaped(note)) }
        lines += unknownLines(key: key)
        lines += ["END:VTODO", "END:VCALENDAR"]
        return SoakICS.serialized(lines)
    }
}

/// The iCalendar text handling of the phone and of the final checks, written apart from
/// `todo`'s own (VTodo.swift), as another app's would be: unfolding and folding, TEXT escaping,
/// and the VTODO's own properties (never those of a VALARM inside it).
enum SoakICS {
    /// The object's lines, unfolded.
    static func unfolded(_ text: String) -> [String] {
        var lines: [String] = []
        for raw in text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: true)
        {
            if let first = raw.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += raw.dropFirst()
            } else {
                lines.append(String(raw))
            }
        }
        return lines
    }

    /// The lines as an object's text: CRLF, folded at 75 octets without splitting a character.
    static func serialized(_ lines: [String]) -> String {
        lines.map(folded).joined(separator: "\r\n") + "\r\n"
    }

    static func folded(_ line: String) -> String {
        var out = ""
        var octets = 0
        for character in line {
            let size = character.utf8.count
            if octets + size > 75 {
                out += "\r\n "
                octets = 1
            }
            out.append(character)
            octets += size
        }
        return out
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
            .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func unescaped(_ text: String) -> String {
        var out = ""
        var escape = false
        for character in text {
            if escape {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escape = false
            } else if character == "\\" {
                escape = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// A TEXT list split at its unescaped commas, each value unescaped.
    static func list(_ value: String) -> [String] {
        var values: [String] = []
        var current = ""
        var escape = false
        for character in value {
            if escape {
                current.append(character)
                escape = false
            } else if character == "\\" {
                current.append(character)
                escape = true
            } else if character == "," {
                values.append(unescaped(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        values.append(unescaped(current))
        return values
    }

    /// A property line's name (upper-cased) and value (after the first colon outside quotes).
    static func split(_ line: String) -> (name: String, value: String) {
        var quoted = false
        var nameEnd: String.Index?
        for index in line.indices {
            let character = line[index]
            if character == "\"" { quoted.toggle() }
            if nameEnd == nil, character == ";" || character == ":" { nameEnd = index }
            if character == ":", !quoted {
                return (String(line[..<(nameEnd ?? index)]).uppercased(), String(line[line.index(after: index)...]))
            }
        }
        return (line.uppercased(), "")
    }

    /// The indices of the lines that are the master VTODO's own properties, and the index where
    /// a new one goes (before its first component, or its END).
    static func todoProperties(_ lines: [String]) -> (indices: [Int], insertAt: Int) {
        var indices: [Int] = []
        var depth = 0  // 1 inside the VTODO, more inside its components
        var insertAt = lines.count
        for (index, line) in lines.enumerated() {
            let upper = line.uppercased()
            if upper == "BEGIN:VTODO", depth == 0 {
                depth = 1
                continue
            }
            guard depth > 0 else { continue }
            if upper.hasPrefix("BEGIN:") {
                if depth == 1, insertAt == lines.count { insertAt = index }
                depth += 1
            } else if upper.hasPrefix("END:") {
                depth -= 1
                if depth == 0 {
                    if insertAt == lines.count { insertAt = index }
                    break
                }
            } else if depth == 1 {
                indices.append(index)
            }
        }
        return (indices, insertAt)
    }

    /// The values of the master VTODO's properties named `name`.
    static func values(_ name: String, in lines: [String]) -> [String] {
        todoProperties(lines).indices.map { split(lines[$0]) }.filter { $0.name == name }.map(\.value)
    }

    /// The lines with the master VTODO's properties named `name` replaced by `line` (where the
    /// first was), or removed when `line` is nil.
    static func setting(_ name: String, to line: String?, in lines: [String]) -> [String] {
        let (indices, insertAt) = todoProperties(lines)
        let matching = indices.filter { split(lines[$0]).name == name }
        var out = lines
        let position = matching.first ?? insertAt
        for index in matching.reversed() { out.remove(at: index) }
        if let line { out.insert(line, at: min(position, out.count)) }
        return out
    }

    /// The fields `todo` reads from an object (the rules of docs/sync.md, for the forms the soak
    /// writes: a DATE DUE, tags as plain words or `@words`).
    static func fields(_ text: String) -> SoakFields {
        let lines = unfolded(text)
        let value = { (name: String) in values(name, in: lines).first }
        let status = value("STATUS")?.trimmingCharacters(in: .whitespaces).uppercased()
        let done =
            switch status {
            case "COMPLETED", "CANCELLED": true
            case "NEEDS-ACTION", "IN-PROCESS": false
            default: value("COMPLETED") != nil
            }
        var deadline: String?
        if let due = value("DUE"), due.count == 8, due.allSatisfy(\.isNumber) {
            deadline = "\(due.prefix(4))-\(due.dropFirst(4).prefix(2))-\(due.suffix(2))"
        }
        let categories = values("CATEGORIES", in: lines).flatMap(list)
        let tags = categories.filter { !$0.isEmpty && $0 != SoakPhone.keptCategory }.map { $0.lowercased() }
        return SoakFields(
            name: value("SUMMARY").map(unescaped) ?? "", deadline: deadline, done: done,
            priority: value("PRIORITY").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap {
                (0...9).contains($0) ? $0 : nil
            } ?? 0,
            tags: tags, note: value("DESCRIPTION").map(unescaped))
    }
}
