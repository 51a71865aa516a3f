/// Why a document is not JSON, and where: a 1-based line and column and a short message.
///
/// The column counts Unicode scalars, not bytes, so it matches what an editor shows for a line
/// with non-ASCII text. Lines are separated by LF (a CR before it belongs to the line).
/// `description` reads `line 3, column 17: expected ',' or '}' after an object member`.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the offending character (or of the end of the input).
    public let line: Int
    /// The 1-based column, in Unicode scalars, of the offending character.
    public let column: Int
    /// What is wrong, in a few words.
    public let message: String

    /// Creates an error at a known position.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// Creates an error at byte `offset` of `bytes`, computing its line and column.
    ///
    /// Positions are only computed when something fails, so parsing pays nothing for them.
    init(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, message: String) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        var column = 1
        for index in lineStart..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }
        self.init(line: line, column: column, message: message)
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
