import TodoStore

/// A todo as people type it in one line: the words of its name, with the tags and attributes
/// that taskwarrior and todo.txt users type among them (`Call mum +family due:fri pri:H`). The
/// one rule of those words, for `todo add` and for `todo ui`'s add and edit prompts.
///
/// A word of its own is taken out of the name when it is
/// - a tag: `+word` or `@word` (``TodoTag``);
/// - an attribute, `key:value`, with a key of ``attributes`` (any case) and a value that key
///   takes: `due:` (a date, as `--due` takes it without spaces: `due:fri`, `due:2026-12-01`),
///   `pri:`/`priority:` (H, M, L, none, 1-9), `project:`/`proj:`/`pro:` (`Work.ClientA`),
///   `t:`/`start:`/`wait:`/`scheduled:` (the start date: todo.txt's threshold, taskwarrior's
///   wait and scheduled), `rec:`/`recur:` (how it repeats, ``RepeatForm/word(_:)``).
///
/// A word that looks like an attribute (letters, a colon, a value) with a key that is none of
/// them is refused with a hint, never silently kept in the name: `due:tomorow`'s typo is told,
/// not saved as a name. A link (`https://...`) is no attribute. A word that must stay in the name
/// as written is quoted: in `todo add` with the rest of the name (`todo add "Reply re:budget"`,
/// one argument with spaces), in the ui's prompts on its own (`Reply "re:budget"`).
struct QuickCapture {
    /// The words left for the name.
    var nameWords: [String] = []
    var tags = TodoTags()
    var due: TypedDeadline?
    var start: CalendarDate?
    var priority: TodoPriority?
    var project: TodoProject?
    /// A `rec:` or `recur:` word.
    var repeats: (form: RepeatForm, from: TodoRepeatFrom)?

    /// The name: the words left, joined with spaces.
    var name: String { nameWords.joined(separator: " ") }

    /// Whether no word was taken out of the name: no tag, no attribute.
    var takesNothing: Bool {
        tags.isEmpty && due == nil && start == nil && priority == nil && project == nil && repeats == nil
    }

    /// A word as typed: `literal` when it stays in the name as it is (it was quoted, with its
    /// quotes taken off: `unquoted`; or it was a word of the name being edited).
    struct Word: Equatable {
        var text: String
        var literal = false
        var unquoted = false
    }

    /// The attribute keys, by what they set, as help and hints list them.
    static let attributes: [(keys: [String], meaning: String)] = [
        (["due"], "the deadline"), (["pri", "priority"], "the priority"), (["project", "proj", "pro"], "the project"),
        (["t", "start", "wait", "scheduled"], "the start date"), (["rec", "recur"], "how it repeats")
    ]

    /// The rule in a paragraph, for help.
    static let rules =
        "Words among the name's: +tag and @tag are tags; due:DATE, pri:H|M|L, project:Work.ClientA, t:DATE (the start; also start:, wait:, scheduled:) and rec:FORM set what their options set. Another word such as re:budget is refused: quote it with the rest of the name to keep it."

    /// Reads `words` (each an argument of `todo add`, or a word of a prompt's line, ``words(in:)``).
    ///
    /// - Throws: a usage error for an attribute word whose value its key does not take
    ///   (`due:someday`), a word that looks like an attribute of no key (`re:budget`), or two
    ///   words saying the same thing (`due:fri due:mon`).
    init(_ words: [Word], today: CalendarDate) throws(CLIError) {
        for word in words {
            let text = word.text
            if word.literal {
                nameWords.append(text)
            } else if let first = text.first, first == "+" || first == "@", let tag = TodoTag(text) {
                // One argument may be a tag with spaces: `todo add Fix it "+Home Improvement"`.
                tags.insert(tag)
            } else if !text.contains(" "), let (key, value) = Self.attribute(text) {
                // An argument with spaces is the name, or part of it, as typed (`todo add
                // "Reply re:budget"`).
                try take(key: key, value: value, word: text, today: today)
            } else {
                nameWords.append(text)
            }
        }
    }

    /// `init(_:today:)` over plain arguments: an argument with spaces is no attribute (a tag with
    /// spaces, `+"Home Improvement"`, or else the name as typed).
    init(arguments: [String], today: CalendarDate) throws(CLIError) {
        try self.init(arguments.map { Word(text: $0) }, today: today)
    }

    /// The words of a line typed in a prompt: split at spaces; a word in double quotes is one
    /// literal word (its quotes taken off), so `Reply "re:budget"` keeps `re:budget` in the name.
    /// A word among `kept` (the words of the name being edited) is literal as it is, quotes and all.
    static func words(in line: String, keeping kept: Set<Substring> = []) -> [Word] {
        var words: [Word] = []
        for piece in line.split(separator: " ", omittingEmptySubsequences: true) {
            if kept.contains(piece) {
                words.append(Word(text: String(piece), literal: true))
            } else if piece.count >= 2, piece.first == "\"", piece.last == "\"" {
                words.append(Word(text: String(piece.dropFirst().dropLast()), literal: true, unquoted: true))
            } else {
                words.append(Word(text: String(piece)))
            }
        }
        return words
    }

    /// The key and value of a word that looks like an attribute: ASCII letters, a colon, and a
    /// value that is not a link's `//` (`https://...`). `nil` for any other word (`10:30`,
    /// `Note:`).
    static func attribute(_ word: String) -> (key: String, value: Substring)? {
        guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else { return nil }
        let key = word[..<colon]
        let value = word[word.index(after: colon)...]
        guard !value.isEmpty, !value.hasPrefix("//"),
            key.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }
        return (key.lowercased(), value)
    }

    /// Sets what the attribute `key:value` says.
    private mutating func take(key: String, value: Substring, word: String, today: CalendarDate) throws(CLIError) {
        let shown = TodoText.sanitized(word)
        func once<Value>(_ current: Value?, _ what: String) throws(CLIError) {
            guard current == nil else {
                throw .usage(
                    "'\(shown)' gives \(what) again", hint: "Give one, or quote the name to keep the word in it.")
            }
        }
        switch key {
        case "due":
            try once(due, "the deadline")
            due = try DueDateParser.parseDeadline(String(value), today: today)
        case "pri", "priority":
            try once(priority, "the priority")
            guard let parsed = TodoPriority(parsing: String(value)) else {
                throw .usage("'\(shown)' is not a priority", hint: "Use \(TodoPriority.acceptedForms).")
            }
            priority = parsed
        case "project", "proj", "pro":
            try once(project, "the project")
            guard let parsed = TodoProject(value) else {
                throw .usage("'\(shown)' is not a project", hint: "A project is \(TodoProject.acceptedForms).")
            }
            project = parsed
        case "t", "start", "wait", "scheduled":
            try once(start, "the start date")
            start = try DueDateParser.parse(String(value), today: today, option: "\(key):")
        case "rec", "recur":
            if let repeats {
                throw .usage(
                    "'\(TodoText.sanitized(repeats.form.text))' and '\(shown)' both say how it repeats",
                    hint: "Give one of them, or quote the name to keep such a word in it.")
            }
            repeats = try RepeatForm.word(word)
        default:
            let keys = Self.attributes.map { $0.keys[0] + ":" }
            throw .usage(
                "'\(shown)' looks like an attribute, but todo knows no '\(TodoText.sanitized(key)):'",
                hint:
                    "Attributes are \(Command.wordList(keys)); quote the name with the word in it to keep it (todo add \"Reply \(shown)\")."
            )
        }
    }

    /// A new todo's fields, as `todo ui`'s add prompts make them: what the words say, and the
    /// deadline `prompted` when no `due:` word gave one. A repeat starts on the deadline (today
    /// without one), on the rule's first date from it, as `todo add` starts one.
    ///
    /// - Throws: a usage error for a name left empty, a start on or after the deadline, or a
    ///   repeat with no date.
    func newTodo(deadline prompted: CalendarDate?, today: CalendarDate) throws(CLIError) -> TodoFields {
        var fields = TodoFields(name: "")
        try apply(to: &fields, deadline: prompted, today: today)
        return fields
    }

    /// Changes `fields` as `todo ui`'s edit prompts do: the name becomes ``name``, the tags are
    /// added, and what an attribute word gives replaces the todo's (the deadline: a `due:` word,
    /// else `deadline`, `nil` for none).
    func apply(to fields: inout TodoFields, deadline: CalendarDate?, today: CalendarDate) throws(CLIError) {
        guard Todo.isValidName(name) else { throw .usage("a todo needs a name") }
        fields.name = name
        for tag in tags { fields.tags.insert(tag) }
        if let due {
            fields.moveDeadline(to: due.date)
            fields.dueTime = due.dueTime
        } else if deadline != fields.deadline {
            fields.moveDeadline(to: deadline)
        }
        if let start { fields.start = start }
        if let priority { fields.priority = priority }
        if let project { fields.project = project }
        if let repeats {
            let series = try RepeatSeries(
                repeats.form, from: repeats.from, end: nil, deadline: fields.deadline ?? today)
            fields.moveDeadline(to: series.deadline)
            fields.repeatRule = series.rule.text
            fields.repeatFrom = series.from
        }
        try CommandContext.checkStart(of: fields)
    }
}
