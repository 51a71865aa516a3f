#if canImport(Glibc)
    import Glibc
#endif

/// A time zone read from the system's tz database (`/usr/share/zoneinfo/Name`, TZif version 2
/// or later): what a `DUE;TZID=Europe/Berlin:...` wall-clock time is as an instant.
///
/// Only what a due date needs: the UTC offset at an instant and at a wall-clock time. The
/// transitions table answers for the years it covers; after its last transition the POSIX
/// `TZ` rule at the file's end does (for `Mm.w.d` rules, the form every zone uses today).
public struct ZoneInfo: Sendable {
    /// The folder of the tz database.
    static let folder = "/usr/share/zoneinfo/"

    private var transitions: [Int64] = []
    /// The offset (seconds east of UTC) in effect from each transition on.
    private var offsets: [Int] = []
    /// The offset before the first transition.
    private var initialOffset = 0
    private var rule: Rule?

    /// Loads the zone `name`, or `nil` when there is no such zone. Also finds names with a
    /// vendor prefix, as old Thunderbird wrote them: `/mozilla.org/20050126_1/Europe/Berlin`.
    public static func load(named name: String) -> ZoneInfo? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: true)
        // Never leave the database's folder.
        guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        for start in 0..<parts.count {
            if let bytes = read(folder + parts[start...].joined(separator: "/")), let zone = ZoneInfo(tzif: bytes) {
                return zone
            }
        }
        return nil
    }

    private static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { bytes.append(contentsOf: chunk[..<count]) } else if count == 0 || errno != EINTR { break }
        }
        return bytes
    }

    /// Parses TZif data (RFC 8536), using its 64-bit (version 2+) part; `nil` for anything else.
    init?(tzif bytes: [UInt8]) {
        func be(_ offset: Int, _ size: Int) -> Int64? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            var value: Int64 = 0
            for index in offset..<(offset + size) { value = value << 8 | Int64(bytes[index]) }
            // Sign-extend.
            let shift = Int64(64 - size * 8)
            return (value << shift) >> shift
        }
        func counts(at offset: Int) -> [Int]? {
            var result: [Int] = []
            for index in 0..<6 {
                guard let value = be(offset + 20 + index * 4, 4), value >= 0 else { return nil }
                result.append(Int(value))
            }
            return result
        }
        guard bytes.count > 44, bytes.starts(with: Array("TZif".utf8)), bytes[4] >= UInt8(ascii: "2"),
            let v1 = counts(at: 0)
        else { return nil }
        // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
        let v1Size = v1[3] * 5 + v1[4] * 6 + v1[5] + v1[2] * 8 + v1[1] + v1[0]
        let header = 44 + v1Size
        guard let c = counts(at: header) else { return nil }
        let (leaps, times, types, chars) = (c[2], c[3], c[4], c[5])
        guard types > 0 else { return nil }
        let timesStart = header + 44
        let indicesStart = timesStart + times * 8
        let typesStart = indicesStart + times
        var typeOffsets: [Int] = []
        var typeIsDST: [Bool] = []
        for index in 0..<types {
            guard let offset = be(typesStart + index * 6, 4), let isDST = be(typesStart + index * 6 + 4, 1) else {
                return nil
            }
            typeOffsets.append(Int(offset))
            typeIsDST.append(isDST != 0)
        }
        for index in 0..<times {
            guard let time = be(timesStart + index * 8, 8), let type = be(indicesStart + index, 1),
                Int(type) < types
            else { return nil }
            transitions.append(time)
            offsets.append(typeOffsets[Int(type)])
        }
        initialOffset = typeOffsets[typeIsDST.firstIndex(of: false) ?? 0]
        let footerStart = typesStart + types * 6 + chars + leaps * 12 + c[1] + c[0]
        if footerStart < bytes.count, bytes[footerStart] == 0x0A,
            let end = bytes[(footerStart + 1)...].firstIndex(of: 0x0A)
        {
            rule = Rule(String(decoding: bytes[(footerStart + 1)..<end], as: UTF8.self))
        }
    }

    /// The offset east of UTC, in seconds, at the instant `epochSeconds`.
    public func offset(atUTC epochSeconds: Int64) -> Int {
        if let last = transitions.last, epochSeconds >= last, let rule { return rule.offset(atUTC: epochSeconds) }
        if transitions.isEmpty, let rule { return rule.offset(atUTC: epochSeconds) }
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= epochSeconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    /// The instant of a wall-clock time in this zone (seconds on that wall clock since its
    /// 1970-01-01T00:00:00). In a gap or an overlap of a clock change, one of the two readings.
    public func utc(fromWall wall: Int64) -> Int64 {
        let guess = wall - Int64(offset(atUTC: wall))
        let offset = offset(atUTC: guess)
        let candidate = wall - Int64(offset)
        return offset == self.offset(atUTC: candidate) ? candidate : wall - Int64(self.offset(atUTC: candidate))
    }

    /// A POSIX `TZ` rule, `CET-1CEST,M3.5.0,M10.5.0/3`: standard and daylight offsets and when
    /// daylight time starts and ends each year.
    struct Rule: Sendable {
        var standard: Int
        var daylight: (offset: Int, start: Change, end: Change)?

        /// `Mm.w.d[/time]`: weekday d (0 is Sunday) of week w (5 is the last) of month m, at
        /// `time` seconds after local midnight.
        struct Change: Sendable {
            var month: Int, week: Int, weekday: Int, time: Int

            func date(in year: Int) -> CalendarDate? {
                guard let first = CalendarDate(year: year, month: month, day: 1) else { return nil }
                var day = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
                while day > CalendarDate.daysInMonth(month, of: year) { day -= 7 }
                return CalendarDate(year: year, month: month, day: day)
            }
        }

        init?(_ text: String) {
            var scanner = Substring(text)
            guard Self.skipName(&scanner), let standardWest = Self.time(&scanner) else { return nil }
            standard = -standardWest
            guard !scanner.isEmpty else { return }
            guard Self.skipName(&scanner) else { return nil }
            var daylightOffset = standard + 3600
            if let first = scanner.first, first != "," {
                guard let west = Self.time(&scanner) else { return nil }
                daylightOffset = -west
            }
            guard scanner.popFirst() == ",", let start = Self.change(&scanner), scanner.popFirst() == ",",
                let end = Self.change(&scanner)
            else { return nil }
            daylight = (daylightOffset, start, end)
        }

        func offset(atUTC epochSeconds: Int64) -> Int {
            guard let daylight else { return standard }
            let local = epochSeconds + Int64(standard)
            guard let year = CalendarDate(daysSinceEpoch: Int(clamping: UTCTimestamp.split(local).days))?.year,
                let startDate = daylight.start.date(in: year), let endDate = daylight.end.date(in: year)
            else { return standard }
            let start = Int64(startDate.daysSinceEpoch) * 86_400 + Int64(daylight.start.time - standard)
            let end = Int64(endDate.daysSinceEpoch) * 86_400 + Int64(daylight.end.time - daylight.offset)
            let inDaylight =
                start < end
                ? (start <= epochSeconds && epochSeconds < end) : !(end <= epochSeconds && epochSeconds < start)
            return inDaylight ? daylight.offset : standard
        }

        private static func skipName(_ scanner: inout Substring) -> Bool {
            if scanner.first == "<" {
                guard let close = scanner.firstIndex(of: ">") else { return false }
                scanner = scanner[scanner.index(after: close)...]
                return true
            }
            let name = scanner.prefix { $0.isLetter }
            scanner = scanner.dropFirst(name.count)
            return name.count >= 3
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        private static func time(_ scanner: inout Substring) -> Int? {
            var sign = 1
            if scanner.first == "-" || scanner.first == "+" { sign = scanner.removeFirst() == "-" ? -1 : 1 }
            var total = 0
            for unit in [3600, 60, 1] {
                let digits = scanner.prefix { $0.isASCII && $0.isNumber }
                guard let value = Int(digits) else { return unit == 3600 ? nil : sign * total }
                total += value * unit
                scanner = scanner.dropFirst(digits.count)
                guard unit != 1, scanner.first == ":" else { break }
                scanner.removeFirst()
            }
            return sign * total
        }

        private static func change(_ scanner: inout Substring) -> Change? {
            guard scanner.popFirst() == "M" else { return nil }
            var numbers: [Int] = []
            for index in 0..<3 {
                let digits = scanner.prefix { $0.isASCII && $0.isNumber }
                guard let value = Int(digits) else { return nil }
                numbers.append(value)
                scanner = scanner.dropFirst(digits.count)
                if index < 2 { guard scanner.popFirst() == "." else { return nil } }
            }
            var time = 7200
            if scanner.first == "/" {
                scanner.removeFirst()
                guard let value = Self.time(&scanner) else { return nil }
                time = value
            }
            guard (1...12).contains(numbers[0]), (1...5).contains(numbers[1]), (0...6).contains(numbers[2]) else {
                return nil
            }
            return Change(month: numbers[0], week: numbers[1], weekday: numbers[2], time: time)
        }
    }
}
