/// Strings: the fast path for plain text, escapes, surrogate pairs and UTF-8 checks.
extension JSONReader {
    /// Reads a string starting at its opening quote.
    mutating func string() throws(JSONParseError) -> String {
        let quote = index
        let start = index + 1
        var cursor = start
        // Fast path: no escapes, so the bytes between the quotes are the string.
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                index = cursor + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                break
            } else if byte < 0x20 {
                throw error("unescaped control character U+00\(Self.hex(byte)) in a string", at: cursor)
            } else if byte < 0x80 {
                cursor += 1
            } else {
                guard let end = UTF8Validation.endOfSequence(in: bytes, at: cursor) else {
                    throw error("invalid UTF-8 in a string", at: cursor)
                }
                cursor = end
            }
        }
        guard cursor < bytes.count else { throw error("unterminated string", at: quote) }
        // Slow path: copy runs of plain bytes and decoded escapes into the scratch buffer.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<cursor]))
        while cursor < bytes.count {
            let byte = bytes[cursor]
            switch byte {
            case UInt8(ascii: "\""):
                index = cursor + 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                cursor = try escape(at: cursor)
            case 0x00..<0x20:
                throw error("unescaped control character U+00\(Self.hex(byte)) in a string", at: cursor)
            case 0x20..<0x80:
                var end = cursor + 1
                while end < bytes.count, bytes[end] >= 0x20, bytes[end] < 0x80,
                    bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\")
                { end += 1 }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cursor..<end]))
                cursor = end
            default:
                guard let end = UTF8Validation.endOfSequence(in: bytes, at: cursor) else {
                    throw error("invalid UTF-8 in a string", at: cursor)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cursor..<end]))
                cursor = end
            }
        }
        throw error("unterminated string", at: quote)
    }

    /// Decodes the escape at `start` (a backslash) into `scratch`; returns the index after it.
    private mutating func escape(at start: Int) throws(JSONParseError) -> Int {
        guard start + 1 < bytes.count else { throw error("unterminated string", at: start) }
        let decoded: UInt8
        switch bytes[start + 1] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"): return try unicodeEscape(at: start)
        default: throw error("invalid escape sequence", at: start)
        }
        scratch.append(decoded)
        return start + 2
    }

    /// Decodes `\uXXXX` (and the low half of a surrogate pair after it) at `start`.
    private mutating func unicodeEscape(at start: Int) throws(JSONParseError) -> Int {
        let unit = try hexQuad(at: start)
        var scalarValue = UInt32(unit)
        var end = start + 6
        switch unit {
        case 0xD800...0xDBFF:
            guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u") else {
                throw error(
                    "lone surrogate: a \\u escape for a high surrogate must be followed by a low one", at: start)
            }
            let low = try hexQuad(at: end)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(
                    "lone surrogate: a \\u escape for a high surrogate must be followed by a low one", at: start)
            }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw error("lone surrogate: a low surrogate without a high one before it", at: start)
        default:
            break
        }
        // Every value left is a Unicode scalar (surrogates were paired or rejected above); the
        // guard keeps a future mistake an error instead of a crash.
        guard let scalar = Unicode.Scalar(scalarValue), let units = UTF8.encode(scalar) else {
            throw error("invalid \\u escape", at: start)
        }
        scratch.append(contentsOf: units)
        return end
    }

    /// The 16-bit value of the four hex digits after `\u` at `start`.
    private func hexQuad(at start: Int) throws(JSONParseError) -> UInt16 {
        guard start + 6 <= bytes.count else { throw error("invalid \\u escape: expected four hex digits", at: start) }
        var value: UInt16 = 0
        for offset in 2..<6 {
            let byte = bytes[start + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape: expected four hex digits", at: start)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
