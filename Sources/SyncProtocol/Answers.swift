import JSONCodec

/// The answer to `hello`: `{"version": 1, "capabilities": [...]}`.
///
/// Capabilities are strings, not ``Capability``: a companion may do more than this side knows
/// of, and saying so is no error. The version is what must match.
public struct HelloAnswer: ObjectMessage {
    public var version: Int
    public var capabilities: [String]

    public init(version: Int = ProtocolVersion.current, capabilities: [Capability]) {
        self.version = version
        self.capabilities = capabilities.map(\.rawValue)
    }

    public init(version: Int, capabilities: [String]) {
        self.version = version
        self.capabilities = capabilities
    }

    /// Only the version of a hello answer, so that a companion of another version is named as
    /// such even when the rest of its answer has another shape.
    public static func version(in json: JSONValue) throws(MessageDecodingError) -> Int {
        try Fields(json, path: "").integer("version")
    }

    public func supports(_ capability: Capability) -> Bool { capabilities.contains(capability.rawValue) }

    init(_ fields: Fields) throws(MessageDecodingError) {
        version = try fields.integer("version")
        capabilities = try fields.strings("capabilities")
    }

    var members: [(String, JSONValue)] {
        [("version", .number(Double(version))), ("capabilities", .strings(capabilities))]
    }
}

/// The answer to `open`: `{"ok": true}`.
public struct OKAnswer: ObjectMessage {
    public init() {}

    init(_ fields: Fields) throws(MessageDecodingError) {
        try fields.isTrue("ok")
    }

    var members: [(String, JSONValue)] { [("ok", true)] }
}

/// The answer to `probe`: whether the collection offers sync tokens (RFC 6578), and the
/// components it holds (every kind when the server names none).
public struct ProbeAnswer: ObjectMessage {
    public var syncToken: Bool
    public var components: [String]

    public init(syncToken: Bool, components: [String]) {
        self.syncToken = syncToken
        self.components = components
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        try fields.isTrue("ok")
        syncToken = try fields.bool("sync_token")
        components = try fields.strings("components")
    }

    var members: [(String, JSONValue)] {
        [("ok", true), ("sync_token", .bool(syncToken)), ("components", .strings(components))]
    }
}

/// An object listed by `changes`: `{"href", "etag"}`, the etag a string or null.
public struct ListedItem: ObjectMessage {
    public var href: String
    public var etag: String?

    public init(href: String, etag: String?) {
        self.href = href
        self.etag = etag
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        href = try fields.string("href")
        etag = try fields.nullableString("etag")
    }

    var members: [(String, JSONValue)] { [("href", .string(href)), ("etag", .optional(etag))] }
}

/// The answer to `changes`.
public enum ChangesAnswer: ProtocolMessage, ListedItems {
    /// What changed since the token given: `{"kind": "delta", "changed", "removed", "token"}`.
    case delta(changed: [ListedItem], removed: [String], token: String)
    /// Every object (no token given, or the server refused it):
    /// `{"kind": "everything", "items", "token"}`, the token null when the server has none, and
    /// `"truncated": true` when the server cut the listing short (507 on the collection itself,
    /// RFC 4791 7.8.1's limit on a calendar-query): then it is not every object, and an object
    /// left out of it may still be there. Absent (a companion from before it was said) is false.
    case everything(items: [ListedItem], token: String?, truncated: Bool = false)

    public enum Kind: String, CaseIterable, Sendable {
        case delta, everything
    }

    public init(json: JSONValue) throws(MessageDecodingError) {
        let fields = try Fields(json, path: "")
        switch try fields.oneOf("kind", Kind.self) {
        case .delta:
            self = .delta(
                changed: try fields.objects("changed", as: ListedItem.self),
                removed: try fields.strings("removed"), token: try fields.string("token"))
        case .everything:
            self = .everything(
                items: try fields.objects("items", as: ListedItem.self),
                token: try fields.nullableString("token"), truncated: try fields.optionalBool("truncated") ?? false)
        }
    }

    public func encode(into out: inout [UInt8]) {
        switch self {
        case .delta(_, _, let token): Self.encode(.delta, self, token: token) { out += $0 }
        case .everything(_, let token, let truncated):
            Self.encode(.everything, self, token: token, truncated: truncated) { out += $0 }
        }
    }

    public func forEachItem(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>?, Bool) -> Void) {
        switch self {
        case .delta(let changed, let removed, _):
            for item in changed { body(Array(item.href.utf8)[...], item.etag.map { Array($0.utf8)[...] }, false) }
            for href in removed { body(Array(href.utf8)[...], nil, true) }
        case .everything(let items, _, _):
            for item in items { body(Array(item.href.utf8)[...], item.etag.map { Array($0.utf8)[...] }, false) }
        }
    }

    /// The one encoder of a `changes` answer: its JSON text, without the newline, handed to
    /// `write` in pieces of about 64 KiB, written as `items` are walked. The companion lists a
    /// collection of any size this way without holding its answer whole, as values or as text;
    /// an answer value (``encode(into:)``) goes through the same code. A `delta` lists the items
    /// not removed as `changed`, the removed ones' hrefs as `removed`; `everything` lists the
    /// items not removed, and says `"truncated": true` when `truncated`.
    public static func encode(
        _ kind: Kind, _ items: some ListedItems, token: String?, truncated: Bool = false,
        to write: ([UInt8]) -> Void
    ) {
        var out: [UInt8] = []
        out.reserveCapacity(80 << 10)
        func flush(_ force: Bool = false) {
            if force || out.count >= 64 << 10 {
                write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        func string<C: Sequence>(_ bytes: C) where C.Element == UInt8 {
            JSONValue.encodeString(bytes, into: &out)
        }
        func listed() {
            out.append(UInt8(ascii: "["))
            var first = true
            items.forEachItem { href, etag, removed in
                guard !removed else { return }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out += #"{"href":"#.utf8
                string(href)
                out += #","etag":"#.utf8
                if let etag { string(etag) } else { out += "null".utf8 }
                out.append(UInt8(ascii: "}"))
                flush()
            }
            out.append(UInt8(ascii: "]"))
        }
        switch kind {
        case .delta:
            out += #"{"kind":"delta","changed":"#.utf8
            listed()
            out += #","removed":["#.utf8
            var first = true
            items.forEachItem { href, _, removed in
                guard removed else { return }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                string(href)
                flush()
            }
            out += #"],"token":"#.utf8
            string((token ?? "").utf8)
        case .everything:
            out += #"{"kind":"everything","items":"#.utf8
            listed()
            out += #","token":"#.utf8
            if let token { string(token.utf8) } else { out += "null".utf8 }
            if truncated { out += #","truncated":true"#.utf8 }
        }
        out.append(UInt8(ascii: "}"))
        flush(true)
    }
}

/// The items of a `changes` answer as a listing holds them, for
/// ``ChangesAnswer/encode(_:_:token:truncated:to:)``.
public protocol ListedItems {
    /// Calls `body` with each item, in order: its href and etag as UTF-8 (`nil`: no etag), and
    /// whether it was removed.
    func forEachItem(_ body: (_ href: ArraySlice<UInt8>, _ etag: ArraySlice<UInt8>?, _ removed: Bool) -> Void)
}

/// An object sent by `fetch`: `{"href", "etag", "text"}`, the etag a string or null.
public struct FetchedObject: ObjectMessage {
    public var href: String
    public var etag: String?
    public var text: String

    public init(href: String, etag: String?, text: String) {
        self.href = href
        self.etag = etag
        self.text = text
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        href = try fields.string("href")
        etag = try fields.nullableString("etag")
        text = try fields.string("text")
    }

    var members: [(String, JSONValue)] { [("href", .string(href)), ("etag", .optional(etag)), ("text", .string(text))] }
}

/// The answer to `fetch`: the objects sent, the hrefs the server said are gone, and the hrefs
/// read alone (by GET) because their object made a batch's XML unreadable. An href asked for
/// and in none of them was not delivered.
public struct FetchAnswer: ObjectMessage {
    public var objects: [FetchedObject]
    public var gone: [String]
    public var readAlone: [String]

    public init(objects: [FetchedObject] = [], gone: [String] = [], readAlone: [String] = []) {
        self.objects = objects
        self.gone = gone
        self.readAlone = readAlone
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        objects = try fields.objects("objects", as: FetchedObject.self)
        gone = try fields.strings("gone")
        readAlone = try fields.strings("read_alone")
    }

    var members: [(String, JSONValue)] {
        [("objects", .array(objects.map(\.json))), ("gone", .strings(gone)), ("read_alone", .strings(readAlone))]
    }
}

/// The answer to `write`: one outcome per write, in the writes' order.
public struct WriteAnswer: ObjectMessage {
    public var outcomes: [Outcome]

    public init(outcomes: [Outcome]) {
        self.outcomes = outcomes
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        outcomes = try fields.objects("outcomes", as: Outcome.self)
    }

    var members: [(String, JSONValue)] { [("outcomes", .array(outcomes.map(\.json)))] }

    /// What became of one write: `{"outcome": ...}`.
    public enum Outcome: ObjectMessage {
        /// Stored; the server's new etag, or `nil` when it gave none (or only a weak one).
        case written(etag: String?)
        case deleted
        /// The object was not at the etag given (HTTP 412, or gone when updated).
        case preconditionFailed
        /// The write failed; the writes before it keep their outcomes.
        case failed(ErrorObject)
        /// Not started, because an earlier write failed.
        case notSent

        public enum Kind: String, CaseIterable, Sendable {
            case written, deleted
            case preconditionFailed = "precondition_failed"
            case failed
            case notSent = "not_sent"
        }

        public var kind: Kind {
            switch self {
            case .written: .written
            case .deleted: .deleted
            case .preconditionFailed: .preconditionFailed
            case .failed: .failed
            case .notSent: .notSent
            }
        }

        init(_ fields: Fields) throws(MessageDecodingError) {
            switch try fields.oneOf("outcome", Kind.self) {
            case .written: self = .written(etag: try fields.nullableString("etag"))
            case .deleted: self = .deleted
            case .preconditionFailed: self = .preconditionFailed
            case .failed: self = .failed(try fields.object("error", as: ErrorObject.self))
            case .notSent: self = .notSent
            }
        }

        var members: [(String, JSONValue)] {
            var members: [(String, JSONValue)] = [("outcome", .string(kind.rawValue))]
            switch self {
            case .written(let etag): members.append(("etag", .optional(etag)))
            case .failed(let error): members.append(("error", error.json))
            case .deleted, .preconditionFailed, .notSent: break
            }
            return members
        }
    }
}

/// A calendar collection found by `discover`: `{"url", "name", "components"}`, the name (its
/// DAV:displayname) a string or null.
public struct DiscoveredCollection: ObjectMessage {
    public var url: String
    public var name: String?
    public var components: [String]

    public init(url: String, name: String?, components: [String]) {
        self.url = url
        self.name = name
        self.components = components
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        url = try fields.string("url")
        name = try fields.nullableString("name")
        components = try fields.strings("components")
    }

    var members: [(String, JSONValue)] {
        [("url", .string(url)), ("name", .optional(name)), ("components", .strings(components))]
    }
}

/// The answer to `discover`: `{"collections": [...]}`, and `"home"` when the URL led to the
/// account's calendar home (or is a calendar whose owner names one): the URL a sync lists
/// (``HomeAnswer``) to find the account's collections, new, renamed or gone.
public struct DiscoverAnswer: ObjectMessage {
    public var collections: [DiscoveredCollection]
    /// The calendar home, ending with `/`.
    public var home: String?

    public init(collections: [DiscoveredCollection], home: String? = nil) {
        self.collections = collections
        self.home = home
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        collections = try fields.objects("collections", as: DiscoveredCollection.self)
        home = try fields.optionalString("home")
    }

    var members: [(String, JSONValue)] {
        [("collections", .array(collections.map(\.json)))] + (home.map { [("home", .string($0))] } ?? [])
    }
}

/// A calendar collection as the server holds it, read by a Depth-0 PROPFIND after a change:
/// `{"url", "calendar", "todos", "components", "name", "color"}`, the name and colour strings or
/// null.
public struct CollectionState: ObjectMessage {
    /// The collection's URL, its path ending with `/`.
    public var url: String
    /// Whether its DAV:resourcetype names a CalDAV calendar.
    public var calendar: Bool
    /// Whether it accepts VTODOs: a calendar whose component set names VTODO, or names none.
    public var todos: Bool
    /// The components its CALDAV:supported-calendar-component-set names, upper case; every kind
    /// when it names none (as ``DiscoveredCollection`` says it). Xandikos names every kind
    /// whatever it was asked to make: its calendars hold every component.
    public var components: [String]
    /// Its DAV:displayname, as the server holds it; `nil`: none.
    public var name: String?
    /// Its calendar-color as ``CalendarColor`` reads it (`#RRGGBB`); `nil`: none, or a value
    /// that is no colour.
    public var color: String?

    public init(url: String, calendar: Bool, todos: Bool, components: [String], name: String?, color: String?) {
        self.url = url
        self.calendar = calendar
        self.todos = todos
        self.components = components
        self.name = name
        self.color = color
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        url = try fields.string("url")
        calendar = try fields.bool("calendar")
        todos = try fields.bool("todos")
        components = try fields.strings("components")
        name = try fields.nullableString("name")
        color = try fields.nullableString("color")
    }

    var members: [(String, JSONValue)] {
        [
            ("url", .string(url)), ("calendar", .bool(calendar)), ("todos", .bool(todos)),
            ("components", .strings(components)), ("name", .optional(name)), ("color", .optional(color))
        ]
    }
}

/// A property of a collection that `make_collection` and `set_collection` set.
public enum CollectionProperty: String, CaseIterable, Sendable {
    /// DAV:displayname.
    case name
    /// Apple's calendar-color.
    case color
    /// CALDAV:supported-calendar-component-set (VTODO alone), at creation only.
    case components
}

/// What became of one property asked for: `{"property", "set", "status"}`, the status an integer
/// or null.
///
/// `set` is what the server said: a 2xx propstat for it; with no statement about it (a 201 or
/// 200 without a body, or one that could not be read), whether the collection read back holds
/// the value asked. `status` is its propstat's status, when the server gave one. What the
/// collection holds in the end is ``CollectionAnswer/collection``'s.
public struct PropertyOutcome: ObjectMessage {
    /// The property asked for.
    public var property: CollectionProperty
    /// Whether the server set it (see the type's notes).
    public var set: Bool
    /// The HTTP status of its propstat; `nil` when the server gave none for it.
    public var status: Int?

    public init(property: CollectionProperty, set: Bool, status: Int?) {
        self.property = property
        self.set = set
        self.status = status
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        property = try fields.oneOf("property", CollectionProperty.self)
        set = try fields.bool("set")
        status = try fields.nullableInteger("status")
    }

    var members: [(String, JSONValue)] {
        [
            ("property", .string(property.rawValue)), ("set", .bool(set)),
            ("status", status.map { .number(Double($0)) } ?? .null)
        ]
    }
}

/// The answer to `make_collection` and `set_collection`: `{"collection": {...}, "properties":
/// [...]}`, the collection as the server holds it once the requests are done, and one outcome per
/// property asked for, in the order name, color, components (a `set_collection` without any:
/// none).
public struct CollectionAnswer: ObjectMessage {
    /// The collection as the server holds it once the requests are done.
    public var collection: CollectionState
    /// One outcome per property asked for.
    public var properties: [PropertyOutcome]

    public init(collection: CollectionState, properties: [PropertyOutcome]) {
        self.collection = collection
        self.properties = properties
    }

    /// The outcome for `property`, if it was asked for.
    public func outcome(_ property: CollectionProperty) -> PropertyOutcome? {
        properties.first { $0.property == property }
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        collection = try fields.object("collection", as: CollectionState.self)
        properties = try fields.objects("properties", as: PropertyOutcome.self)
    }

    var members: [(String, JSONValue)] {
        [("collection", collection.json), ("properties", .array(properties.map(\.json)))]
    }
}

/// The answer to `delete_collection`: `{"outcome": "deleted"}`, or `{"outcome": "absent"}` when
/// nothing was there (a 404 or 410, to the PROPFIND before or to the DELETE): done either way.
public struct DeleteCollectionAnswer: ObjectMessage {
    /// What became of the collection.
    public enum Outcome: String, CaseIterable, Sendable {
        /// The server deleted it.
        case deleted
        /// Nothing was there.
        case absent
    }

    /// What became of the collection.
    public var outcome: Outcome

    public init(_ outcome: Outcome) {
        self.outcome = outcome
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        outcome = try fields.oneOf("outcome", Outcome.self)
    }

    var members: [(String, JSONValue)] { [("outcome", .string(outcome.rawValue))] }
}
