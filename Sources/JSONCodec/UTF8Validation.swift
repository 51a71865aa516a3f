/// Checks UTF-8 as RFC 3629 defines it, byte by byte, for the readers in this module.
///
/// Rejects what `String(decoding:as:)` would silently repair: stray continuation bytes,
/// truncated sequences, overlong forms (`C0 80`), UTF-16 surrogates encoded in UTF-8
/// (`ED A0 80`) and anything past U+10FFFF.
package enum UTF8Validation {
    /// The index just past the well-formed sequence that starts at `index` (a byte >= 0x80),
    /// or `nil` when the bytes there are not UTF-8.
    @inline(__always)
    package static func endOfSequence(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let count = bytes.count
        // The allowed range of the second byte depends on the lead (Table 3-7 of Unicode).
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return nil
        }
        guard index + length <= count else { return nil }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { return nil }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return index + length
    }

    /// Whether all of `bytes` is well-formed UTF-8.
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
            } else if let end = endOfSequence(in: bytes, at: index) {
                index = end
            } else {
                return false
            }
        }
        return true
    }
}
