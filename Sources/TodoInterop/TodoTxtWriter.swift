import TextSafety
import TodoStore

/// Writes todos as todo.txt lines (http://todotxt.org), as ``TodoTxtReader`` reads them back and
/// as todo.txt-cli lists them:
/// - done: `x COMPLETED CREATED name project:P +tags @tags due:YYYY-MM-DD t:YYYY-MM-DD rec:+1m pri:B` (the
///   completion date, then the creation date when there is one; todo.txt drops the `(B)` of a
///   done task, so its priority goes as `pri:B`, which apps write too);
/// - not done: `(B) CREATED name project:P +tags @tags due:YYYY-MM-DD t:YYYY-MM-DD rec:+1m`.
/// The start date is `t:` (threshold, as Simpletask and topydo write it). A due time has no
/// todo.txt form and is not written.
/// A repeat rule is written as `rec:` (``repeatTag(_:)``) when one says it: every N days, weeks,
/// months or years, or every weekday, with `+` when it counts from the due date; any other rule
/// (given weekdays, a COUNT or UNTIL...) is not written, and the caller says so.
/// Priorities 1 to 9 are the letters A to I; dates are the UTC days of the times. A todo.txt line
/// cannot hold a line break: one in a name is written as a space; every other control character
/// (TextSafety's one policy: an ESC, a bidi override) as U+FFFD, since todo.txt has no escape
/// for them and the file goes to terminals and other apps. The note has no place in todo.txt
/// and is not written.
public enum TodoTxtWriter {
    /// The line of one todo, without its line ending.
    public static func line(_ todo: TodoFields) -> String {
        var parts: [String] = []
        let letter =
            todo.priority.isNone ? nil : String(UnicodeScalar(UInt8(ascii: "A") + UInt8(todo.priority.rawValue - 1)))
        let created = todo.created?.date.map { "\($0)" }
        if todo.isDone {
            parts.append("x")
            if let completed = todo.completed?.date.map({ "\($0)" }) {
                parts.append(completed)
                if let created { parts.append(created) }
            }
        } else {
            if let letter { parts.append("(\(letter))") }
            if let created { parts.append(created) }
        }
        let name = ControlCharacters.replaced(in: String(todo.name.map { $0.isNewline ? " " : $0 }))
        if !name.isEmpty { parts.append(name) }
        if let project = todo.project { parts.append(projectWord(of: project)) }
        parts += todo.tags.map(word(of:))
        if let deadline = todo.deadline { parts.append("due:\(deadline)") }
        if let start = todo.start { parts.append("t:\(start)") }
        if let repeats = repeatTag(todo) { parts.append(repeats) }
        if todo.isDone, let letter { parts.append("pri:\(letter)") }
        return parts.joined(separator: " ")
    }

    /// A tag as one todo.txt word: `+work`, `@phone`; a word with spaces has them as `_`
    /// (`+Home_Improvement`), as todo.txt has no quoting and its apps split words at every space:
    /// todo.txt-cli lists it as one project (`lsprj`) and finds it (`ls +Home_Improvement`), as
    /// any app that splits words at spaces reads it as one. ``TodoTxtReader`` reads it back as the tag
    /// `+Home_Improvement`: an `_` is as much a tag's as a space, so no reading could tell which
    /// it was.
    public static func word(of tag: TodoTag) -> String {
        tag.sigil.rawValue + tag.word.replacing(" ", with: "_")
    }

    /// A project as one todo.txt word: `project:Work.ClientA`, a `key:value` tag as todo.txt
    /// allows any; spaces as `_`, as in a tag (``word(of:)``). Not a `+word`, which is a tag here
    /// (and was before projects were), so that the project `Errands` and the tag `+errands` stay two.
    public static func projectWord(of project: TodoProject) -> String {
        TodoProject.wordPrefix + ControlCharacters.replaced(in: project.path).replacing(" ", with: "_")
    }

    /// The todo's repeat rule as a `rec:` tag, as ``TodoTxtReader`` reads it back: `rec:+1m` for
    /// a rule counted from the due date, `rec:3d` for one counted from the day done; `nil` when it
    /// does not repeat or its rule is not exactly what a `rec:` value makes of its deadline
    /// (``RepeatPeriod/init(rule:anchor:)``). Every weekday counted from the day done has none:
    /// `rec:1b` reads back as counted from the due date.
    public static func repeatTag(_ todo: TodoFields) -> String? {
        guard let rule = todo.repeatRule, let period = RepeatPeriod(rule: rule, anchor: todo.deadline) else {
            return nil
        }
        switch (todo.repeatFrom, period.unit) {
        case (.due, _): return "rec:+" + period.todoTxt
        case (.done, .weekday): return nil
        case (.done, _): return "rec:" + period.todoTxt
        }
    }
}
