import TodoStore

/// One sync of every list of an account that syncs (``SyncState/links()``), each with its own
/// collection and ``SyncEngine``, as one run: the lists' collections are read first, then every
/// collection's objects are taken in, then every collection's removals, and only then is
/// anything sent.
///
/// The order is what makes a move between two synced lists safe, whoever made it:
/// - moved by another app (its object deleted from one collection and written to the other),
///   the todo follows its object, keeping its id and any edit made here, because the object's
///   arrival in the new collection is taken in before its absence from the old one would delete
///   it here (or, edited here, send it back there: the task would be in both lists);
/// - moved here (`todo move`), it is deleted from the old collection first and written to the
///   new one after (a second round of sends), as Cyrus and iCloud, which keep a UID unique per
///   account, require; a sync killed in between leaves it in one collection, and the next sync
///   writes it to the new one.
///
/// With one engine this is exactly ``SyncEngine/sync(into:)``.
///
/// Threading: runs on the caller's thread, which must own the repository; the collections'
/// calls block.
public struct SyncAccount {
    public let engines: [SyncEngine]
    /// Each collection's state as the account's home listed it before this sync, by list
    /// (`HomeCollection.state`): recorded for the lists whose sync took in everything listed.
    public let listed: [Int64: String]

    /// `engines`: one per link, all on the same repository, time zone and clock.
    public init(engines: [SyncEngine], listed: [Int64: String] = [:]) {
        self.engines = engines
        self.listed = listed
    }

    /// The state to record as the one a list is in step with (`AccountSync`'s idle lists are
    /// those whose collection is still in it, and cost no request): the state the home listed
    /// before this sync, when the sync took in everything listed and wrote nothing (a write makes
    /// another state), and, where the state is a sync token, when the listing's token is that
    /// same state (nothing changed between the home's listing and the collection's). A state is
    /// content, not a moment (Xandikos's is a git tree): recorded while the items here were not
    /// those of it, a collection put back into it (an object made here, deleted by a phone)
    /// would look idle for good (SyncState.setToken).
    static func seen(_ listed: String?, pulled: SyncEngine.Pulled, sent: Bool) -> String? {
        guard let listed, pulled.complete, !sent else { return nil }
        guard listed.hasPrefix("ctag:") || pulled.incoming.token == listed else { return nil }
        return listed
    }

    /// A collection that lists nothing while todos were synced with it is believed only when each
    /// of them is in another collection of the account now: the last todos of a list moved out
    /// by another device or app, taken in there before their absence here deletes anything.
    /// Otherwise (a server that lost a collection's objects) the sync stops, and nothing changes
    /// here (``SyncError/serverEmpty(syncedBefore:)``).
    private func checkEmptied(_ pulls: [SyncEngine.Pulled], _ engines: [SyncEngine]) throws(SyncError) {
        let emptied = pulls.compactMap(\.emptied)
        guard !emptied.isEmpty, let first = engines.first else { return }
        var elsewhere = Set<String>()
        for pulled in pulls where pulled.emptied == nil {
            for object in pulled.fetched.objects {
                if let uid = try? VTodoObject(parsing: object.text, timeZone: first.timeZone).uid {
                    elsewhere.insert(uid)
                }
            }
        }
        for (engine, pulled) in zip(engines, pulls) {
            guard let uids = pulled.emptied else { continue }
            for uid in uids where !elsewhere.contains(uid) {
                // Moved by an earlier sync already: recorded with another list's collection.
                let moved = try engine.read { () throws(TodoStoreError) in try engine.state.itemElsewhere(uid: uid) }
                if moved == nil { throw .serverEmpty(syncedBefore: uids.count) }
            }
        }
    }

    /// Syncs every list both ways. `report` holds what was done when it fails part-way (see
    /// ``SyncEngine/sync(into:)``); the collections read before a failure may have been applied.
    /// A collection that answers 404 is gone: its list is kept with its todos and no longer
    /// synced (`AccountSync.markGone(_:in:)`), and the others sync on.
    public func sync(into report: inout SyncReport) throws(SyncError) {
        guard let first = engines.first else { throw .notConfigured }
        let (remote, feedStart) = try first.read { () throws(TodoStoreError) in
            // The feed position is taken before reading anything: a change committed from here
            // on is read again next time.
            (try first.state.remote(), try first.repository.feedPosition())
        }
        guard remote != nil else { throw .notConfigured }
        first.timeZone.prepare()

        // 1. What changed there, in every collection.
        var engines: [SyncEngine] = []
        var pulls: [SyncEngine.Pulled] = []
        for engine in self.engines {
            do {
                pulls.append(try engine.pull(report: &report, othersMayHoldThem: self.engines.count > 1))
                engines.append(engine)
            } catch .collectionNotFound {
                let list = try engine.read { () throws(TodoStoreError) in try engine.state.linkedListID() }
                let url = try engine.read { () throws(TodoStoreError) in
                    try engine.state.links().first { $0.list == list }?.url
                }
                let gone = try engine.store { () throws(TodoStoreError) in
                    try AccountSync.markGone(SyncLink(list: list, url: url ?? ""), in: engine.repository)
                }
                report.account.gone.append(gone)
            }
        }
        guard !engines.isEmpty else { return }
        try checkEmptied(pulls, engines)

        // 2. Apply it here, in one transaction: every collection's objects, then every removal.
        try first.store(&report) { (report) throws(TodoStoreError) in
            for index in engines.indices { try engines[index].applyObjects(&pulls[index], report: &report) }
            for index in engines.indices { try engines[index].applyRemovals(pulls[index], report: &report) }
            report.pairMovedSeries()
        }

        // 3. Send what changed here; with several lists, once more: a todo moved between them is
        // written to its new collection once the old one has deleted it.
        var sent = Array(repeating: false, count: engines.count)
        for index in engines.indices { sent[index] = try engines[index].send(pulls[index], report: &report) }
        if engines.count > 1 {
            for index in engines.indices {
                if try engines[index].send(pulls[index], report: &report) { sent[index] = true }
            }
        }
        // What reading back our own writes offered is no series another app moved.
        report.seriesLost = []
        report.seriesStarted = []
        for index in engines.indices {
            let (engine, pulled) = (engines[index], pulls[index])
            let list = try engine.read { () throws(TodoStoreError) in try engine.state.linkedListID() }
            try engine.finish(feedStart: feedStart, seen: Self.seen(listed[list], pulled: pulled, sent: sent[index]))
        }
    }
}
