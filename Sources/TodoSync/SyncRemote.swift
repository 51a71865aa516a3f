import TodoStore

/// The remote a database syncs with (migrations 0005 and 0006, `sync_remote`): a CalDAV calendar
/// collection, who to log in as, and how to get the password. The password itself is never
/// stored anywhere: only the command that prints it.
public struct SyncRemote: Sendable, Equatable {
    /// The collection's URL, ending with `/`.
    public var url: String
    public var user: String?
    /// Run with `/bin/sh -c` at each sync; its first line of output is the password.
    public var passwordCommand: String?
    /// A CA bundle (PEM) to trust instead of the system's (migration 0006), as an absolute path.
    public var caFile: String?
    /// The list whose todos the collection holds (migration 0013): `todo sync` sends and takes
    /// those only, and the other lists stay on this device.
    public var listID: Int64
    /// The account's calendar home (migration 0015), ending with `/`: listed at each sync to
    /// follow the account's collections. `nil`: each linked collection is read on its own.
    public var home: String?
    /// Whether a collection that appears in ``home`` is linked at the next sync (setup linked
    /// every collection); else it is mentioned once.
    public var followsAll: Bool

    public init(
        url: String, user: String?, passwordCommand: String?, caFile: String? = nil, listID: Int64 = TodoList.firstID,
        home: String? = nil, followsAll: Bool = false
    ) {
        self.url = url
        self.user = user
        self.passwordCommand = passwordCommand
        self.caFile = caFile
        self.listID = listID
        self.home = home
        self.followsAll = followsAll
    }

    /// Whether `other` links the same collection as this remote to the same list: the same URL,
    /// as the same user, holding the same list. Setting that up again keeps the link (its
    /// password command and CA file may change); anything else points the database at another
    /// collection, whose next sync would send it every todo of the list, or gives the collection
    /// another list, whose next sync would take every synced todo for deleted here
    /// (``SyncState/link(_:relinking:listNamed:)``).
    public func isSameCollection(as other: SyncRemote) -> Bool {
        url == other.url && user == other.user && listID == other.listID
    }
}

/// One list that syncs and the collection that holds it (migration 0014, `sync_links`), on the
/// remote's account: the remote's own list and collection, and any other collection of the
/// account set up since.
public struct SyncLink: Sendable, Equatable {
    public var list: Int64
    /// The collection's URL, ending with `/`.
    public var url: String
    /// The collection is gone from the account (migration 0015): the list is kept with its
    /// todos and no longer synced, until the user links it again or removes it.
    public var gone: Bool

    public init(list: Int64, url: String, gone: Bool = false) {
        self.list = list
        self.url = url
        self.gone = gone
    }
}

/// What the last sync agreed of a list's name and colour and of its collection's displayname and
/// calendar-color (migration 0015): the bases of their three-way merge, one per side, since a
/// list may be linked to a collection of another name. `listName == nil`: never compared yet.
public struct ListBases: Sendable, Equatable {
    public var listName: String?
    public var listColor: String?
    public var name: String?
    public var color: String?

    public init(listName: String? = nil, listColor: String? = nil, name: String? = nil, color: String? = nil) {
        self.listName = listName
        self.listColor = listColor
        self.name = name
        self.color = color
    }
}

/// Where the last sync left off with the remote.
public struct SyncProgress: Sendable, Equatable {
    /// The collection's RFC 6578 sync token at the last sync, if it offers them.
    public var syncToken: String?
    /// When the last sync finished, as ISO 8601 UTC (`2026-11-23T10:15:00Z`).
    public var lastSync: String?
    /// The change-feed position that every local change before it has been sent.
    public var feedSeq: Int64
}

/// One object of the collection that is one of our todos, as of the last sync: where it is, its
/// ETag, its text (so that what `todo` does not use goes back unchanged) and the fields both
/// sides agreed on then: the base of the three-way merge.
public struct SyncItem: Sendable, Equatable {
    public var uid: String
    public var href: String
    public var etag: String?
    public var text: String
    public var base: TodoFields
    /// The UID of the parent the object named when last synced (its RELATED-TO of type PARENT,
    /// or a parent's RELTYPE=CHILD link): the merge base of the todo's place in the tree.
    public var parentUID: String?
    /// The UIDs of the todos the object waited for when last synced (RELATED-TO;RELTYPE=DEPENDS-ON):
    /// the merge base of the todo's links, a set.
    public var dependsOnUIDs: [String]

    public init(
        uid: String, href: String, etag: String?, text: String, base: TodoFields, parentUID: String? = nil,
        dependsOnUIDs: [String] = []
    ) {
        self.uid = uid
        self.href = href
        self.etag = etag
        self.text = text
        self.base = base
        self.parentUID = parentUID
        self.dependsOnUIDs = dependsOnUIDs
    }
}
