import SyncProtocol
import TodoInterop
import TodoSync

/// The remote calendar collection, reached through the `todo-sync` companion.
///
/// Answers are SyncProtocol's, read strictly: a field that is missing or of another type is an
/// error, never a default. An answer without its list must not read as "the server holds
/// nothing".
final class CompanionCollection: CalendarCollection, CalendarHome {
    private let companion: CompanionProcess
    /// The collection's path (`/alice/tasks/`), where new objects are put.
    private let path: String

    /// Hands the companion the remote (it resolves the password itself, from the command,
    /// `TODO_SYNC_PASSWORD` or ~/.netrc, so the password never passes through here), and
    /// `timeout` (seconds, from ``SyncTimeout``; `nil`: the companion's defaults). `started` is
    /// a companion started earlier (see ``CompanionProcess/init()``); without one, one starts.
    init(remote: SyncRemote, timeout: Int? = nil, started: CompanionProcess? = nil) throws(SyncError) {
        let companion: CompanionProcess
        if let started { companion = started } else { companion = try CompanionProcess() }
        self.companion = companion
        path = SyncURL.path(of: remote.url)
        // Every capability is what `open` may need (a switch over all of them: a new one is
        // consulted here or the build fails): one the companion lacks is named before it is sent.
        for capability in Capability.allCases {
            let (needed, what) =
                switch capability {
                case .timeout: (timeout != nil, SyncTimeout.variable)
                case .caFile: (remote.caFile != nil, "a CA file (--ca-file)")
                case .collections: (false, "")  // not `open`'s: see requireCollections()
                }
            guard needed, try !companion.supports(capability) else { continue }
            throw .companion(
                "\(CompanionProcess.name) at \(companion.path) cannot be given \(what): install todo and todo-sync together"
            )
        }
        _ = try companion.request(
            .open(
                OpenRequest(
                    url: remote.url, user: remote.user, passwordCommand: remote.passwordCommand,
                    caFile: remote.caFile, timeout: timeout)),
            answer: OKAnswer.self)
    }

    /// The calendar collections for tasks that the URL opened leads to, and the account's
    /// calendar home when it was found (the helper follows the principal and the calendar home,
    /// and redirects: see Sources/todo-sync/Discovery.swift).
    func discover() throws(SyncError) -> DiscoverAnswer {
        try companion.request(.discover, answer: DiscoverAnswer.self)
    }

    /// The calendar collections in the URL opened, the account's calendar home (`home`).
    func collections() throws(SyncError) -> [HomeCollection] {
        try companion.request(.home, answer: HomeAnswer.self).collections
    }

    func changes(since token: String?) throws(SyncError) -> ChangesAnswer {
        try companion.request(.changes(token: token), answer: ChangesAnswer.self)
    }

    func fetch(_ hrefs: [String]) throws(SyncError) -> FetchAnswer {
        try companion.request(.fetch(hrefs: hrefs), answer: FetchAnswer.self)
    }

    func write(_ writes: [Write]) throws(SyncError) -> [WriteAnswer.Outcome] {
        let outcomes = try companion.request(.write(writes), answer: WriteAnswer.self).outcomes
        guard outcomes.count == writes.count else {
            throw .companion(
                "\(CompanionProcess.name) answered \"write\" with \(outcomes.count) outcomes for \(writes.count) writes"
            )
        }
        return outcomes
    }

    func href(forNewUID uid: String) -> String {
        path + SyncURL.percentEncoded(uid) + ".ics"
    }

    // MARK: Collections (the companion's `collections` capability)

    /// A calendar collection for todos made at `request.home` + `request.segment` + `/`, and
    /// what the server really made (see ``CollectionAnswer``); `.collectionTaken` when something
    /// is there already.
    func makeCollection(_ request: MakeCollectionRequest) throws(SyncError) -> CollectionAnswer {
        try requireCollections()
        return try companion.request(.makeCollection(request), answer: CollectionAnswer.self)
    }

    /// The collection's display name and colour set (each as given; neither: only read), and
    /// what it holds now.
    func setCollection(_ request: SetCollectionRequest) throws(SyncError) -> CollectionAnswer {
        try requireCollections()
        return try companion.request(.setCollection(request), answer: CollectionAnswer.self)
    }

    /// The calendar collection at `url` deleted with its objects: `.deleted`, or `.absent` when
    /// nothing was there.
    func deleteCollection(url: String) throws(SyncError) -> DeleteCollectionAnswer.Outcome {
        try requireCollections()
        return try companion.request(.deleteCollection(url: url), answer: DeleteCollectionAnswer.self).outcome
    }

    /// A companion from before these requests is named, and they are not sent.
    private func requireCollections() throws(SyncError) {
        guard try !companion.supports(.collections) else { return }
        throw .companion(
            "\(CompanionProcess.name) at \(companion.path) cannot make, change or delete collections: install todo and todo-sync together"
        )
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
            let schemeEnd = text.firstRange(of: "://")
        else {
            throw .usage(
                "'\(text)' is not an http or https URL",
                hint: "For example: todo sync setup https://dav.example.com/alice/tasks/")
        }
        let afterScheme = text[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" }
        guard !authority.isEmpty else {
            throw .usage(
                "'\(text)' names no host", hint: "For example: todo sync setup https://dav.example.com/alice/tasks/")
        }
        var url = text
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            guard !userInfo.contains(":") else {
                throw .usage(
                    "the URL contains a password, which todo will not store",
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
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}

/// `TODO_SYNC_TIMEOUT`: how many seconds `todo sync` waits for the server, to connect and then
/// for each stretch in which it must send (or take) at least 1 KiB, as git's `http.lowSpeedTime`.
/// Unset (or empty): the companion's defaults, 10 s to connect and 30 s.
enum SyncTimeout {
    static let variable = "TODO_SYNC_TIMEOUT"

    /// The seconds set, or `nil` when the variable is unset or empty.
    ///
    /// - Throws: a usage error when it is not a whole number of seconds in
    ///   ``OpenRequest/allowedTimeouts``.
    static func fromEnvironment() throws(CLIError) -> Int? {
        guard let text = Environment.value(variable) else { return nil }
        return try parse(text)
    }

    static func parse(_ text: String) throws(CLIError) -> Int {
        let range = OpenRequest.allowedTimeouts
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let seconds = Int(text), range.contains(seconds)
        else {
            throw .usage(
                "\(variable)=\(TodoText.sanitized(text)) is not a number of seconds from \(range.lowerBound) to \(range.upperBound)",
                hint: "For example: \(variable)=60 todo sync")
        }
        return seconds
    }
}
