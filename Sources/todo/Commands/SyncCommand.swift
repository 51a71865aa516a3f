import SyncProtocol
import TodoStore
import TodoSync

#if canImport(Glibc)
    import Glibc
#endif

extension Command {
    /// `todo sync [setup URL | status | forget [LIST]] [--json]`: two-way sync with a CalDAV collection.
    static let sync = Command(
        spec: CommandSpec(
            name: "sync",
            abstract: "Sync todos with a CalDAV server, both ways.",
            arguments: [
                .init(
                    name: "action",
                    help: "setup URL, status, or forget (all, or the list named after it); none syncs now.",
                    optional: true),
                .init(
                    name: "url",
                    help:
                        "For setup: the server, a /.well-known/caldav URL, a principal, a calendar home or a calendar collection that holds todos.",
                    optional: true)
            ],
            options: [
                .init(name: "--user", value: "name", help: "For setup: the user to log in as."),
                .init(
                    name: "--password-command", value: "command",
                    help:
                        "For setup: a command that prints the password (run with /bin/sh -c at each sync), such as 'pass show caldav'."
                ),
                .init(
                    name: "--name", value: "name",
                    help:
                        "For setup: of the task collections found, sync only the one with this display name (exact, else ignoring case), with the list --to names."
                ),
                .init(
                    name: "--list", value: nil,
                    help:
                        "For setup: list the task collections found (name and URL), with --json as JSON, and store nothing."
                ),
                .init(
                    name: "--to", value: "list",
                    help:
                        "For setup of one collection: the list it holds (default: the one it holds already, else the list of its name on an account that syncs already, else the default list)."
                ),
                .init(
                    name: "--only", value: "name",
                    help:
                        "For setup of an account: sync only the task collection of this display name (given again: each of them), with the list of its name; the others are left alone, and one made later is mentioned once."
                ),
                .init(
                    name: "--all", value: nil,
                    help:
                        "For setup: sync every task collection found, each with the list of its name (made where there is none), and those made later: the default for an account's URL."
                ),
                .init(
                    name: "--relink", value: nil,
                    help:
                        "For setup: link this database to the collection found though it syncs with another (another URL or user), forgetting that one's sync state as 'sync forget' does; its todos are sent to the new one at the next sync."
                ),
                .init(
                    name: "--ca-file", value: "file",
                    help:
                        "For setup: a CA bundle (PEM) to trust for this server instead of the system's, such as a self-signed certificate; stored and used at each sync."
                ),
                .init(
                    name: "--json", value: nil,
                    help:
                        "Print the result (of a sync, status or setup --list) as a JSON object, a sync's with each todo it changed or sent in \"changes\"; a failed sync prints {\"error\": {\"kind\": ..., \"message\": ...}}."
                ),
                .init(
                    name: "--changes", value: nil,
                    help:
                        "After the counts, list each todo the sync changed here or sent, as on a terminal, also in a pipe."
                ),
                .init(
                    name: "--force-delete", value: nil,
                    help:
                        "Believe a server that lists no todos at all though some were synced with it before, and delete them here too."
                )
            ],
            discussion: """
                Setup finds the account from the URL given (RFC 6764: the server's /.well-known/caldav,
                the principal, its calendar home, the calendars there that hold todos; redirects are
                followed at setup only, at most 5, never from https to http, and the password goes only to
                the server named) and remembers it in this database (so each database file is one device).
                Each list syncs with a collection of its own. The URL of an account links every collection
                that holds todos, each to the list of its name (made where there is none; one collection
                alone: the default list), and follows the account: a collection made on the server later
                becomes a list, and a list made here gets a collection once it holds a todo. --only NAME
                links fewer (those not linked are left alone, one made later is mentioned once); --name
                picks one collection, or setup takes its URL, --to naming the list it holds; --list shows
                what was found and stores nothing. Pointing a list that syncs at another collection, or
                another account, is refused unless --relink asks for it. A sync lists the account's home
                once: a list whose collection did not change and that has nothing to send costs no other
                request; names and colours follow the server, and changes made here are sent (both
                changed: this side's kept, a conflict); a collection gone from the server keeps its list
                and todos here, no longer synced, with one warning. A sync sends the changes made here
                since the last one, by any program, and applies the server's in one transaction; a field
                changed on both sides keeps the server's value and is reported as a conflict, and an edit
                beats a delete. Only the server's explicit word deletes a todo here: an object it leaves
                out of an answer is asked for again next time, and a collection that suddenly lists no
                todos at all is refused unless --force-delete says it was emptied on purpose. The user is
                --user, else the URL's, else ~/.netrc's login for the host; the password comes from
                --password-command, else TODO_SYNC_PASSWORD, else ~/.netrc; it is never stored or shown.
                On a terminal (or with --changes), a sync lists after its counts each list and todo it
                changed here or sent, marked as 'todo watch' marks changes: '+' added, '-' deleted, '✓'
                done, '○' undone, '~' edited, then whether it came from the server or was sent. A server
                that takes more than 10 s to connect, or then sends less than 1 KiB in 30 s, is given up;
                TODO_SYNC_TIMEOUT=SECONDS (1 to 300) sets both. Forget drops the remote and its sync
                state (forget LIST: that list's alone, which then stays on this device); the todos stay and
                keep their UIDs, so setting up the same collection again matches them.
                """,
            examples: [
                "todo sync setup https://dav.example.com/ --user alice --password-command 'pass show caldav'",
                "todo sync setup https://dav.example.com/ --user alice --only Household --only Work",
                "todo sync setup https://dav.example.com/alice/tasks/ --user alice --to Todos",
                "todo sync setup https://dav.example.com/ --user alice --list",
                "todo sync setup https://dav.example.com/ --user alice --name Tasks --ca-file ~/dav-ca.pem",
                "todo sync",
                "todo sync status --json",
                "todo sync forget"
            ]
        ),
        run: { (context) throws(CLIError) in
            let positionals = context.arguments.positionals
            let action = positionals.first
            let setupOnly =
                ["--user", "--password-command", "--name", "--ca-file", "--to", "--only"].filter {
                    context.arguments.value($0) != nil
                }
                + ["--list", "--relink", "--all"].filter { context.arguments.flag($0) }
            if action != "setup", let option = setupOnly.first {
                throw .usage("'\(option)' goes with 'todo sync setup'")
            }
            for option in ["--force-delete", "--changes"] where action != nil && context.arguments.flag(option) {
                throw .usage("'\(option)' goes with 'todo sync' alone")
            }
            switch action {
            case nil:
                try SyncRun.sync(context: &context)
            case "setup":
                guard positionals.count == 2 else {
                    throw .usage(
                        "'todo sync setup' needs the collection's URL",
                        hint: "For example: todo sync setup https://dav.example.com/alice/tasks/")
                }
                if context.arguments.flag("--json") && !context.arguments.flag("--list") {
                    throw .usage("'--json' goes with 'todo sync', 'todo sync status' and 'todo sync setup --list'")
                }
                if context.arguments.flag("--list") && context.arguments.value("--name") != nil {
                    throw .usage("'--list' stores nothing; '--name' picks the collection to store: give one of them")
                }
                if context.arguments.flag("--list") && context.arguments.flag("--relink") {
                    throw .usage("'--list' stores nothing; '--relink' links the collection found: give one of them")
                }
                try SyncRun.setup(url: positionals[1], context: &context)
            case "status", "forget":
                guard positionals.count == 1 || (action == "forget" && positionals.count == 2) else {
                    throw .usage(
                        action == "forget"
                            ? "'todo sync forget' takes at most a list's name"
                            : "'todo sync status' takes no other argument")
                }
                if action == "status" {
                    try SyncRun.status(context: &context)
                } else {
                    if context.arguments.flag("--json") {
                        throw .usage("'--json' goes with 'todo sync' and 'todo sync status'")
                    }
                    try SyncRun.forget(context: &context)
                }
            default:
                let suggestion = Suggestion.closest(to: action ?? "", among: SyncRun.actions)
                throw .usage(
                    "'\(action ?? "")' is not a sync action",
                    hint: suggestion.map { "Did you mean '\($0)'?" }
                        ?? "Use setup, status or forget, or nothing to sync now.")
            }
        }
    )
}

/// What the `todo sync` actions do, and how they word it.
enum SyncRun {
    static let actions = ["setup", "status", "forget"]

    static func setup(url text: String, context: inout CommandContext) throws(CLIError) {
        let timeout = try SyncTimeout.fromEnvironment()
        let (url, userInURL) = try SyncURL.validate(text)
        var remote = SyncRemote(
            url: url, user: context.arguments.value("--user") ?? userInURL,
            passwordCommand: context.arguments.value("--password-command"),
            caFile: try context.arguments.value("--ca-file").map { (path) throws(CLIError) in try caFile(path) })
        let only = context.arguments.allValues("--only")
        if !only.isEmpty {
            for option in ["--name", "--to"] where context.arguments.value(option) != nil {
                throw .usage(
                    "'--only' links the collections of those names, each to the list of its name: '\(option)' goes without it"
                )
            }
            if context.arguments.flag("--all") { throw .usage("'--all' and '--only' cannot be used together") }
        }
        if context.arguments.flag("--all") {
            for option in ["--name", "--to"] where context.arguments.value(option) != nil {
                throw .usage("'--all' links every collection to the list of its name: '\(option)' goes without it")
            }
        }
        // Found and checked before anything is stored: a wrong URL or password leaves the database as it was.
        let discovered = try syncing(hint: "Nothing was stored.") { () throws(SyncError) in
            try CompanionCollection(remote: remote, timeout: timeout).discover()
        }
        // Listed by name (then URL), whatever order the server's listing had: a server's order is
        // its storage's (Radicale's is the file system's directory order).
        let found = discovered.collections.sorted {
            ($0.name?.lowercased() ?? "", $0.url) < ($1.name?.lowercased() ?? "", $1.url)
        }
        remote.home = discovered.home
        if context.arguments.flag("--list") {
            if context.arguments.flag("--json") {
                let items = found.map {
                    "{\"url\": \(JSON.string($0.url)), \"name\": \(JSON.optional($0.name)), \"components\": [\($0.components.map(JSON.string).joined(separator: ", "))]}"
                }
                context.out.write("{\"collections\": [\(items.joined(separator: ", "))]}\n")
            } else {
                for collection in found { context.out.write(line(collection) + "\n") }
            }
            return
        }
        // One collection: the one --name picks, or the only one found (with --to, the list it
        // holds; else the default list, as an account with one list of tasks is set up). Else
        // every collection, or those --only names, each with the list of its name.
        let isCollection = found.count == 1 && SyncURL.path(of: found[0].url) == SyncURL.path(of: url)
        let single =
            context.arguments.value("--name") != nil || context.arguments.value("--to") != nil
            || (found.count == 1 && only.isEmpty && !context.arguments.flag("--all"))
        guard single else {
            try linkAccount(found, only: only, remote: remote, context: &context)
            return
        }
        let chosen = try choose(among: found, name: context.arguments.value("--name"), url: url, context: &context)
        remote.url = chosen.url
        let repository = try context.openRepository()
        // The list it holds: the one asked for; else, for the collection set up again, the one
        // it holds (another would look to the next sync as every synced todo deleted here);
        // else, another collection of the account set up already, the list of its name (made if
        // there is none); else the default list.
        var listNamed: String?
        if let name = context.arguments.value("--to") {
            remote.listID = try context.list(named: name, in: repository).id
        } else {
            remote.listID = try context.perform { () throws(TodoStoreError) in
                let state = SyncState(repository: repository)
                if let link = try state.links().first(where: { $0.url == remote.url }) { return link.list }
                if try state.remote() != nil, let name = chosen.name, TodoList.isValidName(name) { listNamed = name }
                return try repository.defaultList().id
            }
        }
        let outcome = try context.perform { () throws(TodoStoreError) in
            let state = SyncState(repository: repository)
            // The account's one collection, found from its URL: those made later are synced too.
            // One picked by name, or set up by its own URL, follows no other (unless the account
            // set up before did).
            remote.followsAll =
                try state.remote()?.followsAll ?? (!isCollection && context.arguments.value("--name") == nil)
            let outcome = try state.link(
                remote, relinking: context.arguments.flag("--relink"), listNamed: listNamed)
            if case .refused = outcome { return outcome }
            try state.setAccount(home: remote.home, followsAll: remote.followsAll)
            // The others found are the account's, known: the next sync does not mention them.
            for other in found where other.url != chosen.url { try state.addUnlinked(other.url) }
            return outcome
        }
        let linked = TodoText.sanitized(remote.url + (remote.user.map { " as \($0)" } ?? ""))
        switch outcome {
        case .linked:
            context.out.write("Set up sync with \(linked). Run 'todo sync' to sync now.\n")
        case .added(let list):
            let name = try context.perform { () throws(TodoStoreError) in try repository.list(id: list)?.name }
            context.out.write(
                "Set up sync of the list '\(TodoText.sanitized(name ?? "#\(list)"))' with \(linked), beside the lists that sync already. Run 'todo sync' to sync now.\n"
            )
        case .relinked(let previous):
            context.out.write(
                "Set up sync with \(linked), instead of \(account(previous)), whose sync state was forgotten (the todos stay). Run 'todo sync' to send them there.\n"
            )
        case .refused(let current, let todos) where current.url == remote.url && current.user == remote.user:
            // The same collection for another list: its synced todos would look deleted here.
            let lists = try context.perform { () throws(TodoStoreError) in try JSON.listNames(repository) }
            let old = TodoText.sanitized(lists[current.listID] ?? "#\(current.listID)")
            let new = TodoText.sanitized(lists[remote.listID] ?? "#\(remote.listID)")
            throw .failure(
                "\(account(remote)) holds the list '\(old)'; holding '\(new)' instead would send its \(todos) \(todos == 1 ? "todo" : "todos") there; nothing was stored (--relink allows it)",
                hint:
                    "Run the same command with --relink to do so (the sync state is forgotten as by 'todo sync forget'; no todo is deleted)."
            )
        case .refused(let current, let todos):
            // The users are named when they differ: that is what makes it another collection.
            let users = current.user != remote.user
            let name = chosen.name.map { "\"\(TodoText.sanitized($0))\" " } ?? ""
            throw .failure(
                "this would send \(todos == 1 ? "the 1 todo" : "all \(todos) todos") here to \(name)\(account(remote, user: users)) at the next sync, but this database syncs with \(account(current, user: users)); nothing was stored (--relink allows it)",
                hint:
                    "Run the same command with --relink to sync with it instead (the old link is forgotten as by 'todo sync forget'; the todos stay), or give --to a list that does not sync yet (it syncs with that collection beside the others)."
            )
        }
    }

    /// `todo sync setup URL` of an account: every collection found (or those `only` names, by
    /// display name as --name matches one), each linked to the list of its name (made where there
    /// is none; see ``AccountSync/list(for:in:)``), all or nothing. One linked already stays as
    /// it is. Without `only`, the account follows every collection: one that appears later is
    /// linked at the sync that finds it; with it, the others are known and left alone.
    static func linkAccount(
        _ found: [DiscoveredCollection], only: [String], remote: SyncRemote, context: inout CommandContext
    ) throws(CLIError) {
        guard !found.isEmpty else { throw .failure("no calendar collection that holds todos was found") }
        var chosen: [DiscoveredCollection] = []
        for name in only {
            let collection = try choose(among: found, name: name, url: remote.url, context: &context)
            if !chosen.contains(collection) { chosen.append(collection) }
        }
        if only.isEmpty { chosen = found }
        let repository = try context.openRepository()
        let state = SyncState(repository: repository)
        let relinking = context.arguments.flag("--relink")
        var lines: [String] = []
        // One transaction, not an undo step: undo would take back the lists made, not the links.
        let path = (try? context.databasePath()) ?? "the database"
        try repository.writeTransaction(mapError: { CLIError(TodoStoreError.sqlite($0), path: path) }) {
            () throws(CLIError) in
            for collection in chosen {
                var linked = remote
                linked.url = collection.url
                linked.followsAll = only.isEmpty
                let outcome = try context.perform { () throws(TodoStoreError) in
                    if let link = try state.links().first(where: { $0.url == collection.url }) {
                        linked.listID = link.list
                    } else {
                        linked.listID = try AccountSync.list(
                            for: HomeCollection(url: collection.url, name: collection.name), in: repository
                        ).id
                    }
                    return try state.link(linked, relinking: relinking)
                }
                if case .refused(let current, _) = outcome {
                    throw .failure(
                        "\(account(linked)) is not of the account this database syncs with (\(account(current))); nothing was stored (--relink allows it)"
                    )
                }
                let name = try context.perform { () throws(TodoStoreError) in
                    try repository.list(id: linked.listID)?.name
                }
                lines.append(
                    "  \(TodoText.sanitized(name ?? "#\(linked.listID)")): \(TodoText.sanitized(collection.url))")
            }
            try context.perform { () throws(TodoStoreError) in
                try state.setAccount(home: remote.home, followsAll: only.isEmpty)
                for other in found where !chosen.contains(other) { try state.addUnlinked(other.url) }
            }
        }
        let others = found.count - chosen.count
        let left =
            others == 0
            ? ""
            : "\(others) other \(others == 1 ? "collection is" : "collections are") left alone ("
                + found.filter { !chosen.contains($0) }.map { TodoText.sanitized($0.name ?? $0.url) }.joined(
                    separator: ", ") + ").\n"
        let follows =
            only.isEmpty && remote.home != nil ? "Collections made on the server later are synced too.\n" : ""
        context.out.write(
            "Set up sync of \(chosen.count) \(chosen.count == 1 ? "list" : "lists") as \(TodoText.sanitized(remote.user ?? "no user given")):\n"
                + lines.joined(separator: "\n") + "\n" + left + follows + "Run 'todo sync' to sync now.\n")
    }

    /// `URL as USER` (or the URL alone, or without `user`), sanitized: the collection a remote links.
    static func account(_ remote: SyncRemote, user: Bool = true) -> String {
        TodoText.sanitized(remote.url + (user ? remote.user.map { " as \($0)" } ?? " as no user given" : ""))
    }

    /// The setup command run now, for the collection `name`: its URL as given, and the options
    /// given that a setup needs again (user, password command, CA file, list), each word quoted
    /// for a POSIX shell where it needs it. Sanitized.
    static func commandLine(name: String?, context: CommandContext) -> String {
        let url = context.arguments.positionals.dropFirst().first ?? "URL"
        var words = ["todo", "sync", "setup", url]
        for option in ["--user", "--password-command", "--ca-file"] {
            if let value = context.arguments.value(option) { words += [option, value] }
        }
        if let name { words += ["--name", name] }
        if let list = context.arguments.value("--to") { words += ["--to", list] }
        return TodoText.sanitized(words.map(shellWord).joined(separator: " "))
    }

    /// `word` as one word of a POSIX shell command: as it is when it holds only characters no
    /// shell treats specially, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "-_./:@%+=,".utf8.contains(byte)
            }
        return plain
            ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `NAME  URL`, sanitized: one collection found by setup.
    static func line(_ collection: DiscoveredCollection) -> String {
        TodoText.sanitized((collection.name ?? "(no name)") + "  " + collection.url)
    }

    /// The collection to store: the only one found, or the one `name` picks (its display name
    /// exactly, else ignoring case). Several and no name: they are listed and nothing is stored.
    static func choose(
        among found: [DiscoveredCollection], name: String?, url: String,
        context: inout CommandContext
    ) throws(CLIError) -> DiscoveredCollection {
        let names = found.map { TodoText.sanitized($0.name ?? "(no name)") }.joined(separator: ", ")
        guard let name else {
            guard found.count > 1 else {
                guard let only = found.first else {
                    throw .failure("\(TodoText.sanitized(url)) leads to no calendar collection that holds todos")
                }
                return only
            }
            context.out.write(TodoText.sanitized(url) + " leads to \(found.count) collections that hold todos:\n")
            for collection in found { context.out.write("  " + line(collection) + "\n") }
            throw .failure(
                "several collections hold todos; nothing was stored",
                hint:
                    "Choose one with --name: \(commandLine(name: found.first?.name, context: context)) (or run setup with its URL); run setup again with another --name to sync that collection too."
            )
        }
        let exact = found.filter { $0.name == name }
        let matches = exact.isEmpty ? found.filter { $0.name?.lowercased() == name.lowercased() } : exact
        guard matches.count == 1 else {
            if matches.isEmpty {
                throw .failure(
                    "no collection that holds todos is named '\(TodoText.sanitized(name))'; nothing was stored",
                    hint: "The names found: \(names).")
            }
            throw .failure(
                "\(matches.count) collections are named '\(TodoText.sanitized(name))'; nothing was stored",
                hint: "Run 'todo sync setup' with the URL of one: "
                    + matches.map { TodoText.sanitized($0.url) }.joined(separator: ", "))
        }
        return matches[0]
    }

    /// `--ca-file`: a file that exists and can be read, as an absolute path (a sync may run
    /// from another folder).
    static func caFile(_ path: String) throws(CLIError) -> String {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(path, R_OK) == 0 else {
            throw .usage(
                "--ca-file '\(TodoText.sanitized(path))' is not a file that can be read",
                hint: "Give a PEM file of CA certificates.")
        }
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let folder = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: folder, as: UTF8.self) + "/" + path
    }

    static func sync(context: inout CommandContext) throws(CLIError) {
        let timeout = try SyncTimeout.fromEnvironment()
        // Started first: the companion loads libcurl and its libraries while this process opens
        // the database (an idle sync is mostly those two). Its errors count only once it is used.
        let companion = Result { () throws(SyncError) in try CompanionProcess() }
        let repository = try context.openRepository()
        let state = SyncState(repository: repository)
        guard let remote = try context.perform({ () throws(TodoStoreError) in try state.remote() }) else {
            throw notSetUp
        }
        let json = context.arguments.flag("--json")
        // What the sync did, kept as its work is committed: a sync that fails part-way still
        // tells of the conflicts it resolved before, with its error.
        var report = SyncReport()
        let outcome = Result { () throws(SyncError) in
            // The account's home, listed by the companion started first; each list with something
            // to do then gets a companion of its own, the first one reused, the others all started
            // at once so that they load their libraries side by side.
            let home = try remote.home.map { (url) throws(SyncError) in
                var account = remote
                account.url = url
                return try CompanionCollection(remote: account, timeout: timeout, started: try companion.get())
            }
            let account = AccountSync(
                repository: repository, home: home, forceDelete: context.arguments.flag("--force-delete")
            ) { (links) throws(SyncError) -> [any CalendarCollection] in
                let others = links.dropFirst().map { _ in Result { () throws(SyncError) in try CompanionProcess() } }
                var collections: [any CalendarCollection] = []
                for (index, link) in links.enumerated() {
                    var collectionRemote = remote
                    collectionRemote.url = link.url
                    collections.append(
                        try CompanionCollection(
                            remote: collectionRemote, timeout: timeout,
                            started: index == 0 ? try companion.get() : try others[index - 1].get()))
                }
                return collections
            }
            try account.sync(into: &report)
        }
        let links = try context.perform { () throws(TodoStoreError) in try state.links() }.filter { !$0.gone }
        // With several lists syncing, each change names its todo's list (a removed todo's is gone).
        var listOf: [Int64: String]?
        if links.count > 1 {
            listOf = [:]
            let names = try context.perform { () throws(TodoStoreError) in try JSON.listNames(repository) }
            for change in report.changes {
                let list = try context.perform { () throws(TodoStoreError) in
                    try repository.todo(id: change.todoID)?.listID
                }
                listOf?[change.todoID] = list.flatMap { names[$0] }
            }
        }
        for warning in accountWarnings(report.account) + warnings(report) {
            context.err.writeWarning(warning)
        }
        for note in accountNotes(report.account, remote: remote) + notes(report) {
            context.err.writeNote(note)
        }
        // Each todo (and list) changed, for a person: on a terminal, or when asked for in a pipe
        // (where the output stays the counts and conflicts scripts read).
        let listsChanges = context.out.isTerminal || context.arguments.flag("--changes")
        let conflictLines = accountConflictLines(report.account) + report.conflicts.map(line)
        let conflictsJSON = (accountConflictsJSON(report.account) + [conflictsJSON(report)]).filter { !$0.isEmpty }
            .joined(separator: ", ")
        func writeChanges() {
            guard listsChanges else { return }
            for line in accountLines(report.account, style: context.style) { context.out.write(line) }
            for change in changes(report) {
                context.out.write(line(change, style: context.style, list: listOf?[change.todoID]))
            }
        }
        if case .failure(let error) = outcome {
            if !json {
                writeChanges()
                for conflict in conflictLines { context.out.write(conflict + "\n") }
            }
            let conflicts = conflictsJSON.isEmpty ? "" : ", \"conflicts\": [\(conflictsJSON)]"
            let changeList = report.changes.isEmpty ? "" : ", \"changes\": [\(changesJSON(report, lists: listOf))]"
            let lists = report.account.isEmpty ? "" : ", " + accountJSON(report.account, remote: remote)
            let applied = report.received + report.deleted > 0
            try syncing(context, json: json, jsonTail: conflicts + changeList + lists, applied: applied) {
                () throws(SyncError) in
                throw error
            }
        }
        if json {
            context.out.write(
                "{\"sent\": \(report.sent), \"received\": \(report.received), \"deleted\": \(report.deleted), \"conflicts\": [\(conflictsJSON)], \"changes\": [\(changesJSON(report, lists: listOf))], \"moved\": \(report.movedHere), \(accountJSON(report.account, remote: remote))}\n"
            )
            return
        }
        context.out.write(
            "sent \(report.sent), received \(report.received), deleted \(report.deleted), conflicts \(conflictLines.count)\n"
        )
        writeChanges()
        for conflict in conflictLines {
            context.out.write(conflict + "\n")
        }
    }

    /// `✓ 4  Pay rent  (from the server)`: a todo the sync changed here or sent, marked as `todo
    /// watch` marks a change (its mark coloured where colour is on, the side dimmed), sanitized.
    static func line(_ change: SyncReport.Change, style: TextStyle, list: String? = nil) -> String {
        let mark: String
        let color: TextStyle.Color?
        switch change.kind {
        case .added: (mark, color) = ("+", .green)
        case .removed: (mark, color) = ("-", .red)
        case .changed: (mark, color) = ("~", nil)
        case .done: (mark, color) = ("✓", .green)
        case .undone: (mark, color) = ("○", .yellow)
        }
        let side =
            change.received && change.sent
            ? "(from the server, and sent)" : change.received ? "(from the server)" : "(sent)"
        let summary = TodoText.summary(
            color.map { style.paint(mark, $0) } ?? mark, id: change.todoID, name: change.name)
        let inList = list.map { "  in " + TodoText.sanitized($0) } ?? ""
        return summary.dropLast() + inList + "  " + style.paint(side, .dim) + "\n"
    }

    /// The todos `report` says the sync changed or sent, by id, as a list shows them.
    static func changes(_ report: SyncReport) -> [SyncReport.Change] {
        report.changes.sorted { $0.todoID < $1.todoID }
    }

    /// The changes of `report` as JSON objects, by id, separated by commas: `{"id": 4, "name":
    /// "Pay rent", "change": "done", "received": true, "sent": false}`.
    /// With `lists` (several lists sync), each object names its todo's list after the other keys.
    static func changesJSON(_ report: SyncReport, lists: [Int64: String]? = nil) -> String {
        changes(report).map { change in
            "{\"id\": \(change.todoID), \"name\": \(JSON.string(change.name)), \"change\": \"\(change.kind.rawValue)\", \"received\": \(change.received), \"sent\": \(change.sent)"
                + (lists.map { ", \"list\": " + JSON.optional($0[change.todoID]) } ?? "") + "}"
        }.joined(separator: ", ")
    }

    static func status(context: inout CommandContext) throws(CLIError) {
        let repository = try context.openRepository()
        let state = SyncState(repository: repository)
        let (remote, progress, pending) = try context.perform { () throws(TodoStoreError) in
            (try state.remote(), try state.progress(), try state.pendingCount())
        }
        guard let remote else { throw notSetUp }
        // The remote's own list first (the top-level keys and lines are its), then every other
        // list that syncs with a collection of the account.
        let (names, others) = try context.perform { () throws(TodoStoreError) in
            let names = try JSON.listNames(repository)
            let others = try state.links().filter { $0.list != remote.listID }.map {
                (link) throws(TodoStoreError) in
                let linkState = SyncState(repository: repository, list: link.list)
                return (link: link, progress: try linkState.progress(), pending: try linkState.pendingCount())
            }
            return (names, others)
        }
        func name(_ list: Int64) -> String { names[list] ?? "#\(list)" }
        let gone = try context.perform { () throws(TodoStoreError) in
            try state.links().first { $0.list == remote.listID }?.gone ?? false
        }
        if context.arguments.flag("--json") {
            let lists = others.map {
                "{\"list\": \(JSON.string(name($0.link.list))), \"url\": \(JSON.string($0.link.url)), \"last_sync\": \(JSON.optional($0.progress.lastSync)), \"pending\": \($0.pending), \"gone\": \($0.link.gone)}"
            }
            context.out.write(
                "{\"url\": \(JSON.string(remote.url)), \"user\": \(JSON.optional(remote.user)), \"ca_file\": \(JSON.optional(remote.caFile)), \"last_sync\": \(JSON.optional(progress.lastSync)), \"pending\": \(pending), \"list\": \(JSON.string(name(remote.listID))), \"gone\": \(gone), \"home\": \(JSON.optional(remote.home)), \"follows_all\": \(remote.followsAll), \"other_lists\": [\(lists.joined(separator: ", "))]}\n"
            )
            return
        }
        let goneWords = "its collection is gone from the server: not synced"
        let follows =
            remote.home == nil
            ? "unknown (set up before todo remembered it: run setup again to follow the account)"
            : TodoText.sanitized(remote.home ?? "")
                + (remote.followsAll ? ", new collections synced too" : ", new collections mentioned")
        context.out.write(
            """
            url:        \(TodoText.sanitized(remote.url))\(gone ? " (\(goneWords))" : "")
            list:       \(TodoText.sanitized(name(remote.listID)))
            user:       \(remote.user.map(TodoText.sanitized) ?? Self.noUser)
            ca file:    \(TodoText.sanitized(remote.caFile ?? "the system's"))
            account:    \(follows)
            last sync:  \(TodoText.sanitized(progress.lastSync ?? "never"))
            pending:    \(pending) local \(pending == 1 ? "change" : "changes") to send

            """)
        for other in others {
            let state =
                other.link.gone
                ? goneWords
                : "last sync \(TodoText.sanitized(other.progress.lastSync ?? "never")), \(other.pending) pending"
            context.out.write(
                "also:       \(TodoText.sanitized(name(other.link.list))) with \(TodoText.sanitized(other.link.url)), \(state)\n"
            )
        }
    }

    /// The status line's user when none was given at setup nor in the URL: todo-sync takes the
    /// login of ~/.netrc's entry for the host (todo itself never reads the file, so cannot say
    /// whether there is one).
    static let noUser = "none given (todo-sync uses the login of ~/.netrc's entry for the host, if any)"

    static func forget(context: inout CommandContext) throws(CLIError) {
        let repository = try context.openRepository()
        let state = SyncState(repository: repository)
        guard let remote = try context.perform({ () throws(TodoStoreError) in try state.remote() }) else {
            throw notSetUp
        }
        // One list: its link only; the others sync on.
        if let name = context.arguments.positionals.dropFirst().first {
            let list = try context.list(named: name, in: repository)
            guard let url = try context.perform({ () throws(TodoStoreError) in try state.forgetLink(list: list.id) })
            else {
                throw .failure(
                    "the list '\(TodoText.sanitized(list.name))' does not sync",
                    hint: "'todo lists' shows which lists do.")
            }
            context.out.write(
                "Forgot \(TodoText.sanitized(url)) for the list '\(TodoText.sanitized(list.name))'; its todos stay here and keep their UIDs.\n"
            )
            return
        }
        try context.perform { () throws(TodoStoreError) in try state.forget() }
        context.out.write("Forgot \(TodoText.sanitized(remote.url)); the todos stay here and keep their UIDs.\n")
    }

    static let notSetUp = CLIError.failure(
        "no sync remote is set up for this database", hint: "Run 'todo sync setup URL' first.")

    /// One line per object the sync could not take as the server should have sent it (an
    /// object read alone that then turned out unreadable is named once, as unreadable).
    static func warnings(_ report: SyncReport) -> [String] {
        let unreadable = Set(report.unreadable)
        let cutShort =
            report.listingCutShort
            ? ["the server's listing was cut short (it said 507); the rest comes at the next sync"] : []
        return cutShort + report.unreadable.map { "\($0) on the server is not a readable todo; it was left as it is" }
            + report.notDelivered.map {
                "the server did not send \($0), which it listed as changed; it is asked for again next sync"
            }
            + report.readAlone.filter { !unreadable.contains($0) }.map {
                "the server's answer for \($0) could not be read as XML (invalid, or too large); it was read alone"
            }
            + report.parentLoops.map {
                "todo \($0.todoID) \"\(TodoText.sanitized($0.name))\" is a subtask on the server of a todo that is under it here; it stays at the top level"
            }
            + report.dependencyLoops.map {
                "todo \($0.todoID) \"\(TodoText.sanitized($0.name))\" waits on the server for todos that wait for it here; it keeps the links it has here"
            }
            + report.keptRepeating.map {
                "todo \($0.todoID) \"\(TodoText.sanitized($0.name))\" repeats and was marked done as a whole here, outside 'todo done'; that would end the series on every device, so it is not done again ('todo done \($0.todoID)' finishes one occurrence, 'todo done \($0.todoID) --series' ends the series)"
            }
    }

    /// One line per thing another app did to a repeating series that the user may want to act on.
    static func notes(_ report: SyncReport) -> [String] {
        report.seriesEndedElsewhere.map { ended in
            let name = "\"\(TodoText.sanitized(ended.todo.name))\""
            let resume = ended.next.map { " on \($0)" } ?? ""
            return
                "\(name) repeats \(TodoText.sanitized(ended.rule)), but another app marked the series done; 'todo undone \(ended.todo.todoID) --next' continues it\(resume)"
        }
            + report.seriesMoved.map {
                "the repeat of \"\(TodoText.sanitized($0.continued.name))\" moved to a new todo (another app): todo \($0.ended.todoID) is done and repeats no more, todo \($0.continued.todoID) goes on"
            }
            + report.givenOverrides.map {
                "another app marked single occurrences of \"\(TodoText.sanitized($0.name))\" (todo \($0.todoID)) in their own components; Tasks.org stops syncing a list that holds such an object"
            }
    }

    /// The conflicts of `report` as JSON objects, separated by commas.
    static func conflictsJSON(_ report: SyncReport) -> String {
        report.conflicts.map { conflict in
            var object: String
            switch conflict.subject {
            case .field(let field):
                object =
                    "{\"id\": \(conflict.todoID), \"field\": \"\(field)\", \"kept\": \(JSON.value(conflict.kept)), \"replaced\": \(JSON.value(conflict.replaced))"
            case .deleted:
                object =
                    "{\"id\": \(conflict.todoID), \"field\": \"deleted\", \"kept\": \"edit\", \"replaced\": \"delete\""
            }
            if let previousID = conflict.previousID { object += ", \"previous_id\": \(previousID)" }
            if let name = conflict.name { object += ", \"name\": \(JSON.string(name))" }
            return object + "}"
        }.joined(separator: ", ")
    }

    /// `conflict: todo 4 name: kept "Buy oat milk", replaced "Buy soy milk"`.
    static func line(_ conflict: SyncConflict) -> String {
        guard case .field(let field) = conflict.subject else {
            let name = conflict.name.map { " \"\(TodoText.sanitized($0))\"" } ?? ""
            if conflict.deletedHere, let previousID = conflict.previousID {
                let back = previousID == conflict.todoID ? "and the todo is back" : "as todo \(conflict.todoID)"
                return
                    "conflict: todo \(previousID)\(name) was deleted here and edited on the server; the edit was kept, \(back)"
            }
            return
                "conflict: todo \(conflict.todoID)\(name) was edited here and deleted on the server; the edit was kept"
        }
        return
            "conflict: todo \(conflict.todoID) \(field): kept \(TodoText.value(conflict.kept)), replaced \(TodoText.value(conflict.replaced))"
    }

    /// Runs a sync step, turning its errors into one `error:` line (and, with `json`, one
    /// `{"error": {"kind": ..., "message": ...}}` object on stdout, `jsonTail` after its error).
    /// `applied`: the server's changes were applied here before the error.
    private static func syncing<Result>(
        _ context: CommandContext? = nil, json: Bool = false,
        hint: String? = nil, jsonTail: String = "", applied: Bool = false,
        _ body: () throws(SyncError) -> Result
    ) throws(CLIError) -> Result {
        do {
            return try body()
        } catch {
            let failure: CLIError
            switch error {
            case .store(let storeError):
                failure = CLIError(storeError, path: (try? context?.databasePath()) ?? "the database")
            case .notConfigured: failure = notSetUp
            default: failure = .failure(error.description, hint: hint ?? Self.hint(for: error, applied: applied))
            }
            if json, let context {
                context.out.write(
                    "{\"error\": {\"kind\": \"\(error.kind)\", \"message\": \(JSON.string(failure.message))}\(jsonTail)}\n"
                )
            }
            throw failure
        }
    }

    /// What the user can do about a failed sync, or what is true of their data (`applied`: the
    /// server's changes were applied here before the error).
    private static func hint(for error: SyncError, applied: Bool = false) -> String {
        switch error {
        case .serverEmpty:
            "If the todos were deleted there on purpose, 'todo sync --force-delete' deletes them here too; if the collection was emptied or recreated, 'todo sync setup URL' sends them to it again."
        case .collectionNotFound:
            // Gone from the server (deleted, or moved without a redirect): nothing is deleted here
            // for it, and syncing again will not bring it back.
            "The todos here are kept. If the collection was deleted on purpose, 'todo sync forget' stops syncing (the todos stay); 'todo sync setup URL --relink' sends them to another collection."
        case .badResponse, .companion:
            applied
                ? "What the server sent before was applied here; the next 'todo sync' completes the work."
                : "Nothing here was changed by what the server sent; the next 'todo sync' tries again."
        default:
            "Nothing was lost: the next 'todo sync' completes the work."
        }
    }
}
