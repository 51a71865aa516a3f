import SyncProtocol
import TodoStore

/// Why a sync (or setting one up) failed. In every case the database is left consistent: the
/// incoming changes are applied in one transaction or not at all, and what was sent before the
/// failure is recorded, so the next sync completes the work.
///
/// The cases that come from the network carry one line said by the collection's client
/// (which knows the host and status): it never contains a password.
public enum SyncError: Error, Sendable, Equatable {
    /// `todo sync setup` has not been run for this database.
    case notConfigured
    /// The server could not be reached (connection refused, DNS, timeout): nothing changed.
    case unreachable(String)
    /// The server refused the credentials (401) or the user has no access (403).
    case authenticationFailed(String)
    /// Nothing at the collection's URL (404, 410), or it is not a calendar collection.
    case collectionNotFound(String)
    /// The collection does not hold VTODOs (its supported-calendar-component-set).
    case noTodoSupport(String)
    /// A collection was to be made at a URL where something already is: nothing was made.
    case collectionTaken(String)
    /// The server answered with an unexpected status (5xx among them).
    case server(status: Int, message: String)
    /// The server's answer could not be read (not WebDAV XML, missing parts).
    case badResponse(String)
    /// The password command failed or printed nothing.
    case password(String)
    /// The program that speaks HTTP for `todo sync` (todo-sync) is missing, or stopped.
    case companion(String)
    /// An object kept changing under us: three rounds of 412.
    case tooManyRetries(href: String)
    /// A complete listing of the collection named no todo at all, while `syncedBefore` objects
    /// were there at the last sync. A server that lost its storage, a collection recreated
    /// empty, or an answer missing its list all look like this, so it is not believed (as
    /// vdirsyncer's `StorageEmpty`): nothing is deleted here unless the user says so.
    case serverEmpty(syncedBefore: Int)
    /// The store failed.
    case store(TodoStoreError)
}

extension SyncError: CustomStringConvertible {
    /// One line, for `error:`.
    public var description: String {
        switch self {
        case .notConfigured: "no sync remote is set up for this database"
        case .unreachable(let message), .authenticationFailed(let message), .collectionNotFound(let message),
            .noTodoSupport(let message), .collectionTaken(let message), .server(_, let message),
            .badResponse(let message),
            .password(let message), .companion(let message):
            message
        case .tooManyRetries(let href): "\(href) kept changing on the server while this sync ran"
        case .serverEmpty(let count):
            "the server lists no todos in the collection, but \(count) \(count == 1 ? "was" : "were") synced with it before; nothing was changed here"
        case .store(let error): "\(error)"
        }
    }
}

extension SyncError {
    /// A word for programs (`todo sync --json`'s `{"error": {"kind": ...}}`), one per case.
    public var kind: String {
        switch self {
        case .notConfigured: "not_configured"
        case .unreachable: "unreachable"
        case .authenticationFailed: "auth"
        case .collectionNotFound: "not_found"
        case .noTodoSupport: "no_todo_support"
        case .collectionTaken: "taken"
        case .server: "server"
        case .badResponse: "bad_response"
        case .password: "password"
        case .companion: "companion"
        case .tooManyRetries: "too_many_retries"
        case .serverEmpty: "server_empty"
        case .store: "store"
        }
    }
}

extension SyncError {
    /// The collection's error (SyncProtocol's, as `todo-sync` reports it) as a sync error: each
    /// kind its one case here. A protocol error or a redirect (whose message says what to set
    /// up instead) is the companion's.
    public init(_ error: ErrorObject) {
        switch error.kind {
        case .unreachable: self = .unreachable(error.message)
        case .auth: self = .authenticationFailed(error.message)
        case .notFound: self = .collectionNotFound(error.message)
        case .noTodoSupport: self = .noTodoSupport(error.message)
        case .taken: self = .collectionTaken(error.message)
        case .server: self = .server(status: error.status ?? 0, message: error.message)
        case .password: self = .password(error.message)
        case .badResponse: self = .badResponse(error.message)
        case .protocol, .redirect: self = .companion(error.message)
        }
    }
}
