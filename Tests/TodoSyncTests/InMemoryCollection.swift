import SyncProtocol
import TodoSync

/// A calendar collection in memory, with the behaviour the engine relies on from a CalDAV
/// server: ETags that change on every write, conditional writes, RFC 6578 tokens (optional).
/// Beside the real servers (TodoSyncServerTests), it lets property tests run thousands of
/// syncs, and inject what is hard to time against a server: a write by someone else between a
/// listing and our write, a failure at the n-th request.
final class InMemoryCollection: CalendarCollection, @unchecked Sendable {
    struct Stored {
        var etag: String
        var text: String
    }

    private(set) var objects: [String: Stored] = [:]
    /// Every change in order: the href and whether it holds an object after it; a token is a
    /// position in this log.
    private var log: [(href: String, present: Bool)] = []
    private var nextETag = 0
    var offersTokens: Bool
    /// How many requests were made (a listing, a fetch, a write batch each count one).
    private(set) var requests = 0
    /// Runs before each request; throwing from it fails that request (a network error).
    var beforeRequest: ((_ number: Int) throws(SyncError) -> Void)?
    /// Runs once before the next write batch: someone else writes first.
    var beforeNextWrite: (() -> Void)?

    // Misbehaviour, as the hostile server of TodoSyncServerTests does it over HTTP.
    /// Complete listings name nothing (a server that lost its storage), and tokens are refused.
    var listsNothing = false
    /// Full listings are cut short (507): every other object, and tokens are refused.
    var cutsListings = false
    /// Fetches leave these hrefs out of the answer (neither sent nor said to be gone).
    var leavesOut: Set<String> = []
    /// A delta lists an object made and deleted since its token as removed (Radicale does);
    /// without, not at all (Xandikos, whose token is a state of the collection, does not).
    var listsTransientRemovals = true
    /// The n-th write of the next batch (counted from 1) fails; the ones after it are not sent.
    var failsWrite: Int?
    /// What the server stores of a text it is sent (Cyrus trims trailing blanks from SUMMARY).
    var storing: (String) -> String = { $0 }

    init(offersTokens: Bool = true) { self.offersTokens = offersTokens }

    /// The sync token a listing would give now (a position in the log), as a home's PROPFIND
    /// reports it (DAV:sync-token).
    var currentToken: String { String(log.count) }

    // MARK: What others do

    /// Writes as another client would (unconditionally).
    func put(_ href: String, _ text: String) {
        nextETag += 1
        objects[href] = Stored(etag: "\"e\(nextETag)\"", text: text)
        log.append((href, true))
    }

    func remove(_ href: String) {
        objects[href] = nil
        log.append((href, false))
    }

    // MARK: CalendarCollection

    func changes(since token: String?) throws(SyncError) -> ChangesAnswer {
        try request()
        let now = String(log.count)
        // The real token, as a proxy passes it on.
        if listsNothing { return .everything(items: [], token: offersTokens ? now : nil) }
        if cutsListings {
            let listed = objects.filter { $0.value.text.contains("BEGIN:VTODO") }.sorted { $0.key < $1.key }
            return .everything(
                items: listed.enumerated().filter { $0.offset % 2 == 0 }.map {
                    ListedItem(href: $0.element.key, etag: $0.element.value.etag)
                }, token: offersTokens ? now : nil, truncated: true)
        }
        if offersTokens, let token, let position = Int(token), position <= log.count {
            let touched = Set(log[position...].map(\.href)).sorted()
            // An object made and deleted since the token: listed as removed, or not at all.
            func existed(_ href: String) -> Bool { log[..<position].last { $0.href == href }?.present ?? false }
            return .delta(
                changed: touched.compactMap { href in objects[href].map { ListedItem(href: href, etag: $0.etag) } },
                removed: touched.filter { objects[$0] == nil && (listsTransientRemovals || existed($0)) }, token: now)
        }
        return .everything(
            items: objects.filter { $0.value.text.contains("BEGIN:VTODO") }.sorted { $0.key < $1.key }.map {
                ListedItem(href: $0.key, etag: $0.value.etag)
            },
            token: offersTokens ? now : nil)
    }

    func fetch(_ hrefs: [String]) throws(SyncError) -> FetchAnswer {
        try request()
        let asked = hrefs.filter { !leavesOut.contains($0) }
        return FetchAnswer(
            objects: asked.compactMap { href in
                objects[href].map { FetchedObject(href: href, etag: $0.etag, text: $0.text) }
            },
            gone: asked.filter { objects[$0] == nil })
    }

    func write(_ writes: [Write]) throws(SyncError) -> [WriteAnswer.Outcome] {
        try request()
        if let before = beforeNextWrite {
            beforeNextWrite = nil
            before()
        }
        let failing = failsWrite
        failsWrite = nil
        return writes.enumerated().map { index, write in
            if let failing, index + 1 >= failing {
                return index + 1 == failing
                    ? .failed(
                        ErrorObject(
                            kind: .server, message: "PUT \(write.href): unexpected HTTP status 500", status: 500))
                    : .notSent
            }
            switch write {
            case .create(let href, let text):
                guard objects[href] == nil else { return .preconditionFailed }
                put(href, storing(text))
                return .written(etag: objects[href]?.etag)
            case .update(let href, let text, let etag):
                guard objects[href]?.etag == etag else { return .preconditionFailed }
                put(href, storing(text))
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
