import SQLite
import SyncProtocol
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
///    in step 2, and sent again (at most three rounds). Each write is recorded as it returns,
///    those before a failed one included. Then what was written is read back: a server may
///    store something other than what it was sent (RFC 4791 allows it, and an ETag in the
///    answer does not prove it kept the bytes), and this database ends up with what it holds.
///
/// What the server says is not believed blindly: only an explicit statement deletes a todo
/// here (404 or 410 for that object, or its absence from a complete listing), and a complete
/// listing that names no todo at all while some were synced before is refused
/// (``SyncError/serverEmpty(syncedBefore:)``) unless `forceDelete` is set. An object the server
/// leaves out of an answer, or sends without data, changes nothing here and is asked for again
/// next time (the sync token is kept), as is an object that cannot be read as a todo.
///
/// A todo gets its UID in a committed transaction *before* it is first sent, and its object's
/// href follows from the UID: a sync killed after the server stored it but before this database
/// recorded that finds the object under the same UID next time and matches, never duplicates.
///
/// Errors: the store's (`TodoStoreError`) become ``SyncError/store(_:)`` once per step (the
/// step's one transaction, or its one read), the collection's are ``SyncError``s already.
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
    /// Believe a complete listing that names no todo though some were synced before, and delete
    /// them here (`todo sync --force-delete`, the user's explicit word).
    public let forceDelete: Bool
    /// The list whose collection `collection` is (``SyncLink``); `nil` for the remote's own.
    public let list: Int64?

    var state: SyncState { SyncState(repository: repository, list: list) }
    var uids: TodoUIDs { TodoUIDs(repository: repository) }

    /// The todo here that has `uid`, when it is in the list this engine syncs: one moved to
    /// another list is, for this collection, deleted here.
    func localTodo(uid: String) throws(TodoStoreError) -> Todo? {
        guard
            let todo = try uids.todoID(forUID: uid).flatMap({ id throws(TodoStoreError) in try repository.todo(id: id) }
            )
        else { return nil }
        return todo.listID == (try state.linkedListID()) ? todo : nil
    }

    /// The system's clock, in seconds since 1970 (UTC): a sync's `now` unless a test gives another.
    public static func clock() -> Int64 { Int64(time(nil)) }

    /// The most rounds of "someone else wrote first" for one sync before it gives up.
    static let maximumRounds = 3

    public init(
        repository: TodoRepository, collection: any CalendarCollection,
        timeZone: LocalTimeZone = .system, now: @escaping () -> Int64 = SyncEngine.clock,
        forceDelete: Bool = false, list: Int64? = nil
    ) {
        self.repository = repository
        self.collection = collection
        self.timeZone = timeZone
        self.now = now
        self.forceDelete = forceDelete
        self.list = list
    }

    /// Syncs both ways; see the type's documentation.
    public func sync() throws(SyncError) -> SyncReport {
        var report = SyncReport()
        try sync(into: &report)
        return report
    }

    /// ``sync()``, its report kept in `report` as the work is committed: when the sync fails
    /// part-way, `report` holds what it did before (the changes applied here and sent, the
    /// conflicts resolved), for the user to be told of them all the same.
    public func sync(into report: inout SyncReport) throws(SyncError) {
        try SyncAccount(engines: [self]).sync(into: &report)
    }

    /// What one collection's listing brought (step 1), to apply here (step 2) and to send after.
    struct Pulled {
        var progress: SyncProgress
        var incoming: RemoteChanges
        var fetched: FetchAnswer
        /// The hrefs removed there: listed as removed, or answered 404 when fetched.
        var removed: [String]
        /// Whether everything listed was dealt with, so the token may move on.
        var complete: Bool
        /// Whether an object listed was taken in: the items here then no longer stand for the
        /// state the token kept names.
        var tookInAny = false
        /// The UIDs synced with a collection whose complete listing names nothing, when the
        /// account's other collections are to say whether they moved there (``SyncAccount``).
        var emptied: Set<String>?
    }

    /// Step 1: what changed there. Reads the collection; changes nothing here. A complete
    /// listing that names nothing, while todos were synced with the collection, is refused
    /// (``SyncError/serverEmpty(syncedBefore:)``), or with `othersMayHoldThem` left for the
    /// caller to judge against the account's other collections (``Pulled/emptied``).
    func pull(report: inout SyncReport, othersMayHoldThem: Bool = false) throws(SyncError) -> Pulled {
        // What is recorded here is read before the listing: an object another sync
        // of this file records meanwhile (two `todo sync` at once) was written after the listing
        // began, and its absence from the listing is no removal, nor a collection emptied.
        let (progress, items, sent) = try read { () throws(TodoStoreError) in
            (try state.progress(), try state.items(), try state.sentHrefs())
        }
        let listing = try collection.changes(since: progress.syncToken)
        var emptied: Set<String>?
        if case .everything(let all, _, false) = listing, all.isEmpty, !items.isEmpty, !forceDelete {
            guard othersMayHoldThem else { throw .serverEmpty(syncedBefore: items.count) }
            emptied = Set(items.values.map(\.uid))
        }
        let incoming = Self.remoteChanges(listing, items: items, sent: sent)
        let fetched = incoming.changed.isEmpty ? FetchAnswer() : try collection.fetch(incoming.changed)
        // Listed as changed, then answered 404 when fetched: removed. Listed and not sent at all
        // proves nothing: it stays as it is here.
        let delivered = Set(fetched.objects.map(\.href)).union(fetched.gone)
        let notDelivered = incoming.changed.filter { !delivered.contains($0) }
        report.notDelivered += notDelivered
        report.readAlone += fetched.readAlone
        // The token moves on only when everything listed was dealt with; otherwise the same
        // listing comes again and what is missing is fetched then (what was applied now is
        // skipped by its ETag).
        // An empty complete listing is believed only so far as it deletes nothing here (see the
        // guard above); its token is not kept either: if it was a lie, a token taken from it would
        // skip, for good, every object it left out (the next sync lists again, cheaply if empty).
        // A listing the server cut short lists only some objects: what it lists is applied, what
        // it leaves out is not deleted, and the token stays, so the rest comes next time.
        var complete = notDelivered.isEmpty
        if case .everything(let all, _, let truncated) = listing {
            if all.isEmpty { complete = false }
            if truncated {
                complete = false
                report.listingCutShort = true
            }
        }
        return Pulled(
            progress: progress, incoming: incoming, fetched: fetched, removed: incoming.removed + fetched.gone,
            complete: complete, emptied: emptied)
    }

    /// Step 2, first half: the objects listed, merged here. Runs inside the caller's transaction.
    func applyObjects(_ pulled: inout Pulled, report: inout SyncReport) throws(TodoStoreError) {
        // Objects new here: a subtask that came before its parent goes under it once it is here.
        var new: [String] = []
        for object in pulled.fetched.objects where try state.item(href: object.href) == nil { new.append(object.href) }
        var childLinks: [String: String] = [:]
        for object in pulled.fetched.objects where Self.mayLinkChildren(object.text) {
            guard let parent = try? VTodoObject(parsing: object.text, timeZone: timeZone) else { continue }
            for child in parent.childUIDs where childLinks[child] == nil { childLinks[child] = parent.uid }
        }
        for object in pulled.fetched.objects {
            guard try applyIncoming(object, childLinks: childLinks, report: &report) else {
                pulled.complete = false
                continue
            }
            pulled.tookInAny = true
        }
        var arrived = Set<String>()
        for href in new { if let item = try state.item(href: href) { arrived.insert(item.uid) } }
        for id in try state.placeSubtasks(underArrived: arrived) {
            if let todo = try repository.todo(id: id) {
                report.parentLoops.append(SyncReport.Named(todoID: id, name: todo.name))
            }
        }
        for id in try state.linkDependencies(onArrived: arrived) {
            if let todo = try repository.todo(id: id) {
                report.dependencyLoops.append(SyncReport.Named(todoID: id, name: todo.name))
            }
        }
    }

    /// Whether an object's text may hold a RELTYPE=CHILD link (in any case): it is read for its
    /// links only then, so a sync of objects without one reads each once.
    static func mayLinkChildren(_ text: String) -> Bool {
        ICalendar.upper(text).contains("CHILD")
    }

    /// Step 2, second half, after every collection's objects: the removals, then the token.
    /// Runs inside the caller's transaction. After the objects, an object that moved (its UID
    /// now at another href, as a device that brought back a todo another app named sends it; or
    /// in another synced list's collection) is no longer at the href removed.
    func applyRemovals(_ pulled: Pulled, report: inout SyncReport) throws(TodoStoreError) {
        for href in pulled.removed { try applyRemoval(href: href, report: &report) }
        if pulled.complete {
            try state.setToken(pulled.incoming.token, replacing: pulled.progress.syncToken)
        } else if pulled.tookInAny || !pulled.removed.isEmpty {
            // Part of the listing taken in: the items no longer stand for the state the token
            // kept names, and an object taken in (or removed) may be put back there as that
            // state had it before a sync completes, which a delta from it would not name
            // (SyncState.setToken). The next sync lists everything.
            try state.clearToken()
        }
    }

    /// Step 3: sends what changed here; returns whether anything was written. The token is
    /// forgotten before the first write (``plan(since:refetch:report:)``); best effort after the
    /// work is done, it moves past our own writes: when that fails, the next sync lists
    /// everything, and this one has still succeeded.
    func send(_ pulled: Pulled, report: inout SyncReport) throws(SyncError) -> Bool {
        let sentAny = try push(since: pulled.progress.feedSeq, report: &report)
        if sentAny, pulled.complete, let token = pulled.incoming.token { try? advanceToken(past: token) }
        return sentAny
    }

    /// Records the sync as finished, its feed position `feedStart`, and the collection's state
    /// its items here are those of (`seen`, ``SyncAccount/seen(_:pulled:sent:)``: `nil` when
    /// that is not known).
    func finish(feedStart: TodoFeedPosition, seen: String? = nil) throws(SyncError) {
        try store { () throws(TodoStoreError) in
            try state.setFinished(at: Self.iso8601(now()), feedSeq: feedStart.seq)
            try state.setSeen(seen)
        }
    }

    // MARK: Step 1

    struct RemoteChanges {
        var changed: [String]
        var removed: [String]
        var token: String?
    }

    /// The hrefs to fetch (new, or with another ETag than recorded) and the known hrefs removed:
    /// those of items, and in a delta those of `sent`, writes whose answer was not recorded (a
    /// create that landed and was deleted since; a complete listing cannot tell that from one
    /// that never landed).
    static func remoteChanges(_ listing: ChangesAnswer, items: [String: SyncItem], sent: Set<String> = [])
        -> RemoteChanges
    {
        let etags = Dictionary(items.values.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
        func differs(_ item: ListedItem) -> Bool {
            guard let etag = item.etag, let known = etags[item.href] else { return true }
            return known != etag
        }
        switch listing {
        case .delta(let changed, let removed, let token):
            return RemoteChanges(
                changed: Set(changed.filter(differs).map(\.href)).sorted(),
                removed: Set(removed.filter { etags[$0] != nil || sent.contains($0) }).sorted(), token: token)
        case .everything(let all, let token, let truncated):
            // Left out of a complete listing: removed. Left out of one cut short: unknown.
            let listed = Set(all.map(\.href))
            return RemoteChanges(
                changed: Set(all.filter(differs).map(\.href)).sorted(),
                removed: truncated ? [] : etags.keys.filter { !listed.contains($0) }.sorted(), token: token)
        }
    }

    // MARK: Step 2

    /// Merges one object from the server into the database. Runs inside the caller's transaction.
    /// Returns false when the object could not be read as a todo (broken, or one of ours that
    /// is no longer a todo): it is reported, a todo of ours keeps its last synced version, and
    /// the object is read again next time (a broken answer may be passing; an object skipped
    /// for good would never reach this device).
    ///
    /// `childLinks` names, by UID, the parent of objects that another object of the same listing
    /// lists as its subtask (RELTYPE=CHILD): an object without a link of its own is under that one.
    @discardableResult
    func applyIncoming(
        _ object: FetchedObject, childLinks: [String: String] = [:], report: inout SyncReport
    ) throws(TodoStoreError) -> Bool {
        let vtodo: VTodoObject
        do {
            vtodo = try VTodoObject(parsing: object.text, timeZone: timeZone)
        } catch {
            // Not a todo (a VEVENT in the same collection) is none of our business; a broken
            // one is reported and left as it is. Where one of our todos was, nothing here changes.
            let ours = try state.item(href: object.href) != nil
            guard error.kind != .noTodo || ours else { return true }
            report.unreadable.append(object.href)
            return false
        }
        let remote = vtodo.fields
        let uid = vtodo.uid
        var item = try state.item(uid: uid)
        if item == nil, let elsewhere = try state.itemElsewhere(uid: uid) {
            // Another app moved the object here from another synced list's collection: the todo
            // follows it, keeping its id and any edit made here since (merged against the version
            // synced there), and the item moves with it, so that the object's absence from the
            // other collection deletes nothing (``SyncAccount`` takes in every collection's
            // objects before any removal).
            item = elsewhere.item
            if let todo = try uids.todoID(forUID: uid).flatMap({ id throws(TodoStoreError) in
                try repository.todo(id: id)
            }), todo.listID == elsewhere.list {
                _ = try repository.move(ids: [todo.id], to: try state.linkedListID())
            }
            report.movedHere += 1
        }
        let local = try localTodo(uid: uid)
        let remoteParent = try parentUID(of: vtodo, item: item, childLinks: childLinks)
        let remoteDepends = vtodo.dependsOnUIDs
        let newItem = SyncItem(
            uid: uid, href: object.href, etag: object.etag, text: object.text, base: remote, parentUID: remoteParent,
            dependsOnUIDs: remoteDepends)
        // The last version both sides agreed on: the one last synced, or, when a write whose
        // answer was lost is what the server now holds, that write (this device's own, not a
        // change made there).
        var base = item?.base
        var baseParent = item?.parentUID
        var baseDepends = item?.dependsOnUIDs ?? []
        var sentFields: TodoFields?
        var sentObject: VTodoObject?
        if let sent = try state.sentText(uid: uid) {
            try state.removeSent(uid: uid)
            sentObject = try? VTodoObject(parsing: sent, timeZone: timeZone)
            sentFields = sentObject?.fields
            if let sentObject, sentObject.fields.means(theSameAs: remote) {
                base = sentObject.fields
                baseParent = sentObject.parentUID
                baseDepends = sentObject.dependsOnUIDs
            }
        }
        // A todo here with no synced version: back after its object was deleted (an edit that
        // beat the delete, `todo undo`), its base is the object as it was before the delete,
        // whoever brought it back there; never synced, it is the create it sent (no one else can
        // have made an object of a UID no sync ever saw), which landed and was changed since.
        // Without either, every field that differs is a conflict (ThreeWayMerge).
        if base == nil, local != nil {
            let gone = try state.goneText(uid: uid).flatMap { try? VTodoObject(parsing: $0, timeZone: timeZone) }
            base = gone?.fields ?? sentFields
            baseParent = gone.map(\.parentUID) ?? sentObject?.parentUID
            baseDepends = gone?.dependsOnUIDs ?? sentObject?.dependsOnUIDs ?? []
        }
        // The object is on the server again: what was kept of it after its delete is not needed.
        try state.removeGone(uid: uid)

        guard let local else {
            let previousID = try uids.knownTodoID(forUID: uid)
            if let base, base.means(theSameAs: remote) {
                // Deleted here, unchanged there (but for what we do not sync): the deletion
                // stands and is sent with the new ETag.
                try state.save(
                    SyncItem(
                        uid: uid, href: object.href, etag: object.etag, text: object.text, base: base,
                        parentUID: remoteParent, dependsOnUIDs: remoteDepends))
                return true
            }
            // As another app wrote it: a blank SUMMARY is still a todo, not an error. A todo
            // deleted here comes back under its id, as `todo undo` would bring it (whose undo of
            // the delete then finds it there, instead of adding a second copy).
            let todo: Todo
            if let moved = try uids.todoID(forUID: uid).flatMap({ id throws(TodoStoreError) in
                try repository.todo(id: id)
            }) {
                // Moved to a list this remote does not hold, and edited there since: the edit
                // wins as over a delete, and brings the todo back into the synced list.
                _ = try repository.move(ids: [moved.id], to: try state.linkedListID())
                todo = try repository.replaceFields(id: moved.id, with: remote)
            } else {
                todo = try repository.add(
                    remote, nameCheck: .asStored, now: nil, id: try uids.deletedTodoID(forUID: uid),
                    list: try state.linkedListID())
            }
            try uids.record(uid, forTodo: todo.id)
            try placeUnder(remoteParent, todo, report: &report)
            try link(todo, to: remoteDepends, report: &report)
            try state.save(newItem)
            report.received += 1
            report.record(.init(.added, todoID: todo.id, name: todo.name, received: true))
            try logFinishedElsewhere(of: todo.id, remote: remote, object: vtodo)
            // A series another app marked done as a whole while its rule goes on (TV9), seen
            // here first: said as when it was synced before.
            if remote.status == .completed, vtodo.seriesContinues, let series = RepeatingTodo(remote) {
                report.seriesEndedElsewhere.append(
                    SyncReport.Ended(
                        todo: SyncReport.Named(todoID: todo.id, name: todo.name), rule: series.summary,
                        next: series.following))
            }
            if let rule = remote.repeatRule, !remote.isDone {
                report.seriesStarted.append(
                    SyncReport.Candidate(
                        todo: SyncReport.Named(todoID: todo.id, name: todo.name), summary: remote.name, rule: rule))
            }
            // Deleted here while edited there: the edit wins, and the delete is reported.
            if let previousID {
                report.conflicts.append(
                    .editBeatDelete(todoID: todo.id, previousID: previousID, name: todo.name, deletedHere: true))
            }
            return true
        }
        let (ours, theirs) = Self.alignSeries(
            base: base, local: local.fields, remote: remote,
            finishedHere: !(try repository.pendingCompletions(ofTodo: local.id).isEmpty))
        let merged = ThreeWayMerge.merge(base: base, local: ours, remote: theirs, todoID: local.id)
        if merged.fields != local.fields {
            try repository.replaceFields(id: local.id, with: merged.fields)
            report.received += 1
            report.record(
                .init(
                    .from(local.fields, to: merged.fields), todoID: local.id, name: merged.fields.name,
                    received: true))
        }
        report.conflicts += merged.conflicts
        // The place in the tree, merged as one field: the server's change unless only this
        // device changed it (a change on both sides that differs: the server's, as for a state).
        let localParent = try state.parentLink(of: local, base: baseParent)
        if remoteParent != baseParent,
            !localParent.differs(fromBase: baseParent) || localParent.uid != remoteParent
        {
            try placeUnder(remoteParent, local, report: &report)
        }
        // The todos it waits for, merged as a set (a link either side added stays unless the
        // other removed it); links made here to todos without a UID yet stay as they are.
        let localDepends = try state.dependencyLinks(of: local.id, base: baseDepends)
        if Set(remoteDepends) != Set(baseDepends) {
            let merged = DependencyLinks.merged(base: baseDepends, local: localDepends.uids, remote: remoteDepends)
            try link(local, to: merged, keeping: localDepends.unnamed, report: &report)
        }
        if let base, base.repeats {
            try noteSeries(
                of: local.id, base: base, remote: remote, merged: merged.fields, object: vtodo, previous: item?.text,
                report: &report)
        }
        try state.save(newItem)
        return true
    }

    /// The parent `object` names: its own link (RELATED-TO of type PARENT); else the link of a
    /// parent in the same listing that lists it as a subtask (`childLinks`); else, while the
    /// parent it had when last synced (`item`) still lists it so, that parent.
    private func parentUID(of object: VTodoObject, item: SyncItem?, childLinks: [String: String])
        throws(TodoStoreError) -> String?
    {
        if let own = object.parentUID { return own }
        if let linked = childLinks[object.uid] { return linked }
        guard let last = item?.parentUID, let parent = try state.anyItem(uid: last),
            Self.mayLinkChildren(parent.text),
            let parentObject = try? VTodoObject(parsing: parent.text, timeZone: timeZone),
            parentObject.childUIDs.contains(object.uid)
        else { return nil }
        return last
    }

    /// Makes `todo` wait for the todos of `uids` here, and those of `keeping`
    /// (``SyncState/setDependencies(of:toUIDs:keeping:)``), reporting a set that would make a cycle.
    private func link(_ todo: Todo, to uids: [String], keeping: [Int64] = [], report: inout SyncReport)
        throws(TodoStoreError)
    {
        if !(try state.setDependencies(of: todo.id, toUIDs: uids, keeping: keeping)) {
            report.dependencyLoops.append(SyncReport.Named(todoID: todo.id, name: todo.name))
        }
    }

    /// Puts `todo` under the todo of `uid` here (``SyncState/placeTodo(_:underUID:)``), reporting
    /// a link that would make a loop.
    private func placeUnder(_ uid: String?, _ todo: Todo, report: inout SyncReport) throws(TodoStoreError) {
        if !(try state.placeTodo(todo.id, underUID: uid)) {
            report.parentLoops.append(SyncReport.Named(todoID: todo.id, name: todo.name))
        }
    }

    /// Logs what the object says other apps finished of a repeating todo's series, whenever
    /// the todo meets it (first seen too: the history comes with the object): each occurrence
    /// its RECURRENCE-ID components mark done (`override`, at their COMPLETED time) or cancelled
    /// (`skip`), and the occurrence at which another app marked the whole series done while its
    /// rule goes on (`series`). An occurrence logged already keeps its entry.
    private func logFinishedElsewhere(of id: Int64, remote: TodoFields, object: VTodoObject)
        throws(TodoStoreError)
    {
        guard remote.repeatRule != nil else { return }
        var finished = object.finishedOccurrences(timeZone: timeZone).map {
            TodoCompletion(
                todoID: id, occurrence: $0.occurrence, completedAt: $0.completedAt, source: $0.source, pending: false)
        }
        // A series cancelled there was ended on purpose: no occurrence of it was done.
        if remote.status == .completed, object.seriesContinues, let occurrence = remote.deadline {
            finished.append(
                TodoCompletion(
                    todoID: id, occurrence: occurrence, completedAt: remote.completed, source: .series, pending: false))
        }
        guard !finished.isEmpty else { return }
        var logged = Set(try repository.completions(ofTodo: id).map(\.occurrence))
        for completion in finished where logged.insert(completion.occurrence).inserted {
            try repository.recordCompletion(completion)
        }
    }

    /// What another app did to a repeating todo's series, for the log and the report: the
    /// occurrences it moved past are logged as finished elsewhere (`advance`); a series it
    /// marked done as a whole while its rule goes on is reported with where it would go on; one
    /// of our objects it gave RECURRENCE-ID components is reported (Tasks.org stops syncing it).
    private func noteSeries(
        of id: Int64, base: TodoFields, remote: TodoFields, merged: TodoFields, object: VTodoObject,
        previous: String?, report: inout SyncReport
    ) throws(TodoStoreError) {
        let named = SyncReport.Named(todoID: id, name: merged.name)
        // Before the occurrences moved past: one an override finished was done, not skipped.
        try logFinishedElsewhere(of: id, remote: remote, object: object)
        if let was = base.deadline, let current = remote.deadline, current > was, !remote.isDone,
            var series = RepeatingTodo(base)
        {
            let logged = Set(try repository.completions(ofTodo: id).map(\.occurrence))
            let syncTime = UTCTimestamp(secondsSince1970: now())
            // Bounded: a series moved years ahead is logged for its first 400 steps at most.
            for _ in 0..<400 {
                guard case .next(let next, let occurrence?) = series.finish(.done, today: current, now: syncTime),
                    occurrence < current, let following = RepeatingTodo(next)
                else { break }
                if !logged.contains(occurrence) {
                    try repository.recordCompletion(
                        TodoCompletion(
                            todoID: id, occurrence: occurrence, completedAt: syncTime, source: .advance, pending: false)
                    )
                }
                series = following
            }
        }
        if remote.status == .completed, !base.isDone, merged.status == .completed, object.seriesContinues,
            let series = RepeatingTodo(remote)
        {
            report.seriesEndedElsewhere.append(
                SyncReport.Ended(todo: named, rule: series.summary, next: series.following))
        }
        // Its rule taken off as it became done (todoman's `done` moves the rule to a new todo):
        // one half of a moved series, if a new todo with that rule came in too.
        if let rule = base.repeatRule, remote.repeatRule == nil, remote.status == .completed, !base.isDone,
            merged.isDone,
            merged.repeatRule == nil
        {
            report.seriesLost.append(SyncReport.Candidate(todo: named, summary: remote.name, rule: rule))
        }
        if object.isOurs, !object.overrides.isEmpty, let previous,
            let before = try? VTodoObject(parsing: previous, timeZone: timeZone), before.overrides.isEmpty
        {
            report.givenOverrides.append(named)
        }
    }

    /// Deals with the object at `href` deleted on the server: the todo whose item is at `href`
    /// now (none when its object moved to another href in the same sync). Runs inside the
    /// caller's transaction.
    func applyRemoval(href: String, report: inout SyncReport) throws(TodoStoreError) {
        guard let item = try state.item(href: href) else {
            try applyRemovalOfSent(href: href, report: &report)
            return
        }
        let uid = item.uid
        let local = try localTodo(uid: uid)
        if let local, !local.fields.means(theSameAs: item.base) {
            // Edited here, deleted there: the edit wins; with no item, the todo is sent anew, made
            // from the object's last synced text with the edit in it.
            report.conflicts.append(.editBeatDelete(todoID: local.id, previousID: local.id, name: local.name))
            try state.recordGone(uid: uid, text: item.text)
        } else if let local {
            _ = try repository.delete(ids: [local.id])
            report.deleted += 1
            report.record(.init(.removed, todoID: local.id, name: local.name, received: true))
        } else {
            // Deleted on both sides: `todo undo` may still bring it back here.
            try state.recordGone(uid: item.uid, text: item.text)
        }
        try state.removeItem(uid: uid)
    }

    /// Deals with the removal of `href` where a create was sent whose answer was not recorded:
    /// the server listed the object as removed since, so the create landed and was deleted
    /// there. The text sent is the base: the todo unchanged since is deleted here, one changed
    /// since beats the delete (reported) and goes back as that object.
    private func applyRemovalOfSent(href: String, report: inout SyncReport) throws(TodoStoreError) {
        guard let sent = try state.sent(href: href), try state.item(uid: sent.uid) == nil else { return }
        try state.removeSent(uid: sent.uid)
        let local = try localTodo(uid: sent.uid)
        guard let local else {
            try state.recordGone(uid: sent.uid, text: sent.text)
            return
        }
        if let fields = try? VTodoObject(parsing: sent.text, timeZone: timeZone).fields,
            local.fields.means(theSameAs: fields)
        {
            _ = try repository.delete(ids: [local.id])
            report.deleted += 1
            report.record(.init(.removed, todoID: local.id, name: local.name, received: true))
        } else {
            report.conflicts.append(.editBeatDelete(todoID: local.id, previousID: local.id, name: local.name))
            try state.recordGone(uid: sent.uid, text: sent.text)
        }
    }

    // MARK: Step 3

    /// A write planned by ``push(since:report:)``: the request, the object's UID and text, and
    /// the fields it carries (none for a delete).
    private struct PlannedWrite {
        var write: Write
        var uid: String
        var text: String
        var fields: TodoFields?
        /// The parent the object names (RELATED-TO), to record as the next merge base.
        var parentUID: String?
        /// The todos the object waits for (RELATED-TO;RELTYPE=DEPENDS-ON), likewise.
        var dependsOnUIDs: [String] = []
        /// The todo and the occurrences finished here that the write carries to the server.
        var finished: (todoID: Int64, occurrences: [CalendarDate])?
        /// The change of a todo here that the write sends, for the report; none when the todo is
        /// not known here.
        var change: SyncReport.Change?
    }

    /// Sends every local change; returns whether anything was written to the server.
    private func push(since feedSeq: Int64, report: inout SyncReport) throws(SyncError) -> Bool {
        var sentAny = false
        for _ in 0..<Self.maximumRounds {
            var refetch: Set<String> = []
            let planned = try store(&report) { (report) throws(TodoStoreError) in
                try plan(since: feedSeq, refetch: &refetch, report: &report)
            }
            guard let planned else { return sentAny }
            let outcomes = planned.isEmpty ? [] : try collection.write(planned.map(\.write))
            var failure: SyncError?
            var written: [String] = []
            try store(&report) { (report) throws(TodoStoreError) in
                for (plan, outcome) in zip(planned, outcomes) {
                    // A write answered (or never sent) is no longer one whose answer was lost;
                    // a failed one may have reached the server before it failed.
                    if case .failed = outcome {} else { try state.removeSent(uid: plan.uid) }
                    switch outcome {
                    case .written(let etag):
                        guard let fields = plan.fields else { continue }
                        try state.removeGone(uid: plan.uid)
                        if let finished = plan.finished {
                            try repository.markCompletionsSent(
                                ofTodo: finished.todoID, occurrences: finished.occurrences)
                        }
                        try state.save(
                            SyncItem(
                                uid: plan.uid, href: plan.write.href, etag: etag, text: plan.text, base: fields,
                                parentUID: plan.parentUID, dependsOnUIDs: plan.dependsOnUIDs))
                        written.append(plan.write.href)
                        report.sent += 1
                        if var change = plan.change {
                            change.name = fields.name
                            report.record(change)
                        }
                        sentAny = true
                    case .deleted:
                        // `todo undo` may bring the todo back: as this object, then.
                        if let item = try state.item(uid: plan.uid) {
                            try state.recordGone(uid: item.uid, text: item.text)
                        }
                        try state.removeItem(uid: plan.uid)
                        report.sent += 1
                        if let change = plan.change { report.record(change) }
                        sentAny = true
                    case .preconditionFailed:
                        refetch.insert(plan.write.href)
                    case .failed(let error):
                        failure = failure ?? SyncError(error)
                    case .notSent:
                        break
                    }
                }
            }
            // What the server holds now, whatever it answered to the PUT (see the type's
            // documentation): merged as an incoming change against what was sent.
            if !written.isEmpty { try readBack(written, report: &report) }
            if let failure { throw failure }
            guard !refetch.isEmpty else { continue }
            // Someone else wrote first: read their version and merge it, then go round again.
            try readBack(refetch.sorted(), report: &report)
        }
        let left = try read { () throws(TodoStoreError) in try state.localChanges(since: feedSeq) }
        guard let first = left.first else { return sentAny }
        let href: String
        switch first {
        case .created(_, let uid): href = uid.map { collection.href(forNewUID: $0) } ?? "a new todo"
        case .changed(_, let item), .deleted(let item): href = item.href
        }
        throw .tooManyRetries(href: href)
    }

    /// The writes for the local changes since `feedSeq`, or `nil` when there are none. Changes
    /// whose object must be read again first (no ETag to make the write conditional on, or a
    /// text that cannot be read) go to `refetch`. Gives UIDs first, committed: a retry after a
    /// crash finds the same object. A todo whose tags were only reordered here takes the synced
    /// order (``SyncState/Reorder``), with nothing to send.
    private func plan(since feedSeq: Int64, refetch: inout Set<String>, report: inout SyncReport)
        throws(TodoStoreError) -> [PlannedWrite]?
    {
        let (changes, reorders) = try state.localChangesAndReorders(since: feedSeq)
        for reorder in reorders {
            var fields = reorder.todo.fields
            fields.tags = reorder.syncedTags
            try repository.replaceFields(id: reorder.todo.id, with: fields)
        }
        if changes.isEmpty { return nil }
        let needUIDs = changes.compactMap { change -> Int64? in
            if case .created(let todo, nil) = change { return todo.id }
            return nil
        }
        let given = needUIDs.isEmpty ? [:] : try uids.assign(toTodos: needUIDs)
        var planned: [PlannedWrite] = []
        for change in changes {
            switch change {
            case .created(let todo, let uid):
                guard let uid = uid ?? given[todo.id] else { continue }
                var object = Self.outgoingObject(
                    uid: uid, fields: todo.fields, gone: try state.goneText(uid: uid), timeZone: timeZone, now: now())
                let parentUID = try namedParent(try state.parentLink(of: todo, base: nil), given: given)
                object.setParent(parentUID, now: nil)
                let dependsOn = try named(try state.dependencyLinks(of: todo.id, base: []), given: given)
                object.setDependsOn(dependsOn, now: nil)
                let fields = try taking(object, for: todo)
                try state.recordSent(uid: uid, href: collection.href(forNewUID: uid), text: object.text)
                // A new object stands where the todo stands: what was finished here is in it.
                let pending = try repository.pendingCompletions(ofTodo: todo.id).map(\.occurrence)
                planned.append(
                    PlannedWrite(
                        write: .create(href: collection.href(forNewUID: uid), text: object.text), uid: uid,
                        text: object.text, fields: fields, parentUID: parentUID, dependsOnUIDs: dependsOn,
                        finished: (todo.id, pending),
                        change: .init(.added, todoID: todo.id, name: fields.name, sent: true)))
            case .changed(let todo, let item):
                guard let etag = item.etag, let stored = try? VTodoObject(parsing: item.text, timeZone: timeZone)
                else {
                    refetch.insert(item.href)
                    continue
                }
                let pending = try repository.pendingCompletions(ofTodo: todo.id)
                let outgoing = Self.outgoingObject(
                    stored, fields: todo.fields, pending: pending, timeZone: timeZone, now: now())
                var object = outgoing.object
                let (fields, keptRepeating) = (outgoing.fields, outgoing.keptRepeating)
                // Its place in the tree, when that changed here: the link written the apps' way.
                let link = try state.parentLink(of: todo, base: item.parentUID)
                let moved = link.differs(fromBase: item.parentUID)
                let parentUID = moved ? try namedParent(link, given: given) : item.parentUID
                if moved { object.setParent(parentUID, now: now()) }
                // And the todos it waits for, when those changed here.
                let links = try state.dependencyLinks(of: todo.id, base: item.dependsOnUIDs)
                let relinked = links.differ(fromBase: item.dependsOnUIDs)
                let dependsOn = relinked ? try named(links, given: given) : item.dependsOnUIDs
                if relinked { object.setDependsOn(dependsOn, now: now()) }
                if keptRepeating {
                    // The todo goes back to not done here too, the rest of the change is sent.
                    try repository.replaceFields(id: todo.id, with: fields)
                    report.keptRepeating.append(SyncReport.Named(todoID: todo.id, name: todo.name))
                    if fields.means(theSameAs: item.base) && !moved && !relinked { continue }
                }
                let sent = try taking(object, for: todo)
                try state.recordSent(uid: item.uid, href: item.href, text: object.text)
                planned.append(
                    PlannedWrite(
                        write: .update(href: item.href, text: object.text, etag: etag), uid: item.uid,
                        text: object.text, fields: sent, parentUID: parentUID, dependsOnUIDs: dependsOn,
                        finished: (todo.id, pending.map(\.occurrence)),
                        change: .init(.from(item.base, to: sent), todoID: todo.id, name: sent.name, sent: true)))
            case .deleted(let item):
                guard let etag = item.etag else {
                    refetch.insert(item.href)
                    continue
                }
                let change = try uids.knownTodoID(forUID: item.uid).map {
                    SyncReport.Change(.removed, todoID: $0, name: item.base.name, sent: true)
                }
                planned.append(
                    PlannedWrite(
                        write: .delete(href: item.href, etag: etag), uid: item.uid, text: "", fields: nil,
                        change: change))
            }
        }
        // The objects written will no longer be as the state the token names has them: one put
        // back there as it was (a create deleted again by a phone) would be no change since
        // that state, and stay here for good (SyncState.setToken).
        if !planned.isEmpty { try state.clearToken() }
        return planned
    }

    /// The UID a link names, a parent without one given its UID now (in the plan's transaction,
    /// committed before anything is sent, as every UID is: ``plan(since:refetch:report:)``);
    /// `given` holds the UIDs the plan gave already.
    private func namedParent(_ link: ParentLink, given: [Int64: String]) throws(TodoStoreError) -> String? {
        switch link {
        case .none: return nil
        case .uid(let uid): return uid
        case .unnamedParent(let id):
            if let uid = given[id] { return uid }
            return try uids.assign(toTodos: [id])[id]
        }
    }

    /// The UIDs of `links`, each todo without one given its UID now, as ``namedParent(_:given:)``.
    private func named(_ links: DependencyLinks, given: [Int64: String]) throws(TodoStoreError) -> [String] {
        var uids = links.uids
        let missing = links.unnamed.filter { given[$0] == nil }
        let assigned = missing.isEmpty ? [:] : try self.uids.assign(toTodos: missing)
        for id in links.unnamed { if let uid = given[id] ?? assigned[id] { uids.append(uid) } }
        return uids
    }

    /// The object a sync sends for a todo the collection has: `stored`, its last synced object,
    /// with the changes made here written in (``VTodoObject/update(to:now:)``: only the
    /// properties of the fields that changed), so that every line another app wrote stays.
    /// The occurrences finished here (`pending`) go first, each once, on the object as it is: one
    /// another device or app finished already is no second advance. A todo completed here as a
    /// whole whose object repeats past its current occurrence is sent as the object stands (one
    /// cancelled is not: `todo cancel` ends a series on purpose): STATUS:COMPLETED
    /// on the master would end the series on every device (RepeatingSeries.swift);
    /// `keptRepeating` then says the fields written differ from the todo's.
    ///
    /// The one making of an upload's text from the stored one: the sync's, and `todo export
    /// --format ics`'s (``SyncState/outgoingTexts(of:uids:timeZone:now:)``).
    static func outgoingObject(
        _ stored: VTodoObject, fields: TodoFields, pending: [TodoCompletion], timeZone: LocalTimeZone, now: Int64
    ) -> (object: VTodoObject, fields: TodoFields, keptRepeating: Bool) {
        var object = stored
        for completion in pending {
            let at = completion.completedAt?.secondsSince1970 ?? now
            _ = object.finishOccurrence(
                on: completion.occurrence, finish(completion.source), completedAt: at,
                completedOn: timeZone.calendarDate(atEpochSeconds: at) ?? completion.occurrence, now: now)
        }
        var fields = fields
        var keptRepeating = false
        // A cancelled series is meant to end (`todo cancel`): only a completion is kept back.
        if fields.status == .completed, !object.fields.isDone, object.seriesContinues {
            fields.status = object.fields.status
            fields.completed = object.fields.completed
            fields.percent = object.fields.percent
            keptRepeating = true
        }
        object.update(to: fields, now: now)
        return (object, fields, keptRepeating)
    }

    /// The object a sync sends for a todo the collection does not have: a new one, but for an
    /// object the server deleted while its todo stayed here (edited, or brought back), which
    /// comes back whole: `gone`, its last synced text, with the todo's fields written in, every
    /// other line kept.
    static func outgoingObject(uid: String, fields: TodoFields, gone: String?, timeZone: LocalTimeZone, now: Int64)
        -> VTodoObject
    {
        guard let gone, var last = try? VTodoObject(parsing: gone, timeZone: timeZone), last.uid == uid else {
            return VTodoObject.new(uid: uid, fields: fields, now: now)
        }
        last.update(to: fields, now: now)
        return last
    }

    /// The fields `object` carries, which `todo` takes here in the transaction that plans the
    /// write: the times an object is given where the todo had none (CREATED, COMPLETED: another
    /// program inserted it, or marked it done), a name's control characters as U+FFFD. So the
    /// base recorded after the write, the todo here and every other device agree even when the
    /// write's answer or its read-back is lost.
    private func taking(_ object: VTodoObject, for todo: Todo) throws(TodoStoreError) -> TodoFields {
        let current = try repository.todo(id: todo.id)?.fields ?? todo.fields
        guard let sent = try? VTodoObject(parsing: object.text, timeZone: timeZone).fields else { return current }
        if !sent.means(theSameAs: current) { try repository.replaceFields(id: todo.id, with: sent) }
        return sent
    }

    /// Fetches `hrefs` and merges what the server sends, in one transaction; an object the
    /// server says is gone is a removal. One not delivered stays as recorded: its write goes
    /// again if it is still needed (a 412 next time), or the next listing shows its ETag.
    private func readBack(_ hrefs: [String], report: inout SyncReport) throws(SyncError) {
        let fetched = try collection.fetch(hrefs)
        try store(&report) { (report) throws(TodoStoreError) in
            for object in fetched.objects { try applyIncoming(object, report: &report) }
            for href in fetched.gone { try applyRemoval(href: href, report: &report) }
        }
    }

    /// After sending, stores a token past our own writes, so that the next sync with nothing to
    /// do is one request that finds nothing. Only when everything the server lists since
    /// `token` (the one this sync's listing gave) is exactly what is recorded here (same ETags),
    /// and no other sync of this database stored a token meanwhile: otherwise the next sync
    /// lists everything.
    private func advanceToken(past token: String) throws(SyncError) {
        guard case .delta(let changed, let removed, let next) = try collection.changes(since: token) else { return }
        try store { () throws(TodoStoreError) in
            let items = try state.items()
            let etags = Dictionary(items.values.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
            let ours =
                changed.allSatisfy { $0.etag != nil && etags[$0.href] == $0.etag }
                && removed.allSatisfy { etags[$0] == nil }
            if ours { try state.setToken(next, replacing: nil) }
        }
    }

    /// A repeating todo's position in its series (its deadline, its rule's COUNT) is one value
    /// (RECURRENCE.md §5.5): when both sides moved it forward from the base, the later position
    /// wins, with its COUNT, and that is no conflict (two completions of the same occurrence give
    /// the same value; two here and one there, the position after two). A master another app
    /// marked done where the series stood, while this device finished that occurrence, is the same
    /// completion: the series goes on here. Returns both sides with their positions made to agree
    /// where these rules decide; the merge does the rest.
    static func alignSeries(base: TodoFields?, local: TodoFields, remote: TodoFields, finishedHere: Bool)
        -> (local: TodoFields, remote: TodoFields)
    {
        guard let base, base.repeats, local.repeats, remote.repeats, let was = base.deadline,
            let ours = local.deadline, let theirs = remote.deadline
        else { return (local, remote) }
        var local = local
        var remote = remote
        if finishedHere, remote.status == .completed, !base.isDone, !local.isDone, theirs == was, ours > was {
            remote.isDone = false
            remote.completed = nil
            remote.takePosition(of: local)
            return (local, remote)
        }
        guard ours > was, theirs > was, ours != theirs else { return (local, remote) }
        let later = ours > theirs ? local : remote
        local.takePosition(of: later)
        remote.takePosition(of: later)
        return (local, remote)
    }

    /// How a completion logged here finishes its occurrence on the server's object.
    static func finish(_ source: TodoCompletion.Source) -> RepeatingTodo.Finish {
        switch source {
        case .skip: .skip
        case .series: .endSeries
        case .here, .advance, .override: .done
        }
    }

    // MARK: Plumbing

    /// One step's work on the store: one IMMEDIATE transaction, commit notifications held until
    /// it ends (the store's rule), its errors the sync's.
    func store<Result>(_ body: () throws(TodoStoreError) -> Result) throws(SyncError) -> Result {
        do {
            return try repository.writeTransaction(mapError: TodoStoreError.sqlite, body)
        } catch {
            throw .store(error)
        }
    }

    /// ``store(_:)`` for a step that adds to `report`: what it adds is kept only once the step's
    /// transaction is committed (a step rolled back reported nothing).
    func store<Result>(
        _ report: inout SyncReport, _ body: (inout SyncReport) throws(TodoStoreError) -> Result
    ) throws(SyncError) -> Result {
        var staged = report
        let result = try store { () throws(TodoStoreError) in try body(&staged) }
        report = staged
        return result
    }

    /// One step's reading of the store, its errors the sync's.
    func read<Result>(_ body: () throws(TodoStoreError) -> Result) throws(SyncError) -> Result {
        do { return try body() } catch { throw .store(error) }
    }

    /// `2026-11-23T10:15:00Z` for seconds since 1970.
    static func iso8601(_ seconds: Int64) -> String {
        UTCTimestamp(secondsSince1970: seconds).description
    }
}

extension TodoFields {
    /// Takes the series position of `other`, as one unit: its deadline, with the due time and
    /// start that move with it, and its rule (whose COUNT counts down as the series advances).
    fileprivate mutating func takePosition(of other: TodoFields) {
        deadline = other.deadline
        dueTime = other.dueTime
        start = other.start
        repeatRule = other.repeatRule
    }
}
