import SyncProtocol
import TodoStore
import TodoSync

/// How `todo sync` words what it did to the account's lists (``AccountReport``): collections that
/// appeared, were renamed, recoloured or are gone. Everything from the server is sanitized here
/// or by the writer of the line (``Diagnostics``), and JSON escapes it.
extension SyncRun {
    /// One `warning:` line per list whose collection is gone: its todos are kept, and what the
    /// user can do.
    static func accountWarnings(_ account: AccountReport) -> [String] {
        account.gone.map { gone in
            let name = TodoText.sanitized(gone.name)
            let word = shellWord(gone.name)
            let todos = gone.todos == 1 ? "its todo stays" : "its \(gone.todos) todos stay"
            return
                "the collection of the list '\(name)' is gone from the server; \(todos) here, no longer synced ('todo lists rm \(word)' removes the list; 'todo sync setup URL --to \(word)' links it to another collection)"
        }
            + account.refused.map {
                "the server did not take the \($0.field.rawValue) \"\(TodoText.sanitized($0.value))\" of the list '\(TodoText.sanitized($0.name))'; it is kept here only"
            }
            + account.notMade.map {
                "the server made \(TodoText.sanitized($0.url)) for the list '\(TodoText.sanitized($0.name))' as no calendar for todos; the list stays on this device"
            }
    }

    /// One `note:` line per collection that appeared and was not linked (said once, with the
    /// command that links it), and per list whose collection is back.
    static func accountNotes(_ account: AccountReport, remote: SyncRemote) -> [String] {
        account.found.map { found in
            let name = found.name.map { "'\(TodoText.sanitized($0))' " } ?? ""
            return
                "the server has a new collection \(name)(\(TodoText.sanitized(found.url))), not synced here; '\(setupCommand(found.url, remote: remote))' syncs it as a list of its name"
        }
            + account.back.map {
                "the collection of the list '\(TodoText.sanitized($0.name))' is on the server again; the list syncs again"
            }
    }

    /// `todo sync setup URL --user USER ...`: the command that links the collection at `url` to
    /// the account of `remote` (its user, password command and CA file), each word quoted for a
    /// POSIX shell where it needs it. Sanitized.
    static func setupCommand(_ url: String, remote: SyncRemote) -> String {
        var words = ["todo", "sync", "setup", url]
        if let user = remote.user { words += ["--user", user] }
        if let command = remote.passwordCommand { words += ["--password-command", command] }
        if let file = remote.caFile { words += ["--ca-file", file] }
        return TodoText.sanitized(words.map(shellWord).joined(separator: " "))
    }

    /// The lines after the counts, beside each todo's: each list the sync linked, renamed or
    /// recoloured after the server (`+ list Shared  (from the server)`), and each it gave a
    /// collection or whose new name or colour it sent (`~ list Errands: #112233  (sent)`), as
    /// `todo lists` words its own changes.
    static func accountLines(_ account: AccountReport, style: TextStyle) -> [String] {
        let side = "  " + style.paint("(from the server)", .dim) + "\n"
        let sent = "  " + style.paint("(sent)", .dim) + "\n"
        return account.linked.map { style.paint("+", .green) + " list " + TodoText.sanitized($0.name) + side }
            + account.made.map { style.paint("+", .green) + " list " + TodoText.sanitized($0.name) + sent }
            + account.renamed.map {
                "~ list \(TodoText.sanitized($0.from)) → \(TodoText.sanitized($0.to))" + side
            }
            + account.recolored.map { "~ list \(TodoText.sanitized($0.name)): \($0.to ?? "no colour")" + side }
            + account.sent.flatMap { change in
                (change.newName.map { ["~ list " + TodoText.sanitized($0) + sent] } ?? [])
                    + (change.color.map { ["~ list \(TodoText.sanitized(change.name)): \($0)" + sent] } ?? [])
            }
    }

    /// `conflict: list 'Office' name: kept "Office", replaced "Job"`, one per list conflict.
    static func accountConflictLines(_ account: AccountReport) -> [String] {
        account.conflicts.map {
            "conflict: list '\(TodoText.sanitized($0.name))' \($0.field.rawValue): kept \(quoted($0.kept)), replaced \(quoted($0.replaced))"
        }
    }

    private static func quoted(_ value: String?) -> String {
        value.map { "\"\(TodoText.sanitized($0))\"" } ?? "none"
    }

    /// The list conflicts as JSON objects of the `"conflicts"` array: `{"list": "Office",
    /// "field": "name", "kept": "Office", "replaced": "Job"}` (no `"id"`: no todo).
    static func accountConflictsJSON(_ account: AccountReport) -> [String] {
        account.conflicts.map {
            "{\"list\": \(JSON.string($0.name)), \"field\": \"\($0.field.rawValue)\", \"kept\": \(JSON.optional($0.kept)), \"replaced\": \(JSON.optional($0.replaced))}"
        }
    }

    /// `"lists": {...}`: what the sync did to the account's lists, each kind an array.
    static func accountJSON(_ account: AccountReport, remote: SyncRemote) -> String {
        func link(_ link: AccountReport.Link) -> String {
            "{\"list\": \(JSON.string(link.name)), \"url\": \(JSON.string(link.url))}"
        }
        let found = account.found.map {
            "{\"name\": \(JSON.optional($0.name)), \"url\": \(JSON.string($0.url)), \"command\": \(JSON.string(setupCommand($0.url, remote: remote)))}"
        }
        let gone = account.gone.map {
            "{\"list\": \(JSON.string($0.name)), \"url\": \(JSON.string($0.url)), \"todos\": \($0.todos)}"
        }
        let renamed = account.renamed.map {
            "{\"list\": \(JSON.string($0.to)), \"from\": \(JSON.string($0.from)), \"to\": \(JSON.string($0.to))}"
        }
        let recolored = account.recolored.map {
            "{\"list\": \(JSON.string($0.name)), \"from\": \(JSON.optional($0.from)), \"to\": \(JSON.optional($0.to))}"
        }
        let sent = account.sent.map {
            "{\"list\": \(JSON.string($0.name)), \"name\": \(JSON.optional($0.newName)), \"color\": \(JSON.optional($0.color))}"
        }
        let refused = account.refused.map {
            "{\"list\": \(JSON.string($0.name)), \"field\": \"\($0.field.rawValue)\", \"value\": \(JSON.string($0.value))}"
        }
        func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
        return
            "\"lists\": {\"linked\": \(array(account.linked.map(link))), \"found\": \(array(found)), \"gone\": \(array(gone)), \"back\": \(array(account.back.map(link))), \"renamed\": \(array(renamed)), \"recolored\": \(array(recolored)), \"made\": \(array(account.made.map(link))), \"not_made\": \(array(account.notMade.map(link))), \"sent\": \(array(sent)), \"refused\": \(array(refused))}"
    }

    /// Deletes the collection of `link` on the server with everything in it (`todo lists rm
    /// --delete-remote`), through a companion opened on the account: `.absent` when nothing was
    /// there. Its errors are one `error:` line that says nothing was changed here.
    static func deleteCollection(_ link: SyncLink, repository: TodoRepository, context: inout CommandContext)
        throws(CLIError) -> DeleteCollectionAnswer.Outcome
    {
        let timeout = try SyncTimeout.fromEnvironment()
        guard
            var remote = try context.perform({ () throws(TodoStoreError) in
                try SyncState(repository: repository).remote()
            })
        else { throw notSetUp }
        remote.url = link.url
        do {
            return try CompanionCollection(remote: remote, timeout: timeout).deleteCollection(url: link.url)
        } catch {
            throw .failure(
                error.description, hint: "Nothing was changed: the list and its collection are as they were.")
        }
    }
}
