import Glibc
import JSONCodec
import SyncProtocol

// todo-sync: the CalDAV transport of `todo sync`, as git-remote-https is git's. It reads one
// JSON request per line on stdin and writes exactly one JSON response line per request on
// stdout, until stdin closes. Nothing else goes to stdout and nothing to disk; the helper itself
// writes nothing to stderr, which a password command it runs shares (its prompts reach the user).
//
// HTTP is libcurl's, XML libxml2's push parser (Multistatus.swift), JSON the package's own
// JSONCodec: no Foundation. The requests and answers are SyncProtocol's (defined there once,
// for `todo` too): hello, open, probe, discover (Discovery.swift), home (Home.swift), changes,
// fetch, write, make_collection, set_collection and delete_collection (Collections.swift), each
// answered with its answer or {"error":{"kind","message","status"[,"location"]}}.

signal(SIGPIPE, SIG_IGN)

/// The request loop's state: the collection opened last.
final class Helper {
    var client: CalDAVClient?

    func handle(_ line: [UInt8]) -> Reply {
        var secrets: [String] = []
        do throws(HelperError) {
            let request = try ProtocolIO.parse(line)
            switch request {
            case .hello:
                return .line(helloAnswer.line)
            case .open(let open):
                client = nil
                if let timeout = open.timeout, !OpenRequest.allowedTimeouts.contains(timeout) {
                    throw HelperError(
                        .protocol,
                        "\"timeout\" is \(timeout) s; it must be \(OpenRequest.allowedTimeouts.lowerBound) to \(OpenRequest.allowedTimeouts.upperBound)"
                    )
                }
                client = try CalDAVClient(
                    url: open.url, user: open.user, passwordCommand: open.passwordCommand, caFile: open.caFile,
                    timeout: open.timeout)
                return .line(OKAnswer().line)
            case .probe:
                return .line(try opened(request, &secrets).probe().line)
            case .changes(let token):
                return .listing(try opened(request, &secrets).changes(since: token))
            case .fetch(let hrefs):
                return .line(try opened(request, &secrets).fetch(hrefs).line)
            case .write(let writes):
                return .line(WriteAnswer(outcomes: try opened(request, &secrets).write(writes)).line)
            case .discover:
                let discovery = Discovery(try opened(request, &secrets))
                let found = try discovery.run()
                return .line(DiscoverAnswer(collections: found.map(\.message), home: discovery.home?.string).line)
            case .home:
                return .line(try opened(request, &secrets).home().line)
            case .makeCollection(let make):
                return .line(try opened(request, &secrets).makeCollection(make).line)
            case .setCollection(let set):
                return .line(try opened(request, &secrets).setCollection(set).line)
            case .deleteCollection(let url):
                return .line(try opened(request, &secrets).deleteCollection(url: url).line)
            }
        } catch {
            let said = HelperError.noPassword(error, tried: client?.triedPasswordSources ?? [])
            return .line(ProtocolIO.encode(said.json(masking: secrets)))
        }
    }

    /// The collection opened, which `request` is about; from then on, `secrets` are its own,
    /// masked out of any error. Before any `open`, a protocol error.
    private func opened(_ request: Request, _ secrets: inout [String]) throws(HelperError) -> CalDAVClient {
        guard let client else { throw HelperError(.protocol, "\"\(request.op.rawValue)\" before \"open\"") }
        secrets = client.secrets
        return client
    }
}

/// One answer: its line of JSON text (with its newline), or a listing written straight from
/// what was kept of it.
enum Reply {
    case line([UInt8])
    case listing(ListingAnswer)
}

let helper = Helper()
while let line = readLine(strippingNewline: true) {
    let bytes = Array(line.utf8)
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
    switch helper.handle(bytes) {
    case .line(let bytes): ProtocolIO.writeAll(bytes)
    case .listing(let answer): ProtocolIO.write(answer)
    }
}
exit(0)
