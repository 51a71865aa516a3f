import TodoStore

/// Writes JSON by hand: the CLI's output is small and fixed in shape, and full Foundation's
/// encoder would cost ~10 MB and several ms per run.
enum JSON {
    /// A JSON string literal for `text`, with every character JSON requires escaped, and every
    /// other control character too: C0, DEL and C1 (U+0080-U+009F, where the 8-bit CSI U+009B
    /// lives), U+2028/2029 and the bidi overrides and isolates, as `\u00XX` (`\u202e`). JSON
    /// allows most of them raw, but `--json` is read in terminals too, and text from another
    /// client or a CalDAV server must not reach one raw there either (as ``TodoText`` makes sure
    /// for text output). Escaped, the value a JSON parser reads back is the same.
    static func string(_ text: String) -> String {
        // Most names are printable ASCII without quotes or backslashes: one pass over the bytes
        // proves it, and the text is copied as it is.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        if plain == true { return "\"" + text + "\"" }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where TodoText.isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON string, or `null`.
    static func optional(_ text: String?) -> String {
        text.map(string) ?? "null"
    }

    /// A todo as JSON, in the one shape every `--json` output and `todo export` use (README,
    /// "Using it"): `{"id": 3, "name": "Buy milk", "deadline": "2024-05-01", "done": false}`,
    /// keys in that order, `"deadline": null` when there is none.
    static func object(_ todo: Todo) -> String {
        object(todo, uid: nil)
    }

    /// ``object(_:)`` with the todo's `"uid"` last when it has one: what `todo export` writes,
    /// so that importing the file twice adds its todos once.
    static func object(_ todo: Todo, uid: String?) -> String {
        let deadline = todo.deadline.map { "\"\($0)\"" } ?? "null"
        let uidField = uid.map { ", \"uid\": \(string($0))" } ?? ""
        let tags = "[" + todo.tags.map { string($0.description) }.joined(separator: ", ") + "]"
        let times =
            ", \"created\": \(optional(todo.created.map(\.description))), \"completed\": "
            + optional(todo.completed.map(\.description))
        return
            "{\"id\": \(todo.id), \"name\": \(string(todo.name)), \"deadline\": \(deadline), \"done\": \(todo.isDone), "
            + "\"priority\": \(todo.priority.rawValue), \"tags\": \(tags), \"note\": \(optional(todo.note))\(times)\(uidField)}"
    }
}
