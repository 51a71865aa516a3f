import JSONCodec

// The protocol between `todo sync` and its companion `todo-sync`: one JSON request per line on
// the companion's stdin, exactly one JSON answer per line on its stdout.
//
//   hello                                          → {"version":1,"capabilities":[…]}
//   open {url, user?, password_command?, ca_file?, timeout?}
//                                                  → {"ok":true}
//   probe                                          → {"ok":true,"sync_token":Bool,"components":[…]}
//   changes {token?}                               → {"kind":"delta",changed,removed,token}
//                                                   | {"kind":"everything",items,token[,"truncated":true]}
//   fetch {hrefs}                                  → {"objects":[{href,etag,text}],"gone":[…],"read_alone":[…]}
//   write {writes:[{method,href,text?,etag?}]}     → {"outcomes":[{"outcome":…}]}
//   discover                                       → {"collections":[{url,name,components}][,"home"]}
//   home                                           → {"collections":[{url,name,color,components,sync_token,ctag}]}
//   make_collection {home, segment, name, color?}  → {"collection":{url,calendar,todos,components,name,color},
//                                                     "properties":[{"property","set","status"}]}
//   set_collection {url, name?, color?}            → the same shape
//   delete_collection {url}                        → {"outcome":"deleted"|"absent"}
//
// and any of them, on failure: {"error":{"kind","message","status"[,"location"]}}.
// Every request carries its name as "op". The last three (capability `collections`) take their
// own URL, which must be at the origin `open` named (credentials go nowhere else):
// - make_collection: MKCALENDAR <home><segment>/ (RFC 4791 5.3.1) with the display name, a
//   component set of VTODO alone and Apple's calendar-color; on 405 or 501 an extended MKCOL
//   (RFC 5689); a colour the server refuses at creation is set by PROPPATCH after; then a
//   Depth-0 PROPFIND says what the server really made. Something already there: error "taken".
// - set_collection: PROPPATCH of the display name and/or the colour, each property's own
//   outcome (a 207 with a failed propstat fails that property, not the request), then the
//   PROPFIND; with neither, the PROPFIND alone.
// - delete_collection: a Depth-0 PROPFIND (only a calendar collection is deleted), then DELETE;
//   nothing there (404, 410) is "absent", which is done too.

/// The protocol's version: `todo` speaks to a `todo-sync` whose hello answers this one only.
public enum ProtocolVersion {
    public static let current = 1
}

/// What a companion does beyond version 1's first form, as its hello lists it: only what `todo`
/// asks about before it sends a request that needs it (a companion without it is named, and the
/// request is not sent). What every companion of this version does is no capability.
public enum Capability: String, CaseIterable, Sendable {
    /// `open` takes `ca_file`.
    case caFile = "ca_file"
    /// `open` takes `timeout`: the seconds to wait for a connection, and for the server to send
    /// at least 1 KiB, before giving up on a request.
    case timeout
    /// `make_collection`, `set_collection` and `delete_collection`.
    case collections
}

/// The name of a request, its `"op"`.
public enum Op: String, CaseIterable, Sendable {
    case hello, open, probe, changes, fetch, write, discover
    case home
    case makeCollection = "make_collection"
    case setCollection = "set_collection"
    case deleteCollection = "delete_collection"
}

/// A request from `todo` to `todo-sync`.
public enum Request: ProtocolMessage {
    /// The version and capabilities; answered by ``HelloAnswer``.
    case hello
    /// The collection later requests are about; answered by ``OKAnswer``.
    case open(OpenRequest)
    /// Whether the collection holds todos and offers sync tokens; answered by ``ProbeAnswer``.
    /// `todo` does not send it (setup's `discover` checks as much); it is the companion's own
    /// check of a collection, which its tests and `scripts/bench` (a PROPFIND's cost) ask for.
    case probe
    /// The changes since `token`, or every object when `nil` (or the token is refused);
    /// answered by ``ChangesAnswer``.
    case changes(token: String?)
    /// The objects at `hrefs`; answered by ``FetchAnswer``.
    case fetch(hrefs: [String])
    /// The writes, in order; answered by ``WriteAnswer``.
    case write([Write])
    /// The calendar collections reachable from the URL opened; answered by ``DiscoverAnswer``.
    case discover
    /// The calendar collections in the URL opened, a calendar home, with the properties a sync
    /// follows (one PROPFIND, Depth 1); answered by ``HomeAnswer``.
    case home
    /// A new calendar collection for todos; answered by ``CollectionAnswer``.
    case makeCollection(MakeCollectionRequest)
    /// A collection's display name and colour set, or only read (neither given); answered by
    /// ``CollectionAnswer``.
    case setCollection(SetCollectionRequest)
    /// The calendar collection at `url` deleted with everything in it; answered by
    /// ``DeleteCollectionAnswer``.
    case deleteCollection(url: String)

    public var op: Op {
        switch self {
        case .hello: .hello
        case .open: .open
        case .probe: .probe
        case .changes: .changes
        case .fetch: .fetch
        case .write: .write
        case .discover: .discover
        case .home: .home
        case .makeCollection: .makeCollection
        case .setCollection: .setCollection
        case .deleteCollection: .deleteCollection
        }
    }

    public init(json: JSONValue) throws(MessageDecodingError) {
        let fields = try Fields(json, path: "")
        switch try fields.oneOf("op", Op.self) {
        case .hello: self = .hello
        case .open: self = .open(try OpenRequest(fields))
        case .probe: self = .probe
        case .changes: self = .changes(token: try fields.optionalString("token"))
        case .fetch: self = .fetch(hrefs: try fields.strings("hrefs"))
        case .write: self = .write(try fields.objects("writes", as: Write.self))
        case .discover: self = .discover
        case .home: self = .home
        case .makeCollection: self = .makeCollection(try MakeCollectionRequest(fields))
        case .setCollection: self = .setCollection(try SetCollectionRequest(fields))
        case .deleteCollection: self = .deleteCollection(url: try fields.string("url"))
        }
    }

    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("op", .string(op.rawValue))]
        switch self {
        case .hello, .probe, .discover, .home: break
        case .open(let open): members += open.members
        case .changes(let token): members.append(("token", .optional(token)))
        case .fetch(let hrefs): members.append(("hrefs", .strings(hrefs)))
        case .write(let writes): members.append(("writes", .array(writes.map(\.json))))
        case .makeCollection(let make): members += make.members
        case .setCollection(let set): members += set.members
        case .deleteCollection(let url): members.append(("url", .string(url)))
        }
        return .object(members)
    }

    public func encode(into out: inout [UInt8]) { json.encoded(into: &out) }
}

/// The fields of `open`: the collection's URL and how to authenticate to it.
public struct OpenRequest: Sendable, Equatable {
    /// The collection's http or https URL (it may name the user, never the password).
    public var url: String
    /// The user to log in as; `nil`: the URL's, else the login of ~/.netrc's entry for the host.
    public var user: String?
    /// A shell command that prints the password; without one, `TODO_SYNC_PASSWORD` or ~/.netrc.
    public var passwordCommand: String?
    /// A file of CA certificates to trust instead of the system's.
    public var caFile: String?
    /// Seconds (``allowedTimeouts``) to wait for a connection, and then for the server to send at
    /// least 1 KiB, before a request is given up (`TODO_SYNC_TIMEOUT`); `nil`: the companion's
    /// defaults (10 s to connect, 30 s).
    public var timeout: Int?

    /// What `timeout` may be: from 1 second to 5 minutes (the longest any one request may take).
    public static let allowedTimeouts = 1...300

    public init(
        url: String, user: String? = nil, passwordCommand: String? = nil, caFile: String? = nil, timeout: Int? = nil
    ) {
        self.url = url
        self.user = user
        self.passwordCommand = passwordCommand
        self.caFile = caFile
        self.timeout = timeout
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        url = try fields.string("url")
        user = try fields.optionalString("user")
        passwordCommand = try fields.optionalString("password_command")
        caFile = try fields.optionalString("ca_file")
        timeout = try fields.optionalInteger("timeout")
    }

    /// `user` and `password_command` are always written (null when absent), `ca_file` and
    /// `timeout` only when there is one, as `todo` always wrote them.
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("url", .string(url)), ("user", .optional(user)),
            ("password_command", .optional(passwordCommand))
        ]
        if let caFile { members.append(("ca_file", .string(caFile))) }
        if let timeout { members.append(("timeout", .number(Double(timeout)))) }
        return members
    }
}

/// One write of a `write` request: `{"method", "href", "text"?, "etag"?}`.
public enum Write: ObjectMessage {
    /// A new object: `If-None-Match: *`.
    case create(href: String, text: String)
    /// A new version of an object, if it is still at `etag`.
    case update(href: String, text: String, etag: String)
    /// The object's removal, if it is still at `etag`.
    case delete(href: String, etag: String)

    public enum Method: String, CaseIterable, Sendable {
        case create, update, delete
    }

    public var method: Method {
        switch self {
        case .create: .create
        case .update: .update
        case .delete: .delete
        }
    }

    public var href: String {
        switch self {
        case .create(let href, _), .update(let href, _, _), .delete(let href, _): href
        }
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        let method = try fields.oneOf("method", Method.self)
        let href = try fields.string("href")
        switch method {
        case .create: self = .create(href: href, text: try fields.string("text"))
        case .update: self = .update(href: href, text: try fields.string("text"), etag: try fields.string("etag"))
        case .delete: self = .delete(href: href, etag: try fields.string("etag"))
        }
    }

    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("method", .string(method.rawValue)), ("href", .string(href))]
        switch self {
        case .create(_, let text): members.append(("text", .string(text)))
        case .update(_, let text, let etag): members += [("text", .string(text)), ("etag", .string(etag))]
        case .delete(_, let etag): members.append(("etag", .string(etag)))
        }
        return members
    }
}

/// The fields of `make_collection`: where to make the collection, and its properties.
public struct MakeCollectionRequest: Sendable, Equatable {
    /// The calendar home's http or https URL (the new collection is made in it), at the origin
    /// `open` named.
    public var home: String
    /// The new collection's path segment in the home: letters, digits and `-._~` alone, 1 to
    /// 255 bytes (a UUID, as Tasks.org and Apple make them: no clash with another's name, no
    /// non-ASCII path).
    public var segment: String
    /// Its display name (DAV:displayname): no control character (XML cannot carry them all).
    public var name: String
    /// Its colour (Apple's calendar-color), as ``CalendarColor`` reads it; written `#RRGGBB`.
    public var color: String?

    public init(home: String, segment: String, name: String, color: String? = nil) {
        self.home = home
        self.segment = segment
        self.name = name
        self.color = color
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        home = try fields.string("home")
        segment = try fields.string("segment")
        name = try fields.string("name")
        color = try fields.optionalString("color")
    }

    /// `color` only when there is one.
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("home", .string(home)), ("segment", .string(segment)), ("name", .string(name))
        ]
        if let color { members.append(("color", .string(color))) }
        return members
    }
}

/// The fields of `set_collection`: the collection, and what to set (absent or null: left as it is).
public struct SetCollectionRequest: Sendable, Equatable {
    /// The collection's http or https URL, at the origin `open` named.
    public var url: String
    /// The new display name: no control character.
    public var name: String?
    /// The new colour, as ``CalendarColor`` reads it; written `#RRGGBB`.
    public var color: String?

    public init(url: String, name: String? = nil, color: String? = nil) {
        self.url = url
        self.name = name
        self.color = color
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        url = try fields.string("url")
        name = try fields.optionalString("name")
        color = try fields.optionalString("color")
    }

    /// `name` and `color` only when there is one.
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("url", .string(url))]
        if let name { members.append(("name", .string(name))) }
        if let color { members.append(("color", .string(color))) }
        return members
    }
}
