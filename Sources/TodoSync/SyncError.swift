import TodoStore

/// Why a sync (or setting one up) failed. In every case the database is left consistent: the
/// incoming changes are applied in one transaction or not at all, and what was sent before the
/// failure is recorded, so the next sync completes the work.
public enum SyncError: Error, Sendable, Equatable {
    /// `todo sync setup` has not been run for this database.
    case notConfigured
    /// The server could not be reached (connection refused, DNS, timeout): nothing changed.
    case unreachable(host: String, reason: String)
    /// The server refused the credentials (401) or the user has no access (403).
    case authenticationFailed(url: String)
    /// Nothing at the collection's URL (404, 410), or it is not a calendar collection.
    case collectionNotFound(url: String)
    /// The collection does not hold VTODOs (its supported-calendar-component-set).
    case noTodoSupport(url: String)
    /// The server answered with an unexpected status (5xx among them).
    case server(status: Int, url: String)
    /// The server's answer could not be read (not WebDAV XML, missing parts).
    case badResponse(url: String, reason: String)
    /// The password command failed or printed nothing.
    case password(reason: String)
    /// An object kept changing under us: three rounds of 412 for the same write.
    case tooManyRetries(href: String)
    /// The store failed.
    case store(TodoStoreError)

    package static func wrap<Result>(_ body: () throws(TodoStoreError) -> Result) throws(SyncError) -> Result {
        do { return try body() } catch { throw .store(error) }
    }
}

extension SyncError: CustomStringConvertible {
    /// One line, for `error:`. Never contains a password: URLs are shown without their user
    /// information by the client that builds these errors.
    public var description: String {
        switch self {
        case .notConfigured: "no sync remote is set up for this database"
        case .unreachable(let host, let reason): "cannot reach \(host): \(reason)"
        case .authenticationFailed(let url): "authentication failed at \(url)"
        case .collectionNotFound(let url): "no calendar collection at \(url)"
        case .noTodoSupport(let url): "the collection at \(url) does not hold todos (VTODO)"
        case .server(let status, let url): "server error \(status) at \(url)"
        case .badResponse(let url, let reason): "unexpected answer from \(url): \(reason)"
        case .password(let reason): "cannot get the password: \(reason)"
        case .tooManyRetries(let href): "\(href) kept changing on the server; sync again"
        case .store(let error): "\(error)"
        }
    }
}
