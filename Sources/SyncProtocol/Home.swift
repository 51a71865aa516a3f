import JSONCodec

/// A calendar collection listed by `home`: `{"url", "name", "color", "components", "sync_token",
/// "ctag"}`, each but the URL and the components a string or null, as the server said them
/// (untrusted: `todo` bounds and checks what it keeps).
public struct HomeCollection: ObjectMessage {
    /// The collection's URL, ending with `/`.
    public var url: String
    /// DAV:displayname.
    public var name: String?
    /// Apple's calendar-color (`#RRGGBB`, `#RRGGBBAA`, or whatever the server stores).
    public var color: String?
    /// The components it accepts (every kind when the server names none).
    public var components: [String]
    /// DAV:sync-token (RFC 6578): it changes whenever a member does.
    public var syncToken: String?
    /// CalendarServer's getctag, for servers without sync tokens: it changes as the token would.
    public var ctag: String?

    public init(
        url: String, name: String? = nil, color: String? = nil, components: [String] = ["VTODO"],
        syncToken: String? = nil, ctag: String? = nil
    ) {
        self.url = url
        self.name = name
        self.color = color
        self.components = components
        self.syncToken = syncToken
        self.ctag = ctag
    }

    /// Whether it holds todos: its components include VTODO.
    public var holdsTodos: Bool { components.contains("VTODO") }

    /// What changes whenever one of its members does: the sync token, else the ctag; `nil` when
    /// the server offers neither (then every sync lists it).
    public var state: String? { syncToken ?? ctag.map { "ctag:" + $0 } }

    init(_ fields: Fields) throws(MessageDecodingError) {
        url = try fields.string("url")
        name = try fields.nullableString("name")
        color = try fields.nullableString("color")
        components = try fields.strings("components")
        syncToken = try fields.nullableString("sync_token")
        ctag = try fields.nullableString("ctag")
    }

    var members: [(String, JSONValue)] {
        [
            ("url", .string(url)), ("name", .optional(name)), ("color", .optional(color)),
            ("components", .strings(components)), ("sync_token", .optional(syncToken)), ("ctag", .optional(ctag))
        ]
    }
}

/// The answer to `home`: `{"collections": [...]}`, every calendar collection in the home (its
/// resourcetype `C:calendar`: no subscription, inbox, outbox or Nextcloud's deleted calendar).
public struct HomeAnswer: ObjectMessage {
    public var collections: [HomeCollection]

    public init(collections: [HomeCollection]) {
        self.collections = collections
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        collections = try fields.objects("collections", as: HomeCollection.self)
    }

    var members: [(String, JSONValue)] { [("collections", .array(collections.map(\.json)))] }
}
