import SQLite
import TodoInterop
import TodoStore

#if canImport(Glibc)
import Glibc
#endif

/// Two-way sync of one database with one calendar collection.
///
/// A sync runs in three steps, so that a failure at any point leaves the database consistent
/// and the next sync completes the work without duplicates or lost edits:
/// 1. Read what changed on the server since the last sync (an RFC 6578 sync token, else every
///    ETag) and fetch those objects. No database write happens before this has succeeded: when
///    the server cannot be reached, nothing changes.
/// 2. Apply them here in one transaction, merging each todo changed on both sides field by
///    field against the last synced version (``ThreeWayMerge``).
/// 3. Send what changed here (found in the file, whoever wrote it: see
///    ``SyncState/localChanges(since:)``), every write conditional on the ETag last seen. A
///    write refused with 412 means someone else wrote first: the object is fetched, merged as
///    in step 2, and sent again (at most three rounds). Each write is recorded as it returns.
///
/// A todo gets its UID in a committed transaction *before* it is first sent, and its object's
/// href follows from the UID: a sync killed after the server stored it but before this database
/// recorded that finds the object under the same UID next time and matches, never duplicates.
///
/// Threading: runs on the caller's thread, which must own the repository; `collection` calls
/// block.
public struct SyncEngine {
    public let repository: TodoRepository
    public let collection: any CalendarCollection
    /// The zone in which another app's date-time `DUE` becomes a deadline (a calendar date).
    public let timeZone: LocalTimeZone
    /// The clock, in seconds since 1970 (UTC), for DTSTAMP, COMPLETED and `last_sync`.
    public let now: () -> Int64

    var state: SyncState { SyncState(repository: repository) }
    var uids: TodoUIDs { TodoUIDs(repository: repository) }

    /// The most rounds of "someone else wrote first" for one sync before it gives up.
    static let maximumRounds = 3

    public init(repository: TodoRepository, collection: any CalendarCollection,
                timeZone: LocalTimeZone = .system, now: @escaping () -> Int64 = { Int64(time(nil)) }) {
        self.repository = repository
        self.collection = collection
        self.timeZone = timeZone
        self.now = now
    }

    /// Syncs both ways; see the type's documentation.
    public func sync() throws(SyncError) -> SyncReport {
        guard try SyncError.wrap({ () throws(TodoStoreError) in try state.remote() }) != nil else { throw .notConfigured }
        timeZone.prepare()
        var report = SyncReport()
        let progress = try SyncError.wrap { () throws(TodoStoreError) in try state.progress() }
        // Taken before reading anything: a change committed from here on is read again next time.
        let feedStart = try SyncError.wrap { () throws(TodoStoreError) in try repository.feedPosition() }

        // 1. What changed there.
        let listing = try collection.changes(since: progress.syncToken)
        let items = try storeSQL { () throws(SQLiteError) in try state.items() }
        let incoming = Self.remoteChanges(listing, items: items)
        let objects = incoming.changed.isEmpty ? [] : try collection.fetch(incoming.changed)
        let fetched = Set(objects.map(\.href))
        // Listed as changed, gone by the time it was fetched: removed.
        let vanished = incoming.changed.filter { !fetched.contains($0) }
        let itemsByHref = Dictionary(items.values.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
        let removedUIDs = (incoming.removed + vanished).compactMap { itemsByHref[$0]?.uid }

        // 2. Apply it here, in one transaction.
        try storeWrite { () throws(SyncError) in
            for object in objects { try applyIncoming(object, report: &report) }
            for uid in removedUIDs { try applyRemoval(uid: uid, report: &report) }
            try storeSQL { () throws(SQLiteError) in try state.setToken(incoming.token) }
        }

        // 3. Send what changed here.
        let sentAny = try push(since: progress.feedSeq, report: &report)
        if sentAny, let token = incoming.token { try advanceToken(past: token) }
        try storeWrite { () throws(SyncError) in
            try storeSQL { () throws(SQLiteError) in try state.setFinished(at: Self.iso8601(now()), feedSeq: feedStart.seq) }
        }
        return report
    }

    // MARK: Step 1

    struct RemoteChanges {
        var changed: [String]
        var removed: [String]
        var token: String?
    }

    /// The hrefs to fetch (new, or with another ETag than recorded) and the known hrefs removed.
    static func remoteChanges(_ listing: CollectionListing, items: [String: SyncItem]) -> RemoteChanges {
        let etags = Dictionary(items.values.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
        func differs(_ href: String, _ etag: String?) -> Bool {
            guard let etag, let known = etags[href] else { return true }
            return known != etag
        }
        switch listing {
        case .delta(let changed, let removed, let token):
            return RemoteChanges(changed: changed.filter { differs($0.key, $0.value) }.map(\.key).sorted(),
                                 removed: removed.filter { etags[$0] != nil }.sorted(), token: token)
        case .everything(let all, let token):
            return RemoteChanges(changed: all.filter { differs($0.key, $0.value) }.map(\.key).sorted(),
                                 removed: etags.keys.filter { all[$0] == nil }.sorted(), token: token)
        }
    }

    // MARK: Step 2

    /// Merges one object from the server into the database. Runs inside the caller's transaction.
    func applyIncoming(_ object: RemoteObject, report: inout SyncReport) throws(SyncError) {
        let vtodo: VTodoObject
        do {
            vtodo = try VTodoObject(parsing: object.text, timeZone: timeZone)
        } catch {
            // Not a todo (a VEVENT in the same collection) is none of our business; a broken
            // one is reported and left as it is.
            if error.kind != .noTodo { report.unreadable.append(object.href) }
            return
        }
        let remote = vtodo.fields
        let uid = vtodo.uid
        let item = try storeSQL { () throws(SQLiteError) in try state.item(uid: uid) }
        let localID = try SyncError.wrap { () throws(TodoStoreError) in try uids.todoID(forUID: uid) }
        let local = try localID.flatMap { id throws(SyncError) in try SyncError.wrap { () throws(TodoStoreError) in try repository.todo(id: id) } }
        let newItem = SyncItem(uid: uid, href: object.href, etag: object.etag, text: object.text, base: remote)

        guard let local else {
            let knownHere = try SyncError.wrap { () throws(TodoStoreError) in try uids.isKnown(uid) }
            if let item, item.base == remote {
                // Deleted here, unchanged there (but for what we do not sync): the deletion
                // stands and is sent with the new ETag.
                try storeSQL { () throws(SQLiteError) in try state.save(SyncItem(uid: uid, href: object.href, etag: object.etag, text: object.text, base: item.base)) }
                return
            }
            let todo = try insert(remote, uid: uid)
            try storeSQL { () throws(SQLiteError) in try state.save(newItem) }
            report.received += 1
            // Deleted here while edited there: the edit wins, and the delete is reported.
            if knownHere { report.conflicts.append(.editBeatDelete(todoID: todo.id)) }
            return
        }
        let merged = ThreeWayMerge.merge(base: item?.base, local: TodoFields(local), remote: remote, todoID: local.id)
        if merged.fields != TodoFields(local) {
            try update(local.id, to: merged.fields)
            report.received += 1
        }
        report.conflicts += merged.conflicts
        try storeSQL { () throws(SQLiteError) in try state.save(newItem) }
    }

    /// Deals with an object deleted on the server. Runs inside the caller's transaction.
    func applyRemoval(uid: String, report: inout SyncReport) throws(SyncError) {
        guard let item = try storeSQL({ () throws(SQLiteError) in try state.item(uid: uid) }) else { return }
        let localID = try SyncError.wrap { () throws(TodoStoreError) in try uids.todoID(forUID: uid) }
        let local = try localID.flatMap { id throws(SyncError) in try SyncError.wrap { () throws(TodoStoreError) in try repository.todo(id: id) } }
        if let local, TodoFields(local) != item.base {
            // Edited here, deleted there: the edit wins; with no item, the todo is sent anew.
            report.conflicts.append(.editBeatDelete(todoID: local.id))
        } else if let local {
            _ = try SyncError.wrap { () throws(TodoStoreError) in try repository.delete(ids: [local.id]) }
            report.deleted += 1
        }
        try storeSQL { () throws(SQLiteError) in
            try state.removeItem(uid: uid)
            try state.removeUIDIfTodoGone(uid)
        }
    }

    private func insert(_ fields: TodoFields, uid: String) throws(SyncError) -> Todo {
        try SyncError.wrap { () throws(TodoStoreError) in
            // As another app wrote it: a blank SUMMARY is still a todo, not an error.
            let todo = try repository.add(name: fields.name, deadline: fields.deadline, isDone: fields.isDone, nameCheck: .asStored)
            try uids.record(uid, forTodo: todo.id)
            return todo
        }
    }

    private func update(_ id: Int64, to fields: TodoFields) throws(SyncError) {
        _ = try SyncError.wrap { () throws(TodoStoreError) in
            try repository.replaceFields(id: id, name: fields.name, deadline: fields.deadline, isDone: fields.isDone)
        }
    }

    // MARK: Step 3

    /// Sends every local change; returns whether anything was written to the server.
    private func push(since feedSeq: Int64, report: inout SyncReport) throws(SyncError) -> Bool {
        var sentAny = false
        for _ in 0..<Self.maximumRounds {
            let changes = try SyncError.wrap { () throws(TodoStoreError) in try state.localChanges(since: feedSeq) }
            if changes.isEmpty { return sentAny }
            // UIDs first, committed: a retry after a crash finds the same object.
            let needUIDs = changes.compactMap { change -> Int64? in
                if case .created(let todo, nil) = change { return todo.id }
                return nil
            }
            let given = needUIDs.isEmpty ? [:] : try SyncError.wrap { () throws(TodoStoreError) in try uids.assign(toTodos: needUIDs) }
            var planned: [(write: CollectionWrite, change: LocalChange, uid: String, text: String, fields: TodoFields?)] = []
            var refetch: Set<String> = []
            for change in changes {
                switch change {
                case .created(let todo, let uid):
                    guard let uid = uid ?? given[todo.id] else { continue }
                    let object = VTodoObject.new(uid: uid, fields: TodoFields(todo), now: now())
                    planned.append((.create(href: collection.href(forNewUID: uid), text: object.text), change, uid, object.text, TodoFields(todo)))
                case .changed(let todo, let item):
                    guard let etag = item.etag, var object = try? VTodoObject(parsing: item.text, timeZone: timeZone) else {
                        // No ETag to make the write conditional on (or a text we cannot read):
                        // read the object again first.
                        refetch.insert(item.href)
                        continue
                    }
                    object.update(to: TodoFields(todo), now: now())
                    planned.append((.update(href: item.href, text: object.text, etag: etag), change, item.uid, object.text, TodoFields(todo)))
                case .deleted(let item):
                    guard let etag = item.etag else { refetch.insert(item.href); continue }
                    planned.append((.delete(href: item.href, etag: etag), change, item.uid, "", nil))
                }
            }
            let outcomes = planned.isEmpty ? [] : try collection.write(planned.map(\.write))
            try storeWrite { () throws(SyncError) in
                for (plan, outcome) in zip(planned, outcomes) {
                    switch outcome {
                    case .written(let etag):
                        guard let fields = plan.fields else { continue }
                        try storeSQL { () throws(SQLiteError) in
                            try state.save(SyncItem(uid: plan.uid, href: plan.write.href, etag: etag, text: plan.text, base: fields))
                        }
                        report.sent += 1
                        sentAny = true
                    case .deleted:
                        try storeSQL { () throws(SQLiteError) in
                            try state.removeItem(uid: plan.uid)
                            try state.removeUIDIfTodoGone(plan.uid)
                        }
                        report.sent += 1
                        sentAny = true
                    case .preconditionFailed:
                        refetch.insert(plan.write.href)
                    }
                }
            }
            guard !refetch.isEmpty else { continue }
            // Someone else wrote first: read their version and merge it, then go round again.
            let objects = try collection.fetch(refetch.sorted())
            let found = Set(objects.map(\.href))
            try storeWrite { () throws(SyncError) in
                for object in objects { try applyIncoming(object, report: &report) }
                let items = try storeSQL { () throws(SQLiteError) in try state.items() }
                for item in items.values where refetch.contains(item.href) && !found.contains(item.href) {
                    try applyRemoval(uid: item.uid, report: &report)
                }
            }
        }
        let left = try SyncError.wrap { () throws(TodoStoreError) in try state.localChanges(since: feedSeq) }
        guard left.isEmpty else {
            let href: String
            switch left[0] {
            case .created(_, let uid): href = uid.map { collection.href(forNewUID: $0) } ?? "a new todo"
            case .changed(_, let item), .deleted(let item): href = item.href
            }
            throw .tooManyRetries(href: href)
        }
        return sentAny
    }

    /// After sending, moves the stored token past our own writes, so that the next sync with
    /// nothing to do is one request that finds nothing. Only when everything the server lists
    /// since `token` is exactly what we wrote (same ETags): a change by someone else in between
    /// keeps the old token, and is fetched next time.
    private func advanceToken(past token: String) throws(SyncError) {
        guard case .delta(let changed, let removed, let next) = try collection.changes(since: token) else { return }
        let items = try storeSQL { () throws(SQLiteError) in try state.items() }
        let etags = Dictionary(items.values.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
        let ours = changed.allSatisfy { href, etag in etag != nil && etags[href] == etag }
            && removed.allSatisfy { etags[$0] == nil }
        guard ours else { return }
        try storeWrite { () throws(SyncError) in try storeSQL { () throws(SQLiteError) in try state.setToken(next) } }
    }

    // MARK: Plumbing

    private func storeSQL<Result>(_ body: () throws(SQLiteError) -> Result) throws(SyncError) -> Result {
        do { return try body() } catch { throw .store(.sqlite(error)) }
    }

    /// One IMMEDIATE transaction, commit notifications held until it ends (the store's rule).
    private func storeWrite<Result>(_ body: () throws(SyncError) -> Result) throws(SyncError) -> Result {
        try repository.writeTransaction(mapError: { SyncError.store(.sqlite($0)) }, body)
    }

    /// `2026-11-23T10:15:00Z` for seconds since 1970.
    static func iso8601(_ seconds: Int64) -> String {
        let (date, second) = ICalendarTime.utc(epochSeconds: seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date.map { "\($0)" } ?? "1970-01-01")T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }
}
