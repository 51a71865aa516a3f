import Foundation
import TestSupport
import Testing
import TodoInterop

/// Parses `text` (as UTF-8).
private func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try JSONParser.parse(Array(text.utf8))
}

/// The parse error for `bytes`, or `nil` when they parse.
private func parseError(_ bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

private func parseError(_ text: String) -> JSONParseError? { parseError(Array(text.utf8)) }

@Suite(.timed) struct JSONParserValidTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" { "a" : [1, -2.5, "x", true, false, null, {}, []] , "b":{"c":"d"} } "#)
        #expect(value == ["a": [1, -2.5, "x", true, false, nil, [:], []], "b": ["c": "d"]])
        #expect(value["b"]?["c"]?.stringValue == "d")
        #expect(value["a"]?.arrayValue?.count == 8)
        #expect(value["missing"] == nil)
    }

    @Test func acceptsAnyValueAtTheTopLevel() throws {
        #expect(try parse("42") == 42)
        #expect(try parse(#""text""#) == "text")
        #expect(try parse("true") == true)
        #expect(try parse("null") == nil)
        #expect(try parse(" \t\r\n[]\n") == [])
    }

    @Test func keepsMembersInDocumentOrder() throws {
        let object = try #require(try parse(#"{"z": 1, "a": 2, "m": 3}"#).objectValue)
        #expect(object.keys == ["z", "a", "m"])
        // JSON objects are unordered: equality ignores the order.
        #expect(JSONValue.object(object) == ["a": 2, "m": 3, "z": 1])
    }

    @Test func readsWhatFoundationWrites() throws {
        // Random documents written by JSONSerialization (which escapes "/" and control
        // characters its own way) read back as the values they were made from.
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let value = JSONValue.random(depth: 3, using: &generator)
            let data = try JSONSerialization.data(
                withJSONObject: [value.foundationObject], options: [.fragmentsAllowed])
            #expect(try JSONParser.parse(Array(data)) == [value], "\(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test func parsesASequenceOfValues() throws {
        let text = "{\"a\": 1}\n{\"a\": 2}\r\n\n[3] 4 \"five\"\n"
        let values = try Array(text.utf8).withUnsafeBufferPointer { try JSONParser.parseSequence($0) }
        #expect(values == [["a": 1], ["a": 2], [3], 4, "five"])
        #expect(try [UInt8]().withUnsafeBufferPointer { try JSONParser.parseSequence($0) } == [])
        #expect(throws: JSONParseError(line: 1, column: 9, message: "expected whitespace between JSON values")) {
            try Array(#"{"a": 1}{"a": 2}"#.utf8).withUnsafeBufferPointer { try JSONParser.parseSequence($0) }
        }
    }
}

@Suite(.timed) struct JSONParserErrorTests {
    /// Input, line, column and message. Typed: inferring this literal's type took the compiler 0.6 s.
    static let cases: [(String, Int, Int, String)] = [
        ("", 1, 1, "unexpected end of input, expected a value"),
        ("   ", 1, 4, "unexpected end of input, expected a value"),
        ("[1,]", 1, 4, "unexpected ']', expected a value"),
        (#"{"a":1,}"#, 1, 8, "unexpected '}', expected a string key"),
        (#"{"a" 1}"#, 1, 6, "unexpected '1', expected ':' after an object key"),
        ("{1: 2}", 1, 2, "unexpected '1', expected a string key"),
        ("[1 2]", 1, 4, "unexpected '2', expected ',' or ']' after an array element"),
        (#"{"a": 1 "b": 2}"#, 1, 9, #"unexpected '"', expected ',' or '}' after an object member"#),
        ("[1, 2", 1, 6, "unexpected end of input, expected ',' or ']' after an array element"),
        (#"["abc"#, 1, 2, "unterminated string"),
        ("[1] x", 1, 5, "unexpected text after the JSON value"),
        ("{} {}", 1, 4, "unexpected text after the JSON value"),
        ("tru", 1, 1, "invalid literal, expected 'true'"),
        ("nul", 1, 1, "invalid literal, expected 'null'"),
        ("[True]", 1, 2, "unexpected 'T', expected a value"),
        ("NaN", 1, 1, "unexpected 'N', expected a value"),
        ("'a'", 1, 1, #"unexpected "'", expected a value"#),
        ("01", 1, 1, "invalid number: leading zeros are not allowed"),
        ("-01", 1, 1, "invalid number: leading zeros are not allowed"),
        ("-", 1, 2, "invalid number: expected a digit"),
        ("-x", 1, 2, "invalid number: expected a digit"),
        ("1.", 1, 3, "invalid number: expected a digit after '.'"),
        ("1.e5", 1, 3, "invalid number: expected a digit after '.'"),
        ("1e", 1, 3, "invalid number: expected a digit in the exponent"),
        ("1e+", 1, 4, "invalid number: expected a digit in the exponent"),
        (".5", 1, 1, "unexpected '.', expected a value"),
        ("+1", 1, 1, "unexpected '+', expected a value"),
        ("1e400", 1, 1, "number out of range"),
        ("-1e400", 1, 1, "number out of range"),
        ("\"a\tb\"", 1, 3, "unescaped control character U+0009 in a string"),
        ("\"a\nb\"", 1, 3, "unescaped control character U+000A in a string"),
        ("[\"\\x\"]", 1, 3, "invalid escape sequence"),
        ("\"\\u12G4\"", 1, 2, "invalid \\u escape: expected four hex digits"),
        ("\"\\u12\"", 1, 2, "invalid \\u escape: expected four hex digits"),
        ("\"\\", 1, 2, "unterminated string"),
        (#"{"a": 1, "a": 2}"#, 1, 10, #"duplicate key "a""#),
        ("\u{FEFF}[]", 1, 1, "unexpected character, expected a value"),
        ("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "unexpected '2', expected ':' after an object key"),
        ("[\"日本\", x]", 1, 8, "unexpected 'x', expected a value"),
        ("[\r\n1,\r\n]", 3, 1, "unexpected ']', expected a value")
    ]

    @Test(arguments: cases)
    func reportsWhereAndWhat(_ input: String, _ line: Int, _ column: Int, _ message: String) {
        let error = parseError(input)
        #expect(error == JSONParseError(line: line, column: column, message: message), "for \(input.debugDescription)")
    }

    @Test func describesItselfWithThePosition() {
        #expect(parseError("[1,]")?.description == "line 1, column 4: unexpected ']', expected a value")
    }

    @Test func findsDuplicatesInLargeObjects() {
        let members = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(parseError("{\(members)}") == nil)
        #expect(parseError("{\(members), \"k3\": 0}")?.message == #"duplicate key "k3""#)
    }

    @Test func rejectsMalformedUTF8() {
        let cases: [([UInt8], String)] = [
            ([0xFF], "a byte that is never UTF-8"),
            ([0x80], "a stray continuation byte"),
            ([0xC0, 0x80], "an overlong NUL"),
            ([0xE0, 0x80, 0x80], "an overlong three-byte form"),
            ([0xED, 0xA0, 0x80], "a UTF-16 surrogate encoded in UTF-8"),
            ([0xE6, 0x97], "a truncated sequence"),
            ([0xF4, 0x90, 0x80, 0x80], "a code point past U+10FFFF")
        ]
        for (bad, what) in cases {
            let plain = [UInt8(ascii: "\"")] + bad + [UInt8(ascii: "\"")]
            #expect(
                parseError(plain) == JSONParseError(line: 1, column: 2, message: "invalid UTF-8 in a string"), "\(what)"
            )
            // The same after an escape, where strings take the copying path.
            let escaped = Array(#""\n"#.utf8) + bad + [UInt8(ascii: "\"")]
            #expect(parseError(escaped)?.message == "invalid UTF-8 in a string", "\(what), escaped")
        }
        // Outside strings, a non-ASCII byte is simply unexpected.
        #expect(
            parseError([0xC3, 0xA9])
                == JSONParseError(line: 1, column: 1, message: "unexpected character, expected a value"))
    }
}

@Suite(.timed) struct JSONParserStringTests {
    @Test func resolvesEverySimpleEscape() throws {
        #expect(try parse(#""\" \\ \/ \b \f \n \r \t""#) == "\" \\ / \u{8} \u{C} \n \r \t")
    }

    @Test func resolvesUnicodeEscapes() throws {
        #expect(try parse(#""\u0041\u00e9\u65E5\u00000""#) == "Aé日\u{0}0")
        #expect(try parse(#""caf\u00E9 ☕ and caf\u0065\u0301""#) == "café ☕ and cafe\u{301}")
    }

    @Test func joinsSurrogatePairs() throws {
        #expect(try parse(#""\uD83D\uDE00""#) == "😀")
        #expect(try parse(#""a\ud834\udd1eb""#) == "a𝄞b")
        #expect(try parse(#""\uDBFF\uDFFF""#) == .string(String(Unicode.Scalar(0x10FFFF)!)))
    }

    @Test(arguments: [
        #""\uD83D""#,  // a high surrogate, then the end of the string
        #""\uD83Dx""#,  // ... then plain text
        #""\uD83D\u0041""#,  // ... then an escape that is not a low surrogate
        #""\uD83D\n""#,  // ... then another kind of escape
        #""\uD83D\uD83D""#  // ... then another high surrogate
    ])
    func rejectsALoneHighSurrogate(_ input: String) {
        #expect(
            parseError(input)
                == JSONParseError(
                    line: 1, column: 2,
                    message: "lone surrogate: a \\u escape for a high surrogate must be followed by a low one"))
    }

    @Test func rejectsALoneLowSurrogate() {
        #expect(
            parseError(#"["ok", "\uDE00"]"#)
                == JSONParseError(
                    line: 1, column: 9, message: "lone surrogate: a low surrogate without a high one before it"))
    }

    @Test func keepsRawUnicodeAsIs() throws {
        #expect(try parse(#"["牛乳を買う ☕️ café", "👩‍👩‍👧"]"#) == ["牛乳を買う ☕️ café", "👩‍👩‍👧"])
    }
}

@Suite(.timed) struct JSONParserNumberTests {
    @Test func readsIntegersExactly() throws {
        #expect(try parse("0") == 0)
        #expect(try parse("-0").doubleValue?.sign == .minus)
        #expect(try parse("123456789012345") == .number(123_456_789_012_345))
        #expect(try parse("-999999999999999") == .number(-999_999_999_999_999))
        #expect(try parse("9007199254740992") == .number(9_007_199_254_740_992))  // 2^53, 16 digits
        #expect(try parse("12345678901234567890") == .number(Double("12345678901234567890")!))
    }

    @Test func readsFractionsAndExponentsAsDoubleDoes() throws {
        for text in [
            "0.1", "1.5", "-2.25", "1e2", "1E+2", "1e-2", "2.5E-3", "6.02214076e23", "1.7976931348623157e308",
            "5e-324", "0.30000000000000004", "123.456e-7"
        ] {
            #expect(try parse(text) == .number(Double(text)!), "\(text)")
        }
    }
}

@Suite(.timed) struct JSONParserDepthTests {
    @Test func acceptsSixtyFourLevels() throws {
        let depth = JSONParser.maximumDepth
        #expect(depth == 64)
        var value = try parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = elements.first ?? .null
        }
        #expect(levels == 64)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(parseError(objects) == nil)
    }

    @Test func rejectsTheSixtyFifth() {
        let arrays = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(
            parseError(arrays)
                == JSONParseError(line: 1, column: 65, message: "nesting deeper than 64 arrays and objects"))
        let mixed = String(repeating: #"{"a":["#, count: 33) + String(repeating: "]}", count: 33)
        #expect(parseError(mixed)?.message == "nesting deeper than 64 arrays and objects")
        // Deep input fails fast instead of overflowing the stack.
        #expect(parseError(String(repeating: "[", count: 1_000_000))?.column == 65)
    }
}

// MARK: - Random documents

extension JSONValue {
    /// A random value: strings mix ASCII, quotes, backslashes, control characters and
    /// characters outside the BMP; numbers are integers or exact binary fractions.
    static func random(depth: Int, using generator: inout SeededGenerator) -> JSONValue {
        let kinds = depth > 0 ? 7 : 5
        switch Int.random(in: 0..<kinds, using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            let integer = Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
            return .number(Bool.random(using: &generator) ? integer : integer / 8)
        case 3, 4: return .string(randomString(using: &generator))
        case 5:
            return .array(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in random(depth: depth - 1, using: &generator) })
        default:
            var members: [JSONObject.Member] = []
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                members.append(
                    .init(
                        key: randomString(using: &generator) + "\(index)",
                        value: random(depth: depth - 1, using: &generator)))
            }
            return .object(JSONObject(members: members))
        }
    }

    private static func randomString(using generator: inout SeededGenerator) -> String {
        let pieces = [
            "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "é", "日", "😀", "\u{FEFF}",
            "\u{2028}"
        ]
        return (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            .joined()
    }

    /// The value as JSONSerialization takes it.
    var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .number(let value): value
        case .string(let value): value
        case .array(let elements): elements.map(\.foundationObject)
        case .object(let object):
            Dictionary(uniqueKeysWithValues: object.members.map { ($0.key, $0.value.foundationObject) })
        }
    }
}
