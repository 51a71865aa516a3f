import TestSupport
import Testing

@testable import todo

/// Terminal column widths as `wcwidth` counts them, and cutting text to a width.
@Suite(.timed) struct DisplayWidthTests {
    @Test(arguments: [
        ("", 0),
        ("Buy milk", 8),
        ("~!@# {}", 7)
    ])
    func printableASCIIIsItsByteCount(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test func accentsTakeOneColumnPrecomposedOrCombining() {
        #expect(DisplayWidth.of("café") == 4)
        #expect(DisplayWidth.of("cafe\u{301}") == 4, "a combining acute accent adds nothing")
        #expect(DisplayWidth.of("Ål\u{30A}\u{323}") == 2, "several marks on one letter")
        #expect(DisplayWidth.of("\u{301}") == 0, "a lone combining mark draws nothing")
    }

    @Test(arguments: [
        ("牛乳を買う", 10),  // Kanji and Hiragana
        ("カタカナ", 8),  // Katakana
        ("ｶﾀｶﾅ", 4),  // Halfwidth Katakana stays narrow
        ("买牛奶", 6),  // Simplified Chinese
        ("우유 사기", 9),  // Hangul syllables and an ASCII space
        ("\u{1112}\u{1161}\u{11AB}", 2),  // Hangul as conjoining jamo: one wide syllable
        ("ＡＢＣ", 6),  // Fullwidth Latin
        ("、。", 4),  // CJK punctuation
        ("𠮷", 2)  // CJK Extension B, outside the BMP
    ])
    func eastAsianWideAndFullwidthTakeTwoColumns(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width, "\(text)")
    }

    @Test(arguments: [
        ("👍", 2),
        ("👍🏽", 2),  // skin tone modifier
        ("👨‍👩‍👧", 2),  // ZWJ family sequence
        ("🇯🇵", 2),  // flag: a regional indicator pair
        ("❤️", 2),  // text-default heart + U+FE0F
        ("❤", 1),  // the same heart without VS16 is text
        ("1️⃣", 2),  // keycap sequence
        ("🏳️‍🌈", 2),  // VS16 and ZWJ together
        ("ok 👍", 5)
    ])
    func emojiPresentationTakesTwoColumnsPerCluster(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width, "\(text)")
    }

    @Test func zeroWidthCharactersAndControlsTakeNoColumns() {
        #expect(DisplayWidth.of("a\u{200B}b") == 2, "zero-width space")
        #expect(DisplayWidth.of("a\u{200D}b") == 2, "zero-width joiner between letters")
        #expect(DisplayWidth.of("\u{FEFF}x") == 1, "byte order mark")
        #expect(DisplayWidth.of("a\u{FE0E}") == 1, "a text variation selector")
        #expect(DisplayWidth.of("\u{1B}[31m") == 4, "ESC itself is 0; what follows is printable")
        #expect(DisplayWidth.of("a\tb\u{7F}\u{85}") == 2)
    }

    @Test func perScalarAndPerCharacterWidths() {
        #expect(DisplayWidth.of(scalar: "a") == 1)
        #expect(DisplayWidth.of(scalar: "日") == 2)
        #expect(DisplayWidth.of(scalar: "\u{300}") == 0)
        #expect(DisplayWidth.of(character: "e\u{301}") == 1)
        #expect(DisplayWidth.of(character: "👨‍👩‍👧") == 2)
    }

    @Test func textThatFitsIsUnchanged() {
        #expect(DisplayWidth.truncate("Buy milk", toWidth: 8) == "Buy milk")
        #expect(DisplayWidth.truncate("Buy milk", toWidth: 80) == "Buy milk")
        #expect(DisplayWidth.truncate("牛乳を買う", toWidth: 10) == "牛乳を買う", "exact fit of wide text")
        #expect(DisplayWidth.truncate("cafe\u{301}", toWidth: 4) == "cafe\u{301}", "marks cost nothing")
        #expect(DisplayWidth.truncate("", toWidth: 0) == "")
    }

    @Test func cutTextEndsWithAnEllipsisWithinTheWidth() {
        #expect(DisplayWidth.truncate("Buy milk today", toWidth: 8) == "Buy mil…")
        #expect(DisplayWidth.truncate("café au lait", toWidth: 5) == "café…")
        #expect(
            DisplayWidth.truncate("cafe\u{301} au lait", toWidth: 5) == "cafe\u{301}…", "the mark stays on its letter")
        #expect(DisplayWidth.truncate("👍👍👍", toWidth: 5) == "👍👍…")
    }

    @Test func neverSplitsAWideCharacter() {
        // 牛乳を買う is 10 columns; at 6 the third character would straddle the limit with "…".
        let cut = DisplayWidth.truncate("牛乳を買う", toWidth: 6)
        #expect(cut == "牛乳…")
        #expect(DisplayWidth.of(cut) == 5, "one column short: the caller pads")
        #expect(DisplayWidth.truncate("牛乳を買う", toWidth: 7) == "牛乳を…")
        #expect(DisplayWidth.truncate("👨‍👩‍👧 family", toWidth: 3) == "👨‍👩‍👧…", "a ZWJ sequence is kept whole")
        #expect(DisplayWidth.truncate("🇯🇵🇫🇷", toWidth: 3) == "🇯🇵…", "a flag is kept whole")
        for width in 0...12 {
            for text in ["牛乳を買う", "a牛b乳c", "👍x👨‍👩‍👧y🇯🇵", "cafe\u{301} Ω"] {
                let result = DisplayWidth.truncate(text, toWidth: width)
                #expect(DisplayWidth.of(result) <= width, "\(text) at \(width): \(result)")
                #expect(text.hasPrefix(result) || result.hasSuffix("…"))
            }
        }
    }

    @Test func widthsZeroAndOne() {
        #expect(DisplayWidth.truncate("Buy milk", toWidth: 0) == "")
        #expect(DisplayWidth.truncate("Buy milk", toWidth: -3) == "")
        #expect(DisplayWidth.truncate("Buy milk", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("牛乳", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("牛", toWidth: 1) == "…", "a wide character never fits in one column")
        #expect(DisplayWidth.truncate("a", toWidth: 1) == "a")
        #expect(DisplayWidth.truncate("é", toWidth: 1) == "é")
    }
}
