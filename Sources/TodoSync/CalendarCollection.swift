import SyncProtocol

/// A calendar collection as the sync engine sees it: a set of objects, each at an href with an
/// ETag, that can be listed, read and written conditionally. Its calls and answers are
/// SyncProtocol's messages, the ones `todo` exchanges with its `todo-sync` companion (the CalDAV
/// client that speaks HTTP): the `todo` executable implements this protocol by handing each call
/// to the companion; tests also run the engine against an in-memory collection.
///
/// Calls block until done. An implementation may run a batch's requests concurrently, but
/// returns only when all have finished. Errors are ``SyncError``s; a write refused because the
/// object changed (HTTP 412) is not an error but `WriteAnswer.Outcome.preconditionFailed`.
public protocol CalendarCollection {
    /// What changed since `token` (an RFC 6578 sync token from an earlier listing), or every
    /// todo object with its ETag when `token` is nil, the server offers no tokens, or it no
    /// longer accepts this one.
    func changes(since token: String?) throws(SyncError) -> ChangesAnswer

    /// The objects at `hrefs`, with their current ETags, and the hrefs the server said are gone
    /// (404 or 410). An href that is in neither was not delivered (left out of the answer, or
    /// answered without its data): that proves nothing, and the engine asks again next time.
    func fetch(_ hrefs: [String]) throws(SyncError) -> FetchAnswer

    /// Performs the writes, each conditional (create only if absent, change or delete only if
    /// the ETag still matches), and returns one outcome per write, in order. A write that
    /// failed, and the writes not sent after it, have outcomes of their own: the engine records
    /// every write that was done before it reports the failure.
    func write(_ writes: [Write]) throws(SyncError) -> [WriteAnswer.Outcome]

    /// Where a new object with `uid` goes.
    func href(forNewUID uid: String) -> String
}
