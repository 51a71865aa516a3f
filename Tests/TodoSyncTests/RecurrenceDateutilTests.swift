import Foundation
import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// The engine against python3-dateutil, an RFC 5545 expander, on random rules from random DATE
/// and TZID anchors: one Python process for the whole batch.
///
/// Where dateutil and RFC 5545 disagree, RFC 5545 wins, and the expected list is dateutil's made
/// to say what the RFC says:
/// - The anchor (DTSTART) is the first occurrence and counts as the first toward COUNT, whether or
///   not the rule makes it (RFC 5545 3.3.10 "The DTSTART property value always counts as the first
///   occurrence", 3.8.5.3 "DTSTART defines the first instance"); dateutil leaves out an anchor its
///   rule does not make and counts only what the rule makes. So dateutil runs without COUNT, the
///   anchor is added, and COUNT is applied to the union.
/// - A WEEKLY period is the whole week from WKST, the anchor's too, so BYSETPOS picks among that
///   week's days (RFC 5545 3.3.10: BYSETPOS works "within the interval of FREQ"); dateutil's first
///   week starts at DTSTART, so `FREQ=WEEKLY;BYDAY=MO,FR;BYSETPOS=1` from a Wednesday gives that
///   Friday there. So for such rules dateutil starts at the week's first day, and what it makes
///   before the anchor is dropped.
/// - BYDAY is a list of values, any of which a day may match (RFC 5545 3.3.10), so
///   `FREQ=MONTHLY;BYDAY=4SU,WE` is the fourth Sunday and every Wednesday; dateutil asks a day to
///   match one of the plain weekdays and one of the numbered ones, and finds none. So without
///   BYSETPOS dateutil runs once for each kind and the two lists are merged; the generator gives
///   no rule both kinds and BYSETPOS.
@Suite(.timed) struct RecurrenceDateutilTests {
    struct Case {
        var rule: String
        var anchor: ICalendarTime
        var tzid: String?
        /// Where dateutil starts (the anchor, or its week's first day).
        var pythonStart: String
        var horizonDays: Int
    }

    static let limit = 20
    static let zones = ["Europe/Berlin", "America/Chicago", "America/New_York", "Australia/Sydney", "Asia/Kolkata"]

    @Test func agreesWithDateutil() throws {
        let seed = TestSeed.make("RecurrenceDateutilTests")
        var random = SeededGenerator(seed: seed)
        let cases = (0..<500).map { index in Self.randomCase(&random, zoned: index % 5 >= 3) }
        let lines = try Self.dateutil(cases)
        try #require(lines.count == cases.count, "seed \(seed): python answered \(lines.count) of \(cases.count)")
        var failures = 0
        var compared = 0
        for (item, line) in zip(cases, lines) {
            let expected = try Self.expected(item, dateutil: line)
            let set = RecurrenceSet(anchor: item.anchor, rules: [try RecurrenceRule(parsing: item.rule)])
            let horizon = item.anchor.seconds + Int64(item.horizonDays) * 86_400
            let found = values(set.occurrences(limit: Self.limit).occurrences.filter { $0.seconds <= horizon })
            let wanted = expected.filter { Self.wallSeconds($0) <= horizon }
            if wanted.count > 1 { compared += 1 }
            if found != wanted {
                failures += 1
                if failures <= 5 {
                    Issue.record(
                        "seed \(seed): \(item.rule) from \(item.anchor.value ?? "") \(item.tzid ?? "")\n got \(found)\nwant \(wanted)"
                    )
                }
            }
        }
        #expect(failures == 0, "seed \(seed): \(failures) of \(cases.count) differ")
        // Most cases compare more than the anchor (a rule that makes nothing near it says little).
        #expect(compared > cases.count / 2, "seed \(seed): only \(compared) cases compare occurrences")
    }

    /// dateutil's list made to say what RFC 5545 says (see the type).
    static func expected(_ item: Case, dateutil line: String) throws -> [String] {
        guard !line.hasPrefix("ERROR") else { throw PythonError(line: line) }
        let anchor = item.tzid == nil ? (item.anchor.value ?? "") + "T000000" : item.anchor.value ?? ""
        var union = Set(line.split(separator: " ").map(String.init))
        union.insert(anchor)
        var sorted = union.sorted()
        if let count = try RecurrenceRule(parsing: item.rule).count { sorted = Array(sorted.prefix(count)) }
        let list = Array(sorted.prefix(limit))
        return item.tzid == nil ? list.map { String($0.prefix(8)) } : list
    }

    struct PythonError: Error { var line: String }

    /// `YYYYMMDD` or `YYYYMMDDTHHMMSS` as seconds on its own clock.
    static func wallSeconds(_ text: String) -> Int64 {
        BasicTime.seconds(ArraySlice((text.count == 8 ? text + "T000000" : text).utf8)) ?? Int64.max
    }

    // MARK: Random rules

    static func randomCase(_ random: inout SeededGenerator, zoned: Bool) -> Case {
        let frequency =
            [RecurrenceRule.Frequency.daily, .weekly, .monthly, .yearly].randomElement(using: &random) ?? .daily
        let year = Int.random(in: 1995...2035, using: &random)
        let month = Int.random(in: 1...12, using: &random)
        let day = Int.random(in: 1...CalendarDate.daysInMonth(month, of: year), using: &random)
        let start = CalendarDate(year: year, month: month, day: day) ?? .unixEpoch
        let tzid = zoned ? zones.randomElement(using: &random) : nil
        let second =
            zoned ? Int.random(in: 0..<24, using: &random) * 3600 + Int.random(in: 0..<4, using: &random) * 900 : 0
        let wall = Int64(start.daysSinceEpoch) * 86_400 + Int64(second)
        let anchor: ICalendarTime = zoned ? .local(wallSeconds: wall, tzid: tzid) : .date(start)
        var parts = ["FREQ=" + frequency.name]
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        func some<T>(_ values: [T], _ most: Int) -> [T] {
            Array(values.shuffled(using: &random).prefix(Int.random(in: 1...most, using: &random)))
        }
        if chance(50) { parts.append("INTERVAL=\(Int.random(in: 1...4, using: &random))") }
        let codes = RecurrenceRule.Weekday.allCases.map(\.code)
        var hasByDay = false
        let hasSetPos = chance(25)
        if frequency == .weekly ? chance(70) : chance(35) {
            let ordinals = frequency >= .monthly && chance(40)
            // Numbered and plain weekdays together only without BYSETPOS (see the type).
            let days = some(codes, 4).map { code in
                ordinals && (hasSetPos || chance(70))
                    ? String([1, 2, 3, 4, -1, -2].randomElement(using: &random) ?? 1) + code : code
            }
            parts.append("BYDAY=" + days.joined(separator: ","))
            hasByDay = true
        }
        if frequency != .weekly, chance(35) {
            let pool = Array(1...28) + Array(-28...(-1)) + [29, 30, 31, -29, -30, -31]
            parts.append("BYMONTHDAY=" + some(pool, 3).map(String.init).joined(separator: ","))
        }
        if frequency == .yearly ? chance(50) : chance(15) {
            parts.append("BYMONTH=" + some(Array(1...12), 4).map(String.init).joined(separator: ","))
        }
        // A weekly rule without BYDAY has one day a week: BYSETPOS would say little.
        let setPosAdded = hasSetPos && (frequency != .weekly || hasByDay)
        if setPosAdded {
            parts.append("BYSETPOS=" + some([1, 2, -1, -2, 3], 2).map(String.init).joined(separator: ","))
        }
        if chance(30) {
            parts.append("COUNT=\(Int.random(in: 1...15, using: &random))")
        } else if chance(40) {
            let end = wall + Int64(Int.random(in: -3...700, using: &random)) * 86_400
            if zoned {
                // A date-time anchor in a zone takes a UTC UNTIL (RFC 5545 3.3.10).
                parts.append(
                    "UNTIL=" + (BasicTime.write(end - Int64(Int.random(in: -50_000...50_000, using: &random))) ?? "")
                        + "Z")
            } else {
                parts.append("UNTIL=" + String((BasicTime.write(end) ?? "").prefix(8)))
            }
        }
        var weekStart = RecurrenceRule.Weekday.monday
        if chance(20) {
            weekStart = RecurrenceRule.Weekday.allCases.randomElement(using: &random) ?? .monday
            parts.append("WKST=" + weekStart.code)
        }
        parts.shuffle(using: &random)
        var pythonStart = wall
        if frequency == .weekly, setPosAdded {
            // The first day of the anchor's week: see the type's note.
            pythonStart -= Int64((start.weekday - weekStart.rawValue + 7) % 7) * 86_400
        }
        let horizon = [.daily: 400, .weekly: 900, .monthly: 2_000, .yearly: 6_000][frequency] ?? 400
        return Case(
            rule: parts.joined(separator: ";"), anchor: anchor, tzid: tzid,
            pythonStart: BasicTime.write(pythonStart) ?? "",
            horizonDays: horizon)
    }

    // MARK: Python

    /// One line per case: dateutil's first occurrences (wall time, `YYYYMMDDTHHMMSS`), at most
    /// `limit`, none past the horizon, none before the anchor, without COUNT.
    static func dateutil(_ cases: [Case]) throws -> [String] {
        let input =
            cases.map { item in
                let anchor = item.tzid == nil ? (item.anchor.value ?? "") + "T000000" : item.anchor.value ?? ""
                return [item.rule, item.pythonStart, anchor, item.tzid ?? "-", String(item.horizonDays)].joined(
                    separator: " ")
            }.joined(separator: "\n") + "\n"
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", script], stdin: input, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static let script = """
        import datetime as datetime_module, itertools, sys
        from datetime import datetime, timedelta
        from dateutil import tz
        from dateutil.rrule import rrulestr
        for line in sys.stdin:
            rule, start, anchor, zone, days = line.split()
            try:
                tzinfo = tz.gettz(zone) if zone != "-" else None
                start = datetime.strptime(start, "%Y%m%dT%H%M%S").replace(tzinfo=tzinfo)
                anchor = datetime.strptime(anchor, "%Y%m%dT%H%M%S").replace(tzinfo=tzinfo)
                horizon = anchor + timedelta(days=int(days))
                # dateutil checks UNTIL only on what a rule makes, so a rule that makes nothing
                # runs to the year 9999; its own bound, moved to the horizon, stops it there.
                datetime_module.MAXYEAR = horizon.year + 1
                parts = [p for p in rule.split(";") if not p.upper().startswith("COUNT=")]
                rules = [parts]
                byday = [p for p in parts if p.upper().startswith("BYDAY=")]
                if byday:
                    days = byday[0][6:].split(",")
                    plain = [d for d in days if d.isalpha()]
                    numbered = [d for d in days if not d.isalpha()]
                    if plain and numbered:
                        others = [p for p in parts if p is not byday[0]]
                        rules = [others + ["BYDAY=" + ",".join(plain)], others + ["BYDAY=" + ",".join(numbered)]]
                found = set()
                for rule_parts in rules:
                    parsed = rrulestr(";".join(rule_parts), dtstart=start)
                    if parsed._until is None or parsed._until > horizon:
                        parsed = parsed.replace(until=horizon)
                    found.update(itertools.islice((d for d in parsed if d >= anchor), \(limit)))
                print(" ".join(d.strftime("%Y%m%dT%H%M%S") for d in sorted(found)[:\(limit)]))
            except Exception as error:
                print("ERROR", type(error).__name__, str(error).replace("\\n", " "))
        """
}
