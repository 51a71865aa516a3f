/// What a sync did to the account's lists (``AccountSync``): the collections that appeared, were
/// renamed, recoloured or are gone, as the listing of the calendar home showed them. Names are the
/// lists' names here after the sync, and texts from the server are as the server sent them
/// (bounded; whoever prints them escapes them).
public struct AccountReport: Sendable, Equatable {
    /// Collections that appeared on an account that follows every collection, each linked to a
    /// list of its name (made where there was none): they sync from now on.
    public var linked: [Link] = []
    /// Collections that appeared on an account set up with some collections only: not linked,
    /// mentioned this once.
    public var found: [Found] = []
    /// Lists whose collection is gone from the account: kept here with their todos, no longer
    /// synced.
    public var gone: [Gone] = []
    /// Lists whose collection was gone and is listed again: they sync again.
    public var back: [Link] = []
    /// Lists renamed here because their collection was renamed.
    public var renamed: [Renamed] = []
    /// Lists recoloured here because their collection was.
    public var recolored: [Recolored] = []
    /// A list's name or colour changed on both sides since the last sync: this side's was kept.
    public var conflicts: [Conflict] = []
    /// Lists whose name or colour changed here, set on their collection.
    public var sent: [Sent] = []
    /// A name or colour set here that the server refused: each side keeps its own.
    public var refused: [Refused] = []
    /// Lists of this device given a collection of their own: they sync from now on.
    public var made: [Link] = []
    /// Lists whose collection the server made as no calendar for todos: not linked, they stay on
    /// this device.
    public var notMade: [Link] = []

    public init() {}

    /// Whether there is nothing to say.
    public var isEmpty: Bool { self == AccountReport() }

    /// A list and its collection.
    public struct Link: Sendable, Equatable {
        public var listID: Int64
        public var name: String
        public var url: String
    }

    /// A collection that holds todos and no list: its display name and URL.
    public struct Found: Sendable, Equatable {
        public var name: String?
        public var url: String
    }

    /// A list whose collection is gone, and how many todos it keeps here.
    public struct Gone: Sendable, Equatable {
        public var listID: Int64
        public var name: String
        public var url: String
        public var todos: Int
    }

    public struct Renamed: Sendable, Equatable {
        public var listID: Int64
        public var from: String
        public var to: String
    }

    /// Colours are `#RRGGBB`, `nil` for none.
    public struct Recolored: Sendable, Equatable {
        public var listID: Int64
        public var name: String
        public var from: String?
        public var to: String?
    }

    /// A list's new name or colour set on its collection (`nil`: that one was not changed).
    public struct Sent: Sendable, Equatable {
        public var listID: Int64
        /// The list's name.
        public var name: String
        public var newName: String?
        public var color: String?

        init(listID: Int64, name: String) {
            self.listID = listID
            self.name = name
        }
    }

    /// The list's `field` the server would not take: `value`, kept here.
    public struct Refused: Sendable, Equatable {
        public var listID: Int64
        public var name: String
        public var field: Field
        public var value: String
    }

    /// A list's property that syncs with its collection's.
    public enum Field: String, Sendable {
        case name, color
    }

    /// The list's `field` (`name` or `color`): `kept` here, `replaced` the server's.
    public struct Conflict: Sendable, Equatable {

        public var listID: Int64
        public var name: String
        public var field: Field
        public var kept: String?
        public var replaced: String?
    }
}
