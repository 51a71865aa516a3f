/// The cursor that does the work for ``JSONParser``: one pass, recursive descent.
///
/// Containers, literals and numbers are here; strings in `JSONReader+Strings.swift`.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    private var depth = 0
    /// Reused for strings with escapes, so most of them cost one allocation: their String.
    var scratch: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(at: offset ?? index, in: bytes, message: message)
    }

    private func unexpected(_ expectation: String) -> JSONParseError {
        guard index < bytes.count else { return error("unexpected end of input, \(expectation)") }
        return error("unexpected \(Self.describe(byte: bytes[index])), \(expectation)")
    }

    /// A byte as a person would name it in an error message.
    static func describe(byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "'"): return "\"'\""
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x20: return "space"
        case 0x00..<0x20, 0x7F: return "control character U+00\(hex(byte))"
        default: return "character"
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Reads one value starting at `index` (whitespace already skipped).
    mutating func value() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw unexpected("expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: throw unexpected("expected a value")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let length = word.utf8CodeUnitCount
        let text = UnsafeBufferPointer(start: word.utf8Start, count: length)
        for offset in 0..<length {
            guard start + offset < bytes.count, bytes[start + offset] == text[offset] else {
                throw error("invalid literal, expected '\(word)'", at: start)
            }
        }
        index += length
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("nesting deeper than \(JSONParser.maximumDepth) arrays and objects")
        }
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw unexpected("expected ',' or ']' after an array element") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw unexpected("expected ',' or ']' after an array element")
            }
        }
    }

    private mutating func object() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        var members: [JSONObject.Member] = []
        // Small objects check duplicates by a scan; past this size, by a set.
        var seen: Set<String>? = nil
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject(members: members))
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw unexpected("expected a string key")
            }
            let keyStart = index
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw unexpected("expected ':' after an object key")
            }
            index += 1
            skipWhitespace()
            let value = try value()
            // Small objects (every todo) are checked by a scan; large ones switch to a set.
            let isDuplicate: Bool
            if seen == nil && members.count < 16 {
                isDuplicate = members.contains { $0.key == key }
            } else {
                if seen == nil { seen = Set(members.map(\.key)) }
                isDuplicate = seen?.insert(key).inserted == false
            }
            if isDuplicate { throw error("duplicate key \"\(key)\"", at: keyStart) }
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw unexpected("expected ',' or '}' after an object member") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(JSONObject(members: members))
            default:
                throw unexpected("expected ',' or '}' after an object member")
            }
        }
    }

    /// Reads a number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(JSONParseError) -> Double {
        let start = index
        var cursor = index
        let isNegative = bytes[cursor] == UInt8(ascii: "-")
        if isNegative { cursor += 1 }
        func isDigit(_ at: Int) -> Bool {
            at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
        }
        guard isDigit(cursor) else { throw error("invalid number: expected a digit", at: cursor) }
        var integer: Int = 0
        let integerStart = cursor
        if bytes[cursor] == UInt8(ascii: "0") {
            cursor += 1
            if isDigit(cursor) { throw error("invalid number: leading zeros are not allowed", at: start) }
        } else {
            while isDigit(cursor) {
                if cursor - integerStart < 15 { integer = integer * 10 + Int(bytes[cursor] - UInt8(ascii: "0")) }
                cursor += 1
            }
        }
        var isInteger = cursor - integerStart <= 15
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            cursor += 1
            guard isDigit(cursor) else { throw error("invalid number: expected a digit after '.'", at: cursor) }
            while isDigit(cursor) { cursor += 1 }
            isInteger = false
        }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "e") || bytes[cursor] == UInt8(ascii: "E") {
            cursor += 1
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                cursor += 1
            }
            guard isDigit(cursor) else { throw error("invalid number: expected a digit in the exponent", at: cursor) }
            while isDigit(cursor) { cursor += 1 }
            isInteger = false
        }
        index = cursor
        // Up to 15 digits, an integer is exact in a Double: no need for strtod.
        if isInteger { return isNegative ? -Double(integer) : Double(integer) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number out of range", at: start)
        }
        return value
    }
}
