import TodoStore

/// One todo read from another tool's file, before the database gives it an id: the fields the
/// `todos` table keeps (a name, an optional deadline as a calendar date and its time of day,
/// whether it is done, a priority, tags, a note, the created and completed times, the repeat
/// rule and where it counts from, the start date), as far as the format has them.
/// The id a todo had in `todo export`'s JSON is not a field: the reader gives it beside the todo
/// (``ImportReport/ids``), and the importer keeps it where no todo of the database ever had it.
/// The taskwarrior and todo.txt readers refuse a
/// name that is not valid by the store's one rule, ``Todo/isValidName(_:)``; the reader of
/// `todo export`'s JSON takes a blank name back as it was stored, so an export always imports
/// back whole.
public typealias ImportedTodo = TodoFields

/// The file formats `todo import --from` reads here; the raw values are the option's words.
/// (`--from ics` is read by TodoSync's `ICSFile`, which keeps each todo's UID.)
///
/// Every format yields ``ImportedTodo`` values and refuses a file with any bad record; the
/// readers' rules in short:
/// - ``json``: our own `todo export`, an array of `{"id", "name", "deadline", "done", "priority",
///   "tags", "note", "created", "completed"}` objects (all but the name optional).
/// - ``taskwarrior``: `task export`; `description` is the name, the UTC `due` instant becomes a
///   local calendar date (and time of day), `wait` or `scheduled` the start, deleted tasks are
///   counted; priority, the project (apart from the tags) and tags, annotations (with their times), user-defined
///   attributes (`key: value` lines of the note), entry and end are kept; a recurring template
///   and its instances are one repeating todo.
/// - ``todotxt``: a todo.txt file; `x ` marks a done todo, `(A)` to `(I)` are the priorities 1
///   to 9, the creation and completion dates are the created and completed times,
///   `due:YYYY-MM-DD` is the deadline, `t:YYYY-MM-DD` the start, `rec:` the repeat, and
///   `+project` / `@context` words are tags.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// Our own `todo export`: a JSON array of todo objects. `name` is required (a string,
    /// blank only when it was stored blank); `deadline` (`YYYY-MM-DD` or `null`), `done` (a
    /// Boolean) and issue 26's fields are optional; `id` is kept where it is free, `uid` is the
    /// todo's identity, and unknown keys are counted as not kept.
    case json
    /// Taskwarrior's `task export`: a JSON array of tasks (or one task a line). `description`
    /// is the name; `due` (`20240501T000000Z`, UTC) becomes the calendar date in the local time
    /// zone, and its time of day there (unless midnight) a floating due time; `wait`, else
    /// `scheduled`, is the start (its local date); `pending` and `waiting` are not done, `completed` is done, `deleted` is counted; a
    /// `recurring` template and its instances are one repeating todo (`recur` its rule, `until`
    /// its end, the earliest pending instance its deadline, the completed ones its history).
    /// `priority` H/M/L is high/medium/low, `project` the project (``TodoProject``), `tags` `+` tags, `annotations` and
    /// user-defined attributes the note, `entry` and `end` the created and completed times,
    /// `uuid` the UID.
    case taskwarrior
    /// A todo.txt file (http://todotxt.org), one todo a line. A leading `x ` marks it done (the
    /// completion and creation dates after it are the completed and created times); a leading
    /// priority `(A) ` is the priority (A to I are 1 to 9, later letters 9) and a creation date
    /// the created time; a `due:YYYY-MM-DD` tag becomes the deadline, a `rec:` tag the repeat
    /// (`rec:3d` from the day done, `rec:+3d` from the due date), and `+project` and `@context`
    /// words tags, and leave the name; a `t:YYYY-MM-DD` tag is the start and leaves it too. Any
    /// other `key:value` tag stays in the name.
    case todotxt
}
