import SyncProtocol
import TextSafety
import TodoStore

/// The account's calendar home as a sync reads and changes it (`todo` asks its companion:
/// SyncProtocol's `home`, `make_collection` and `set_collection`).
public protocol CalendarHome {
    /// Every calendar collection in the home, with its properties, in one request.
    func collections() throws(SyncError) -> [HomeCollection]
    /// A new collection for todos, and what the server really made.
    func makeCollection(_ request: MakeCollectionRequest) throws(SyncError) -> CollectionAnswer
    /// A collection's display name or colour set, and what it holds after.
    func setCollection(_ request: SetCollectionRequest) throws(SyncError) -> CollectionAnswer
}

/// One `todo sync` of an account: the home listed once, the account's lists brought in line with
/// its collections, then a ``SyncAccount`` of the lists that have something to do.
///
/// With the home (``SyncRemote/home``), in this order:
/// 1. One listing of the home. A linked collection missing from it is gone (its list is kept,
///    with its todos, and no longer synced: `markGone(_:in:)`); one listed again is back. A
///    collection that holds todos and no list is linked to the list of its name on an account
///    that follows every collection (``SyncRemote/followsAll``), else reported once
///    (``AccountReport/found``). Each list's name and colour are merged with its collection's,
///    three ways (``ListBases``). All in one transaction.
/// 2. A list whose collection's state (sync token, or ctag) is the one it had when the list was
///    last found in step with it, and that has nothing to send, is done: no request of its own,
///    and no collection is opened for it. The others are opened together (`open`, one
///    companion each in `todo`) and synced as one ``SyncAccount``.
///
/// Without a home (a database set up before it was remembered), every linked list is synced.
///
/// Threading: runs on the caller's thread, which must own the repository; the home's and the
/// collections' calls block.
public struct AccountSync {
    public let repository: TodoRepository
    public let home: (any CalendarHome)?
    public let timeZone: LocalTimeZone
    public let now: () -> Int64
    public let forceDelete: Bool
    /// The collections of `links`, one per link, in their order.
    public let open: ([SyncLink]) throws(SyncError) -> [any CalendarCollection]

    public init(
        repository: TodoRepository, home: (any CalendarHome)?, timeZone: LocalTimeZone = .system,
        now: @escaping () -> Int64 = SyncEngine.clock, forceDelete: Bool = false,
        open: @escaping ([SyncLink]) throws(SyncError) -> [any CalendarCollection]
    ) {
        self.repository = repository
        self.home = home
        self.timeZone = timeZone
        self.now = now
        self.forceDelete = forceDelete
        self.open = open
    }

    /// Syncs the account; `report` holds what was done when it fails part-way.
    public func sync(into report: inout SyncReport) throws(SyncError) {
        let state = SyncState(repository: repository)
        let (remote, feedStart) = try read { () throws(TodoStoreError) in
            (try state.remote(), try repository.feedPosition())
        }
        guard let remote else { throw .notConfigured }
        var listed: [Int64: HomeCollection]?
        if let home {
            let collections = try home.collections().map(Self.bounded)
            var sends: [PropertySend] = []
            listed = try store { () throws(TodoStoreError) in
                try reconcile(collections, remote: remote, sends: &sends, report: &report.account)
            }
            for send in sends { try self.send(send, to: home, report: &report.account) }
            if remote.followsAll, let url = remote.home {
                for (list, collection) in try makeCollections(in: url, home: home, report: &report.account) {
                    listed?[list] = collection
                }
            }
        }
        var due: [SyncLink] = []
        var idle: [SyncLink] = []
        for link in try read({ () throws(TodoStoreError) in try state.links() }) where !link.gone {
            guard let listed else {
                due.append(link)
                continue
            }
            guard let collection = listed[link.list] else { continue }
            if try read({ () throws(TodoStoreError) in try isIdle(link, collection) }) {
                idle.append(link)
            } else {
                due.append(link)
            }
        }
        if !due.isEmpty {
            let collections = try open(due)
            let engines = zip(due, collections).map { link, collection in
                SyncEngine(
                    repository: repository, collection: collection, timeZone: timeZone, now: now,
                    forceDelete: forceDelete, list: link.list)
            }
            let states = listed?.compactMapValues(\.state) ?? [:]
            try SyncAccount(engines: engines, listed: states).sync(into: &report)
        }
        // The idle lists were in step as of `feedStart`: the feed named nothing of theirs.
        try store { () throws(TodoStoreError) in
            if let listed { try recordBases(listed) }
            for link in idle {
                try SyncState(repository: repository, list: link.list).setFinished(
                    at: SyncEngine.iso8601(now()), feedSeq: feedStart.seq)
            }
        }
    }

    /// Whether the list of `link` has nothing to do: its collection's state is the one it had
    /// when the list was last in step with it (or the sync token it was synced to), and nothing
    /// waits to be sent.
    private func isIdle(_ link: SyncLink, _ collection: HomeCollection) throws(TodoStoreError) -> Bool {
        guard let current = collection.state else { return false }
        let state = SyncState(repository: repository, list: link.list)
        let seen = try state.seen()
        let token = try state.progress().syncToken
        guard current == seen || (collection.syncToken != nil && collection.syncToken == token) else { return false }
        return try !state.hasLocalWork()
    }

    // MARK: The account's lists and its collections

    /// Step 1 (see the type): the links brought in line with the home's `collections`. Returns
    /// each linked list whose collection is listed, with it. Runs inside the caller's transaction.
    func reconcile(
        _ collections: [HomeCollection], remote: SyncRemote, sends: inout [PropertySend],
        report: inout AccountReport
    ) throws(TodoStoreError) -> [Int64: HomeCollection] {
        let state = SyncState(repository: repository)
        let links = try state.links()
        let known = try state.unlinked()
        var byURL: [String: HomeCollection] = [:]
        for collection in collections where byURL[collection.url] == nil { byURL[collection.url] = collection }
        var present: [Int64: HomeCollection] = [:]
        for link in links {
            if let collection = byURL[link.url] {
                if link.gone {
                    try SyncState(repository: repository, list: link.list).setGone(false)
                    report.back.append(
                        AccountReport.Link(listID: link.list, name: try name(of: link.list), url: link.url))
                }
                present[link.list] = collection
            } else if !link.gone {
                report.gone.append(try Self.markGone(link, in: repository))
            }
        }
        // Renames first: a collection that appears with the name a list had is not taken for it.
        for (list, collection) in present.sorted(by: { $0.key < $1.key }) {
            if let send = try mergeProperties(of: list, with: collection, report: &report) { sends.append(send) }
        }
        let linkedURLs = Set(links.map(\.url))
        var unlinked = Set<String>()
        for collection in collections where collection.holdsTodos && !linkedURLs.contains(collection.url) {
            guard remote.followsAll, !known.contains(collection.url) else {
                if !known.contains(collection.url) {
                    report.found.append(AccountReport.Found(name: collection.name, url: collection.url))
                }
                unlinked.insert(collection.url)
                continue
            }
            let list = try Self.list(for: collection, in: repository)
            try state.addLink(list: list.id, url: collection.url)
            report.linked.append(AccountReport.Link(listID: list.id, name: list.name, url: collection.url))
            // Compared from now on, in the transaction that links it: the list is the collection's
            // (named after it), and a rename on either side before a sync goes through must not
            // be taken for a first meeting (each side kept as it is, for good). The colours merge
            // from none: one only one side has is the other's too.
            try SyncState(repository: repository, list: list.id).setBases(
                ListBases(listName: list.name, name: collection.name))
            if let send = try mergeProperties(of: list.id, with: collection, report: &report) { sends.append(send) }
            present[list.id] = collection
        }
        // Those no longer listed are forgotten: one made again later is new again.
        if unlinked != known { try state.setUnlinked(unlinked) }
        return present
    }

    /// Marks `link` gone: its list is kept with its todos and no longer synced, until the user
    /// links it again (`todo sync setup URL --to LIST`) or removes it. Nothing is deleted, here or
    /// there. Runs inside the caller's transaction.
    static func markGone(_ link: SyncLink, in repository: TodoRepository) throws(TodoStoreError)
        -> AccountReport.Gone
    {
        try SyncState(repository: repository, list: link.list).setGone(true)
        var request = TodoFetchRequest()
        request.lists = [link.list]
        return AccountReport.Gone(
            listID: link.list, name: try repository.list(id: link.list)?.name ?? "#\(link.list)", url: link.url,
            todos: try repository.count(request))
    }

    private func name(of list: Int64) throws(TodoStoreError) -> String {
        try repository.list(id: list)?.name ?? "#\(list)"
    }

    /// The list a collection that holds todos and no list is linked to: the list of its name
    /// (under case folding) when that one syncs with nothing, else a new one of that name (`Work
    /// (2)` where `Work` is taken), coloured as the collection is.
    public static func list(for collection: HomeCollection, in repository: TodoRepository) throws(TodoStoreError)
        -> TodoList
    {
        let name = listName(collection.name, url: collection.url)
        let links = try SyncState(repository: repository).links()
        if let same = try repository.list(named: name), !links.contains(where: { $0.list == same.id }) {
            return same
        }
        return try repository.createList(
            named: try uniqueName(name, for: nil, in: repository),
            color: collection.color.flatMap(CalendarColor.read))
    }

    /// The most characters of a list's name taken from a collection's.
    static let maximumNameLength = 200

    /// A valid list name (`TodoList.isValidName(_:)`) from a collection's display name as the
    /// server sent it: control characters, tabs and line breaks become spaces, blanks and leading
    /// `-` are trimmed, at most `maximumNameLength` characters; without a usable one, the last
    /// segment of its URL made so, else "Tasks".
    public static func listName(_ displayName: String?, url: String) -> String {
        func cleaned(_ text: String) -> String? {
            let spaced = String(
                String.UnicodeScalarView(
                    text.unicodeScalars.map { ControlCharacters.contains($0) ? " " : $0 }))
            var name = Substring(spaced.prefix(maximumNameLength))
            while let first = name.first, first.isWhitespace || first == "-" { name = name.dropFirst() }
            while let last = name.last, last.isWhitespace { name = name.dropLast() }
            return TodoList.isValidName(String(name)) ? String(name) : nil
        }
        let segment = url.split(separator: "/").last.map(String.init) ?? ""
        return displayName.flatMap(cleaned) ?? cleaned(segment) ?? "Tasks"
    }

    /// `name`, or `name (2)`, `name (3)`... : the first that no list but `list` has.
    static func uniqueName(_ name: String, for list: Int64?, in repository: TodoRepository) throws(TodoStoreError)
        -> String
    {
        var candidate = name
        var number = 1
        while let other = try repository.list(named: candidate), other.id != list {
            number += 1
            candidate = "\(name) (\(number))"
        }
        return candidate
    }

    /// Merges the list's name and colour with its collection's displayname and calendar-color
    /// against their bases (``ListBases``): a side that changed gives the other its value; both
    /// changed alike is agreed; both changed otherwise keeps this side's (reported). A remote
    /// change is taken here (a name another list has gets ` (2)`); a local one is left to be sent
    /// (it stays a change against its base). The first time, both sides are taken as they are.
    /// Runs inside the caller's transaction.
    private func mergeProperties(
        of listID: Int64, with collection: HomeCollection, report: inout AccountReport
    ) throws(TodoStoreError) -> PropertySend? {
        guard var list = try repository.list(id: listID) else { return nil }
        let state = SyncState(repository: repository, list: listID)
        let known = try state.bases()
        var bases = known
        let remoteColor = collection.color.flatMap(CalendarColor.read)
        // Never compared: both sides as they are, once the sync is through (``recordBases(_:)``),
        // but for a colour only one side has, which the other takes, so that every device shows
        // the list in it (a list matched by name; a collection another device made, its sync
        // killed before it set the colour).
        guard bases.listName != nil else {
            if list.color == nil, let remoteColor {
                list = try repository.setListColor(id: listID, to: remoteColor)
                report.recolored.append(
                    AccountReport.Recolored(listID: listID, name: list.name, from: nil, to: remoteColor))
            } else if let color = list.color, collection.color == nil {
                var send = PropertySend(listID: listID, url: collection.url)
                send.color = color
                return send
            }
            return nil
        }
        var send = PropertySend(listID: listID, url: collection.url)
        // No displayname, or a colour that is no colour (a CSS name): no opinion of the server's.
        let remoteName = collection.name ?? bases.name
        let readableColor = collection.color == nil || remoteColor != nil ? remoteColor : bases.color
        switch ListPropertyMerge(
            local: list.name, localBase: bases.listName, remote: remoteName, remoteBase: bases.name)
        {
        case .unchanged:
            break
        case .sendLocal(let name):
            send.name = name
        case .agreed:
            bases.listName = list.name
            bases.name = remoteName
        case .takeRemote(let name):
            let wanted = Self.listName(name, url: "")
            if name != nil, wanted != list.name {
                let old = list.name
                list = try repository.renameList(
                    id: listID, to: try Self.uniqueName(wanted, for: listID, in: repository))
                report.renamed.append(AccountReport.Renamed(listID: listID, from: old, to: list.name))
            }
            bases.listName = list.name
            bases.name = name
        case .conflict(let kept, let replaced):
            report.conflicts.append(
                AccountReport.Conflict(listID: listID, name: list.name, field: .name, kept: kept, replaced: replaced))
            bases.name = remoteName
            send.name = kept
        }
        switch ListPropertyMerge(
            local: list.color, localBase: bases.listColor, remote: readableColor, remoteBase: bases.color)
        {
        case .unchanged:
            break
        case .sendLocal(let color):
            // A colour removed here is not removed there (set_collection sets a colour, never
            // unsets one): each side keeps its own until one changes.
            if color == nil { bases.listColor = nil } else { send.color = color }
        case .agreed:
            bases.listColor = list.color
            bases.color = readableColor
        case .takeRemote(let color):
            let old = list.color
            list = try repository.setListColor(id: listID, to: color)
            report.recolored.append(AccountReport.Recolored(listID: listID, name: list.name, from: old, to: color))
            bases.listColor = list.color
            bases.color = color
        case .conflict(let kept, let replaced):
            report.conflicts.append(
                AccountReport.Conflict(listID: listID, name: list.name, field: .color, kept: kept, replaced: replaced))
            bases.color = readableColor
            if kept == nil { bases.listColor = nil } else { send.color = kept }
        }
        if bases != known { try state.setBases(bases) }
        return send.name != nil || send.color != nil ? send : nil
    }

    /// A list's name or colour (or both) changed here, to set on its collection.
    struct PropertySend {
        var listID: Int64
        var url: String
        var name: String?
        var color: String?
    }

    /// Sets the properties of `send` on its collection (`set_collection`), and records what the
    /// server then holds as both sides' base: a property it refused (a colour a server does not
    /// take) is reported and not sent again, each side keeping its own until one changes.
    private func send(_ send: PropertySend, to home: any CalendarHome, report: inout AccountReport)
        throws(SyncError)
    {
        let answer = try home.setCollection(SetCollectionRequest(url: send.url, name: send.name, color: send.color))
        try store { () throws(TodoStoreError) in
            let state = SyncState(repository: repository, list: send.listID)
            var bases = try state.bases()
            let name = try self.name(of: send.listID)
            var sent = AccountReport.Sent(listID: send.listID, name: name)
            // Each property sent: (field, value sent, both sides' bases, what the server holds, where
            // the report says it was sent).
            let properties:
                [(
                    AccountReport.Field, String?, WritableKeyPath<ListBases, String?>,
                    WritableKeyPath<ListBases, String?>, String?, WritableKeyPath<AccountReport.Sent, String?>
                )] = [
                    (.name, send.name, \.listName, \.name, answer.collection.name, \.newName),
                    (.color, send.color, \.listColor, \.color, answer.collection.color, \.color)
                ]
            for (field, wanted, localBase, remoteBase, held, reported) in properties {
                guard let wanted else { continue }
                bases[keyPath: localBase] = wanted
                bases[keyPath: remoteBase] = held
                if CollectionProperty(rawValue: field.rawValue).flatMap(answer.outcome)?.set == true {
                    sent[keyPath: reported] = wanted
                } else {
                    report.refused.append(
                        AccountReport.Refused(listID: send.listID, name: name, field: field, value: wanted))
                }
            }
            try state.setBases(bases)
            if sent.newName != nil || sent.color != nil { report.sent.append(sent) }
        }
    }

    /// Step 4 (an account that follows every collection): each list with no link that holds a
    /// todo, and does not stay on this device (``SyncState/localLists()``), gets a collection of
    /// its own in the home at `url` (`make_collection`: a UUID for its path, its name and colour,
    /// VTODO alone). The link is recorded only once the server's answer shows a calendar that
    /// holds todos; one that does not is reported, and the list stays on this device (it would
    /// be made again at every sync). An empty list is not made until it holds a todo. Returns
    /// each list linked, with its collection as the server holds it.
    private func makeCollections(in url: String, home: any CalendarHome, report: inout AccountReport)
        throws(SyncError) -> [Int64: HomeCollection]
    {
        let lists = try read { () throws(TodoStoreError) -> [TodoList] in
            let state = SyncState(repository: repository)
            let linked = Set(try state.links().map(\.list))
            let local = try state.localLists()
            let counts = try repository.listCounts()
            return try repository.lists().filter { list in
                !linked.contains(list.id) && !local.contains(list.id)
                    && counts[list.id].map { $0.undone + $0.done > 0 } == true
            }
        }
        var made: [Int64: HomeCollection] = [:]
        for list in lists {
            let collection = try home.makeCollection(
                MakeCollectionRequest(home: url, segment: TodoUIDs.newUID(), name: list.name, color: list.color)
            ).collection
            try store { () throws(TodoStoreError) in
                let state = SyncState(repository: repository)
                guard collection.calendar, collection.todos else {
                    try state.keepLocal(list.id)
                    try state.addUnlinked(collection.url)
                    report.notMade.append(AccountReport.Link(listID: list.id, name: list.name, url: collection.url))
                    return
                }
                try state.addLink(list: list.id, url: collection.url)
                try SyncState(repository: repository, list: list.id).setBases(
                    ListBases(
                        listName: list.name, listColor: list.color, name: collection.name, color: collection.color))
                report.made.append(AccountReport.Link(listID: list.id, name: list.name, url: collection.url))
                made[list.id] = HomeCollection(
                    url: collection.url, name: collection.name, color: collection.color,
                    components: collection.components)
            }
        }
        return made
    }

    /// The bases of the links in `present` that have none yet: each side as it is now. After a
    /// sync that went through (nothing in the database changes when one fails), in the caller's
    /// transaction.
    func recordBases(_ present: [Int64: HomeCollection]) throws(TodoStoreError) {
        for (listID, collection) in present {
            let state = SyncState(repository: repository, list: listID)
            guard try state.bases().listName == nil, let list = try repository.list(id: listID) else { continue }
            try state.setBases(
                ListBases(
                    listName: list.name, listColor: list.color, name: collection.name,
                    color: collection.color.flatMap(CalendarColor.read)))
        }
    }

    // MARK: Bounds

    /// The most bytes of a collection's display name kept; of its colour; of its sync token or ctag
    /// (a longer one is none: the collection is then listed at every sync).
    static let maximumNameBytes = 4_096
    static let maximumColorBytes = 64
    static let maximumStateBytes = 8_192

    /// `collection` within the bounds above.
    static func bounded(_ collection: HomeCollection) -> HomeCollection {
        var collection = collection
        if let name = collection.name, name.utf8.count > maximumNameBytes {
            collection.name = String(name.prefix(maximumNameLength))
        }
        if let color = collection.color, color.utf8.count > maximumColorBytes { collection.color = nil }
        if let token = collection.syncToken, token.utf8.count > maximumStateBytes { collection.syncToken = nil }
        if let ctag = collection.ctag, ctag.utf8.count > maximumStateBytes { collection.ctag = nil }
        return collection
    }

    // MARK: Transactions

    private func store<Result>(_ body: () throws(TodoStoreError) -> Result) throws(SyncError) -> Result {
        do {
            return try repository.writeTransaction(mapError: TodoStoreError.sqlite, body)
        } catch {
            throw .store(error)
        }
    }

    private func read<Result>(_ body: () throws(TodoStoreError) -> Result) throws(SyncError) -> Result {
        do { return try body() } catch { throw .store(error) }
    }
}

/// One property of a list and its collection (the name, the colour), merged three ways against
/// each side's base: what the last sync agreed each side held.
enum ListPropertyMerge: Equatable {
    /// Neither side changed.
    case unchanged
    /// Both changed, to the same value.
    case agreed
    /// Only the server's changed: take it here.
    case takeRemote(String?)
    /// Only this side's changed: send it.
    case sendLocal(String?)
    /// Both changed, differently: this side's is kept (and sent), the server's replaced.
    case conflict(kept: String?, replaced: String?)

    init(local: String?, localBase: String?, remote: String?, remoteBase: String?) {
        switch (local != localBase, remote != remoteBase) {
        case (false, false): self = .unchanged
        case (false, true): self = .takeRemote(remote)
        case (true, false): self = .sendLocal(local)
        case (true, true): self = local == remote ? .agreed : .conflict(kept: local, replaced: remote)
        }
    }
}
