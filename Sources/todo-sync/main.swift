import Glibc
import JSONCodec

// todo-sync: the CalDAV transport of `todo sync`, as git-remote-https is git's. It reads one
// JSON request per line on stdin and writes exactly one JSON response line per request on
// stdout, until stdin closes. Nothing else goes to stdout, nothing to stderr, nothing to disk.
//
// HTTP is libcurl's, XML libxml2's streaming reader, JSON the package's own JSONCodec: no
// Foundation. Requests and answers:
//   hello                                     → {"version":1,"capabilities":[…]}
//   open {url, user?, password_command?, ca_file?} → {"ok":true}
//   probe                                     → {"ok":true,"sync_token":Bool,"components":[…]}
//   discover                                  → {"collections":[{url,name,components}]} (Discovery.swift)
//   changes {token?}                          → {"kind":"delta",changed,removed,token} | {"kind":"everything",items,token}
//   fetch {hrefs}                             → {"objects":[{href,etag,text}],"gone":[…],"read_alone":[…]}
//   write {writes:[{method,href,text?,etag?}]} → {"outcomes":[{"outcome":…}]}
// and on failure {"error":{"kind","message","status"[,"location"]}}.

signal(SIGPIPE, SIG_IGN)

/// The request loop's state: the collection opened last.
final class Helper {
    var client: CalDAVClient?

    func handle(_ line: [UInt8]) -> JSONValue {
        do throws(HelperError) {
            let (op, request) = try ProtocolIO.parse(line)
            if op == "hello" { return helloAnswer }
            if op == "open" {
                client = nil
                client = try CalDAVClient(url: try request.requiredString("url"),
                                          user: try request.optionalString("user"),
                                          passwordCommand: try request.optionalString("password_command"),
                                          caFile: try request.optionalString("ca_file"))
                return .object([("ok", true)])
            }
            guard let client else {
                if ["probe", "discover", "changes", "fetch", "write"].contains(op) { throw HelperError(.protocol, "\"\(op)\" before \"open\"") }
                throw HelperError(.protocol, "unknown op \(op.debugDescription)")
            }
            do throws(HelperError) {
                return try serve(op, request, client)
            } catch {
                return error.json(masking: client.secrets)
            }
        } catch {
            return error.json(masking: [])
        }
    }
}

func serve(_ op: String, _ request: JSONValue, _ client: CalDAVClient) throws(HelperError) -> JSONValue {
    switch op {
    case "probe":
        let probe = try client.probe()
        return .object([("ok", true), ("sync_token", .bool(probe.syncToken != nil)),
                        ("components", .strings(probe.components ?? ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VAVAILABILITY"]))])
    case "discover":
        return try Discovery(client).json()
    case "changes":
        switch try client.changes(since: try request.optionalString("token")) {
        case .delta(let changed, let removed, let token):
            return .object([("kind", "delta"), ("changed", .array(changed.map(\.json))), ("removed", .strings(removed)), ("token", .string(token))])
        case .everything(let items, let token):
            return .object([("kind", "everything"), ("items", .array(items.map(\.json))), ("token", .optional(token))])
        }
    case "fetch":
        var strings: [String] = []
        for href in try request.requiredArray("hrefs") {
            guard let string = href.stringValue else { throw HelperError(.protocol, "\"hrefs\" must be strings") }
            strings.append(string)
        }
        return try client.fetch(strings).json
    case "write":
        var writes: [CalDAVClient.Write] = []
        for item in try request.requiredArray("writes") {
            guard item.objectValue != nil else { throw HelperError(.protocol, "each write must be an object") }
            let href = try item.requiredString("href")
            switch try item.requiredString("method") {
            case "create": writes.append(.create(href: href, text: try item.requiredString("text")))
            case "update": writes.append(.update(href: href, text: try item.requiredString("text"), etag: try item.requiredString("etag")))
            case "delete": writes.append(.delete(href: href, etag: try item.requiredString("etag")))
            case let other: throw HelperError(.protocol, "unknown write method \(other.debugDescription)")
            }
        }
        return .object([("outcomes", .array(client.write(writes).map { $0.json(masking: client.secrets) }))])
    default:
        throw HelperError(.protocol, "unknown op \(op.debugDescription)")
    }
}

let helper = Helper()
while let line = readLine(strippingNewline: true) {
    let bytes = Array(line.utf8)
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
    ProtocolIO.write(helper.handle(bytes))
}
exit(0)
