import TodoStore

/// Writes JSON by hand: the CLI's output is small and fixed in shape, and full Foundation's
/// encoder would cost ~10 MB and several ms per run.
enum JSON {
    /// A JSON string literal for `text`, with every character JSON requires escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
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

    /// The BRIEF's todo object: `{"id": 3, "name": "Buy milk", "deadline": "2024-05-01", "done": false}`.
    static func object(_ todo: Todo) -> String {
        let deadline = todo.deadline.map { "\"\($0)\"" } ?? "null"
        return "{\"id\": \(todo.id), \"name\": \(string(todo.name)), \"deadline\": \(deadline), \"done\": \(todo.isDone)}"
    }
}
