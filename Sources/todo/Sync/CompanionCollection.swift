import TodoInterop
import TodoSync

/// The remote calendar collection, reached through the `todo-sync` companion.
final class CompanionCollection: CalendarCollection {
    private let companion: CompanionProcess
    /// The collection's path (`/alice/tasks/`), where new objects are put.
    private let path: String

    /// Starts the companion and hands it the remote (it resolves the password itself, from the
    /// command, `TODO_SYNC_PASSWORD` or ~/.netrc, so the password never passes through here).
    init(remote: SyncRemote) throws(SyncError) {
        companion = try CompanionProcess()
        path = SyncURL.path(of: remote.url)
        _ = try companion.request("""
            {"op": "open", "url": \(JSON.string(remote.url)), "user": \(JSON.optional(remote.user)), \
            "password_command": \(JSON.optional(remote.passwordCommand)), "ca_file": \(JSON.optional(remote.caFile))}
            """)
    }

    /// The calendar collections for tasks that the URL opened leads to (the helper follows the
    /// principal and the calendar home, and redirects: see Sources/todo-sync/Discovery.swift).
    func discover() throws(SyncError) -> [DiscoveredCollection] {
        let answer = Answer(op: "discover", value: try companion.request(#"{"op": "discover"}"#))
        var found: [DiscoveredCollection] = []
        for entry in try answer.array("collections") {
            found.append(DiscoveredCollection(url: try answer.string("url", in: entry), name: try answer.optionalString("name", in: entry),
                                              components: try answer.strings("components", in: entry)))
        }
        return found
    }

    /// Checks that the URL is a calendar collection that holds todos and that we may read it.
    func probe() throws(SyncError) {
        _ = try companion.request(#"{"op": "probe"}"#)
    }

    // Answers are read strictly: a field that is missing or of another type is an error, never
    // a default. An answer without its list must not read as "the server holds nothing".

    func changes(since token: String?) throws(SyncError) -> CollectionListing {
        let answer = Answer(op: "changes", value: try companion.request(#"{"op": "changes", "token": \#(JSON.optional(token))}"#))
        func entries(_ key: String) throws(SyncError) -> [String: String?] {
            var result: [String: String?] = [:]
            for entry in try answer.array(key) {
                result[try answer.string("href", in: entry)] = .some(try answer.optionalString("etag", in: entry))
            }
            return result
        }
        switch try answer.string("kind") {
        case "delta":
            return .delta(changed: try entries("changed"), removed: try answer.strings("removed"), token: try answer.string("token"))
        case "everything":
            return .everything(try entries("items"), token: try answer.optionalString("token"))
        case let other:
            throw answer.unreadable("kind \(other.debugDescription)")
        }
    }

    func fetch(_ hrefs: [String]) throws(SyncError) -> FetchedObjects {
        let answer = Answer(op: "fetch", value: try companion.request(#"{"op": "fetch", "hrefs": [\#(hrefs.map(JSON.string).joined(separator: ", "))]}"#))
        var objects: [RemoteObject] = []
        for object in try answer.array("objects") {
            objects.append(RemoteObject(href: try answer.string("href", in: object), etag: try answer.optionalString("etag", in: object),
                                        text: try answer.string("text", in: object)))
        }
        return FetchedObjects(objects: objects, gone: try answer.strings("gone"), readAlone: try answer.strings("read_alone"))
    }

    func write(_ writes: [CollectionWrite]) throws(SyncError) -> [WriteOutcome] {
        let requests = writes.map { write -> String in
            switch write {
            case .create(let href, let text):
                #"{"method": "create", "href": \#(JSON.string(href)), "text": \#(JSON.string(text))}"#
            case .update(let href, let text, let etag):
                #"{"method": "update", "href": \#(JSON.string(href)), "text": \#(JSON.string(text)), "etag": \#(JSON.string(etag))}"#
            case .delete(let href, let etag):
                #"{"method": "delete", "href": \#(JSON.string(href)), "etag": \#(JSON.string(etag))}"#
            }
        }
        let answer = Answer(op: "write", value: try companion.request(#"{"op": "write", "writes": [\#(requests.joined(separator: ", "))]}"#))
        let outcomes = try answer.array("outcomes")
        guard outcomes.count == writes.count else {
            throw answer.unreadable("\(outcomes.count) outcomes for \(writes.count) writes")
        }
        var result: [WriteOutcome] = []
        for outcome in outcomes {
            switch try answer.string("outcome", in: outcome) {
            case "written": result.append(.written(etag: try answer.optionalString("etag", in: outcome)))
            case "deleted": result.append(.deleted)
            case "precondition_failed": result.append(.preconditionFailed)
            case "failed":
                guard let error = outcome["error"] else { throw answer.unreadable("a failed write without its error") }
                result.append(.failed(CompanionProcess.error(from: error)))
            case "not_sent": result.append(.notSent)
            case let other: throw answer.unreadable("outcome \(other.debugDescription)")
            }
        }
        return result
    }

    func href(forNewUID uid: String) -> String {
        path + SyncURL.percentEncoded(uid) + ".ics"
    }
}

/// A calendar collection for tasks that discovery found.
struct DiscoveredCollection {
    var url: String
    var name: String?
    var components: [String]
}

/// One answer of the companion, with accessors that throw where a field is missing or of
/// another type.
private struct Answer {
    let op: String
    let value: JSONValue

    func unreadable(_ what: String) -> SyncError {
        .companion("\(CompanionProcess.name) answered \"\(op)\" with \(what)")
    }

    func field(_ key: String, in object: JSONValue? = nil) throws(SyncError) -> JSONValue {
        guard let field = (object ?? value)[key] else { throw unreadable("no \"\(key)\"") }
        return field
    }

    func array(_ key: String, in object: JSONValue? = nil) throws(SyncError) -> [JSONValue] {
        guard let array = try field(key, in: object).arrayValue else { throw unreadable("\"\(key)\" not an array") }
        return array
    }

    func string(_ key: String, in object: JSONValue? = nil) throws(SyncError) -> String {
        guard let string = try field(key, in: object).stringValue else { throw unreadable("\"\(key)\" not a string") }
        return string
    }

    /// A string or null.
    func optionalString(_ key: String, in object: JSONValue? = nil) throws(SyncError) -> String? {
        let field = try field(key, in: object)
        if field.isNull { return nil }
        guard let string = field.stringValue else { throw unreadable("\"\(key)\" not a string or null") }
        return string
    }

    func strings(_ key: String, in object: JSONValue? = nil) throws(SyncError) -> [String] {
        var strings: [String] = []
        for element in try array(key, in: object) {
            guard let string = element.stringValue else { throw unreadable("\"\(key)\" holding a non-string") }
            strings.append(string)
        }
        return strings
    }
}

/// What `todo` needs to know of a collection's URL without a URL library.
enum SyncURL {
    /// The URL checked for what setup accepts: `http` or `https`, a host, no password in it.
    /// Returns the URL as given without its user info (no `/` added: discovery starts there, and
    /// `/.well-known/caldav` takes none) and the user named in it, if any.
    static func validate(_ text: String) throws(CLIError) -> (url: String, user: String?) {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
              let schemeEnd = text.firstRange(of: "://") else {
            throw .usage("'\(text)' is not an http or https URL", hint: "For example: todo sync setup https://dav.example.com/alice/tasks/")
        }
        let afterScheme = text[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" }
        guard !authority.isEmpty else {
            throw .usage("'\(text)' names no host", hint: "For example: todo sync setup https://dav.example.com/alice/tasks/")
        }
        var url = text
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            guard !userInfo.contains(":") else {
                throw .usage("the URL contains a password, which todo will not store",
                             hint: "Use --password-command, TODO_SYNC_PASSWORD or ~/.netrc.")
            }
            user = String(userInfo)
            url = String(text[..<schemeEnd.upperBound]) + String(afterScheme[authority.index(after: at)...])
        }
        return (url, user)
    }

    /// The path part of an http(s) URL: `/alice/tasks/`.
    static func path(of url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return "/" }
        let afterScheme = url[schemeEnd.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return "/" }
        let path = afterScheme[slash...].prefix { $0 != "?" && $0 != "#" }
        return path.hasSuffix("/") ? String(path) : path + "/"
    }

    /// `text` with everything but RFC 3986's unreserved characters percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
