/// A strict JSON parser (RFC 8259) over raw UTF-8 bytes.
///
/// Accepts exactly the RFC grammar: any value at the top level, the four whitespace characters
/// (space, tab, LF, CR) between tokens, every string escape including `\uXXXX` surrogate pairs.
/// Rejects, with a ``JSONParseError`` naming the line and column: trailing text after the value,
/// trailing commas, leading zeros, unescaped control characters in strings, lone surrogates,
/// invalid UTF-8, numbers too large for a `Double`, duplicate keys in one object, and nesting
/// deeper than ``maximumDepth`` arrays and objects. A byte order mark is not JSON either: strip
/// it before parsing if a file may carry one (TodoInterop's `TodoImporter` does).
///
/// It reads bytes, never `Character`s: ASCII strings without escapes become a `String` in one
/// copy, and error positions are computed only when parsing fails.
public enum JSONParser {
    /// The deepest nesting of arrays and objects accepted: `[[1]]` has depth 2.
    public static let maximumDepth = 64

    /// Parses one JSON document.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
            try parse(buffer)
        }
    }

    /// Parses one JSON document held in `buffer`.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var reader = JSONReader(buffer)
        reader.skipWhitespace()
        let value = try reader.value()
        reader.skipWhitespace()
        guard reader.isAtEnd else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    /// Parses a sequence of JSON values separated by whitespace (JSON Lines, or the
    /// `rc.json.array=off` output of `task export`). An empty input is an empty sequence.
    public static func parseSequence(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> [JSONValue] {
        var reader = JSONReader(buffer)
        var values: [JSONValue] = []
        reader.skipWhitespace()
        while !reader.isAtEnd {
            values.append(try reader.value())
            let end = reader.index
            reader.skipWhitespace()
            // Values must be apart: `{"a":1}{"a":2}` or `truefalse` is not a sequence.
            if !reader.isAtEnd && reader.index == end {
                throw reader.error("expected whitespace between JSON values")
            }
        }
        return values
    }
}
