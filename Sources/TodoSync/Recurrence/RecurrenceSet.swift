import TodoStore

/// A recurrence set (RFC 5545 3.8.5): an anchor (DTSTART, else DUE, as Thunderbird and Tasks.org
/// anchor a todo), its RRULEs, RDATEs and EXDATEs, expanded on the anchor's own clock
/// (`RecurrenceFrame`): a DATE in days, a TZID value on that zone's wall clock, UTC in UTC,
/// floating as written. Pure: no database, no clock of its own, no network.
///
/// The set is the anchor, every occurrence its rules make after it (`RuleIterator`), and
/// every RDATE (before the anchor too), less every EXDATE. An RDATE, EXDATE or RECURRENCE-ID of
/// the other value type is read leniently: a DATE beside a date-time anchor stands for the anchor's
/// time of day on that date (an EXDATE DATE removes every occurrence on that date), a date-time
/// beside a DATE anchor for its date; a UTC or other zone's time is moved to the anchor's clock.
///
/// Every answer is bounded (`RuleIterator.maxSteps` steps per rule, nothing past year 9999):
/// a rule that makes nothing there (`FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30`) or too much
/// (`FREQ=SECONDLY;COUNT=1000000000`) answers ``Lookup/beyondBound`` quickly, never loops.
public struct RecurrenceSet: Sendable {
    /// An answer about the occurrences after a point.
    public enum Lookup: Sendable, Equatable {
        /// The occurrence, in the anchor's form (its TZID or VALUE=DATE kept).
        case occurrence(ICalendarTime)
        /// The set has none (COUNT used up, UNTIL passed, RDATEs used up).
        case end
        /// None within the bound: the set may go on, but not within what is expanded here.
        case beyondBound
        /// The set's rules cannot be expanded here (``isExpandable``).
        case notExpandable
    }

    /// The first occurrences from a point, and why the list stops.
    public struct Listing: Sendable, Equatable {
        public var occurrences: [ICalendarTime]
        /// ``Lookup/end``, ``Lookup/beyondBound`` or ``Lookup/notExpandable`` when the list is
        /// all there is to know; ``Lookup/occurrence(_:)`` with the next one when it stopped at
        /// its limit.
        public var then: Lookup
    }

    public let anchor: ICalendarTime
    public let rules: [RecurrenceRule]
    public let additions: [ICalendarTime]
    public let exclusions: [ICalendarTime]
    let frame: RecurrenceFrame
    /// The RDATEs on the frame's clock, in order, once each.
    private let additionSeconds: [Int64]
    private let excludedSeconds: Set<Int64>
    /// The days a DATE EXDATE beside a date-time anchor removes whole.
    private let excludedDays: Set<Int64>

    /// A set of `anchor`, `rules`, RDATE values `additions` and EXDATE values `exclusions`, whose
    /// TZIDs `zones` resolves.
    public init(
        anchor: ICalendarTime, rules: [RecurrenceRule], additions: [ICalendarTime] = [],
        exclusions: [ICalendarTime] = [], zones: RecurrenceZones = RecurrenceZones()
    ) {
        self.anchor = anchor
        self.rules = rules
        self.additions = additions
        self.exclusions = exclusions
        let frame = RecurrenceFrame(anchor: anchor, zones: zones)
        self.frame = frame
        additionSeconds = Array(Set(additions.map { frame.seconds(of: $0, dateAtAnchorTime: true) })).sorted()
        var seconds: Set<Int64> = []
        var days: Set<Int64> = []
        for exclusion in exclusions {
            if case .date(let date) = exclusion, !frame.isWholeDays {
                days.insert(Int64(date.daysSinceEpoch))
            } else {
                seconds.insert(frame.seconds(of: exclusion, dateAtAnchorTime: true))
            }
        }
        excludedSeconds = seconds
        excludedDays = days
    }

    /// The set of a master VTODO: anchored on ``anchorName(of:)``; its RRULEs, RDATEs and EXDATEs
    /// (each property's comma-separated values; a PERIOD RDATE by its start); TZIDs from the
    /// system's tz database, else `timeZones` (the VCALENDAR's VTIMEZONEs) when one has a single
    /// offset. `nil` when the VTODO has neither DTSTART nor DUE as a date or date-time.
    ///
    /// - Throws: the ``RecurrenceRuleError`` of the first RRULE that is not a valid rule.
    public init?(master: ICalendarComponent, timeZones: [ICalendarComponent] = []) throws(RecurrenceRuleError) {
        guard let anchor = master.property(named: Self.anchorName(of: master)).flatMap(ICalendarTime.init) else {
            return nil
        }
        var rules: [RecurrenceRule] = []
        for property in master.properties(named: "RRULE") {
            rules.append(try RecurrenceRule(parsing: property.value))
        }
        self.init(
            anchor: anchor, rules: rules, additions: Self.values(master.properties(named: "RDATE")),
            exclusions: Self.values(master.properties(named: "EXDATE")), zones: RecurrenceZones(timeZones: timeZones))
    }

    /// The property a master's series is counted from: DTSTART, as RFC 5545 says, else DUE; but
    /// DUE when DTSTART is a day off the rule while DUE is on it: Tasks.org counts a series from
    /// DUE and writes its "hide until" as DTSTART (`DTSTART` on a Wednesday beside
    /// `RRULE:FREQ=WEEKLY;BYDAY=FR` and a Friday DUE), and counting from that DTSTART would put
    /// the next due date on a Sunday.
    public static func anchorName(of master: ICalendarComponent) -> String {
        guard let start = master.property(named: "DTSTART").flatMap(ICalendarTime.init) else { return "DUE" }
        guard let due = master.property(named: "DUE").flatMap(ICalendarTime.init),
            let rule = master.property(named: "RRULE").flatMap({ try? RecurrenceRule(parsing: $0.value) }),
            let startDay = Self.wallDate(start), let dueDay = Self.wallDate(due),
            startDay < dueDay
        else { return "DTSTART" }
        return anchorsOnDue(start: startDay, due: dueDay, rule: rule) ? "DUE" : "DTSTART"
    }

    /// The date on a value's own clock (a UTC one's in UTC: only compared with its own kind).
    private static func wallDate(_ time: ICalendarTime) -> CalendarDate? {
        CalendarDate(daysSinceEpoch: Int(clamping: RecurrenceFrame.day(time.seconds)))
    }

    /// Whether a series with a start on `start` and due on `due` counts from its due date: the
    /// start is off `rule` and the due date on it (``anchorName(of:)``).
    public static func anchorsOnDue(start: CalendarDate, due: CalendarDate, rule: RecurrenceRule) -> Bool {
        !rule.admits(start) && rule.admits(due)
    }

    /// The DATE and DATE-TIME values of RDATE or EXDATE properties, in order; a PERIOD by its
    /// start, values that are neither left out.
    static func values(_ properties: [ICalendarProperty]) -> [ICalendarTime] {
        properties.flatMap { property in
            property.value.split(separator: ",").compactMap { item in
                let start = item.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
                return ICalendarTime(
                    ICalendarProperty(name: property.name, parameters: property.parameters, value: start))
            }
        }
    }

    /// Whether the set can be expanded: every rule can (``RecurrenceRule/isExpandable``), and a
    /// DATE anchor has rules of whole days only (no FREQ shorter than DAILY, no BYHOUR, BYMINUTE
    /// or BYSECOND: a date has no time).
    public var isExpandable: Bool {
        rules.allSatisfy { rule in
            rule.isExpandable
                && (!frame.isWholeDays
                    || rule.frequency >= .daily && rule.byHour.isEmpty && rule.byMinute.isEmpty
                        && rule.bySecond.isEmpty)
        }
    }

    /// Whether `todo` may complete an occurrence of this set: it can be expanded, and every rule
    /// is one the engine completes (``RecurrenceRule/isCompletable``).
    public var isCompletable: Bool { isExpandable && rules.allSatisfy(\.isCompletable) }

    // MARK: Occurrences

    /// The first occurrence strictly after `point` (on a DATE anchor's clock: on a later date).
    public func first(after point: ICalendarTime) -> Lookup {
        lookup(from: start(after: point))
    }

    /// The first occurrence at or after `point` (on a DATE anchor's clock: on that date or later).
    public func first(onOrAfter point: ICalendarTime) -> Lookup {
        lookup(from: start(onOrAfter: point))
    }

    /// At most `limit` occurrences in order, from `point` on (inclusive; from the first
    /// occurrence, RDATEs before the anchor included, when `nil`).
    public func occurrences(onOrAfter point: ICalendarTime? = nil, limit: Int) -> Listing {
        guard isExpandable else { return Listing(occurrences: [], then: .notExpandable) }
        var cursor = Cursor(self, from: point.map(start(onOrAfter:)) ?? Int64.min)
        var found: [ICalendarTime] = []
        while true {
            let item = cursor.next()
            guard case .occurrence(let seconds) = item, let time = frame.time(at: seconds) else {
                return Listing(occurrences: found, then: item == .end ? .end : .beyondBound)
            }
            guard found.count < limit else { return Listing(occurrences: found, then: .occurrence(time)) }
            found.append(time)
        }
    }

    /// Whether `time` is an occurrence: `nil` when that is not known (beyond the bound, or the
    /// set cannot be expanded).
    public func contains(_ time: ICalendarTime) -> Bool? {
        let seconds = frame.seconds(of: time, dateAtAnchorTime: true)
        switch lookup(from: seconds) {
        case .occurrence(let found): return frame.seconds(of: found) == seconds
        case .end: return false
        case .beyondBound, .notExpandable: return nil
        }
    }

    /// How many occurrences each rule makes in `[lower, upper)`, excluded ones included and the
    /// anchor counted as the rule's first, as COUNT counts them (RFC 5545 3.3.10): what
    /// advancing the anchor from `lower` to `upper` takes off each rule's COUNT. In the order of
    /// ``rules``; `nil` when not known within the bound.
    public func generatedCounts(from lower: ICalendarTime, to upper: ICalendarTime) -> [Int]? {
        guard isExpandable else { return nil }
        let low = start(onOrAfter: lower)
        let high = start(onOrAfter: upper)
        var counts: [Int] = []
        for rule in rules {
            var iterator = ruleIterator(rule, from: low)
            var count = 0
            while true {
                let item = iterator.next()
                guard case .occurrence(let seconds) = item else {
                    if item == .bound { return nil }
                    break
                }
                if seconds >= high { break }
                count += 1
            }
            counts.append(count)
        }
        return counts
    }

    /// The occurrence a RECURRENCE-ID names, or `nil` when it names none. Lenient, as other apps
    /// write it: one of the other value type matches by date (a DATE under a date-time anchor
    /// names the first occurrence on that date), a floating one beside a TZID anchor by its wall
    /// time, a UTC one beside a TZID anchor by its instant.
    public func occurrence(identifiedBy recurrenceID: ICalendarTime) -> ICalendarTime? {
        let isDateOnly: Bool =
            if case .date = recurrenceID { !frame.isWholeDays } else { false }
        guard isDateOnly else {
            guard contains(recurrenceID) == true else { return nil }
            return frame.time(at: frame.seconds(of: recurrenceID, dateAtAnchorTime: true))
        }
        let day = RecurrenceFrame.day(frame.seconds(of: recurrenceID))
        guard case .occurrence(let found) = first(onOrAfter: recurrenceID),
            RecurrenceFrame.day(frame.seconds(of: found)) == day
        else { return nil }
        return found
    }

    /// The key of an occurrence (RECURRENCE.md §5.1), which a completion log and RECURRENCE-ID
    /// overrides are matched by.
    public func key(of time: ICalendarTime) -> OccurrenceKey { OccurrenceKey(time, zone: frame.zone(named:)) }

    // MARK: Expanding

    /// Where "on or after `point`" starts on the frame's clock.
    private func start(onOrAfter point: ICalendarTime) -> Int64 {
        frame.seconds(of: point)
    }

    /// Where "after `point`" starts: the next second, or on a DATE clock the next day.
    private func start(after point: ICalendarTime) -> Int64 {
        let seconds = frame.seconds(of: point)
        return frame.isWholeDays ? seconds + 86_400 : seconds + 1
    }

    private func lookup(from seconds: Int64) -> Lookup {
        guard isExpandable else { return .notExpandable }
        var cursor = Cursor(self, from: seconds)
        switch cursor.next() {
        case .occurrence(let found): return frame.time(at: found).map(Lookup.occurrence) ?? .beyondBound
        case .end: return .end
        case .bound: return .beyondBound
        }
    }

    fileprivate func ruleIterator(_ rule: RecurrenceRule, from seconds: Int64) -> RuleIterator {
        let frame = self.frame
        let isBeyond: (Int64) -> Bool = rule.until.map { until in { frame.isBeyond(until, $0) } } ?? { _ in false }
        return RuleIterator(rule: rule, anchor: frame.anchorSeconds, from: seconds, isBeyondUntil: isBeyond)
    }

    fileprivate func isExcluded(_ seconds: Int64) -> Bool {
        excludedSeconds.contains(seconds) || excludedDays.contains(RecurrenceFrame.day(seconds))
    }

    /// The set's occurrences in order from a point: the rules' streams and the RDATEs merged,
    /// each time once, the excluded ones left out. The anchor is the set's first occurrence even
    /// without a rule.
    private struct Cursor {
        private let set: RecurrenceSet
        private var streams: [RuleIterator]
        private var heads: [RuleIterator.Item?]
        private var additions: [Int64]
        private var nextAddition: Int

        init(_ set: RecurrenceSet, from seconds: Int64) {
            self.set = set
            streams = set.rules.map { set.ruleIterator($0, from: max(seconds, set.frame.anchorSeconds)) }
            heads = Array(repeating: nil, count: streams.count)
            var additions = set.additionSeconds
            if set.rules.isEmpty { additions = Array(Set(additions + [set.frame.anchorSeconds])).sorted() }
            self.additions = additions
            var low = 0
            var high = additions.count
            while low < high {
                let middle = (low + high) / 2
                if additions[middle] < seconds { low = middle + 1 } else { high = middle }
            }
            nextAddition = low
        }

        mutating func next() -> RuleIterator.Item {
            while true {
                var earliest: Int64?
                for index in streams.indices {
                    if heads[index] == nil { heads[index] = streams[index].next() }
                    switch heads[index] {
                    case .occurrence(let seconds)?: earliest = min(earliest ?? seconds, seconds)
                    // A rule stopped at the bound may still have made something earlier than
                    // what the others have: nothing after it is known.
                    case .bound?: return .bound
                    default: break
                    }
                }
                if nextAddition < additions.count {
                    earliest = min(earliest ?? additions[nextAddition], additions[nextAddition])
                }
                guard let earliest else { return .end }
                for index in streams.indices where heads[index] == .occurrence(earliest) { heads[index] = nil }
                if nextAddition < additions.count, additions[nextAddition] == earliest { nextAddition += 1 }
                if !set.isExcluded(earliest) { return .occurrence(earliest) }
            }
        }
    }
}

/// The key of an occurrence (RECURRENCE.md §5.1): `YYYYMMDD` for a DATE; the UTC instant,
/// `YYYYMMDDTHHMMSSZ`, for a UTC value and for a TZID value whose zone is known (so a
/// RECURRENCE-ID written in UTC matches one written in the zone); the wall time as written,
/// `YYYYMMDDTHHMMSS`, for a floating value and a TZID no zone is known for. A wall time a
/// clock change skips or repeats is the instant RFC 5545 3.3.5 reads it as
/// (``WallClockZone/instant(ofWall:)``).
public struct OccurrenceKey: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    /// The key of `time`, whose TZID `zones` resolves.
    public init(_ time: ICalendarTime, zones: RecurrenceZones) {
        self.init(time, zone: zones.zone)
    }

    init(_ time: ICalendarTime, zone: (String) -> WallClockZone?) {
        switch time {
        case .date(let date): text = BasicTime.write(date)
        case .utc(let seconds): text = BasicTime.writeClamped(seconds) + "Z"
        case .local(let wall, let tzid):
            if let zone = tzid.flatMap(zone) {
                text = BasicTime.writeClamped(zone.instant(ofWall: wall)) + "Z"
            } else {
                text = BasicTime.writeClamped(wall)
            }
        }
    }

    public var description: String { text }
}
