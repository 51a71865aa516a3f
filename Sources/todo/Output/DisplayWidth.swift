/// How many terminal columns text takes, as terminals (`wcwidth`) count them, without Foundation.
///
/// Swift's `count` is grapheme clusters, not columns: `"牛乳"` is 2 Characters but 4 columns,
/// `"e\u{301}"` is 1 Character and 1 column, `"👨‍👩‍👧"` is 1 Character of five scalars and
/// 2 columns. Aligning a table by `count` skews every row with CJK or emoji in it.
///
/// The rules, per grapheme cluster (`Character`):
/// - 0 for control characters, combining marks (Mn, Me), format characters (ZWJ, ZWSP, bidi
///   marks), variation selectors and Hangul medial/final jamo;
/// - 2 for East Asian Wide and Fullwidth scalars (CJK, kana, Hangul, fullwidth forms) and for
///   emoji presentation: a scalar with `Emoji_Presentation`, or a cluster with U+FE0F (❤️),
///   an emoji ZWJ sequence (👨‍👩‍👧) or a flag pair (🇯🇵), each counted once as a whole;
/// - 1 otherwise. A cluster takes the width of its first scalar that is not zero-width.
enum DisplayWidth {
    /// The number of columns `text` takes on a terminal.
    ///
    /// Printable ASCII (most todo names) is its byte count, without walking grapheme clusters.
    static func of(_ text: String) -> Int {
        if isPrintableASCII(text) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character: character) }
        return total
    }

    /// The number of columns one grapheme cluster takes: 0, 1 or 2.
    static func of(character: Character) -> Int {
        let scalars = character.unicodeScalars
        var first: Unicode.Scalar?
        var previousWasJoiner = false
        for scalar in scalars {
            // VS16 asks for emoji presentation (❤️, 1️⃣); a joiner followed by an emoji is a
            // ZWJ sequence that terminals draw as one wide glyph, whatever its first scalar.
            if scalar.value == 0xFE0F { return 2 }
            if previousWasJoiner && scalar.properties.isEmoji { return 2 }
            previousWasJoiner = scalar.value == 0x200D
            if first == nil && of(scalar: scalar) > 0 { first = scalar }
        }
        return first.map { of(scalar: $0) } ?? 0
    }

    /// The number of columns one scalar takes on its own: 0, 1 or 2.
    static func of(scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
        if isZeroWidth(scalar) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// `text` cut to at most `width` columns on a grapheme boundary, ending with "…" when cut.
    ///
    /// Text that fits is returned unchanged. A wide character that would straddle the limit is
    /// dropped whole, so the result may be one column narrower than `width`; the caller pads.
    /// A width of 0 or less gives "", a width of 1 gives "…" for any text that does not fit.
    static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if isPrintableASCII(text) {
            guard text.utf8.count > width else { return text }
            return String(decoding: text.utf8.prefix(width - 1), as: UTF8.self) + "…"
        }
        // One pass: remember where the text stops fitting with room for "…", and return it
        // unchanged only if it turns out to fit entirely.
        let budget = width - 1
        var used = 0
        var cut = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            used += of(character: text[index])
            if used > width {
                return String(text[..<cut]) + "…"
            }
            text.formIndex(after: &index)
            if used <= budget { cut = index }
        }
        return text
    }

    /// Whether every byte is printable ASCII (space to tilde), where columns equal bytes.
    private static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Scalars that draw nothing on their own: they modify, join or steer their neighbours.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
            return true
        case .format:
            // The soft hyphen is the one format character terminals draw (as a hyphen).
            return scalar.value != 0x00AD
        default:
            // Hangul medial vowels and final consonants combine into the preceding initial.
            return (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value)
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks that are not emoji.
    ///
    /// The standard library does not expose East_Asian_Width, so these are the blocks from
    /// Unicode's EastAsianWidth.txt; emoji in W are caught by `isEmojiPresentation` instead.
    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        return wideRanges.contains { $0.contains(value) }
    }

    /// Sorted, so the common non-wide case in Latin, Cyrillic or Greek text fails the first test.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // Angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, enclosed CJK
        0x3400...0x4DBF,  // CJK Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // Vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // Fullwidth forms
        0xFFE0...0xFFE6,  // Fullwidth signs
        0x16FE0...0x16FE4,  // Ideographic symbols
        0x16FF0...0x16FF1,
        0x17000...0x18CFF,  // Tangut, Khitan
        0x18D00...0x18D08,
        0x1AFF0...0x1B2FF,  // Kana extensions, Nushu
        0x1F200...0x1F2FF,  // Enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK Extensions B to F
        0x30000...0x3FFFD  // CJK Extensions G and H
    ]
}
