/// Why a file cannot be imported, naming the record or line at fault.
///
/// A file with any bad record is refused as a whole, so the caller imports nothing.
/// `description` is one line for the user, e.g.
/// `record 3: "deadline" is not a YYYY-MM-DD date`,
/// `line 7: due:2023-02-29 is not a day in the calendar`,
/// `line 2, column 14: expected ',' or '}' after an object member` (a JSON syntax error).
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the file the problem is.
    public enum Location: Sendable, Hashable {
        /// The file as a whole (the wrong top-level shape, not UTF-8 text).
        case file
        /// A position in a JSON document that is not valid JSON: 1-based line and column.
        case position(line: Int, column: Int)
        /// A record of a JSON file: its 1-based index in the array (or in the sequence).
        case record(Int)
        /// A line of a todo.txt or iCalendar file, 1-based, blank lines counted.
        case line(Int)
    }

    /// Where the problem is.
    public let location: Location
    /// What is wrong, without the location.
    public let message: String

    /// Creates an error.
    public init(_ location: Location, _ message: String) {
        self.location = location
        self.message = message
    }

    /// An error for a file that is not JSON, at the parser's line and column.
    init(_ error: JSONParseError) {
        self.init(.position(line: error.line, column: error.column), error.message)
    }

    /// The location, a colon and the message; just the message for the whole file.
    public var description: String {
        switch location {
        case .file: message
        case .position(let line, let column): "line \(line), column \(column): \(message)"
        case .record(let index): "record \(index): \(message)"
        case .line(let line): "line \(line): \(message)"
        }
    }
}
