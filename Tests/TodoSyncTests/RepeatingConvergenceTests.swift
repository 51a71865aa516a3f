import Foundation
import SyncProtocol
import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// Issue 34's property: random completions, skips, renames and syncs of one repeating todo on
/// three devices converge. Two are `todo` (each advances the object while it has no
/// RECURRENCE-ID components, and adds one per occurrence once it has), the third writes
/// overrides by hand as Thunderbird does. Whatever the order, once everyone has synced: the
/// devices agree with each other and with the server's object, the current occurrence is one
/// nobody finished, every occurrence before it was finished by someone, and what is recorded
/// as done (the logs here, the overrides there) is exactly what was done.
@Suite(.timed) struct RepeatingConvergenceTests {
    static let start = CalendarDate(year: 2026, month: 12, day: 1)!
    static let rules = ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=DAILY;INTERVAL=3"]

    /// What was finished, by occurrence: the model the system is checked against.
    struct Finished {
        var done: Set<CalendarDate> = []
        var skipped: Set<CalendarDate> = []
    }

    @Test(arguments: 0..<12)
    func threeDevicesFinishingOneSeriesConverge(round: Int) throws {
        let seed = TestSeed.make("RepeatingConvergenceTests \(round)")
        var random = SeededGenerator(seed: seed)
        let context = Comment(rawValue: "seed \(seed) (TODO_TEST_SEED=\(seed) replays it)")
        let folder = TemporaryFolder()
        let server = InMemoryCollection(offersTokens: Bool.random(using: &random))
        let laptop = try Device(folder, "laptop", server)
        let desktop = try Device(folder, "desktop", server)
        let rule = try #require(Self.rules.randomElement(using: &random))
        try laptop.repository.add(
            TodoFields(name: "Water plants", deadline: Self.start, repeatRule: rule))
        try laptop.sync()
        try desktop.sync()
        var finished = Finished()
        var trace: [String] = []

        for step in 0..<40 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...2:
                let onLaptop = Bool.random(using: &random)
                let device = onLaptop ? laptop : desktop
                let skip = Int.random(in: 0..<4, using: &random) == 0
                let id = try device.onlyID()
                guard
                    let (outcome, _) = try device.repository.finishOccurrence(
                        of: id, skip ? .skip : .done, today: Self.start,
                        now: UTCTimestamp(secondsSince1970: 1_700_000_000))
                else { continue }
                if case .next(_, let occurrence?) = outcome {
                    if skip { finished.skipped.insert(occurrence) } else { finished.done.insert(occurrence) }
                    trace.append("\(step) \(onLaptop ? "laptop" : "desktop") \(skip ? "skip" : "done") \(occurrence)")
                }
            case 3:
                if let occurrence = try Self.thunderbirdCompletes(on: server, at: step) {
                    finished.done.insert(occurrence)
                    trace.append("\(step) thunderbird done \(occurrence)")
                }
            case 4:
                let device = Bool.random(using: &random) ? laptop : desktop
                let id = try device.onlyID()
                var fields = try #require(try device.repository.todo(id: id)).fields
                fields.name = "Water plants \(step)"
                try device.repository.replaceFields(id: id, with: fields)
                trace.append("\(step) rename")
            default:
                let onLaptop = Bool.random(using: &random)
                try (onLaptop ? laptop : desktop).sync()
                trace.append("\(step) sync \(onLaptop ? "laptop" : "desktop")")
            }
        }
        for device in [laptop, desktop, laptop, desktop] { try device.sync() }

        let comment = Comment(rawValue: context.rawValue + "\n" + rule + "\n" + trace.joined(separator: "\n"))
        let mine = try laptop.list()
        #expect(mine == (try desktop.list()), comment)
        let object = try #require(try Self.object(on: server), comment)
        let current = try #require(mine.first, comment)
        #expect(object.fields.deadline == current.deadline && object.fields.name == current.name, comment)
        #expect(!current.isDone && !object.fields.isDone, "the series goes on: \(comment)")

        // The current occurrence is open, and every occurrence before it was finished.
        let deadline = try #require(current.deadline, comment)
        #expect(!finished.done.contains(deadline) && !finished.skipped.contains(deadline), comment)
        let set = RecurrenceSet(anchor: .date(Self.start), rules: [try RecurrenceRule(parsing: rule)])
        let passed = set.occurrences(limit: 200).occurrences.compactMap { time -> CalendarDate? in
            guard case .date(let date) = time, date < deadline else { return nil }
            return date
        }
        #expect(Set(passed) == finished.done.union(finished.skipped), comment)

        // Recorded as done, here and there, is what was done: nothing marked that was not. An
        // occurrence another device moved past is logged as passed elsewhere (`advance`: the
        // object does not say whether it was done or skipped), and only one that was.
        var recorded = Self.completedOverrides(of: object)
        var passedElsewhere: Set<CalendarDate> = []
        for device in [laptop, desktop] {
            let id = try device.onlyID()
            for completion in try device.repository.completions(ofTodo: id) {
                switch completion.source {
                case .here, .series, .override: recorded.insert(completion.occurrence)
                case .advance: passedElsewhere.insert(completion.occurrence)
                case .skip: break
                }
            }
        }
        #expect(recorded == finished.done, comment)
        #expect(passedElsewhere.isSubset(of: finished.done.union(finished.skipped)), comment)
        #expect(Self.cancelledOverrides(of: object).isSubset(of: finished.skipped), comment)
    }

    /// Thunderbird completes the occurrence it shows (the first open one) by adding a
    /// RECURRENCE-ID component marked COMPLETED, and leaves the master as it was.
    static func thunderbirdCompletes(on server: InMemoryCollection, at step: Int) throws -> CalendarDate? {
        guard let (href, stored) = server.objects.first(where: { $0.value.text.contains("BEGIN:VTODO") }) else {
            return nil
        }
        let object = try VTodoObject(parsing: stored.text, timeZone: .offset(seconds: 0))
        guard !object.fields.isDone, let occurrence = object.fields.deadline else { return nil }
        let day = ICalendarTime.dateValue(occurrence)
        let override = [
            "BEGIN:VTODO", "UID:\(object.uid)", "DTSTAMP:20261201T12\(String(format: "%02d", step % 60))00Z",
            "RECURRENCE-ID;VALUE=DATE:\(day)", "SUMMARY:\(object.fields.name)", "DTSTART;VALUE=DATE:\(day)",
            "DUE;VALUE=DATE:\(day)", "STATUS:COMPLETED", "COMPLETED:20261201T120000Z", "PERCENT-COMPLETE:100",
            "END:VTODO"
        ].joined(separator: "\r\n")
        guard let end = stored.text.range(of: "END:VCALENDAR", options: .backwards) else { return nil }
        server.put(href, stored.text.replacingCharacters(in: end, with: override + "\r\nEND:VCALENDAR"))
        return occurrence
    }

    static func object(on server: InMemoryCollection) throws -> VTodoObject? {
        guard let stored = server.objects.values.first(where: { $0.text.contains("BEGIN:VTODO") }) else { return nil }
        return try VTodoObject(parsing: stored.text, timeZone: .offset(seconds: 0))
    }

    static func completedOverrides(of object: VTodoObject) -> Set<CalendarDate> {
        overrides(of: object, status: "COMPLETED")
    }

    static func cancelledOverrides(of object: VTodoObject) -> Set<CalendarDate> {
        overrides(of: object, status: "CANCELLED")
    }

    static func overrides(of object: VTodoObject, status: String) -> Set<CalendarDate> {
        Set(
            object.overrides.compactMap { override -> CalendarDate? in
                guard override.property(named: "STATUS")?.value == status,
                    case .date(let date)? = override.property(named: "RECURRENCE-ID").flatMap(ICalendarTime.init)
                else { return nil }
                return date
            })
    }
}

extension Device {
    /// The id of this device's one todo.
    func onlyID() throws -> Int64 {
        let todos = try repository.fetch()
        guard todos.count == 1, let todo = todos.first else { throw UnexpectedOutput("\(todos.count) todos") }
        return todo.id
    }
}
