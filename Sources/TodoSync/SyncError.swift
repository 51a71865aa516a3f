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
    /// The store failed.
    case store(TodoStoreError)

    package static func wrap<Result>(_ body: () throws(TodoStoreError) -> Result) throws(SyncError) -> Result {
        do { return try body() } catch { throw .store(error) }
    }
}

extension SyncError: CustomStringConvertible {
    /// One line, for `error:`.
    public var description: String {
        switch self {
        case .notConfigured: "no sync remote is set up for this database"
        case .unreachable(let message), .authenticationFailed(let message), .collectionNotFound(let message),
             .noTodoSupport(let message), .server(_, let message), .badResponse(let message),
             .password(let message), .companion(let message):
            message
        case .tooManyRetries(let href): "\(href) kept changing on the server while this sync ran"
        case .store(let error): "\(error)"
        }
    }
}
