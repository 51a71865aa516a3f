import TodoStore
import TodoSync

/// A repeating todo as `todo add` and `todo edit` set it up: its rule, where the next date is
/// counted from, and its first date.
///
/// The first date is the deadline asked for when the rule has it; otherwise the rule's first
/// date after it (RFC 5545 says DTSTART SHOULD be an occurrence: `--due 2026-12-01 --every
/// mon,thu`, a Tuesday, starts on Thursday 2026-12-03), and ``movedFrom`` says so.
struct RepeatSeries {
    var rule: RecurrenceRule
    var from: TodoRepeatFrom
    /// The first occurrence: the todo's deadline.
    var deadline: CalendarDate
    /// The deadline asked for, when it was off the rule and ``deadline`` is the rule's first
    /// date after it.
    var movedFrom: CalendarDate?

    /// The series of `form`, counted `from` the deadline or the day done, ending as `end` says,
    /// whose first date is `asked` or the rule's first date after it.
    ///
    /// - Throws: a usage error for a rule with no date from `asked` on, an end before the first
    ///   date, or a form that cannot count from the day done (`--after last fri`).
    init(_ form: RepeatForm, from: TodoRepeatFrom, end: RecurrenceRule.End?, deadline asked: CalendarDate)
        throws(CLIError)
    {
        let shown = TodoText.sanitized(form.text)
        guard let loose = form.rule(on: asked, end: nil), let first = Self.firstDate(of: loose, onOrAfter: asked),
            let rule = form.rule(on: first, end: end)
        else {
            throw .usage("'\(shown)' has no date from \(asked) on", hint: RepeatForm.hint)
        }
        if case .until(let until)? = RepeatForm.end(of: rule), until < first {
            throw .usage(
                "the series would end on \(until), before its first date \(first)",
                hint: "Give --until a date on or after \(first).")
        }
        if from == .done, RecurrenceSet(anchor: .date(first), rules: [rule]).nextCountedFromCompletion(on: first) == nil
        {
            throw .usage(
                "'\(shown)' cannot be counted from the day the todo is done",
                hint: "Use --every for it; --after takes an interval (3d, 2w, 1m, 1y) or weekdays (mon,thu).")
        }
        self.rule = rule
        self.from = from
        deadline = first
        movedFrom = first == asked ? nil : asked
    }

    /// The first date on or after `date` that `rule` falls on, whatever its interval and end:
    /// `date` itself for a rule that takes its day from the first date (no BY parts); `nil`
    /// when it has none within what the engine expands.
    ///
    /// A rule whose BY parts fix its days is expanded without INTERVAL, COUNT and UNTIL from the
    /// day before `date` (that anchor is always an occurrence, so the first one after it is the
    /// first the BY parts let through): the series then counts its interval from that date.
    static func firstDate(of rule: RecurrenceRule, onOrAfter date: CalendarDate) -> CalendarDate? {
        let fixesDays =
            !rule.byDay.isEmpty || !rule.byMonthDay.isEmpty || !rule.byMonth.isEmpty || !rule.byYearDay.isEmpty
            || !rule.byWeekNo.isEmpty || !rule.bySetPos.isEmpty
        guard fixesDays else { return date }
        let parts = RepeatForm.parts(of: rule, without: ["INTERVAL", "COUNT", "UNTIL"])
        guard let dayBefore = date.adding(days: -1),
            let loose = try? RecurrenceRule(parsing: parts.joined(separator: ";"))
        else { return date }
        guard
            case .occurrence(.date(let first)) = RecurrenceSet(anchor: .date(dayBefore), rules: [loose]).first(
                after: .date(dayBefore))
        else { return nil }
        return first
    }
}

/// What `--every`, `--after`, `--until`, `--times` and a `rec:` word ask of a todo's repeat.
struct RepeatRequest {
    /// The form to repeat by, if one was given.
    var form: RepeatForm?
    var from: TodoRepeatFrom = .due
    /// How the series ends, if `--until` or `--times` said.
    var end: RecurrenceRule.End?

    /// Whether nothing about the repeat was asked.
    var isEmpty: Bool { form == nil && end == nil }
}

extension CommandContext {
    /// The options that make a todo repeat, for `add` and `edit`.
    static let repeatOptions: [CommandSpec.Option] = [
        .init(
            name: "--every", value: "form",
            help: "Repeat, each next date counted from the deadline: \(RepeatForm.examples)."),
        .init(
            name: "--after", value: "form",
            help: "Repeat, each next date counted from the day it is done (todo.txt's rec:3d): the same forms."),
        .init(
            name: "--until", value: "date",
            help: "The last day the series may fall on (any --due date, without a time)."),
        .init(name: "--times", value: "n", help: "How many times the series comes in all, this one included.")
    ]

    /// The most occurrences `--times` takes (RFC 5545 sets no bound; the engine reads up to this).
    static let maxTimes = 1_000_000_000

    /// The repeat the options ask for, and the form of a `rec:` or `recur:` word (`word`).
    ///
    /// - Throws: a usage error for a form that is none, two forms, `--until` with `--times`,
    ///   a bad date or count.
    func repeatRequest(word: (form: RepeatForm, from: TodoRepeatFrom)? = nil) throws(CLIError) -> RepeatRequest {
        var request = RepeatRequest()
        let every = arguments.value("--every")
        let after = arguments.value("--after")
        if every != nil && after != nil { throw .usage("'--every' and '--after' cannot be used together") }
        if let word {
            guard every == nil && after == nil else {
                throw .usage(
                    "'\(TodoText.sanitized(word.form.text))' and '\(every != nil ? "--every" : "--after")' both say how it repeats",
                    hint: "Give one of them.")
            }
            request.form = word.form
            request.from = word.from
        } else if let text = every ?? after {
            request.form = try RepeatForm.parse(text)
            request.from = every != nil ? .due : .done
        }
        let until = try arguments.value("--until").map { (text) throws(CLIError) in
            try DueDateParser.parse(text, today: today, option: "--until")
        }
        let times = arguments.value("--times")
        if until != nil && times != nil { throw .usage("'--until' and '--times' cannot be used together") }
        if let until { request.end = .until(until) }
        if let times {
            guard times.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), times.utf8.count <= 10, let count = Int(times),
                (1...Self.maxTimes).contains(count)
            else {
                throw .usage(
                    "'\(TodoText.sanitized(times))' is not a valid value for '--times'",
                    hint: "Use a whole number from 1 to \(Self.maxTimes).")
            }
            request.end = .count(count)
        }
        return request
    }
}
