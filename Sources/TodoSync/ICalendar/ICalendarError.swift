import TextSafety

/// Why an iCalendar text cannot be read, or cannot be read as a todo.
///
/// `description` is one line for a person: `line 12: END:VTODO without BEGIN:VTODO`.
/// ``kind`` tells the cases a caller treats differently apart: an object that is simply not a
/// todo (a VEVENT a calendar collection also holds) is skipped by sync, a broken one reported.
public struct ICalendarError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Equatable {
        /// A content line that is not `NAME[;PARAM=...]:value`, or one with more parameter
        /// values than ``ICalendar/maxParameterValuesPerProperty``.
        case syntax
        /// BEGIN and END that do not pair up, a property outside any component, components
        /// nested deeper than ``ICalendar/maxDepth``, or a component with more properties than
        /// ``ICalendar/maxPropertiesPerComponent``.
        case structure
        /// Well-formed iCalendar without a VTODO (an event, a journal entry, a bare VTIMEZONE).
        case noTodo
        /// A VTODO without a UID, which a todo cannot be identified by.
        case missingUID
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The 1-based line of the text (physical lines, as an editor counts them), when one is at fault.
    public let line: Int?
    /// What is wrong, without the line.
    public let reason: String

    /// Creates an error. Control characters in `reason` (quoted from the text) become U+FFFD,
    /// so that the description stays one line and prints nothing a terminal would act on.
    public init(_ kind: Kind, line: Int?, _ reason: String) {
        self.kind = kind
        self.line = line
        self.reason = ControlCharacters.replaced(in: reason)
    }

    /// `line N: reason`, or just the reason when no line is at fault.
    public var description: String {
        line.map { "line \($0): \(reason)" } ?? reason
    }
}
