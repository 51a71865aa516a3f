/// A calendar collection as the sync engine sees it: a set of objects, each at an href with an
/// ETag, that can be listed, read and written conditionally. The `todo` executable implements
/// it by handing each call to its `todo-sync` companion process, the CalDAV client that speaks
/// HTTP; tests also run the engine against an in-memory one.
///
/// Calls block until done. An implementation may run a batch's requests concurrently, but
/// returns only when all have finished. Errors are ``SyncError``s; a write refused because the
/// object changed (HTTP 412) is not an error but ``WriteOutcome/preconditionFailed``.
public protocol CalendarCollection {
    /// What changed since `token` (an RFC 6578 sync token from an earlier listing), or every
    /// todo object with its ETag when `token` is nil, the server offers no tokens, or it no
    /// longer accepts this one.
    func changes(since token: String?) throws(SyncError) -> CollectionListing

    /// The objects at `hrefs`, with their current ETags, and the hrefs the server said are gone
    /// (404 or 410). An href that is in neither was not delivered (left out of the answer, or
    /// answered without its data): that proves nothing, and the engine asks again next time.
    func fetch(_ hrefs: [String]) throws(SyncError) -> FetchedObjects

    /// Performs the writes, each conditional (create only if absent, change or delete only if
    /// the ETag still matches), and returns one outcome per write, in order. A write that
    /// failed, and the writes not sent after it, have outcomes of their own: the engine records
    /// every write that was done before it reports the failure.
    func write(_ writes: [CollectionWrite]) throws(SyncError) -> [WriteOutcome]

    /// Where a new object with `uid` goes.
    func href(forNewUID uid: String) -> String
}

/// One object of the collection.
public struct RemoteObject: Sendable, Equatable {
    public var href: String
    public var etag: String?
    public var text: String

    public init(href: String, etag: String?, text: String) {
        self.href = href
        self.etag = etag
        self.text = text
    }
}

/// A collection's answer to ``CalendarCollection/fetch(_:)``.
public struct FetchedObjects: Sendable, Equatable {
    /// The objects the server sent, each under the href it was asked for.
    public var objects: [RemoteObject]
    /// The hrefs the server said are gone (404 or 410): the only proof of a deletion a fetch gives.
    public var gone: [String]
    /// The hrefs whose objects could not travel in a batched answer (one object made the
    /// server's XML invalid) and were read alone: each is reported once, as a warning.
    public var readAlone: [String]

    public init(objects: [RemoteObject], gone: [String] = [], readAlone: [String] = []) {
        self.objects = objects
        self.gone = gone
        self.readAlone = readAlone
    }
}

/// A collection's answer to ``CalendarCollection/changes(since:)``.
public enum CollectionListing: Sendable, Equatable {
    /// Objects changed or added since the token (with their ETags), and hrefs removed since.
    case delta(changed: [String: String?], removed: [String], token: String)
    /// Every todo object and its ETag, and a token for next time if the server offers one.
    case everything([String: String?], token: String?)
}

/// A conditional write.
public enum CollectionWrite: Sendable, Equatable {
    /// PUT with `If-None-Match: *`.
    case create(href: String, text: String)
    /// PUT with `If-Match: etag`.
    case update(href: String, text: String, etag: String)
    /// DELETE with `If-Match: etag`.
    case delete(href: String, etag: String)

    public var href: String {
        switch self {
        case .create(let href, _), .update(let href, _, _), .delete(let href, _): href
        }
    }
}

/// What became of one write.
public enum WriteOutcome: Sendable, Equatable {
    /// Done; the object's new ETag when the server said it.
    case written(etag: String?)
    /// Deleted, or already gone (a DELETE that found nothing has nothing left to do).
    case deleted
    /// Someone else wrote first (412): the engine reads the object again, merges, retries.
    case preconditionFailed
    /// The write failed (the server refused it, or the connection broke).
    case failed(SyncError)
    /// Not sent, because an earlier write of the batch failed.
    case notSent
}
