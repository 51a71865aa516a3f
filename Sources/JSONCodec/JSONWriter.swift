import TextSafety

extension JSONValue {
    /// The value as one line of JSON text (RFC 8259): no whitespace, members in their order, `/`
    /// not escaped, non-ASCII as UTF-8; every control character escaped (see
    /// ``encodeString(_:into:)``), so the text never holds a line break. Integral numbers of
    /// magnitude below 9e15 (just under 2^53) are written as integers, other numbers as Swift
    /// prints a `Double`.
    public func encoded(into out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let value): out += (value ? "true" : "false").utf8
        case .number(let value):
            if value == value.rounded(), abs(value) < 9.0e15 {
                out += String(Int64(value)).utf8
            } else {
                out += "\(value)".utf8
            }
        case .string(let value): JSONValue.encode(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.encoded(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.encode(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.encoded(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The value as one line of JSON text (see ``encoded(into:)``).
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        encoded(into: &out)
        return out
    }

    private static func encode(_ string: String, into out: inout [UInt8]) {
        encodeString(string.utf8, into: &out)
    }

    /// A JSON string of UTF-8 `bytes`, quotes included, appended to `out`: `"` and `\` escaped,
    /// newline, carriage return and tab as `\n`, `\r`, `\t`, and every other control character of
    /// the one policy (TextSafety's `ControlCharacters`: C0, DEL, C1, U+2028/2029, the bidi
    /// controls) as `\u00XX` or `\u202e`: JSON allows most of them raw, but its text is read in
    /// terminals too, and what it says reads back the same. For writers that stream JSON text
    /// without building a ``JSONValue``.
    public static func encodeString<Bytes: Sequence<UInt8>>(_ bytes: Bytes, into out: inout [UInt8]) {
        // On the bytes where they are (a String's, an array's), else on a copy.
        if bytes.withContiguousStorageIfAvailable({ encodeString(contiguous: $0, into: &out) }) == nil {
            Array(bytes).withUnsafeBufferPointer { encodeString(contiguous: $0, into: &out) }
        }
    }

    private static func encodeString(contiguous bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Appended a byte at a time, with no array made per escape: an iCalendar text has two
        // (CR LF) on every line.
        func escaped(_ letter: Unicode.Scalar) {
            out.append(UInt8(ascii: "\\"))
            out.append(UInt8(ascii: letter))
        }
        func unicode(_ value: UInt32) {
            escaped("u")
            for shift in [12, 8, 4, 0] { out.append(hexDigits[Int((value >> UInt32(shift)) & 15)]) }
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""): escaped("\"")
            case UInt8(ascii: "\\"): escaped("\\")
            case 0x0A: escaped("n")
            case 0x0D: escaped("r")
            case 0x09: escaped("t")
            default:
                guard byte < 0x20 || byte >= 0x7F, let length = ControlCharacters.controlLength(at: index, in: bytes)
                else {
                    out.append(byte)
                    index += 1
                    continue
                }
                switch length {
                case 1: unicode(UInt32(byte))
                case 2: unicode(UInt32(byte & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F))
                default:
                    unicode(
                        UInt32(byte & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
                            | UInt32(bytes[index + 2] & 0x3F))
                }
                index += length
                continue
            }
            index += 1
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension JSONValue {
    /// An object from key-value pairs in order; the keys must be distinct.
    public static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members: members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }

    /// A string, or `null` for `nil`.
    public static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// An array of strings.
    public static func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
}
