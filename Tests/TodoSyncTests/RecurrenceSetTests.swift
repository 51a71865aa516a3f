import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// Expanding recurrence sets on the anchor's own clock (RFC 5545 3.3.10, 3.8.5), RECURRENCE.md's
/// vectors (§1.1, §6), the occurrence keys of §5.1, and the bounds hostile rules meet.
@Suite(.timed) struct RecurrenceSetTests {
    /// RECURRENCE.md §1.1: python3-dateutil 2.9's answers, which RFC 5545 agrees with here.
    @Test func matchesTheDateutilTableOfTheStudy() throws {
        let cases: [(rule: String, anchor: String, expected: [String])] = [
            ("FREQ=MONTHLY", "20270131", ["20270131", "20270331", "20270531", "20270731"]),
            (
                "FREQ=MONTHLY;BYMONTHDAY=31,-1;BYSETPOS=1", "20270131",
                ["20270131", "20270228", "20270331", "20270430", "20270531"]
            ),
            ("FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1", "20270130", ["20270130", "20270228", "20270330", "20270430"]),
            ("FREQ=MONTHLY;BYMONTHDAY=-1", "20261130", ["20261130", "20261231", "20270131", "20270228"]),
            (
                "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29,-1;BYSETPOS=1", "20280229",
                ["20280229", "20290228", "20300228", "20310228", "20320229"]
            ),
            ("FREQ=YEARLY", "20280229", ["20280229", "20320229", "20360229"]),
            ("FREQ=WEEKLY;BYDAY=MO,TH", "20261130", ["20261130", "20261203", "20261207", "20261210"]),
            ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "20261204", ["20261204", "20261207", "20261208"]),
            ("FREQ=MONTHLY;BYDAY=-1FR", "20270129", ["20270129", "20270226", "20270326"])
        ]
        for (rule, anchor, expected) in cases {
            let set = try Self.set(rule, anchor: .date(date(anchor)))
            #expect(values(set.occurrences(limit: expected.count).occurrences) == expected, "\(rule)")
        }
        // "FREQ=WEEKLY;UNTIL=20261215 from 2026-12-01: 12-01, 12-08, 12-15 (nothing after)".
        let until = try Self.set("FREQ=WEEKLY;UNTIL=20261215", anchor: .date(date("20261201")))
        let listing = until.occurrences(limit: 10)
        #expect(values(listing.occurrences) == ["20261201", "20261208", "20261215"])
        #expect(listing.then == .end)
    }

    /// §1.1's two zone rows: a TZID anchor keeps its wall time across the end of DST, a UTC one
    /// keeps its instant (so its Berlin time moves an hour).
    @Test func aZonedSeriesKeepsItsWallTimeAndAUTCOneItsInstant() throws {
        let berlin = try #require(WallClockZone.named("Europe/Berlin"))
        let zoned = try Self.set("FREQ=WEEKLY", anchor: local("20261020T090000", "Europe/Berlin"))
        let occurrences = zoned.occurrences(limit: 3).occurrences
        #expect(values(occurrences) == ["20261020T090000", "20261027T090000", "20261103T090000"])
        #expect(occurrences.allSatisfy { if case .local(_, "Europe/Berlin") = $0 { true } else { false } })
        #expect(
            occurrences.map { zoned.key(of: $0).text } == ["20261020T070000Z", "20261027T080000Z", "20261103T080000Z"])
        let utc = try Self.set("FREQ=WEEKLY", anchor: utc("20261020T070000Z"))
        let instants = utc.occurrences(limit: 3).occurrences
        #expect(values(instants) == ["20261020T070000Z", "20261027T070000Z", "20261103T070000Z"])
        let inBerlin = instants.map { BasicTime.write(berlin.wall(atUTC: $0.seconds)) ?? "" }
        #expect(inBerlin == ["20261020T090000", "20261027T080000", "20261103T080000"])
    }

    /// TV3: Tasks.org's weekly 09:00 Europe/Berlin (anchored on DUE) across the end of DST, with
    /// COUNT=3: the next is 10-27 09:00 wall, and the rule's COUNT loses one.
    @Test func tv3WeeklyInBerlinAcrossTheEndOfDST() throws {
        let object = try VTodoObject(
            parsing: Fixtures.todoObject([
                "SUMMARY:Take out the bins", "RRULE:FREQ=WEEKLY;COUNT=3", "DUE;TZID=Europe/Berlin:20261020T090000"
            ]), timeZone: .offset(seconds: 0))
        let set = try #require(try RecurrenceSet(master: object.todo))
        let current = local("20261020T090000", "Europe/Berlin")
        #expect(set.anchor == current)
        #expect(set.isCompletable)
        let next = set.first(after: current)
        #expect(next == .occurrence(local("20261027T090000", "Europe/Berlin")))
        guard case .occurrence(let nextTime) = next else { return }
        #expect(set.generatedCounts(from: current, to: nextTime) == [1])
        #expect(set.rules[0].settingCount(3 - 1) == "FREQ=WEEKLY;COUNT=2")
        #expect(set.key(of: nextTime).text == "20261027T080000Z")
        // The set after the advance: COUNT=2 from 10-27, then one more, then none.
        let advanced = RecurrenceSet(
            anchor: nextTime, rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=2")], zones: set.frame.zones)
        #expect(advanced.first(after: nextTime) == .occurrence(local("20261103T090000", "Europe/Berlin")))
        // A daily 02:30 in Berlin on the spring-forward day: kept as written, read as 03:30 CEST.
        let gap = try Self.set("FREQ=DAILY", anchor: local("20270327T023000", "Europe/Berlin"))
        let days = gap.occurrences(limit: 3).occurrences
        #expect(values(days) == ["20270327T023000", "20270328T023000", "20270329T023000"])
        #expect(days.map { gap.key(of: $0).text } == ["20270327T013000Z", "20270328T013000Z", "20270329T003000Z"])
        // The hour passed twice when DST ends is the first of the two (CEST).
        let overlap = try Self.set("FREQ=DAILY", anchor: local("20261024T023000", "Europe/Berlin"))
        let twice = overlap.occurrences(limit: 2).occurrences
        #expect(twice.map { overlap.key(of: $0).text } == ["20261024T003000Z", "20261025T003000Z"])
    }

    /// TV4: COUNT=1 has no occurrence after the anchor.
    @Test func tv4CountOneHasNoNext() throws {
        let anchor = local("20261103T090000", "Europe/Berlin")
        let set = try Self.set("FREQ=WEEKLY;COUNT=1", anchor: anchor)
        #expect(set.first(after: anchor) == .end)
        #expect(set.first(onOrAfter: anchor) == .occurrence(anchor))
        #expect(set.occurrences(limit: 5) == .init(occurrences: [anchor], then: .end))
    }

    /// TV5: UNTIL reached, no next; a DATE UNTIL beside a date-time anchor ends with that day in
    /// the anchor's zone (Tasks.org's lenient form), a UTC one at its instant.
    @Test func tv5UntilReachedHasNoNext() throws {
        let anchor = ICalendarTime.date(date("20261215"))
        let set = try Self.set("FREQ=WEEKLY;UNTIL=20261215", anchor: anchor)
        #expect(set.first(after: anchor) == .end)
        let tasks = try Self.set("FREQ=WEEKLY;UNTIL=20261215", anchor: local("20261201T090000", "Europe/Berlin"))
        #expect(
            values(tasks.occurrences(limit: 9).occurrences) == ["20261201T090000", "20261208T090000", "20261215T090000"]
        )
        // 09:00 Berlin is 08:00Z: an UNTIL of 07:59:59Z on the 15th leaves that day out.
        let instant = try Self.set(
            "FREQ=WEEKLY;UNTIL=20261215T075959Z", anchor: local("20261201T090000", "Europe/Berlin"))
        #expect(values(instant.occurrences(limit: 9).occurrences) == ["20261201T090000", "20261208T090000"])
        let atInstant = try Self.set(
            "FREQ=WEEKLY;UNTIL=20261215T080000Z", anchor: local("20261201T090000", "Europe/Berlin"))
        #expect(atInstant.occurrences(limit: 9).occurrences.count == 3)
    }

    /// TV6: month ends, each written rule and another app's plain monthly rule.
    @Test func tv6MonthEnds() throws {
        let cases: [(rule: String, anchor: String, next: [String])] = [
            // (a) `--due 2027-01-30 --every month`, and `--due 2027-01-31`.
            ("FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1", "20270130", ["20270228", "20270330", "20270430"]),
            ("FREQ=MONTHLY;BYMONTHDAY=-1", "20270131", ["20270228", "20270331", "20270430"]),
            // (b) another app's plain rule on the 31st: February has none (RFC 5545 3.3.10).
            ("FREQ=MONTHLY", "20270131", ["20270331"]),
            // (c) `--due eom --every month` on 2026-11-27.
            ("FREQ=MONTHLY;BYMONTHDAY=-1", "20261130", ["20261231", "20270131", "20270228"])
        ]
        for (rule, anchor, next) in cases {
            // Advance as completion does: the next after the current, which becomes the anchor.
            var current = ICalendarTime.date(date(anchor))
            for expected in next {
                let set = try Self.set(rule, anchor: current)
                guard case .occurrence(let found) = set.first(after: current) else {
                    Issue.record("\(rule) from \(anchor): no next after \(current)")
                    break
                }
                #expect(found.value == expected, "\(rule) from \(anchor)")
                current = found
            }
        }
        #expect(
            try RecurrenceRule(parsing: "FREQ=MONTHLY").summary(anchor: .date(date("20270131")))
                == "every month on the 31st (months without one are skipped)")
    }

    /// TV11: `--every mon,thu` from a Tuesday: the first occurrence on or after it is Thursday,
    /// then Monday, then Thursday.
    @Test func tv11MondayAndThursday() throws {
        let rule = RecurrenceRule.weekly(on: [.monday, .thursday])
        let tuesday = ICalendarTime.date(date("20261201"))
        // The deadline is moved to the rule's first date on or after it; that becomes the anchor.
        let probe = RecurrenceSet(anchor: .date(date("20261130")), rules: [rule])
        #expect(probe.first(onOrAfter: tuesday) == .occurrence(.date(date("20261203"))))
        let set = RecurrenceSet(anchor: .date(date("20261203")), rules: [rule])
        #expect(set.first(after: .date(date("20261203"))) == .occurrence(.date(date("20261207"))))
        #expect(set.first(after: .date(date("20261207"))) == .occurrence(.date(date("20261210"))))
        #expect(set.contains(.date(date("20261210"))) == true)
        #expect(set.contains(.date(date("20261211"))) == false)
    }

    /// TV13's hostile rules come back quickly with "no occurrence within the bound".
    @Test func hostileRulesAreBounded() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let anchor = utc("20261201T000000Z")
        let seconds = try Self.set("FREQ=SECONDLY;COUNT=1000000000", anchor: anchor)
        #expect(seconds.first(after: utc("20271201T000000Z")) == .beyondBound)
        #expect((9_000...RuleIterator.maxSteps + 1).contains(seconds.occurrences(limit: 20_000).occurrences.count))
        #expect(seconds.occurrences(limit: 20_000).then == .beyondBound)
        #expect(seconds.generatedCounts(from: anchor, to: utc("20271201T000000Z")) == nil)
        let never = try Self.set("FREQ=YEARLY;BYMONTHDAY=30;BYMONTH=2", anchor: .date(date("20260201")))
        #expect(never.first(after: .date(date("20260201"))) == .beyondBound)
        let neverTimed = try Self.set("FREQ=DAILY;BYMONTHDAY=31;BYMONTH=4", anchor: local("20260101T090000", nil))
        #expect(neverTimed.first(after: local("20260101T090000", nil)) == .beyondBound)
        let minutes = try Self.set("FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30", anchor: anchor)
        #expect(minutes.first(after: anchor) == .beyondBound)
        // Every second of every day of a year is one period's set: bounded by what it makes.
        let dense = try Self.set(
            "FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"
                + "21,22,23;BYMINUTE=" + (0..<60).map(String.init).joined(separator: ",") + ";BYSECOND="
                + (0..<60).map(String.init).joined(separator: ",") + ";BYMONTHDAY=-1,1,2,3,4,5,6,7,8,9,10,11,12,13",
            anchor: anchor)
        #expect(dense.first(after: utc("20281201T000000Z")) != .end)
        #expect(dense.occurrences(limit: 50_000).then == .beyondBound)
        let big = try Self.set("FREQ=DAILY;COUNT=1000000000;BYSETPOS=1,-1", anchor: .date(date("00010101")))
        #expect(big.first(after: .date(date("99991230"))) == .beyondBound)
        // The last day there is, and no further.
        let end = try Self.set("FREQ=DAILY", anchor: .date(date("99991230")))
        #expect(values(end.occurrences(limit: 5).occurrences) == ["99991230", "99991231"])
        #expect(end.first(after: .date(date("99991231"))) == .beyondBound)
        #expect(clock.now - start < .seconds(2))
    }

    /// RDATE adds (before the anchor too), EXDATE removes; other value types are read leniently.
    @Test func rdatesAddAndExdatesRemove() throws {
        let object = try VTodoObject(
            parsing: Fixtures.todoObject([
                "DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261201", "RRULE:FREQ=WEEKLY;COUNT=4",
                "RDATE;VALUE=DATE:20261124,20261203", "EXDATE;VALUE=DATE:20261208",
                "RDATE;VALUE=PERIOD:20261230T090000Z/20261230T100000Z"
            ]), timeZone: .offset(seconds: 0))
        let set = try #require(try RecurrenceSet(master: object.todo))
        #expect(
            values(set.occurrences(limit: 10).occurrences) == [
                "20261124", "20261201", "20261203", "20261215", "20261222", "20261230"
            ])
        // COUNT counts the excluded 12-08 (RFC 5545: EXDATE applies after the rule).
        #expect(set.generatedCounts(from: .date(date("20261201")), to: .date(date("20261222"))) == [3])
        #expect(set.first(after: .date(date("20261222"))) == .occurrence(.date(date("20261230"))))
        #expect(set.first(after: .date(date("20261230"))) == .end)
        // No RRULE: the anchor and the RDATEs.
        let dates = RecurrenceSet(anchor: .date(date("20261201")), rules: [], additions: [.date(date("20261224"))])
        #expect(values(dates.occurrences(limit: 5).occurrences) == ["20261201", "20261224"])
        // A DATE EXDATE beside a date-time anchor removes that day's occurrence.
        let timed = RecurrenceSet(
            anchor: local("20261201T170000", "America/Chicago"), rules: [try RecurrenceRule(parsing: "FREQ=DAILY")],
            additions: [.date(date("20261130"))], exclusions: [.date(date("20261202")), utc("20261203T230000Z")])
        #expect(
            values(timed.occurrences(limit: 4).occurrences) == [
                "20261130T170000", "20261201T170000", "20261204T170000", "20261205T170000"
            ])
    }

    /// The anchor is the first occurrence and counts toward COUNT, whether or not the rule makes
    /// it (RFC 5545 3.3.10, 3.8.5.3); python3-dateutil leaves such an anchor out and counts only
    /// what the rule makes.
    @Test func theAnchorIsTheFirstOccurrenceEvenOffTheRule() throws {
        // 2026-12-01 is a Tuesday.
        let set = try Self.set("FREQ=WEEKLY;BYDAY=MO,TH;COUNT=3", anchor: .date(date("20261201")))
        #expect(values(set.occurrences(limit: 9).occurrences) == ["20261201", "20261203", "20261207"])
        // A WEEKLY period is the whole week from WKST: BYSETPOS=1 is Monday 11-30, before the anchor.
        let setPos = try Self.set("FREQ=WEEKLY;BYDAY=MO,FR;BYSETPOS=1", anchor: .date(date("20261202")))
        #expect(values(setPos.occurrences(limit: 3).occurrences) == ["20261202", "20261207", "20261214"])
    }

    /// The occurrence a RECURRENCE-ID names, and the keys of §5.1.
    @Test func recurrenceIDsMatchLenientlyAndKeysFollowTheValueType() throws {
        let anchor = local("20261201T170000", "America/Chicago")
        let set = try Self.set("FREQ=DAILY", anchor: anchor)
        let second = local("20261202T170000", "America/Chicago")
        // The same value, the same instant in UTC, the wall time written floating (Nextcloud),
        // and a DATE (TV13) all name 12-02 17:00.
        for id in [second, utc("20261202T230000Z"), local("20261202T170000", nil), .date(date("20261202"))] {
            #expect(set.occurrence(identifiedBy: id) == second, "\(id)")
        }
        #expect(set.occurrence(identifiedBy: local("20261202T180000", "America/Chicago")) == nil)
        #expect(set.occurrence(identifiedBy: .date(date("20261130"))) == nil)
        #expect(set.key(of: second).text == "20261202T230000Z")
        #expect(set.key(of: second) == set.key(of: utc("20261202T230000Z")))
        // A DATE-TIME RECURRENCE-ID under a DATE anchor names the occurrence on its date.
        let days = try Self.set("FREQ=DAILY", anchor: .date(date("20261201")))
        #expect(days.occurrence(identifiedBy: local("20261203T000000", nil)) == .date(date("20261203")))
        #expect(days.key(of: .date(date("20261203"))).text == "20261203")
        // Floating and unknown zones: the wall time as written.
        let zones = RecurrenceZones.none
        #expect(OccurrenceKey(local("20261203T090000", nil), zones: zones).text == "20261203T090000")
        #expect(OccurrenceKey(local("20261203T090000", "Nowhere/Special"), zones: zones).text == "20261203T090000")
        // A VTIMEZONE with a single offset stands for a zone the tz database lacks.
        let fixed = RecurrenceZones(resolve: { $0 == "Custom" ? .fixed(offsetSeconds: 19_800) : nil })
        #expect(OccurrenceKey(local("20261203T090000", "Custom"), zones: fixed).text == "20261203T033000Z")
    }

    /// §5.4 step 1: from the completion date, one interval later, months clamped.
    @Test func countsFromCompletion() throws {
        let cases: [(rule: String, anchor: ICalendarTime, done: String, expected: RecurrenceSet.Lookup?)] = [
            // TV10: rec:3d, done four days late on 2026-12-01.
            ("FREQ=DAILY;INTERVAL=3", .date(date("20261127")), "20261201", .occurrence(.date(date("20261204")))),
            ("FREQ=MONTHLY", .date(date("20261231")), "20270131", .occurrence(.date(date("20270228")))),
            ("FREQ=MONTHLY;BYMONTHDAY=-1", .date(date("20261130")), "20270131", .occurrence(.date(date("20270228")))),
            ("FREQ=YEARLY", .date(date("20280229")), "20280229", .occurrence(.date(date("20290228")))),
            // Weekly on Mon and Thu, done on Wednesday 12-02: a week later is Wednesday, then Thursday.
            ("FREQ=WEEKLY;BYDAY=MO,TH", .date(date("20261130")), "20261202", .occurrence(.date(date("20261210")))),
            ("FREQ=WEEKLY;BYDAY=MO,TH", .date(date("20261130")), "20261130", .occurrence(.date(date("20261207")))),
            // The anchor's time of day and zone are kept.
            (
                "FREQ=WEEKLY", local("20261020T090000", "Europe/Berlin"), "20261023",
                .occurrence(local("20261030T090000", "Europe/Berlin"))
            ),
            ("FREQ=WEEKLY;COUNT=1", .date(date("20261201")), "20261201", .end),
            ("FREQ=WEEKLY;UNTIL=20261210", .date(date("20261201")), "20261205", .end),
            // Other BY parts: counted from due, by the caller.
            ("FREQ=MONTHLY;BYDAY=-1FR", .date(date("20270129")), "20270130", nil),
            ("FREQ=HOURLY", utc("20261201T090000Z"), "20261201", nil)
        ]
        for (rule, anchor, done, expected) in cases {
            let set = try Self.set(rule, anchor: anchor)
            #expect(set.nextCountedFromCompletion(on: date(done)) == expected, "\(rule) done \(done)")
        }
    }

    @Test func dateAnchorsNeedRulesOfWholeDays() throws {
        for rule in ["FREQ=HOURLY", "FREQ=DAILY;BYHOUR=9"] {
            let set = try Self.set(rule, anchor: .date(date("20261201")))
            #expect(!set.isExpandable)
            #expect(set.first(after: .date(date("20261201"))) == .notExpandable)
            #expect(set.contains(.date(date("20261201"))) == nil)
        }
    }

    /// A daily series decades old without COUNT (a Thunderbird object keeps its first DTSTART)
    /// starts at the period asked for, not at the anchor, so the bound does not cut it short.
    @Test func oldSeriesWithoutCountAreReadFromThePointAsked() throws {
        let set = try Self.set("FREQ=DAILY", anchor: local("19900101T170000", "America/Chicago"))
        #expect(
            set.first(after: local("20261201T170000", "America/Chicago"))
                == .occurrence(local("20261202T170000", "America/Chicago")))
        let hourly = try Self.set("FREQ=HOURLY;INTERVAL=5", anchor: utc("19900101T000000Z"))
        guard case .occurrence(let next) = hourly.first(onOrAfter: utc("20261201T000000Z")) else {
            Issue.record("no hourly occurrence found")
            return
        }
        #expect((next.seconds - utc("19900101T000000Z").seconds) % (5 * 3600) == 0)
        #expect(next.seconds >= utc("20261201T000000Z").seconds && next.seconds < utc("20261201T050000Z").seconds)
    }

    /// Values no parser makes (seconds past any year) and random rule texts never trap.
    @Test func neverTrapsOnAnyInput() throws {
        let extremes: [ICalendarTime] = [
            .utc(epochSeconds: .max), .utc(epochSeconds: .min), .local(wallSeconds: .min, tzid: "Europe/Berlin"),
            .local(wallSeconds: .max, tzid: nil), .date(date("00010101")), .date(date("99991231"))
        ]
        for anchor in extremes {
            let set = try Self.set("FREQ=SECONDLY;BYSETPOS=-1,1;COUNT=5", anchor: anchor)
            for point in extremes {
                _ = set.first(after: point)
                _ = set.first(onOrAfter: point)
                _ = set.contains(point)
                _ = set.occurrence(identifiedBy: point)
                _ = set.key(of: point)
                _ = set.generatedCounts(from: point, to: anchor)
                _ = set.nextCountedFromCompletion(on: date("99991231"))
            }
            _ = set.occurrences(limit: 3)
        }
        let seed = TestSeed.make("RecurrenceSetTests.neverTrapsOnAnyInput")
        var random = SeededGenerator(seed: seed)
        let pieces = [
            "FREQ=", "SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY", ";", "=", ",", "-", "+",
            "INTERVAL=", "COUNT=", "UNTIL=", "BYDAY=", "BYMONTHDAY=", "BYMONTH=", "BYSETPOS=", "BYYEARDAY=",
            "BYWEEKNO=", "BYHOUR=", "BYMINUTE=", "BYSECOND=", "WKST=", "MO", "FR", "SU", "0", "1", "2", "5", "12", "29",
            "31", "53", "60", "366", "99999", "20261201", "T090000", "Z", " ", "X-A=B"
        ]
        let anchors: [ICalendarTime] = [
            .date(date("20261201")), local("20261025T023000", "Europe/Berlin"), utc("20261201T090000Z"),
            local("20261201T090000", nil)
        ]
        var parsed = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...12, using: &random)).map { _ in
                pieces.randomElement(using: &random) ?? ""
            }.joined()
            // The text as it is, and after a FREQ, so that most texts reach the expansion.
            guard
                let rule = (try? RecurrenceRule(parsing: text)) ?? (try? RecurrenceRule(parsing: "FREQ=DAILY;" + text))
            else { continue }
            parsed += 1
            _ = rule.settingCount(7)
            _ = rule.summary(anchor: anchors[0])
            let set = RecurrenceSet(anchor: anchors.randomElement(using: &random) ?? anchors[0], rules: [rule])
            _ = set.occurrences(limit: 3)
            _ = set.first(after: utc("20301201T000000Z"))
        }
        #expect(parsed > 100, "seed \(seed)")
    }

    // MARK: Helpers

    static func set(_ rule: String, anchor: ICalendarTime) throws -> RecurrenceSet {
        RecurrenceSet(anchor: anchor, rules: [try RecurrenceRule(parsing: rule)])
    }
}

/// The values as written (`20261201`, `20261201T090000`, `20261201T090000Z`).
func values(_ times: [ICalendarTime]) -> [String] { times.map { $0.value ?? "?" } }

/// A wall-clock time in `tzid` (floating when `nil`) from `YYYYMMDDTHHMMSS`.
func local(_ text: String, _ tzid: String?) -> ICalendarTime {
    .local(wallSeconds: BasicTime.seconds(ArraySlice(text.utf8)) ?? 0, tzid: tzid)
}

/// A UTC time from `YYYYMMDDTHHMMSSZ`.
func utc(_ text: String) -> ICalendarTime {
    .utc(epochSeconds: UTCTimestamp(basic: text)?.secondsSince1970 ?? 0)
}
