import TodoStore

/// A deadline as typed: a day, and the time of day after it when one was given.
struct TypedDeadline: Equatable {
    var date: CalendarDate
    /// Seconds after midnight, `nil` when no time was given.
    var secondOfDay: Int?

    /// The time as it is stored: floating, on the clock of whoever reads it, so that a 19:00
    /// chore stays at 19:00 across a daylight saving change or a journey.
    var dueTime: TodoDueTime? { secondOfDay.map { .wall(secondOfDay: $0, zone: nil) } }
}

/// Reads the dates people type (`--due`, `--due-before`, `--due-after`) into a calendar date,
/// and a deadline's time of day (`--due "fri 19:00"`).
///
/// The accepted forms and what each means are ``rules`` (help, the manual and the guide say
/// the same). Case and extra spaces do not matter. Numeric day-and-month forms (`12/24`,
/// `24.12.`) are refused: half the world reads them the other way round; so are times on the
/// 12-hour clock (`7pm`), for the same reason as a time without a day: which one is meant?
enum DueDateParser {
    /// The forms in one line, for an option's help and the hint of a refused date.
    static let examples =
        "YYYY-MM-DD, today, tomorrow, yesterday, a weekday (fri, next friday), +3d, 2w, +1m, in 3 days, "
        + "Dec 24, 24 Dec, eow, eom, next week or next month"

    /// The forms back from today that the filters on days take beside ``examples``.
    static let pastExamples = "-3d, -2w, -1m, 3 days ago, last friday"

    /// Every form and what it means: the discussion of the commands that take a date.
    static let rules = """
        Dates: YYYY-MM-DD or YYYY/MM/DD (2026-1-5 too); today, tomorrow, yesterday; a weekday,
        or three letters or more of it (fri, tues), is its next occurrence after today, so friday
        on a Friday is a week away (next friday says the same); +3d, +2w, +1m, 3d, 2w, 1m, in 3
        days, in 2 weeks, in 1 month are that long from today (a month after January 31 is the
        last day of February); a month and a day in either order (Dec 24, 24 Dec, December 24)
        is the next such date on or after today. Weeks run Monday to Sunday: eow is this week's
        Sunday (today on a Sunday), next week the Monday after it. eom is this month's last day,
        next month the first day of the next. The filters on days (--due-before, --due-after,
        --completed-after, --created-before...) also take days back from today: -3d, -2w, -1m,
        3 days ago, 2 weeks ago, 1 month ago, and last friday (its last occurrence before today,
        a week ago on a Friday). Numeric day-and-month forms (12/24, 24.12.) are refused: they
        are ambiguous.
        """

    /// The time forms in one line, for `--due`'s help and the hint of a refused time.
    static let timeExamples =
        "a time of day after the date, HH:MM on the 24-hour clock (fri 19:00, tomorrow 9:30, 2026-12-01T09:30)"

    /// What a deadline's time of day is: the discussion of the commands whose `--due` takes one.
    static let timeRules = """
        Times: a deadline may end with a time of day, H:MM or HH:MM on the 24-hour clock, after a
        space or, after YYYY-MM-DD, a T (fri 19:00, tomorrow 9:30, 2026-12-01T09:30). It is kept
        as local time: 19:00 is 19:00 in whatever time zone the todo is read, before and after a
        daylight saving change. A time set in another app with its own zone is shown converted
        to the local zone.
        """

    /// Words to offer when completing a date.
    static let completionWords = [
        "today", "tomorrow", "yesterday", "monday", "tuesday", "wednesday", "thursday", "friday",
        "saturday", "sunday", "eow", "eom", "+1d", "+1w", "+1m"
    ]

    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december"
    ]

    /// The words a typo is checked against: the fixed words and phrases, and the weekdays.
    private static let words = ["today", "tomorrow", "yesterday", "eow", "eom", "next week", "next month"] + weekdays

    /// Parses `text`, a date and optionally a time of day after it (``timeRules``), relative to
    /// `today`.
    ///
    /// - Throws: a usage error naming the value, as ``parse(_:today:option:)`` does, and for a
    ///   time that is not H:MM or HH:MM on the 24-hour clock, or has no day before it.
    static func parseDeadline(_ text: String, today: CalendarDate) throws(CLIError) -> TypedDeadline {
        guard let (day, clock) = splitTime(text) else { return TypedDeadline(date: try parse(text, today: today)) }
        guard !day.isEmpty else {
            throw .usage(
                "'\(TodoText.sanitized(text))' is a time without a day",
                hint: "Give the day before it: today \(TodoText.sanitized(clock)), fri \(TodoText.sanitized(clock)).")
        }
        guard let second = secondOfDay(clock) else {
            throw .usage(
                "'\(TodoText.sanitized(clock))' is not a time of day",
                hint: "Use \(timeExamples).")
        }
        return TypedDeadline(date: try parse(day, today: today), secondOfDay: second)
    }

    /// Parses `text`, a date without a time of day, relative to `today`; with `past`, the forms
    /// back from today too (``pastExamples``: the filters on days take them, where a deadline
    /// or a start would read `-3d` as a typo of `+3d`).
    ///
    /// - Throws: a usage error naming the value, for text that is not a date, a day that does
    ///   not exist (2023-02-29, Feb 30), a date past year 9999, or a date with a time after it
    ///   (`option`, when given, is named: days are compared there, not times).
    static func parse(
        _ text: String, today: CalendarDate, option: String? = nil, past: Bool = false
    ) throws(CLIError) -> CalendarDate {
        if let (day, _) = splitTime(text), !day.isEmpty {
            throw .usage(
                "\(option.map { "'\($0)' takes" } ?? "only") a date, not a time: '\(TodoText.sanitized(text))'",
                hint: "Give the day alone: \(TodoText.sanitized(day)).")
        }
        let tokens = text.lowercased().split(separator: " ").map(String.init)
        let word = tokens.joined(separator: " ")
        if let parts = numericParts(word) {
            guard let date = CalendarDate(year: parts.year, month: parts.month, day: parts.day) else {
                throw .usage("'\(text)' is not a day in the calendar", hint: "Use \(examples).")
            }
            return date
        }
        if let (month, day) = monthAndDay(tokens) {
            guard day <= CalendarDate.daysInMonth(month, of: 2024) else {
                throw .usage("'\(text)' is not a day in the calendar", hint: "Use \(examples).")
            }
            // February 29 is at most 8 years away (1896 to 1904 skipped one).
            let next = (today.year...today.year + 8).lazy.compactMap { CalendarDate(year: $0, month: month, day: day) }
                .first { $0 >= today }
            guard let next else { throw tooFar(text) }
            return next
        }
        if let days = relativeDays(tokens, today: today, past: past) {
            guard let date = today.adding(days: days) else { throw tooFar(text) }
            return date
        }
        let suggestion = Suggestion.closest(to: word, among: words) ?? monthTypo(tokens)
        throw .usage(
            "'\(text)' is not a date",
            hint: (suggestion.map { "Did you mean '\($0)'? " } ?? "") + "Use \(examples)"
                + (past ? "; or back from today: \(pastExamples)." : "."))
    }

    /// The day part and the time part of `text` when it ends with something meant as a time
    /// (a word with a colon, `7pm`, or `T09:30` after YYYY-MM-DD), whether or not it is a valid
    /// one; `nil` when nothing in it looks like a time.
    private static func splitTime(_ text: String) -> (day: String, clock: String)? {
        let tokens = text.split(separator: " ")
        guard let last = tokens.last else { return nil }
        let before = tokens.dropLast().joined(separator: " ")
        // 2026-12-01T09:30 (ISO 8601's separator, either case): the T only after a numeric date.
        if tokens.count == 1, let t = last.firstIndex(where: { $0 == "T" || $0 == "t" }),
            numericParts(String(last[..<t])) != nil
        {
            return (String(last[..<t]), String(last[last.index(after: t)...]))
        }
        let lower = last.lowercased()
        let twelveHour =
            (lower.hasSuffix("am") || lower.hasSuffix("pm")) && lower.first.map { $0.isASCII && $0.isNumber } == true
        guard last.contains(":") || twelveHour else { return nil }
        return (before, String(last))
    }

    /// Seconds after midnight of `H:MM` or `HH:MM` (00:00 to 23:59), or `nil`.
    private static func secondOfDay(_ clock: String) -> Int? {
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return nil }
        return hour * 3600 + minute * 60
    }

    private static func tooFar(_ text: String) -> CLIError {
        .usage("'\(text)' is too far away", hint: "Dates run from 0001-01-01 to 9999-12-31.")
    }

    /// Year, month and day of `YYYY-M-D` or `YYYY/M/D` (one or two digits for the month and
    /// day), whether or not that day exists; `nil` for any other shape.
    private static func numericParts(_ word: String) -> (year: Int, month: Int, day: Int)? {
        let parts = word.split(separator: word.contains("/") ? "/" : "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        return (year, month, day)
    }

    /// The month (1-12) of a month's name or three letters or more of it.
    private static func month(named word: String) -> Int? {
        guard word.count >= 3, let index = months.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
        return index + 1
    }

    /// The month and day of `Dec 24`, `24 Dec` or `December 24` (the day from 1 to 31; whether
    /// the month has it is the caller's check); `nil` for any other shape.
    private static func monthAndDay(_ tokens: [String]) -> (month: Int, day: Int)? {
        guard tokens.count == 2 else { return nil }
        for (name, number) in [(tokens[0], tokens[1]), (tokens[1], tokens[0])] {
            if let month = month(named: name), number.count <= 2, number.allSatisfy({ $0.isASCII && $0.isNumber }),
                let day = Int(number), (1...31).contains(day)
            {
                return (month, day)
            }
        }
        return nil
    }

    /// `December 24` for a month's name misspelt beside a day (`Decmber 24`), else `nil`.
    private static func monthTypo(_ tokens: [String]) -> String? {
        guard tokens.count == 2 else { return nil }
        for (name, number) in [(tokens[0], tokens[1]), (tokens[1], tokens[0])]
        where Int(number).map({ (1...31).contains($0) }) == true {
            if let month = Suggestion.closest(to: name, among: months) { return "\(month) \(number)" }
        }
        return nil
    }

    /// Days from `today` to this week's Sunday (0 on a Sunday): weeks run Monday to Sunday
    /// (ISO 8601), for `eow`, `next week` and `--week`.
    static func daysToEndOfWeek(from today: CalendarDate) -> Int {
        (7 - today.weekday) % 7
    }

    /// Days from today for the relative forms (with `past`, those back from today too), or
    /// `nil` when `tokens` are none of them.
    private static func relativeDays(_ tokens: [String], today: CalendarDate, past: Bool) -> Int? {
        let toSunday = daysToEndOfWeek(from: today)
        switch tokens.joined(separator: " ") {
        case "today": return 0
        case "tomorrow": return 1
        case "yesterday": return -1
        case "eow": return toSunday
        case "next week": return toSunday + 1
        case "eom": return CalendarDate.daysInMonth(today.month, of: today.year) - today.day
        case "next month": return CalendarDate.daysInMonth(today.month, of: today.year) - today.day + 1
        default: break
        }
        // "next friday" is the next Friday after today, which is what "friday" means here;
        // "last friday" the last one before today.
        if tokens.count == 1 || (tokens.count == 2 && (tokens[0] == "next" || (past && tokens[0] == "last"))),
            let day = tokens.last, day.count >= 3, let index = weekdays.firstIndex(where: { $0.hasPrefix(day) })
        {
            if tokens[0] == "last" {
                let back = (today.weekday - index + 7) % 7
                return -(back == 0 ? 7 : back)
            }
            let ahead = (index - today.weekday + 7) % 7
            return ahead == 0 ? 7 : ahead
        }
        if tokens.count == 1, let offset = tokens.first {
            // +3d, 3d, +2w, 1m, and -3d before today: the unit is the last letter.
            let sign = offset.hasPrefix("-") ? -1 : 1
            guard past || sign == 1 else { return nil }
            let number =
                offset.hasPrefix("+") || offset.hasPrefix("-") ? offset.dropFirst().dropLast() : offset.dropLast()
            guard let unit = offset.last, let count = Int(number), number.first?.isNumber == true else { return nil }
            return days(count, unit: String(unit), today: today, sign: sign)
        }
        // "in 3 days", "in 1 week", "in 2 months", and "3 days ago": the unit's first letter,
        // singular or plural.
        let (count, unit, sign): (Substring, String, Int)
        if tokens.count == 3, tokens[0] == "in" {
            (count, unit, sign) = (Substring(tokens[1]), tokens[2], 1)
        } else if past, tokens.count == 3, tokens[2] == "ago" {
            (count, unit, sign) = (Substring(tokens[0]), tokens[1], -1)
        } else {
            return nil
        }
        guard let number = Int(count), count.first?.isNumber == true else { return nil }
        let singular = unit.hasSuffix("s") ? String(unit.dropLast()) : unit
        guard ["day", "week", "month"].contains(singular), let letter = singular.first else { return nil }
        return days(number, unit: String(letter), today: today, sign: sign)
    }

    /// Days from today to `count` days (`d`), weeks (`w`) or months (`m`) ahead (`sign` 1) or
    /// back (`sign` -1); `nil` for another unit or a count past any deadline.
    private static func days(_ count: Int, unit: String, today: CalendarDate, sign: Int = 1) -> Int? {
        guard count >= 0, count <= 3_660_000 else { return nil }
        switch unit {
        case "d": return sign * count
        case "w": return sign * count * 7
        case "m": return today.adding(months: sign * count).flatMap { today.days(until: $0) }
        default: return nil
        }
    }

}

extension String {
    /// Without the spaces at either end.
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
