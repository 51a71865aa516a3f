import Foundation

// todo-sync: the CalDAV transport of `todo sync`, as git-remote-https is git's. It reads one
// JSON request per line on stdin and writes exactly one JSON response line per request on
// stdout, until stdin closes. Nothing else goes to stdout, nothing to stderr.

signal(SIGPIPE, SIG_IGN)

/// The request loop's state: the collection opened last.
final class Helper {
    var client: CalDAVClient?

    func handle(_ line: String) -> [String: Any] {
        do {
            let (op, request) = try ProtocolIO.parse(line)
            if op == "open" {
                client = nil
                client = try CalDAVClient(url: try required(request, "url", as: String.self),
                                          user: try optional(request, "user", as: String.self),
                                          passwordCommand: try optional(request, "password_command", as: String.self))
                return ["ok": true]
            }
            guard let client else {
                if ["probe", "changes", "fetch", "write"].contains(op) { throw HelperError(.protocol, "\"\(op)\" before \"open\"") }
                throw HelperError(.protocol, "unknown op \(op.debugDescription)")
            }
            do {
                return try serve(op, request, client)
            } catch let error as HelperError {
                return error.json(masking: client.secrets)
            }
        } catch let error as HelperError {
            return error.json(masking: [])
        } catch {
            return HelperError(.protocol, "unexpected failure").json(masking: [])
        }
    }
}

func serve(_ op: String, _ request: [String: Any], _ client: CalDAVClient) throws -> [String: Any] {
    switch op {
    case "probe":
        let probe = try client.probe()
        return ["ok": true, "sync_token": probe.syncToken != nil,
                "components": probe.components ?? ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VAVAILABILITY"]]
    case "changes":
        switch try client.changes(since: try optional(request, "token", as: String.self)) {
        case .delta(let changed, let removed, let token):
            return ["kind": "delta", "changed": changed.map(\.json), "removed": removed, "token": token]
        case .everything(let items, let token):
            return ["kind": "everything", "items": items.map(\.json), "token": token.map { $0 as Any } ?? NSNull()]
        }
    case "fetch":
        let hrefs = try required(request, "hrefs", as: [Any].self)
        guard let strings = hrefs as? [String] else { throw HelperError(.protocol, "\"hrefs\" must be strings") }
        return try client.fetch(strings).json
    case "write":
        let writes = try required(request, "writes", as: [Any].self).map { item -> CalDAVClient.Write in
            guard let write = item as? [String: Any] else { throw HelperError(.protocol, "each write must be an object") }
            let href = try required(write, "href", as: String.self)
            switch try required(write, "method", as: String.self) {
            case "create": return .create(href: href, text: try required(write, "text"))
            case "update": return .update(href: href, text: try required(write, "text"), etag: try required(write, "etag"))
            case "delete": return .delete(href: href, etag: try required(write, "etag"))
            case let other: throw HelperError(.protocol, "unknown write method \(other.debugDescription)")
            }
        }
        return ["outcomes": try client.write(writes).map { $0.json(masking: client.secrets) }]
    default:
        throw HelperError(.protocol, "unknown op \(op.debugDescription)")
    }
}

let helper = Helper()
while let line = readLine(strippingNewline: true) {
    if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
    ProtocolIO.write(helper.handle(line))
}
exit(0)
