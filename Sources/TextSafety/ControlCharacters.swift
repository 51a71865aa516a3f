/// The one control-character policy: which characters must never reach a terminal, a JSON
/// reader or another app raw, and the two ways every writer renders them.
///
/// The characters: C0 (U+0000-U+001F, tab and line feed included), DEL, C1 (U+0080-U+009F, where
/// the 8-bit CSI U+009B lives), the line and paragraph separators (U+2028, U+2029), and the bidi
/// embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which reorder what follows
/// them on screen. Text from another client or a server may hold any of them: an ESC starts a
/// terminal command, a CR rewrites a row, an override makes one row read as another.
///
/// The renderings:
/// - escaped, where the reader can read the escape back or a person reads it: a terminal
///   (``escapedForTerminal(_:)``: `\n`, `\t`, `\r`, `^[` for the rest of C0, `\u{9b}` for the
///   others) and JSON (JSONCodec's string writer, which every JSON output goes through: `\n`,
///   `\r`, `\t`, `\u001b`, `\u202e`), which reads back as the same text;
/// - replaced by U+FFFD, where the format has no escape for them: iCalendar TEXT (RFC 5545
///   allows none of C0 but tab; a line feed is escaped as `\n` before) and todo.txt lines
///   (``replaced(in:keeping:)``).
public enum ControlCharacters {
    /// Whether `scalar` is one of the policy's characters.
    @inlinable
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x2028...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }

    /// The length in bytes of the scalar that starts at `index` of valid UTF-8 `bytes` when it
    /// is one of the policy's characters, else `nil`: the same test as ``contains(_:)``, for
    /// writers that work on bytes.
    @inlinable
    public static func controlLength<Bytes: RandomAccessCollection<UInt8>>(at index: Bytes.Index, in bytes: Bytes)
        -> Int?
    where Bytes.Index == Int {
        let lead = bytes[index]
        if lead < 0x20 || lead == 0x7F { return 1 }
        if lead == 0xC2, index + 1 < bytes.endIndex, bytes[index + 1] < 0xA0 { return 2 }
        if lead == 0xE2, index + 2 < bytes.endIndex {
            let second = bytes[index + 1]
            let third = bytes[index + 2]
            if second == 0x80, (0xA8...0xAE).contains(third) { return 3 }
            if second == 0x81, (0xA6...0xA9).contains(third) { return 3 }
        }
        return nil
    }

    /// `text` with each of the policy's characters made visible for a terminal: `\n`, `\t`,
    /// `\r`, caret notation for the rest of C0 (`^[` for ESC), `\u{9b}` for the others.
    public static func escapedForTerminal(_ text: String) -> String {
        // Most text is printable ASCII: one pass over the bytes proves it.
        let printableASCII = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        }
        if printableASCII == true { return text }
        guard text.unicodeScalars.contains(where: contains) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20: out += "^" + String(Unicode.Scalar(UInt8(scalar.value) + 64))
            case _ where contains(scalar): out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` with each of the policy's characters replaced by U+FFFD, but those `keeping`
    /// keeps (a tab in iCalendar TEXT), for formats that have no escape for them.
    public static func replaced(in text: String, keeping: (Unicode.Scalar) -> Bool = { _ in false }) -> String {
        guard text.unicodeScalars.contains(where: { contains($0) && !keeping($0) }) else { return text }
        return String(
            String.UnicodeScalarView(text.unicodeScalars.map { contains($0) && !keeping($0) ? "\u{FFFD}" : $0 }))
    }
}
