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

    /// The list's `field` (`name` or `color`): `kept` here, `replaced` the server's.
    public struct Conflict: Sendable, Equatable {
        public enum Field: String, Sendable {
            case name, color
        }

        public var listID: Int64
        public var name: String
        public var field: Field
        public var kept: String?
        public var replaced: String?
    }
}
