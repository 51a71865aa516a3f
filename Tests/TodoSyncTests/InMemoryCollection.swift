import TodoSync

/// A calendar collection in memory, with the behaviour the engine relies on from a CalDAV
/// server: ETags that change on every write, conditional writes, RFC 6578 tokens (optional).
/// Beside the real servers (TodoSyncServerTests), it lets property tests run thousands of
/// syncs, and inject what is hard to time against a server: a write by someone else between a
/// listing and our write, a failure at the n-th request.
final class InMemoryCollection: CalendarCollection, @unchecked Sendable {
    struct Stored { var etag: String; var text: String }

    private(set) var objects: [String: Stored] = [:]
    /// Every change in order: the href and its version; a token is a position in this log.
    private var log: [String] = []
    private var nextETag = 0
    var offersTokens: Bool
    /// How many requests were made (a listing, a fetch, a write batch each count one).
    private(set) var requests = 0
    /// Runs before each request; throwing from it fails that request (a network error).
    var beforeRequest: ((_ number: Int) throws(SyncError) -> Void)?
    /// Runs once before the next write batch: someone else writes first.
    var beforeNextWrite: (() -> Void)?

    init(offersTokens: Bool = true) { self.offersTokens = offersTokens }

    // MARK: What others do

    /// Writes as another client would (unconditionally).
    func put(_ href: String, _ text: String) {
        nextETag += 1
        objects[href] = Stored(etag: "\"e\(nextETag)\"", text: text)
        log.append(href)
    }

    func remove(_ href: String) {
        objects[href] = nil
        log.append(href)
    }

    // MARK: CalendarCollection

    func changes(since token: String?) throws(SyncError) -> CollectionListing {
        try request()
        let now = String(log.count)
        if offersTokens, let token, let position = Int(token), position <= log.count {
            let touched = Set(log[position...])
            var changed: [String: String?] = [:]
            var removed: [String] = []
            for href in touched {
                if let object = objects[href] { changed[href] = object.etag } else { removed.append(href) }
            }
            return .delta(changed: changed, removed: removed, token: now)
        }
        return .everything(objects.filter { $0.value.text.contains("BEGIN:VTODO") }.mapValues { $0.etag },
                           token: offersTokens ? now : nil)
    }

    func fetch(_ hrefs: [String]) throws(SyncError) -> [RemoteObject] {
        try request()
        return hrefs.compactMap { href in objects[href].map { RemoteObject(href: href, etag: $0.etag, text: $0.text) } }
    }

    func write(_ writes: [CollectionWrite]) throws(SyncError) -> [WriteOutcome] {
        try request()
        if let before = beforeNextWrite {
            beforeNextWrite = nil
            before()
        }
        return writes.map { write in
            switch write {
            case .create(let href, let text):
                guard objects[href] == nil else { return .preconditionFailed }
                put(href, text)
                return .written(etag: objects[href]?.etag)
            case .update(let href, let text, let etag):
                guard objects[href]?.etag == etag else { return .preconditionFailed }
                put(href, text)
                return .written(etag: objects[href]?.etag)
            case .delete(let href, let etag):
                guard let object = objects[href] else { return .deleted }
                guard object.etag == etag else { return .preconditionFailed }
                remove(href)
                return .deleted
            }
        }
    }

    func href(forNewUID uid: String) -> String { "/cal/\(uid).ics" }

    private func request() throws(SyncError) {
        requests += 1
        try beforeRequest?(requests)
    }
}
