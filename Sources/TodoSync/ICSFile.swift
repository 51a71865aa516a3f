import TextSafety
import TodoInterop
import TodoStore

/// A whole `.ics` file of todos: what `todo export --format ics` writes and
/// `todo import --from ics` reads.
///
/// Reading follows the other importers' rules (TodoInterop's `TodoImporter`): pure, all or nothing, the
/// first bad VTODO stops it with an `ImportError` naming its line. Each VTODO of each
/// VCALENDAR is one todo, mapped as ``VTodoObject`` maps one; VEVENTs, VJOURNALs and the like
/// are ignored, and a VTODO with a RECURRENCE-ID (a changed occurrence of a repeating todo) is
/// the same todo as its master, so it is not another one: the master's repeat rule is the
/// todo's, its current occurrence folds those in, and those marked done (Thunderbird's, eM
/// Client's, jtx Board's way of completing one occurrence) or cancelled are its history. What
/// todos cannot keep is counted for the summary: categories that are no tag (one with a control
/// character or over 100 bytes; `Home Office` is a tag); alarms; a second repeat rule or an exception rule (EXRULE); extra and excluded dates
/// of a series (RDATE, EXDATE); occurrences changed in other ways.
public enum ICSFile {
    /// One todo of the file: its UID and fields, and for a repeating one the occurrences its
    /// RECURRENCE-ID components finished, oldest first.
    public struct Entry: Sendable, Equatable {
        public var uid: String
        public var fields: TodoFields
        public var history: [ImportedCompletion]
        /// The UID of the todo it is a subtask of (RELATED-TO), if any.
        public var parentUID: String?
        /// The UIDs of the todos it waits for (RELATED-TO;RELTYPE=DEPENDS-ON), in order.
        public var dependsOnUIDs: [String]

        public init(
            uid: String, fields: TodoFields, history: [ImportedCompletion] = [], parentUID: String? = nil,
            dependsOnUIDs: [String] = []
        ) {
            self.uid = uid
            self.fields = fields
            self.history = history
            self.parentUID = parentUID
            self.dependsOnUIDs = dependsOnUIDs
        }
    }

    /// A kind of thing the file held that a todo has no place for, and how many there were.
    public struct NotKept: Sendable, Equatable, CustomStringConvertible {
        /// `category`, `alarm`, `repeat rule`: singular.
        public let what: String
        public let count: Int

        /// `1 alarm`, `2 categories`.
        public var description: String {
            guard count != 1 else { return "\(count) \(what)" }
            return "\(count) " + (what.hasSuffix("y") ? what.dropLast() + "ies" : what + "s")
        }
    }

    /// One thing the file held that no todo keeps, and where: a line of `todo import --verbose`.
    public struct Dropped: Sendable, Equatable {
        /// What it is, singular, as ``NotKept/what`` says it: `alarm`, `URL property`.
        public var what: String
        /// The VTODO (its line, UID and SUMMARY) or the component it was in.
        public var source: ImportSource
    }

    /// What a file holds: its todos in file order, and counts of what they cannot keep.
    public struct Reading: Sendable, Equatable {
        public var entries: [Entry]
        /// Where each entry is in the file (its BEGIN:VTODO line, UID and name), by the same offsets.
        public var sources: [ImportSource] = []
        /// Each subtask's parent, by offset in ``entries``, where the file holds both (no loops).
        public var parents: [Int: Int] = [:]
        /// What each todo waits for, by offsets in ``entries``, where the file holds both (no
        /// cycles): `TodoInterop`'s `ImportReport/dependencies`.
        public var dependencies: [Int: [Int]] = [:]
        /// Each non-zero count, in a fixed order.
        public var notKept: [NotKept]
        /// Each thing counted in ``notKept``, with where it was, in file order.
        public var dropped: [Dropped] = []
    }

    /// The properties of a VTODO that the mapping reads (``VTodoObject``), or that only say
    /// which revision of an object this is (DTSTAMP, SEQUENCE, LAST-MODIFIED): every other is
    /// counted as not kept, by name.
    static let readProperties: Set<String> = [
        "UID", "SUMMARY", "DUE", "DTSTART", "PRIORITY", "CATEGORIES", "DESCRIPTION", "CREATED", "COMPLETED", "STATUS",
        "PERCENT-COMPLETE", "RRULE", "EXRULE", "RDATE", "EXDATE", "RELATED-TO", "RECURRENCE-ID",
        VTodoObject.repeatFromProperty, VTodoObject.projectProperty, "DTSTAMP", "SEQUENCE", "LAST-MODIFIED"
    ]

    /// The properties of a VCALENDAR that describe the file, not a todo.
    static let calendarProperties: Set<String> = ["VERSION", "PRODID", "CALSCALE", "METHOD"]

    /// Reads a whole file (a UTF-8 byte order mark is allowed).
    ///
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - timeZone: where DUE date-times become dates (see ``VTodoObject``).
    /// - Throws: `ImportError` for text that is not UTF-8 or not iCalendar, and for a VTODO
    ///   without a UID or without a name (a SUMMARY with something other than white space).
    public static func read(_ bytes: [UInt8], timeZone: LocalTimeZone = .system) throws(ImportError) -> Reading {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ImportError(.file, "not UTF-8 text")
        }
        // Another format given by mistake (JSON, todo.txt) is named as such, not by its first line.
        let start = text.unicodeScalars.drop { $0 == "\u{FEFF}" || $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard String(String.UnicodeScalarView(start.prefix(6))).uppercased() == "BEGIN:" else {
            throw ImportError(.file, "not an iCalendar file: it does not start with BEGIN:VCALENDAR")
        }
        let components: [ICalendarComponent]
        do {
            components = try ICalendar.parse(text)
        } catch {
            throw ImportError(error.line.map { .line($0) } ?? .file, error.reason)
        }
        guard components.contains(where: { $0.name == "VCALENDAR" || $0.name == "VTODO" }) else {
            throw ImportError(.file, "not an iCalendar file: no BEGIN:VCALENDAR")
        }
        timeZone.prepare()
        var entries: [Entry] = []
        var sources: [ImportSource] = []
        var counts: [String: Int] = [:]
        var dropped: [Dropped] = []
        var order = [
            "category", "alarm", "repeat rule", "exception rule", "extra date", "excluded date", "changed occurrence",
            "occurrence without its series", "start after the due date", "priority", "percent", "project"
        ]
        func drop(_ what: String, _ count: Int = 1, at source: ImportSource) {
            guard count > 0 else { return }
            if counts[what] == nil, !order.contains(what) { order.append(what) }
            counts[what, default: 0] += count
            for _ in 0..<count { dropped.append(Dropped(what: what, source: source)) }
        }
        // RELTYPE=CHILD links, by the subtask's UID: the subtask's own link, where it has one, wins.
        var childLinks: [String: String] = [:]
        for component in components {
            let todos = component.name == "VTODO" ? [component] : component.components(named: "VTODO")
            let timeZones = component.components(named: "VTIMEZONE")
            // What the calendar holds beside its todos: events, journal entries, a calendar's name.
            if component.name != "VTODO" {
                let here = ImportSource(location: component.line.map { .line($0) } ?? .file)
                for child in component.children {
                    switch child {
                    case .property(let property) where !calendarProperties.contains(property.name):
                        drop("\(property.name) property", at: here)
                    case .component(let other) where other.name != "VTODO" && other.name != "VTIMEZONE":
                        let at = ImportSource(location: other.line.map { .line($0) } ?? .file)
                        switch other.name {
                        case "VEVENT": drop("event", at: at)
                        case "VJOURNAL": drop("journal entry", at: at)
                        default: drop("\(other.name) component", at: at)
                        }
                    default: break
                    }
                }
            }
            let masters = Set(
                todos.filter { $0.property(named: "RECURRENCE-ID") == nil }.compactMap(VTodoObject.uid(of:)))
            for todo in todos where todo.property(named: "RECURRENCE-ID") != nil {
                // An occurrence whose series is not in the file has no todo to fold into.
                if let uid = VTodoObject.uid(of: todo), !masters.contains(uid) {
                    drop(
                        "occurrence without its series",
                        at: ImportSource(
                            location: todo.line.map { .line($0) } ?? .file, identity: uid,
                            name: todo.property(named: "SUMMARY")?.text))
                }
            }
            for todo in todos where todo.property(named: "RECURRENCE-ID") == nil {
                let location = todo.line.map { ImportError.Location.line($0) } ?? .file
                guard let uid = VTodoObject.uid(of: todo) else {
                    throw ImportError(location, "the VTODO has no UID")
                }
                var fields = VTodoObject.fields(of: todo, timeZone: timeZone)
                let overrides = todos.filter {
                    $0.property(named: "RECURRENCE-ID") != nil && VTodoObject.uid(of: $0) == uid
                }
                VTodoObject.foldRecurrence(
                    into: &fields, master: todo, overrides: overrides, timeZones: timeZones, timeZone: timeZone)
                guard Todo.isValidName(fields.name) else {
                    throw ImportError(
                        location, "the VTODO \(ICalendar.shown(uid)) has no name (its SUMMARY is missing or blank)")
                }
                let series = VTodoObject.finishedOccurrences(
                    master: todo, overrides: overrides, current: fields.deadline, timeZones: timeZones,
                    timeZone: timeZone)
                entries.append(
                    Entry(
                        uid: uid, fields: fields, history: series.history, parentUID: VTodoObject.parentUID(of: todo),
                        dependsOnUIDs: VTodoObject.dependsOnUIDs(of: todo)))
                let source = ImportSource(location: location, identity: uid, name: fields.name)
                sources.append(source)
                for child in VTodoObject.childUIDs(of: todo) where childLinks[child] == nil { childLinks[child] = uid }
                drop(
                    "category",
                    VTodoObject.categories(of: todo).filter {
                        VTodoObject.tag(fromCategory: $0) == nil
                    }.count, at: source)
                drop("alarm", todo.components(named: "VALARM").count, at: source)
                // The first rule is the todo's; more than one has no place, nor have the dates
                // added to or taken from the series.
                drop("repeat rule", max(0, todo.properties(named: "RRULE").count - 1), at: source)
                drop("exception rule", todo.properties(named: "EXRULE").count, at: source)
                drop("extra date", dateCount(todo, "RDATE"), at: source)
                drop("excluded date", dateCount(todo, "EXDATE"), at: source)
                drop("changed occurrence", series.changed, at: source)
                // Values the fields cannot hold: a start after the deadline's day (on that day it
                // is no separate start, and loses nothing), a priority or percent out of range.
                if fields.start == nil, let deadline = fields.deadline,
                    let day = VTodoObject.time(
                        of: todo.property(named: "DTSTART").flatMap(ICalendarTime.init), timeZone: timeZone)?.date,
                    day > deadline
                {
                    drop("start after the due date", at: source)
                }
                if let priority = todo.property(named: "PRIORITY"),
                    Int(ICalendar.trimmed(priority.value)).flatMap({
                        TodoPriority(rawValue: $0)
                    }) == nil
                {
                    drop("priority", at: source)
                }
                if todo.property(named: "PERCENT-COMPLETE") != nil, VTodoObject.percent(todo) == nil {
                    drop("percent", at: source)
                }
                if let project = todo.property(named: VTodoObject.projectProperty),
                    !ICalendar.trimmed(project.text).isEmpty, fields.project == nil
                {
                    drop("project", at: source)
                }
                // Every other property (LOCATION, URL, GEO, ATTACH, another app's X- ones) and
                // component, by name.
                for child in todo.children {
                    switch child {
                    case .property(let property) where !readProperties.contains(property.name):
                        drop("\(property.name) property", at: source)
                    case .component(let other) where other.name != "VALARM":
                        drop("\(other.name) component", at: source)
                    default: break
                    }
                }
            }
        }
        // Each subtask's parent, by offset; a link to a todo the file does not hold is kept on the
        // entry but places nothing, and one that would close a loop is cut (ImportReport's rule).
        var offsets: [String: Int] = [:]
        for (offset, entry) in entries.enumerated() where offsets[entry.uid] == nil { offsets[entry.uid] = offset }
        var links = ImportReport()
        links.sources = sources
        for (offset, entry) in entries.enumerated() {
            if let parent = (entry.parentUID ?? childLinks[entry.uid]).flatMap({ offsets[$0] }), parent != offset {
                links.parents[offset] = parent
            }
        }
        links.dropLoops()
        // What each todo waits for, by offset; a link to a todo the file does not hold places
        // nothing, and one that would close a cycle is cut (ImportReport's rule).
        for (offset, entry) in entries.enumerated() {
            var others: [Int] = []
            for uid in entry.dependsOnUIDs {
                if let other = offsets[uid], other != offset, !others.contains(other) { others.append(other) }
            }
            if !others.isEmpty { links.dependencies[offset] = others }
        }
        links.dropDependencyLoops()
        order += ["looping parent", "looping dependency"]
        for cut in links.dropped {
            drop(cut.what == .parentLoop ? "looping parent" : "looping dependency", at: cut.source)
        }
        return Reading(
            entries: entries, sources: sources, parents: links.parents, dependencies: links.dependencies,
            notKept: order.compactMap { what in
                counts[what].flatMap { $0 > 0 ? NotKept(what: what, count: $0) : nil }
            }, dropped: dropped)
    }

    /// How many dates the properties `name` (RDATE, EXDATE) of `todo` list.
    private static func dateCount(_ todo: ICalendarComponent, _ name: String) -> Int {
        todo.properties(named: name).reduce(0) { $0 + $1.value.split(separator: ",").count }
    }

    /// One VCALENDAR with one VTODO per entry, in order, each as ``VTodoObject/new(uid:fields:now:)``
    /// makes it; `now` (seconds since 1970) stamps them.
    ///
    /// An entry whose UID `objects` gives a text (its synced object's, with the changes made
    /// here: ``SyncState/outgoingTexts(of:uids:timeZone:now:)``) is written as that text instead,
    /// an iCalendar object of its own (RFC 5545 3.4 allows several in a stream), so that nothing
    /// another app wrote in it is lost; the entries around it go in VCALENDARs of their own, in
    /// order. Each control character of such a text (but tab and the line breaks) is written as
    /// U+FFFD, as in every line `todo` writes.
    public static func write(_ entries: [Entry], now: Int64, objects: [String: String] = [:]) -> String {
        guard !objects.isEmpty else { return calendar(entries[...], now: now) }
        var out = ""
        var start = entries.startIndex
        for (index, entry) in zip(entries.indices, entries) {
            guard let text = objects[entry.uid] else { continue }
            if start < index { out += calendar(entries[start..<index], now: now) }
            out += ControlCharacters.replaced(in: text) { $0 == "\t" || $0 == "\r" || $0 == "\n" }
            if out.utf8.last != UInt8(ascii: "\n") { out += "\r\n" }
            start = index + 1
        }
        if start < entries.endIndex || out.isEmpty { out += calendar(entries[start...], now: now) }
        return out
    }

    /// One VCALENDAR with a new VTODO for each of `entries`.
    private static func calendar(_ entries: ArraySlice<Entry>, now: Int64) -> String {
        var calendar = ICalendarComponent(
            name: "VCALENDAR",
            children: [
                .property(ICalendarProperty(name: "VERSION", value: "2.0")),
                .property(ICalendarProperty(name: "PRODID", value: VTodoObject.productID))
            ])
        calendar.children.reserveCapacity(entries.count + 2)
        for entry in entries {
            var todo = VTodoObject.newTodo(uid: entry.uid, fields: entry.fields, now: now)
            if let parent = entry.parentUID { todo.setProperty(VTodoObject.parentLink(parent)) }
            // After the other properties (a component, an alarm, comes after them all).
            let last = todo.children.lastIndex { if case .property = $0 { true } else { false } }
            todo.children.insert(
                contentsOf: entry.dependsOnUIDs.map { .property(VTodoObject.dependsOnLink($0)) },
                at: last.map { $0 + 1 } ?? 0)
            calendar.children.append(.component(todo))
        }
        return ICalendar.serialize([calendar])
    }
}
