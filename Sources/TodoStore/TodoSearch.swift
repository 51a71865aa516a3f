import SQLite

/// Case-insensitive substring search over todo names, for every script.
///
/// SQLite's `LIKE` and `instr` fold ASCII case only, so "ÉCLAIR" would not find "éclair". The
/// store registers ``sqlFunction`` on its connection, and searches compare Unicode full case
/// foldings by Character: "ΣΊΣΥΦΟΣ" finds "σίσυφος" (final sigma), "STRASSE" finds "Straße",
/// and canonically equivalent spellings (a precomposed "é" and "e" plus a combining accent)
/// match too. Scripts without case, such as Japanese, match as typed.
public enum TodoSearch {
    /// The SQL function `todo_matches(name, folded_needle)`.
    static let sqlFunction = "todo_matches"

    /// The form both sides are compared in: Unicode full case folding, scalar by scalar (the
    /// lowercase mapping, except where ``CaseFolding`` says otherwise).
    public static func fold(_ text: String) -> String {
        var folded = ""
        folded.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let exception = CaseFolding.exceptions[scalar.value] {
                folded += exception
            } else if scalar.isASCII {
                folded.unicodeScalars.append(scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(UInt8(scalar.value) + 0x20) : scalar)
            } else {
                folded += scalar.properties.lowercaseMapping
            }
        }
        return folded
    }

    /// Whether `name` contains the already folded `needle`: the one rule of a search, for SQL
    /// (through ``sqlFunction``) and for callers that narrow results they already hold.
    ///
    /// ASCII names (most of them) are searched on bytes without allocating; others are folded.
    public static func matches(name: UnsafeBufferPointer<UInt8>, foldedNeedle needle: UnsafeBufferPointer<UInt8>) -> Bool {
        if needle.isEmpty { return true }
        if name.allSatisfy({ $0 < 0x80 }) && needle.allSatisfy({ $0 < 0x80 }) {
            guard needle.count <= name.count else { return false }
            for start in 0...(name.count - needle.count) {
                var offset = 0
                while offset < needle.count, lowerASCII(name[start + offset]) == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            return false
        }
        return fold(String(decoding: name, as: UTF8.self)).contains(String(decoding: needle, as: UTF8.self))
    }

    @inline(__always)
    private static func lowerASCII(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// Registers ``sqlFunction`` on `connection`.
    static func register(on connection: Connection) throws(SQLiteError) {
        try connection.addTextPredicate(named: sqlFunction) { name, needle in
            matches(name: name, foldedNeedle: needle)
        }
    }
}
