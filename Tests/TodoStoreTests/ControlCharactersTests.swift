import TestSupport
import Testing
import TextSafety

/// The one control-character policy: its set, its byte-level test agreeing with it, and its two
/// renderings.
@Suite(.timed) struct ControlCharactersTests {
    @Test func theSetIsC0DelC1TheSeparatorsAndTheBidiControls() {
        let controls = (0..<0x3000).compactMap(Unicode.Scalar.init).filter(ControlCharacters.contains).map(\.value)
        let expected = Array(0..<0x20) + Array(0x7F...0x9F) + Array(0x2028...0x202E) + Array(0x2066...0x2069)
        #expect(controls == expected.map(UInt32.init))
    }

    @Test func theByteLevelTestAgreesWithTheScalarOne() {
        for value in UInt32(0)..<0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(scalar).utf8) + [0x41]
            let length = ControlCharacters.controlLength(at: 0, in: bytes)
            #expect(
                length == (ControlCharacters.contains(scalar) ? bytes.count - 1 : nil),
                "U+\(String(value, radix: 16))")
        }
    }

    @Test func terminalsSeeEscapesAndFilesSeeReplacementCharacters() {
        let hostile = "a\u{1B}[31m\u{9B}2J\u{202E}evil\n\tok\u{200F}"
        #expect(ControlCharacters.escapedForTerminal(hostile) == "a^[[31m\\u{9b}2J\\u{202e}evil\\n\\tok\u{200F}")
        #expect(
            ControlCharacters.replaced(in: hostile) == "a\u{FFFD}[31m\u{FFFD}2J\u{FFFD}evil\u{FFFD}\u{FFFD}ok\u{200F}")
        #expect(
            ControlCharacters.replaced(in: hostile, keeping: { $0 == "\t" })
                == "a\u{FFFD}[31m\u{FFFD}2J\u{FFFD}evil\u{FFFD}\tok\u{200F}")
        #expect(ControlCharacters.escapedForTerminal("plain") == "plain")
    }
}
