import TodoStore
import TodoSync

/// How a todo repeats, as people type it after `--every` and `--after` and in `rec:` and
/// `recur:` words (RECURRENCE.md §5.6): `month`, `2w`, `mon,thu`, `last fri`, `rrule:FREQ=...`.
///
/// A form becomes an RRULE through ``RecurrenceRule``'s builders once the first date is known
/// (a monthly rule repeats on that date's day, its month's end kept as such). Case, commas and
/// extra spaces do not matter. Units shorter than a day are refused: a deadline is a date.
struct RepeatForm: Equatable {
    /// What the form says.
    enum Shape: Equatable {
        case daily(every: Int)
        /// Weekly, on `days` (none: on the first date's weekday).
        case weekly(every: Int, on: [RecurrenceRule.Weekday])
        /// Monthly on the first date's day (its month's last day, or a 29th or 30th, kept).
        case monthly(every: Int)
        /// Monthly on day `day` (31: the month's last day), the month's last when it has fewer.
        case monthlyOnDay(Int, every: Int)
        /// Monthly on the `ordinal`-th weekday (-1: the last).
        case monthlyOnThe(Int, RecurrenceRule.Weekday, every: Int)
        /// Yearly on the first date's month and day (Feb 29: Feb 28 in other years).
        case yearly(every: Int)
        /// An RRULE typed as such, read by the engine.
        case rule(RecurrenceRule)
    }

    /// The form as typed, for messages.
    let text: String
    let shape: Shape

    /// The forms in one line, for an option's help and the hint of a refused form.
    static let examples =
        "day, week, month, year, 3d, 2w, 1m, 1y, mon,thu, 2w mon,thu, weekdays, biweekly, quarterly, eom, "
        + "month on 30, last fri, 2nd tue or an RRULE (rrule:FREQ=WEEKLY;BYDAY=MO,TH)"

    /// Every form and what it means: the discussion of the commands that take one.
    static let rules = """
        Repeats: day (daily, 1d), Nd or N days; week (weekly, 1w), Nw, biweekly or fortnight;
        days of the week (mon,thu, monday, 2w mon,thu), or weekdays for Monday to Friday; month
        (monthly, 1m), Nm, bimonthly, quarterly or semiannual, on the deadline's day (a month's
        last day stays its last day, a 29th or 30th is the month's last in months without one);
        eom or month-end; month on 30; last fri, 2nd tue; year (yearly, annual, 1y), Ny,
        biannual or biyearly; rrule:FREQ=... for any RRULE todo can follow. --every counts from
        the deadline, --after from the day the todo is done. Without --due the first date is
        today's first occurrence; a deadline off the rule moves to its first date on or after
        it, and the output says so. Units shorter than a day are refused: a deadline is a date.
        """

    /// Words to offer when completing a form.
    static let completionWords = [
        "day", "week", "month", "year", "weekdays", "biweekly", "quarterly", "eom", "1d", "2w", "1m", "1y", "mon",
        "tue",
        "wed", "thu", "fri", "sat", "sun"
    ]

    /// The largest interval a form takes.
    static let maxInterval = 10_000

    /// Reads `text`.
    ///
    /// - Throws: a usage error naming the text, for one that is no form, a unit shorter than a
    ///   day, an interval out of 1...``maxInterval``, or an RRULE the engine refuses or cannot
    ///   follow.
    static func parse(_ text: String) throws(CLIError) -> RepeatForm {
        let trimmed = text.trimmingSpaces
        if trimmed.lowercased().hasPrefix("rrule:") {
            return RepeatForm(text: text, shape: .rule(try rule(String(trimmed.dropFirst(6)), typed: text)))
        }
        var tokens = trimmed.lowercased().split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        if tokens.first == "every" { tokens.removeFirst() }
        guard !tokens.isEmpty else { throw notAForm(text) }
        var interval: (unit: Unit, count: Int)?
        if let (unit, count, used) = leadingInterval(tokens) {
            interval = (unit, count)
            tokens.removeFirst(used)
        }
        tokens.removeAll { ["on", "the", "of", "every"].contains($0) }
        if let interval {
            guard (1...maxInterval).contains(interval.count) else {
                throw .usage(
                    "'\(TodoText.sanitized(text))' repeats every \(interval.count): give an interval from 1 to \(maxInterval)",
                    hint: hint)
            }
            if case .shorterThanADay = interval.unit { throw shorterThanADay(text) }
        }
        let count = interval?.count ?? 1
        if tokens.isEmpty, let interval {
            switch interval.unit {
            case .day: return RepeatForm(text: text, shape: .daily(every: count))
            case .week: return RepeatForm(text: text, shape: .weekly(every: count, on: []))
            case .month: return RepeatForm(text: text, shape: .monthly(every: count))
            case .year: return RepeatForm(text: text, shape: .yearly(every: count))
            case .businessDay:
                guard count == 1 else {
                    throw .usage(
                        "'\(TodoText.sanitized(text))': every \(count) business days has no iCalendar form (1b is weekdays)",
                        hint: hint)
                }
                return RepeatForm(text: text, shape: .weekly(every: 1, on: Self.workdays))
            case .shorterThanADay: throw shorterThanADay(text)
            }
        }
        if interval == nil || interval?.unit == .week, let days = weekdays(tokens) {
            return RepeatForm(text: text, shape: .weekly(every: count, on: days))
        }
        if interval == nil || interval?.unit == .month, let shape = monthly(tokens, every: count) {
            return RepeatForm(text: text, shape: shape)
        }
        throw notAForm(text)
    }

    /// The form of a `rec:` word (todo.txt: `rec:3d` counts from the day done, `rec:+3d` from
    /// the deadline) or a `recur:` word (taskwarrior: from the deadline), and where it counts
    /// from; `nil` for any other word. Business days (`rec:1b`, weekdays) count from the
    /// deadline either way: a week after the day done would keep its weekday.
    ///
    /// - Throws: a usage error when what follows the colon is no form.
    static func word(_ word: String) throws(CLIError) -> (form: RepeatForm, from: TodoRepeatFrom)? {
        let lower = word.lowercased()
        var value: Substring
        var from = TodoRepeatFrom.due
        if lower.hasPrefix("recur:") {
            value = word.dropFirst(6)
        } else if lower.hasPrefix("rec:") {
            value = word.dropFirst(4)
            if value.hasPrefix("+") { value = value.dropFirst() } else { from = .done }
        } else {
            return nil
        }
        let parsed = try parse(String(value))
        if case .weekly(1, workdays) = parsed.shape { from = .due }
        return (RepeatForm(text: word, shape: parsed.shape), from)
    }

    /// The rule of this form for a series whose first date is `date`, ending as `end` says;
    /// `nil` only for a typed RRULE that `end` would make invalid.
    func rule(on date: CalendarDate, end: RecurrenceRule.End?) -> RecurrenceRule? {
        switch shape {
        case .daily(let interval): .daily(every: interval, end: end)
        case .weekly(let interval, let days): .weekly(every: interval, on: days, end: end)
        case .monthly(let interval): .monthly(onDayOf: date, every: interval, end: end)
        case .monthlyOnDay(let day, let interval): .monthly(onDay: day, every: interval, end: end)
        case .monthlyOnThe(let ordinal, let weekday, let interval):
            .monthly(onThe: ordinal, weekday, every: interval, end: end)
        case .yearly(let interval): .yearly(onDayOf: date, every: interval, end: end)
        case .rule(let rule): end.map { Self.ending(rule, $0) } ?? rule
        }
    }

    // MARK: Words

    /// A unit of an interval.
    enum Unit: Equatable {
        case day, week, month, year, businessDay
        /// An hour, a minute or a second: refused.
        case shorterThanADay
    }

    /// Monday to Friday.
    static let workdays: [RecurrenceRule.Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]

    /// The words that are an interval by themselves, with their count.
    private static let namedIntervals: [String: (Unit, Int)] = [
        "day": (.day, 1), "daily": (.day, 1), "week": (.week, 1), "weekly": (.week, 1), "biweekly": (.week, 2),
        "fortnight": (.week, 2), "fortnightly": (.week, 2), "month": (.month, 1), "monthly": (.month, 1),
        "bimonthly": (.month, 2), "quarterly": (.month, 3), "semiannual": (.month, 6), "semiannually": (.month, 6),
        "year": (.year, 1), "yearly": (.year, 1), "annual": (.year, 1), "annually": (.year, 1),
        "biannual": (.year, 2), "biyearly": (.year, 2), "hourly": (.shorterThanADay, 1),
        "hour": (.shorterThanADay, 1), "minutely": (.shorterThanADay, 1), "minute": (.shorterThanADay, 1),
        "secondly": (.shorterThanADay, 1)
    ]

    /// The unit words after a number (`3d`, `3 days`; taskwarrior's `2wks`, `1mo`, `1q`), with
    /// how many of the unit each stands for.
    private static let unitWords: [String: (Unit, Int)] = [
        "d": (.day, 1), "day": (.day, 1), "days": (.day, 1), "w": (.week, 1), "wk": (.week, 1), "wks": (.week, 1),
        "week": (.week, 1), "weeks": (.week, 1), "m": (.month, 1), "mo": (.month, 1), "mos": (.month, 1),
        "mth": (.month, 1), "mths": (.month, 1), "month": (.month, 1), "months": (.month, 1), "q": (.month, 3),
        "qtr": (.month, 3), "qtrs": (.month, 3), "quarter": (.month, 3), "quarters": (.month, 3), "y": (.year, 1),
        "yr": (.year, 1), "yrs": (.year, 1), "year": (.year, 1), "years": (.year, 1), "b": (.businessDay, 1),
        "h": (.shorterThanADay, 1), "hr": (.shorterThanADay, 1), "hrs": (.shorterThanADay, 1),
        "hour": (.shorterThanADay, 1), "hours": (.shorterThanADay, 1), "min": (.shorterThanADay, 1),
        "mins": (.shorterThanADay, 1), "minute": (.shorterThanADay, 1), "minutes": (.shorterThanADay, 1),
        "s": (.shorterThanADay, 1), "sec": (.shorterThanADay, 1), "secs": (.shorterThanADay, 1),
        "second": (.shorterThanADay, 1), "seconds": (.shorterThanADay, 1)
    ]

    /// The interval the tokens start with, and how many tokens it takes: a named one
    /// (`weekly`), a number and its unit (`3d`, `+3d`, `3 days`); `nil` when they start with
    /// none. A count too large to read is `Int.max`, refused by the caller.
    private static func leadingInterval(_ tokens: [String]) -> (Unit, Int, used: Int)? {
        guard let first = tokens.first else { return nil }
        if let (unit, count) = namedIntervals[first] { return (unit, count, 1) }
        let body = first.hasPrefix("+") ? first.dropFirst() : Substring(first)
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let number = Int(digits) ?? Int.max
        let suffix = String(body.dropFirst(digits.count))
        if let (unit, factor) = unitWords[suffix], !suffix.isEmpty {
            return (unit, number.multipliedReportingOverflow(by: factor).partialValue, 1)
        }
        if suffix.isEmpty, tokens.count >= 2, let (unit, factor) = unitWords[tokens[1]], tokens[1].count > 1 {
            return (unit, number.multipliedReportingOverflow(by: factor).partialValue, 2)
        }
        return nil
    }

    /// The weekdays the tokens name (`mon`, `thursday`, `th`, `weekdays`), each once; `nil`
    /// unless every token names some.
    private static func weekdays(_ tokens: [String]) -> [RecurrenceRule.Weekday]? {
        guard !tokens.isEmpty else { return nil }
        var days: [RecurrenceRule.Weekday] = []
        for token in tokens {
            let named = token == "weekdays" ? workdays : weekday(token).map { [$0] }
            guard let named else { return nil }
            for day in named where !days.contains(day) { days.append(day) }
        }
        return days
    }

    /// The weekday of RFC 5545's two letters (`mo`) or of three letters or more of its name
    /// (`thu`, `thurs`, `thursday`).
    static func weekday(_ token: String) -> RecurrenceRule.Weekday? {
        if token.count == 2 { return RecurrenceRule.Weekday(code: token) }
        guard token.count >= 3, let index = DueDateParser.weekdays.firstIndex(where: { $0.hasPrefix(token) }) else {
            return nil
        }
        return RecurrenceRule.Weekday(rawValue: index)
    }

    /// The monthly shapes after an optional monthly interval: `eom`, `month-end`, `last day`, a
    /// day (`30`, `30th`), an ordinal weekday (`last fri`, `2nd tue`, `2nd last mon`).
    private static func monthly(_ tokens: [String], every interval: Int) -> Shape? {
        switch tokens {
        case ["eom"], ["month-end"], ["monthend"], ["end"], ["last", "day"]:
            return .monthlyOnDay(31, every: interval)
        case _ where tokens.count == 1:
            let digits = tokens[0].prefix { $0.isASCII && $0.isNumber }
            let suffix = tokens[0].dropFirst(digits.count)
            guard !digits.isEmpty, digits.count <= 2, let day = Int(digits), (1...31).contains(day),
                suffix.isEmpty || suffix == ordinalSuffix(day)
            else { return nil }
            return .monthlyOnDay(day, every: interval)
        case _ where tokens.count == 2 || tokens.count == 3:
            guard let weekday = weekday(tokens[tokens.count - 1]), let first = ordinal(tokens[0]) else { return nil }
            guard tokens.count == 3 else { return .monthlyOnThe(first, weekday, every: interval) }
            // `2nd last fri`: the second to last.
            guard tokens[1] == "last", first > 0 else { return nil }
            return .monthlyOnThe(-first, weekday, every: interval)
        default:
            return nil
        }
    }

    /// 1 to 5 for `1st`...`5th` and `first`...`fifth`, -1 for `last`.
    private static func ordinal(_ token: String) -> Int? {
        if token == "last" { return -1 }
        if let index = ["first", "second", "third", "fourth", "fifth"].firstIndex(of: token) { return index + 1 }
        guard let number = Int(token.prefix { $0.isASCII && $0.isNumber }), (1...5).contains(number),
            token == "\(number)" + ordinalSuffix(number)
        else { return nil }
        return number
    }

    /// `st`, `nd`, `rd` or `th`, as English writes it after `number`.
    private static func ordinalSuffix(_ number: Int) -> String {
        (11...13).contains(number % 100)
            ? "th" : number % 10 == 1 ? "st" : number % 10 == 2 ? "nd" : number % 10 == 3 ? "rd" : "th"
    }

    // MARK: RRULE

    /// An RRULE typed after `rrule:`, read by the engine: one that repeats by days at least,
    /// and that todo can complete (its parts are the engine's: FREQ DAILY to YEARLY, INTERVAL,
    /// BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, WKST, COUNT, UNTIL).
    private static func rule(_ value: String, typed: String) throws(CLIError) -> RecurrenceRule {
        let rule: RecurrenceRule
        do {
            rule = try RecurrenceRule(parsing: value)
        } catch {
            throw .usage("'\(TodoText.sanitized(typed))' is not a valid RRULE: \(error.description)", hint: hint)
        }
        guard rule.frequency >= .daily, rule.byHour.isEmpty, rule.byMinute.isEmpty, rule.bySecond.isEmpty else {
            throw shorterThanADay(typed)
        }
        guard rule.isCompletable, rule.isExpandable else {
            throw .usage(
                "'\(TodoText.sanitized(typed))' is not a rule todo can follow",
                hint:
                    "todo follows FREQ DAILY to YEARLY with INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, WKST, COUNT and UNTIL."
            )
        }
        return rule
    }

    /// `rule` ending as `end` says: its COUNT and UNTIL parts replaced by `COUNT=n` or
    /// `UNTIL=YYYYMMDD`, every other part kept as written; `nil` if the result is no rule.
    static func ending(_ rule: RecurrenceRule, _ end: RecurrenceRule.End) -> RecurrenceRule? {
        var parts = self.parts(of: rule, without: ["COUNT", "UNTIL"])
        switch end {
        case .count(let count): parts.append("COUNT=\(count)")
        case .until(let date): parts.append("UNTIL=" + BasicTime.write(date))
        }
        return try? RecurrenceRule(parsing: parts.joined(separator: ";"))
    }

    /// The parts of `rule` as written (`FREQ=MONTHLY`), but for those named in `names`
    /// (upper case).
    static func parts(of rule: RecurrenceRule, without names: Set<String>) -> [String] {
        rule.text.split(separator: ";").filter { part in
            let name = part.split(separator: "=", maxSplits: 1).first.map { String($0).trimmingSpaces.uppercased() }
            return !names.contains(name ?? "")
        }.map(String.init)
    }

    /// How the rule of a repeating todo ends, when it is a form `todo` writes (a COUNT, or a
    /// DATE UNTIL; a date-time UNTIL by its date).
    static func end(of rule: RecurrenceRule) -> RecurrenceRule.End? {
        if let count = rule.count { return .count(count) }
        guard let until = rule.until else { return nil }
        if case .date(let date) = until { return .until(date) }
        return CalendarDate(daysSinceEpoch: Int(clamping: UTCTimestamp.split(until.seconds).days)).map { .until($0) }
    }

    // MARK: Errors

    /// The hint of a refused form.
    static let hint = "Use \(examples)."

    private static func notAForm(_ text: String) -> CLIError {
        .usage("'\(TodoText.sanitized(text))' is not a repeat form", hint: hint)
    }

    private static func shorterThanADay(_ text: String) -> CLIError {
        .usage(
            "'\(TodoText.sanitized(text))' repeats within a day: a deadline is a date",
            hint: "Repeat every day at most: \(examples).")
    }
}
